"""Running a manifest: every task handed to the executor (`executor.py`: local processes or Ray), each an
`agentic-ds run --json` of its own; progress from the events the executor reports; the result read from the run's
own run.json and graded there, whichever executor ran it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds.evaluation.child import RunOutcome, RunSpec
from agentic_ds.evaluation.executor import Executor
from agentic_ds.evaluation.grading import grade
from agentic_ds.evaluation.manifest import EvalTask, Manifest
from agentic_ds.runs import safe_files


@dataclass
class EvalOptions:
    """What applies to every task: the `run` flags, where tasks run (executor), and how many at once."""

    mode: str = "simple"
    models: tuple[str, ...] = ()
    config: str | None = None
    sandbox: str | None = None
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    parallel: int | None = 1               # None: the executor's own (cores; a Ray cluster's CPUs)
    timeout_s: float | None = None
    executor: str = "local"
    address: str | None = None

    def run_flags(self) -> list[str]:
        flags = ["--mode", self.mode]
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
    attempts: int = 1

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Progress:
    """What a task is doing, for the live display."""

    id: str
    state: str = "queued"          # queued | running | done
    agent: str = ""
    where: str = ""                # the machine running it, when not this one
    attempt: int = 1
    note: str = ""                 # why it was queued again
    started: float | None = None
    result: TaskResult | None = None


Listener = Callable[[Progress], None]


@dataclass
class EvalRun:
    manifest: Manifest
    options: EvalOptions
    eval_dir: Path
    executor: Executor
    on_progress: Listener = field(default=lambda progress: None)

    @property
    def runs_dir(self) -> Path:
        return self.eval_dir / "runs"

    async def run_all(self) -> list[TaskResult]:
        """Every task's result, in manifest order (each graded as soon as its run ends)."""
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        return list(await asyncio.gather(*(self.run_task(task, Progress(task.id)) for task in self.manifest.tasks)))

    def spec(self, task: EvalTask) -> RunSpec:
        return RunSpec(id=task.id, task=task.task, files=[str(p.resolve()) for p in self.manifest.input_paths(task)],
                       flags=self.options.run_flags(), runs_dir=str(self.runs_dir.resolve()),
                       timeout_s=self.options.timeout_s)

    async def run_task(self, task: EvalTask, progress: Progress) -> TaskResult:
        result = TaskResult(id=task.id, checker=task.checker)
        seen = RunOutcome()

        def report(event: dict[str, Any]) -> None:
            kind = event.get("kind")
            if kind == "started":
                progress.state, progress.started = "running", time.monotonic()
                progress.where = str(event.get("where") or "")
            elif kind == "retry":
                progress.state, progress.agent, progress.note = "queued", "", str(event.get("reason") or "")
                progress.attempt += 1
            elif kind == "agent":
                progress.agent = str(event.get("agent") or "")
            elif kind == "run_started" and event.get("run_dir"):
                seen.run_dir = str(event["run_dir"])      # kept if the eval is interrupted before the end
                return
            else:
                return
            self.on_progress(progress)

        try:
            outcome = await self.executor.submit(self.spec(task), report)
        except asyncio.CancelledError:
            if progress.started is not None:      # stopped while running: what its run recorded is kept
                self._finish(task, result, seen, progress)
            raise
        self._finish(task, result, outcome, progress)
        return result

    def _finish(self, task: EvalTask, result: TaskResult, outcome: RunOutcome, progress: Progress) -> None:
        self._apply(result, outcome, progress)
        self._read_record(result, task)
        progress.state, progress.result = "done", result
        self.on_progress(progress)

    @staticmethod
    def _apply(result: TaskResult, outcome: RunOutcome, progress: Progress) -> None:
        result.exit_code, result.run_dir, result.error = outcome.exit_code, outcome.run_dir, outcome.error
        result.status, result.reason, result.attempts = outcome.status, outcome.reason, outcome.attempts
        result.wall_s = outcome.wall_s
        if not result.wall_s and progress.started is not None:
            result.wall_s = round(time.monotonic() - progress.started, 2)

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

