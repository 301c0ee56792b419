"""The eval command's work: check everything first, create the eval directory, run, grade, summarize."""

from __future__ import annotations

import asyncio
import shutil
import signal
import time
from datetime import datetime
from pathlib import Path

import click

from agentic_ds.errors import EXIT_FAILED, EXIT_OK
from agentic_ds.evaluation.executor import Executor, open_executor
from agentic_ds.evaluation.manifest import Manifest, load_manifest
from agentic_ds.evaluation.progress import make_progress
from agentic_ds.evaluation.runner import EvalOptions, EvalRun, Progress, TaskResult
from agentic_ds.evaluation.summary import summarize, write_results, write_summary
from agentic_ds.runs.stop_signals import StopSignals


def run_eval(manifest_path: Path, options: EvalOptions, workdir: str | None) -> int:
    manifest = load_manifest(manifest_path)
    root = _check_run_flags(options, workdir)
    executor = open_executor(options.executor, options.parallel, options.address)   # Ray started or joined here
    try:
        # SIGTERM and SIGHUP stop the eval as Ctrl-C does (set after Ray, which sets its own): tasks are stopped,
        # what finished is written, and the executor is closed (a local Ray with everything it started).
        with StopSignals().raising():
            return _run(manifest_path, manifest, options, executor, _new_eval_dir(root))
    finally:
        executor.close()


def _run(manifest_path: Path, manifest: Manifest, options: EvalOptions, executor: Executor, eval_dir: Path) -> int:
    shutil.copy2(manifest_path, eval_dir / "manifest.jsonl")
    progress = make_progress(len(manifest.tasks))
    results: dict[str, TaskResult] = {}

    def on_progress(update: Progress) -> None:
        progress.update(update)
        if update.state == "done" and update.result is not None:
            results[update.id] = update.result
            write_results(eval_dir, _ordered(manifest, results))   # what finished is on disk at once

    run = EvalRun(manifest=manifest, options=options, eval_dir=eval_dir, executor=executor, on_progress=on_progress)
    progress.start(eval_dir, executor.label)
    started = time.perf_counter()
    interrupted: int | None = None
    try:
        asyncio.run(run.run_all())
    except KeyboardInterrupt as exc:
        interrupted = 128 + int(getattr(exc, "signum", signal.SIGINT))
    finally:
        progress.stop()
    finished = _ordered(manifest, results)
    if interrupted is not None:
        finished += [TaskResult(id=t.id, checker=t.checker, status="not run", error="the eval was interrupted")
                     for t in manifest.tasks if t.id not in results]
    summary = summarize(finished, time.perf_counter() - started)
    write_results(eval_dir, finished)
    write_summary(eval_dir, manifest_path, options, finished, summary, interrupted=interrupted is not None,
                  runs_on=executor.label)
    click.echo(f"results: {eval_dir / 'results.jsonl'}")
    click.echo(f"summary: {eval_dir / 'summary.md'}")
    click.echo(summary.line())
    if interrupted is not None:
        return interrupted
    return EXIT_FAILED if summary.errors else EXIT_OK


def _ordered(manifest: Manifest, results: dict[str, TaskResult]) -> list[TaskResult]:
    return [results[t.id] for t in manifest.tasks if t.id in results]


def _check_run_flags(options: EvalOptions, workdir: str | None) -> Path:
    """What `run` checks before it creates anything (config, models, credentials, sandbox), once for every task;
    the workdir the eval goes in."""
    from agentic_ds.cli.run import RunOptions, check_bundled, check_sandbox, settings_overrides
    from agentic_ds.config.models import parse_model_flags, resolve_models
    from agentic_ds.config.settings import load_settings

    flags = RunOptions(task="eval", mode=options.mode, files=(), workdir=workdir, models=options.models,  # type: ignore[arg-type]
                       config=options.config, sandbox=options.sandbox, max_cost=options.max_cost,
                       max_llm_calls=options.max_llm_calls, max_tokens=options.max_tokens)
    settings = load_settings(Path(options.config) if options.config else None,
                             settings_overrides(flags, parse_model_flags(options.models)))
    models = resolve_models(settings)
    check_sandbox(settings.sandbox.mode, models.choices["coder"])
    check_bundled()
    return Path(settings.workdir)


def _new_eval_dir(root: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    for attempt in range(1000):
        candidate = root / (f"eval-{stamp}" if attempt == 0 else f"eval-{stamp}-{attempt}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate
    raise RuntimeError(f"no free eval directory name under {root}")
