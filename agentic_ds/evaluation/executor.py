"""Where an eval's tasks run: one interface, `submit(task) -> outcome`, with a `local` and a `ray` implementation.

The runner hands every task to the executor at once and learns from the events it reports when a task starts
(`started`), which agent it is in (`agent`), and when it is tried again (`retry`); the executor decides where and
when each runs. Grading, progress and the summary never know which executor ran a task. `ray` is imported only
when asked for (`agentic-ds --help` stays fast).
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from agentic_ds.evaluation.child import Report, RunOutcome, RunSpec, run_child
from agentic_ds.runs.warm_start import Zygote

EXECUTORS = ("local", "ray")


class Executor(Protocol):
    label: str                              # how tasks run, for the first line and summary.md

    async def submit(self, spec: RunSpec, report: Report) -> RunOutcome:
        """Run one task to its end (its run directory in `spec.runs_dir` on this machine)."""
        ...

    def close(self) -> None:
        """Release what the executor started (nothing is left running)."""
        ...


class LocalExecutor:
    """Child processes on this machine, at most `parallel` at once, forked from one zygote that imported the
    command once (`runs.warm_start`): every task after the first skips a second of imports."""

    def __init__(self, parallel: int) -> None:
        self.parallel = max(1, parallel)
        self.label = f"{self.parallel} at once"
        self._slots: asyncio.Semaphore | None = None
        self._zygote: Zygote | None = None

    async def submit(self, spec: RunSpec, report: Report) -> RunOutcome:
        if self._slots is None:              # made in the running loop
            self._slots = asyncio.Semaphore(self.parallel)
        if self._zygote is None:
            self._zygote = Zygote()
        async with self._slots:
            report({"kind": "started"})
            return await run_child(spec, report, zygote=self._zygote)

    def close(self) -> None:
        if self._zygote is not None:
            self._zygote.close()


def open_executor(name: str, parallel: int | None, address: str | None) -> Executor:
    """The executor `name`, ready to take tasks; `ray` is started (or joined at `address`) here, so a missing Ray
    or an unreachable cluster is a usage error before the eval directory is created."""
    if name == "ray":
        from agentic_ds.evaluation.ray_executor import RayExecutor

        return RayExecutor.open(parallel, address)
    from agentic_ds.cli.eval import default_parallel

    return LocalExecutor(parallel or default_parallel())
