"""Running a manifest: each task is an `agentic-ds run --json` of its own, at most `parallel` at once.

A child process per task keeps runs apart (a crash, a hung kernel or a leak stays in its process) and uses every
core. The task goes in on stdin, so any text (a leading `-`, a megabyte) is passed as it is; progress is read
from the child's JSON lines; the result is read from the run's own run.json and graded there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds.evaluation.grading import grade
from agentic_ds.evaluation.manifest import EvalTask, Manifest
from agentic_ds.runs import safe_files

STDERR_TAIL_LINES = 20
INTERRUPT_GRACE_S = 20.0
USAGE_EXIT = 2


@dataclass
class EvalOptions:
    """What applies to every task: the `run` flags, and how many run at once."""

    mode: str = "simple"
    models: tuple[str, ...] = ()
    config: str | None = None
    sandbox: str | None = None
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    parallel: int = 1
    timeout_s: float | None = None

    def run_flags(self, runs_dir: Path) -> list[str]:
        flags = ["--mode", self.mode, "--json", "--workdir", str(runs_dir)]
        for model in self.models:
            flags += ["--model", model]
        for name, value in (("--config", self.config), ("--sandbox", self.sandbox), ("--max-cost", self.max_cost),
                            ("--max-llm-calls", self.max_llm_calls), ("--max-tokens", self.max_tokens)):
            if value is not None:
                flags += [name, str(value)]
        return flags


@dataclass
class TaskResult:
    """One line of results.jsonl."""

    id: str
    checker: str
    correct: bool | None = None
    grade: str = ""
    status: str = "not run"
    reason: str = ""
    exit_code: int | None = None
    wall_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    llm_calls: int = 0
    cost_usd: float | None = None
    confidence: str | None = None
    asks_answered: int = 0
    asks: int = 0
    answer: str = ""
    run_dir: str | None = None
    error: str = ""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Progress:
    """What a task is doing, for the live display."""

    id: str
    state: str = "queued"          # queued | running | done
    agent: str = ""
    started: float | None = None
    result: TaskResult | None = None


Listener = Callable[[Progress], None]


@dataclass
class EvalRun:
    manifest: Manifest
    options: EvalOptions
    eval_dir: Path
    on_progress: Listener = field(default=lambda progress: None)

    @property
    def runs_dir(self) -> Path:
        return self.eval_dir / "runs"

    async def run_all(self) -> list[TaskResult]:
        """Every task's result, in manifest order (each graded as soon as its run ends)."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        limit = asyncio.Semaphore(max(1, self.options.parallel))
        progress = {task.id: Progress(task.id) for task in self.manifest.tasks}

        async def one(task: EvalTask) -> TaskResult:
            async with limit:
                return await self.run_task(task, progress[task.id])

        return list(await asyncio.gather(*(one(task) for task in self.manifest.tasks)))

    async def run_task(self, task: EvalTask, progress: Progress) -> TaskResult:
        progress.state, progress.started = "running", time.monotonic()
        self.on_progress(progress)
        result = TaskResult(id=task.id, checker=task.checker)
        started = time.perf_counter()
        try:
            await self._child(task, result, progress)
        finally:
            result.wall_s = round(time.perf_counter() - started, 2)
            self._read_record(result, task)
            progress.state, progress.result = "done", result
            self.on_progress(progress)
        return result

    async def _child(self, task: EvalTask, result: TaskResult, progress: Progress) -> None:
        files = [str(p.resolve()) for p in self.manifest.input_paths(task)]
        argv = [sys.executable, "-m", "agentic_ds", "run", *self.options.run_flags(self.runs_dir)]
        for path in files:
            argv += ["--files", path]
        argv += ["--", "-"]                       # the task comes on stdin, whatever it holds
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True,               # Ctrl-C reaches the eval; the eval stops its children itself
        )
        stderr: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        try:
            assert process.stdin is not None
            process.stdin.write(task.task.encode("utf-8"))
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                await process.stdin.drain()
            process.stdin.close()
            talk = asyncio.gather(self._read_events(process, result, progress), _tail(process.stderr, stderr),
                                  process.wait())
            await asyncio.wait_for(talk, timeout=self.options.timeout_s)
        except TimeoutError:
            await _stop(process)
            result.error = f"timed out after {self.options.timeout_s:g} s"
        except asyncio.CancelledError:
            await _stop(process)
            raise
        result.exit_code = process.returncode
        if result.status == "not run" and not result.error:
            last = " | ".join(line.strip() for line in stderr if line.strip())[-600:]
            result.error = f"the run ended without a result (exit code {process.returncode}): {last or 'no output'}"
        elif process.returncode == USAGE_EXIT and not result.error:
            result.error = " | ".join(line.strip() for line in stderr if line.strip())[-600:] or "usage error"

    async def _read_events(self, process: asyncio.subprocess.Process, result: TaskResult, progress: Progress) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            kind = event.get("kind")
            if kind == "run_started":
                result.run_dir = str(event.get("run_dir") or "") or None
            elif kind == "run_finished":
                result.status, result.reason = str(event.get("status") or "unknown"), str(event.get("reason") or "")
                result.run_dir = str(event.get("run_dir") or "") or result.run_dir
            elif event.get("author") and event.get("author") != progress.agent:
                progress.agent = str(event["author"])
                self.on_progress(progress)

    def _read_record(self, result: TaskResult, task: EvalTask) -> None:
        """Tokens, cost, status and the final answer from the run's run.json; the answer graded."""
        record = self._record(result.run_dir) if result.run_dir else {}
        if record:
            tokens = record.get("tokens") or {}
            result.input_tokens = int(tokens.get("input") or 0)
            result.output_tokens = int(tokens.get("output") or 0)
            result.llm_calls = int(tokens.get("llm_calls") or 0)
            result.cost_usd = (record.get("cost") or {}).get("total_usd")
            result.status = str(record.get("status") or result.status)
            result.reason = str(record.get("reason") or result.reason)
        final = record.get("final_answer") if record else None
        final = final if isinstance(final, dict) else None
        if final:
            asks = [a for a in final.get("asks") or [] if isinstance(a, dict)]
            result.asks, result.asks_answered = len(asks), sum(bool(a.get("answered")) for a in asks)
            result.confidence = final.get("confidence")
            result.answer = str(final.get("answer") or "")[:2000]
        if result.run_dir:
            with contextlib.suppress(ValueError):
                result.run_dir = os.path.relpath(result.run_dir, self.eval_dir)
        if result.error:
            graded = task.checker != "none"
            result.correct = False if graded else None
            result.grade = f"not graded: {result.error[:200]}" if graded else "not graded: the run did not finish"
            return
        verdict = grade(task.task, task.checker, task.answer, final)
        result.correct, result.grade = verdict.correct, verdict.detail

    def _record(self, run_dir: str) -> dict[str, Any]:
        root = Path(run_dir)
        try:
            data = json.loads(safe_files.read_text(root / "run.json", root=root))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}


async def _tail(stream: asyncio.StreamReader | None, into: deque[str]) -> None:
    if stream is None:
        return
    async for raw in stream:
        into.append(raw.decode("utf-8", errors="replace"))


async def _stop(process: asyncio.subprocess.Process) -> None:
    """Ctrl-C the run (it records what it did and ends `interrupted`), then kill it if it does not end."""
    for sig, wait in ((signal.SIGINT, INTERRUPT_GRACE_S), (signal.SIGKILL, 5.0)):
        if process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), timeout=wait)
