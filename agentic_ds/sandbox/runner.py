"""`CodeRunner`: the one object the rest of the product uses to execute analysis code.

One runner per run. Each stage gets a kernel of its own at its first cell, with the run directory as its working
directory, so a stage builds on its own earlier cells but never on another stage's variables: everything it needs
comes from files, and any stage re-runs alone. The kernel of a stage that ended is handed to the next stage that
needs one once it has forgotten everything of the stage it served (`reset`); a kernel that died, left a thread
running or cannot be reset is shut down instead, and the next stage gets a new one.

Stages may be under way at once (`workflow/orchestrator.py`), each in its own asyncio task: a cell runs in the
kernel of the stage its task works on (`STAGE_IN_TASK`, set by the orchestrator; else the stage begun last). Cells
still execute one at a time, whichever stage they belong to: the files a cell wrote are found by comparing the run
directory before and after it, which holds only while no other cell runs.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.errors import RunFailed, UsageError
from agentic_ds.sandbox import changes, layout
from agentic_ds.sandbox.capture import CellCapture, CellResult
from agentic_ds.sandbox.environment import kernel_env
from agentic_ds.sandbox.isolation import Isolation, choose_isolation
from agentic_ds.sandbox.kernel import Outcome, SandboxKernel
from agentic_ds.sandbox.limits import Limits
from agentic_ds.sandbox.recorder import NOTEBOOK, Recorder
from agentic_ds.workspace import Workspace

# Not reported as files the cell wrote: the sandbox's own state and the records we write ourselves.
UNTRACKED_TOP = frozenset({".sandbox", "stages", NOTEBOOK})
# The stage (its index in the plan) whose work the current asyncio task does; None: the stage begun last.
STAGE_IN_TASK: ContextVar[int | None] = ContextVar("stage_in_task", default=None)


@dataclass
class _Stage:
    """A stage begun: its folder, its kernel (once a cell ran), how its figures are named."""

    index: int
    dir: Path
    figure_names: Iterator[str]
    kernel: SandboxKernel | None = None
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)


class CodeRunner:
    """One per run. Owns each begun stage's kernel; records every executed cell.

    `isolation` is "bwrap" or "rlimits"; `warning` is a line for the CLI to show when isolation is
    weaker than asked for, `notes` say how the sandbox is bound here, and `findings` list what the
    code planted that the host refused to follow (this class prints nothing).
    """

    def __init__(self, workspace: Workspace, settings: SandboxSettings, *, interrupt_grace_s: float = 5.0) -> None:
        self.workspace = workspace
        self.settings = settings
        self.interrupt_grace_s = interrupt_grace_s
        chosen: Isolation = choose_isolation(settings.mode)
        if chosen.problem and settings.mode == "require":
            raise UsageError(f"--sandbox require: {chosen.problem}", hint=chosen.hint)
        self.isolation = chosen.kind
        self.user = chosen.user
        self.limits = Limits(
            settings.memory_mb, settings.max_processes, settings.max_file_mb,
            cpu_s=settings.cell_cpu_s or 2 * settings.cell_timeout_s, disk_quota_mb=settings.disk_quota_mb,
        )
        self.warning: str | None = chosen.warning
        self.notes: list[str] = list(chosen.notes)
        self.findings: list[str] = []
        self.recorder = Recorder(workspace.root)
        self.last_result: CellResult | None = None
        self._stages: dict[int, _Stage] = {}
        self._spares: list[SandboxKernel] = []   # kernels of ended stages, for the next stage that needs one
        self._last_begun: int | None = None
        self._lock = asyncio.Lock()

    # -- stages ---------------------------------------------------------------------------------
    async def begin_stage(self, index: int, title: str) -> Path:
        """Open `stages/NN-slug/` (returned) for stage `index`; a stage begun again gets a fresh kernel. Other
        stages under way keep theirs."""
        await self.end_stage(index)
        stage_dir = self.workspace.stage_dir(index, title)
        self.recorder.begin_stage(stage_dir, f"Stage {index + 1}: {title}", order=index)
        # Numbering continues when a stage is begun again, so an earlier attempt's figures stay.
        first = 1 + len(list(self.workspace.figures.glob(f"{stage_dir.name}-[0-9][0-9][0-9].png")))
        names = (f"{stage_dir.name}-{n:03d}" for n in itertools.count(first))
        self._stages[index] = _Stage(index, stage_dir, names)
        self._last_begun = index
        return stage_dir

    async def end_stage(self, index: int | None = None, *, reuse: bool = True) -> None:
        """Take the kernel from stage `index` (default: the current task's stage): kept for the next stage that needs
        one, or (`reuse=False`, or a cell of it never came back) shut down."""
        index = self._current_index() if index is None else index
        stage = self._stages.get(index) if index is not None else None
        if stage is not None and stage.kernel is not None:
            kernel, stage.kernel = stage.kernel, None
            if reuse and not kernel.busy:
                self._spares.append(kernel)
            else:
                await kernel.stop()

    @property
    def kernel(self) -> SandboxKernel | None:
        """The current stage's kernel, once started (tests and benchmarks look at its limits and processes)."""
        index = self._current_index()
        stage = self._stages.get(index) if index is not None else None
        return stage.kernel if stage is not None else None

    def _current_index(self) -> int | None:
        index = STAGE_IN_TASK.get()
        return index if index is not None else self._last_begun

    async def close(self) -> None:
        """Stop everything; `analysis.ipynb` is complete on disk."""
        async with self._lock:
            for index in list(self._stages):
                await self.end_stage(index, reuse=False)
            while self._spares:
                await self._spares.pop().stop()
            self.recorder.save_notebook()

    # -- execution ------------------------------------------------------------------------------
    async def run(self, code: str) -> CellResult:
        """Execute one cell in the current stage's kernel; never raises for what the code does."""
        index = self._current_index()
        stage = self._stages.get(index) if index is not None else None
        if stage is None:
            async with self._lock:
                await self.begin_stage(0, "analysis")
            stage = self._stages[0]
        # A stage's kernel starts while other stages' cells run: only cells wait for each other. A kept kernel is
        # reset under the lock instead: what its reset flushes (an earlier stage's open file) is no cell's doing.
        async with stage.starting:
            if not self._spares:
                await self._ensure_kernel(stage)
        async with self._lock:
            kernel = await self._ensure_kernel(stage)   # the one just started (or a fresh one, were it stopped)
            cell_path, output_path = self.recorder.next_cell(code, stage.dir)
            before = self._snapshot()
            threads_before = kernel.thread_ids()
            capture = CellCapture(
                run_dir=self.workspace.root,
                output_file=output_path,
                figure_names=stage.figure_names,
                keep_chars=self.settings.output_cap_chars,
                max_output_bytes=self.settings.max_file_mb * 1024 * 1024,
            )
            started = time.monotonic()
            try:
                outcome = await kernel.execute(
                    code, capture, timeout_s=self.settings.cell_timeout_s, grace_s=self.interrupt_grace_s
                )
                notes = await self._after_cell(kernel, outcome, threads_before)
                self._explain(outcome, capture, kernel.watchdog.memory_kills())
                if outcome.died or notes.restart:
                    await self.end_stage(stage.index, reuse=False)   # the next cell starts a fresh kernel
            finally:
                capture.close()
            result = capture.result(
                duration_s=time.monotonic() - started,
                timed_out=outcome.timed_out,
                restarted=outcome.died,
                cell_path=self.workspace.rel(cell_path),
            )
            after = self._snapshot()
            result.files = changes.changed_files(before, after, set(result.figures))
            found = capture.findings + changes.planted(before, after)
            result.notes = notes.lines + [f"not followed: {line}" for line in found]
            self.findings += [f"{result.cell_path}: {line}" for line in found]
            outputs = capture.stream_outputs() + capture.outputs
            if capture.error_output:
                outputs.append(capture.error_output)
            self.recorder.record(code, result, outputs, stage.dir)
            self.last_result = result
            return result

    async def _after_cell(self, kernel: SandboxKernel, outcome: Outcome, threads_before: set[int]) -> AfterCell:
        """Stop what the cell left running: its processes now, its threads by restarting the kernel."""
        after = AfterCell()
        if outcome.died:
            return after
        stopped = kernel.sweep()
        await kernel.reap()
        if stopped:
            after.lines.append(
                f"stopped {stopped} background process(es) the cell left running: processes do not outlive their cell"
            )
        leftover = kernel.thread_ids() - threads_before
        for _ in range(5):   # a thread that was just finishing gets a moment to end
            if not leftover:
                break
            await asyncio.sleep(0.02)
            leftover &= kernel.thread_ids()
        if leftover:
            after.restart = True
            after.lines.append(
                f"the cell left {len(leftover)} thread(s) running in the kernel (a thread, a timer or a thread pool): "
                "nothing the code starts may outlive its cell, so the kernel was restarted - variables from earlier "
                "cells are gone, load what you need from files again"
            )
        return after

    def _explain(self, outcome: Outcome, capture: CellCapture, memory_kills: int) -> None:
        """Tell the model, as the cell's error, what the sandbox did to a cell it had to stop, and which limit."""
        limit_mb = self.settings.max_file_mb
        lost = "the kernel was restarted: variables from earlier cells are gone, load what you need from files again"
        if memory_kills:
            text = (
                f"MemoryLimit: the sandbox's memory limit ({self.limits.memory_mb} MB for all its processes together) "
                f"was reached and {memory_kills} process(es) were killed"
            )
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; use less memory (fewer processes, "
                               "smaller chunks, a sample)")
        elif outcome.limit == "cpu":
            text = (f"CPULimit: the cell's processes used more than {self.limits.cpu_s:g} s of CPU time together "
                    "and were stopped")
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; use fewer processes or less work")
        elif outcome.limit == "disk":
            text = (f"DiskQuota: the run's files (outputs/, figures/, the kernel's home) went past "
                    f"{self.limits.disk_quota_mb} MB and the cell was stopped")
            capture.note_error(
                f"{text}; {lost}" if outcome.died else f"{text}; delete what you do not need and write less"
            )
        elif outcome.timed_out:
            text = f"TimeoutError: the cell ran longer than {self.settings.cell_timeout_s:g} s and was interrupted"
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; make it faster or work on a sample")
        elif outcome.overflow:
            text = f"OutputLimit: the cell printed more than {limit_mb} MB and was stopped"
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; print summaries, not whole tables")
        elif outcome.died:
            capture.note_error(
                "KernelDied: the kernel process ended (a memory, process or file-size limit, or a crash); " + lost
            )

    async def _ensure_kernel(self, stage: _Stage) -> SandboxKernel:
        if stage.kernel is not None:
            return stage.kernel
        root = self.workspace.root
        for problem in layout.prepare(root, self.user):
            if problem not in self.findings:
                self.findings.append(problem)
        while self._spares:
            spare = self._spares.pop()
            if await spare.reset():
                stage.kernel = spare
                return spare
            await spare.stop()
        kernel = SandboxKernel(
            run_dir=root,
            env=kernel_env(root, self.user, private_tmp=self.isolation == "bwrap"),
            limits=self.limits,
            use_bwrap=self.isolation == "bwrap",
            user=self.user,
        )
        try:
            await kernel.start()
        except Exception as exc:  # noqa: BLE001 - any start failure is the same failure for the user
            raise RunFailed(
                f"the sandboxed Python kernel did not start: {exc}",
                hint=f"see {self.workspace.rel(root / '.sandbox' / 'kernel.log')}; --sandbox off runs without "
                     f"bubblewrap",
            ) from exc
        stage.kernel = kernel
        return kernel

    # -- files ----------------------------------------------------------------------------------
    def _snapshot(self) -> dict:
        return changes.snapshot(self.workspace.root, skip_top=UNTRACKED_TOP, skip_prefix=f".{NOTEBOOK}.")


@dataclass
class AfterCell:
    lines: list[str] = field(default_factory=list)
    restart: bool = False
