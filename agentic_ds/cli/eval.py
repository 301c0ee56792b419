"""`agentic-ds eval MANIFEST.jsonl`: run every task of a manifest, grade each final answer, summarize.

The manifest, the flags, the configuration and the models are checked before anything is created; then each
task runs as its own `agentic-ds run` in `<workdir>/eval-<timestamp>/runs/`, at most `--parallel` at once, and
results.jsonl, summary.json and summary.md are written next to them (results.jsonl again after every task,
so an interrupted eval keeps what finished). The last line printed is always the one-line summary.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def default_parallel() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:           # not every platform has affinity
        return max(1, os.cpu_count() or 1)


@click.command("eval", context_settings=CONTEXT_SETTINGS)
@click.argument("manifest", metavar="MANIFEST.jsonl", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--mode", type=click.Choice(["orchestrated", "simple"]), default="simple", show_default=True,
              help="The mode every task runs in.")
@click.option("--model", "-m", "models", multiple=True, metavar="MODEL|ROLE=MODEL", help="As for `run`.")
@click.option("--parallel", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Tasks run at once (default: the number of cores; on a Ray cluster, its CPUs).")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where tasks run: processes on this machine, or Ray tasks (needs agentic-ds[ray]).")
@click.option("--address", metavar="ADDR",
              help="With --executor ray: the Ray cluster to join (HOST:6379, or auto); default: a local Ray.")
@click.option("--workdir", metavar="ROOT", help="Where the eval directory is created (default: workdirs/).")
@click.option("--config", metavar="FILE", help="As for `run`.")
@click.option("--sandbox", type=click.Choice(["auto", "require", "off"]), help="As for `run`.")
@click.option("--max-cost", type=click.FloatRange(min=0, min_open=True), metavar="USD", help="Per task, as for `run`.")
@click.option("--max-llm-calls", type=click.IntRange(min=1), metavar="N", help="Per task, as for `run`.")
@click.option("--max-tokens", type=click.IntRange(min=1), metavar="N", help="Per task, as for `run`.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=1), metavar="SECONDS",
              help="Stop a task's run after this long (it is graded wrong and counted as an error).")
def eval_command(manifest: Path, mode: str, models: tuple[str, ...], parallel: int | None, executor: str,
                 address: str | None, workdir: str | None, config: str | None, sandbox: str | None,
                 max_cost: float | None, max_llm_calls: int | None, max_tokens: int | None,
                 timeout_s: float | None) -> int:
    """Run every task of MANIFEST.jsonl and grade its final answer.

    Each line of the manifest is {"id", "task", "files": [...], "answer": {...} or null, "checker":
    "exact" | "numeric" | "contains" | "none"}, files relative to the manifest. Results go to
    ROOT/eval-<timestamp>/: results.jsonl (one line per task), summary.md and summary.json (accuracy by
    checker, status counts, accuracy by confidence, wall time, tokens, cost) and runs/ (every run directory).
    The last line is "eval: n=N correct=C accuracy=A errors=E median_wall_s=W".

    With --executor ray each task is a Ray task on a local Ray started for the command, or on the cluster at
    --address; a task whose worker dies is tried once more. Run directories come back to ROOT (unpacked, when the
    worker does not share this machine's files).

    \b
    Exit codes: 0 every task ran; 1 some task could not run (crash, timeout); 2 bad manifest, flag or
    configuration; 130 interrupted (143 SIGTERM, 129 SIGHUP).

    \b
    Examples:
      agentic-ds eval examples/eval/manifest.jsonl --model offline
      agentic-ds eval tasks.jsonl --mode orchestrated -m openai/gpt-4.1 --parallel 4 --max-cost 0.5
      agentic-ds eval tasks.jsonl -m openai/gpt-4.1 --executor ray --address 10.0.0.5:6379 --workdir /shared/evals
    """
    from agentic_ds.errors import UsageError
    from agentic_ds.evaluation.command import run_eval
    from agentic_ds.evaluation.runner import EvalOptions

    if address is not None and executor != "ray":
        raise UsageError("--address is the Ray cluster to run on: it needs --executor ray",
                         hint="add --executor ray, or leave out --address")
    options = EvalOptions(mode=mode, models=models, config=config, sandbox=sandbox, max_cost=max_cost,
                          max_llm_calls=max_llm_calls, max_tokens=max_tokens,
                          parallel=parallel or (default_parallel() if executor == "local" else None),
                          timeout_s=timeout_s, executor=executor, address=address)
    return run_eval(manifest, options, workdir)


def register(group: click.Group) -> None:
    group.add_command(eval_command)

