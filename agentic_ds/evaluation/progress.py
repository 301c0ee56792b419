"""Live progress of an eval: a rich table on a terminal, one plain line per finished task otherwise."""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, Any

from agentic_ds.evaluation.runner import Progress, TaskResult

MARKS = {True: "correct", False: "WRONG", None: "open"}


def verdict(result: TaskResult) -> str:
    return "ERROR" if result.error else MARKS[result.correct]


class PlainProgress:
    """A line when the eval starts, one per finished task with how many run and wait
    (`[3/60] emp-pearson correct completed 12.3s (2 running, 55 queued)`), and one per task tried again."""

    def __init__(self, total: int, out: IO[str] | None = None) -> None:
        self.total = total
        self.out = out or sys.stdout
        self.states: dict[str, str] = {}
        self._lock = threading.Lock()

    @property
    def done(self) -> int:
        return sum(state == "done" for state in self.states.values())

    @property
    def running(self) -> int:
        return sum(state == "running" for state in self.states.values())

    @property
    def queued(self) -> int:
        return self.total - self.done - self.running

    def start(self, eval_dir: Any, runs_on: str) -> None:
        self._print(f"eval: {self.total} task(s), {runs_on}, in {eval_dir}")

    def update(self, progress: Progress) -> None:
        with self._lock:
            before = self.states.get(progress.id)
            self.states[progress.id] = progress.state
            if progress.state == "queued" and before == "running":
                self._print(f"[{self.done}/{self.total}] {progress.id} queued again (attempt {progress.attempt}): "
                            f"{progress.note[:160]}")
            if progress.state != "done" or progress.result is None or before == "done":
                return
            result = progress.result
            line = f"[{self.done}/{self.total}] {result.id} {verdict(result)} {result.status} {result.wall_s:.1f}s"
            if result.error:
                line += f" - {result.error[:160]}"
            self._print(f"{line} ({self.running} running, {self.queued} queued)")

    def stop(self) -> None:
        return

    def _print(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


class LiveProgress(PlainProgress):
    """A table of the running tasks (with the agent each is in) above the finished ones, refreshed in place."""

    def __init__(self, total: int, out: IO[str] | None = None) -> None:
        super().__init__(total, out)
        from rich.console import Console
        from rich.live import Live

        self.console = Console(file=self.out)
        self.rows: dict[str, Progress] = {}
        self.live = Live(console=self.console, refresh_per_second=4, transient=False, get_renderable=self._table)

    def start(self, eval_dir: Any, runs_on: str) -> None:
        self.console.print(f"eval: {self.total} task(s), {runs_on}, in {eval_dir}")
        self.live.start()

    def update(self, progress: Progress) -> None:
        with self._lock:
            self.rows[progress.id] = progress
            self.states[progress.id] = progress.state

    def stop(self) -> None:
        self.live.stop()

    def _table(self) -> Any:
        from rich.table import Table

        with self._lock:
            rows = list(self.rows.values())
            done, busy, queued = self.done, self.running, self.queued
        correct = sum(1 for p in rows if p.result is not None and p.result.correct)
        title = f"{done}/{self.total} done, {correct} correct; {busy} running, {queued} queued"
        table = Table(title=title, title_justify="left", expand=False)
        for column in ("task", "state", "status", "verdict", "time"):
            table.add_column(column)
        now = time.monotonic()
        running = [p for p in rows if p.state == "running"]
        finished = [p for p in rows if p.state == "done"][-12:]
        for p in running:
            where = f" on {p.where}" if p.where else ""
            again = f" (attempt {p.attempt})" if p.attempt > 1 else ""
            table.add_row(p.id, f"running{where}{again} {p.agent}".strip(), "", "", f"{now - (p.started or now):.0f}s")
        for p in finished:
            result = p.result
            assert result is not None
            table.add_row(p.id, "done", result.status, verdict(result), f"{result.wall_s:.1f}s")
        return table


def make_progress(total: int, out: IO[str] | None = None) -> PlainProgress:
    stream = out or sys.stdout
    return LiveProgress(total, stream) if stream.isatty() else PlainProgress(total, stream)
