"""`CodeRunner`: the one object the rest of the product uses to execute analysis code.

One runner per run. Each stage gets a fresh kernel (started lazily at its first cell, with the run
directory as its working directory), so a stage builds on its own earlier cells but never on
another stage's variables: everything it needs comes from files, and any stage re-runs alone.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.errors import RunFailed, UsageError
from agentic_ds.sandbox.bwrap import bwrap_problem
from agentic_ds.sandbox.capture import CellCapture, CellResult
from agentic_ds.sandbox.environment import kernel_env
from agentic_ds.sandbox.kernel import Outcome, SandboxKernel
from agentic_ds.sandbox.limits import Limits, probe_process_limit
from agentic_ds.sandbox.recorder import NOTEBOOK, Recorder
from agentic_ds.workspace import Workspace

# Not reported as files the cell wrote: the sandbox's own state and the records we write ourselves.
UNTRACKED_TOP = {".sandbox", "stages", NOTEBOOK}
MAX_TRACKED_FILES = 20_000


class CodeRunner:
    """One per run. Owns the current stage's kernel; records every executed cell.

    `isolation` is "bwrap" or "rlimits"; `warning` is a line for the CLI to show when isolation is
    weaker than asked for (this class prints nothing).
    """

    def __init__(self, workspace: Workspace, settings: SandboxSettings, *, interrupt_grace_s: float = 5.0) -> None:
        self.workspace = workspace
        self.settings = settings
        self.interrupt_grace_s = interrupt_grace_s
        problem = "the sandbox is off (--sandbox off)" if settings.mode == "off" else bwrap_problem()
        if problem and settings.mode == "require":
            raise UsageError(
                f"--sandbox require: {problem}",
                hint="install bubblewrap (e.g. `apt-get install bubblewrap`) and allow user namespaces, or use --sandbox auto",
            )
        self.isolation = "rlimits" if problem else "bwrap"
        self.process_limit = probe_process_limit()
        notes = []
        if problem:
            notes.append(f"{problem}: code runs with rlimits and a scrubbed environment only (no network or filesystem isolation)")
        if self.process_limit == "none":
            notes.append("no cgroup available as root: the sandbox's process count is not limited")
        self.warning: str | None = "; ".join(notes) or None
        self.limits = Limits(settings.memory_mb, settings.max_processes, settings.max_file_mb)
        self.recorder = Recorder(workspace.root)
        self.last_result: CellResult | None = None
        self._kernel: SandboxKernel | None = None
        self._stage_dir: Path | None = None
        self._figure_names: Iterator[str] = iter(())
        self._lock = asyncio.Lock()

    # -- stages ---------------------------------------------------------------------------------
    async def begin_stage(self, index: int, title: str) -> Path:
        """End the previous stage's kernel and open `stages/NN-slug/` (returned)."""
        await self.end_stage()
        stage_dir = self.workspace.stage_dir(index, title)
        self.recorder.begin_stage(stage_dir, f"Stage {index + 1}: {title}")
        self._stage_dir = stage_dir
        # Numbering continues when a stage is begun again, so an earlier attempt's figures stay.
        first = 1 + len(list(self.workspace.figures.glob(f"{stage_dir.name}-[0-9][0-9][0-9].png")))
        self._figure_names = (f"{stage_dir.name}-{n:03d}" for n in itertools.count(first))
        return stage_dir

    async def end_stage(self) -> None:
        if self._kernel is not None:
            kernel, self._kernel = self._kernel, None
            await kernel.stop()

    async def close(self) -> None:
        """Stop everything; `analysis.ipynb` is complete on disk."""
        async with self._lock:
            await self.end_stage()
            self.recorder.save_notebook()

    # -- execution ------------------------------------------------------------------------------
    async def run(self, code: str) -> CellResult:
        """Execute one cell in the current stage's kernel; never raises for what the code does."""
        async with self._lock:
            if self._stage_dir is None:
                await self.begin_stage(0, "analysis")
            assert self._stage_dir is not None
            kernel = await self._ensure_kernel()
            cell_path, output_path = self.recorder.next_cell(code)
            before = self._snapshot()
            capture = CellCapture(
                run_dir=self.workspace.root,
                output_file=output_path,
                figure_names=self._figure_names,
                keep_chars=self.settings.output_cap_chars,
                max_output_bytes=self.settings.max_file_mb * 1024 * 1024,
            )
            started = time.monotonic()
            try:
                outcome = await kernel.execute(
                    code, capture, timeout_s=self.settings.cell_timeout_s, grace_s=self.interrupt_grace_s
                )
                self._explain(outcome, capture)
                notes: list[str] = []
                if outcome.died:
                    await self.end_stage()   # the next cell starts a fresh kernel
                else:
                    stopped = kernel.sweep()
                    if stopped:
                        notes.append(
                            f"stopped {stopped} background process(es) the cell left running: "
                            "processes do not outlive their cell"
                        )
            finally:
                capture.close()
            result = capture.result(
                duration_s=time.monotonic() - started,
                timed_out=outcome.timed_out,
                restarted=outcome.died,
                cell_path=self.workspace.rel(cell_path),
            )
            result.notes = notes
            result.files = self._changed(before, self._snapshot(), set(result.figures))
            outputs = capture.stream_outputs() + capture.outputs
            if capture.error_output:
                outputs.append(capture.error_output)
            self.recorder.record(code, result, outputs)
            self.last_result = result
            return result

    def _explain(self, outcome: Outcome, capture: CellCapture) -> None:
        """Tell the model, as the cell's error, what the sandbox did to a cell it had to stop."""
        limit_mb = self.settings.max_file_mb
        lost = "the kernel was restarted: variables from earlier cells are gone, load what you need from files again"
        if outcome.timed_out:
            text = f"TimeoutError: the cell ran longer than {self.settings.cell_timeout_s:g} s and was interrupted"
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; make it faster or work on a sample")
        elif outcome.overflow:
            text = f"OutputLimit: the cell printed more than {limit_mb} MB and was stopped"
            capture.note_error(f"{text}; {lost}" if outcome.died else f"{text}; print summaries, not whole tables")
        elif outcome.died:
            capture.note_error(
                "KernelDied: the kernel process ended (a memory, process or file-size limit, or a crash); " + lost
            )

    async def _ensure_kernel(self) -> SandboxKernel:
        if self._kernel is not None:
            return self._kernel
        root = self.workspace.root
        kernel = SandboxKernel(
            run_dir=root,
            env=kernel_env(root, private_tmp=self.isolation == "bwrap"),
            limits=self.limits,
            use_bwrap=self.isolation == "bwrap",
        )
        try:
            await kernel.start()
        except Exception as exc:  # noqa: BLE001 - any start failure is the same failure for the user
            raise RunFailed(
                f"the sandboxed Python kernel did not start: {exc}",
                hint=f"see {self.workspace.rel(root / '.sandbox' / 'kernel.log')}; --sandbox off runs without bubblewrap",
            ) from exc
        self._kernel = kernel
        return kernel

    # -- files ----------------------------------------------------------------------------------
    def _snapshot(self) -> dict[str, tuple[int, int]]:
        root = self.workspace.root
        seen: dict[str, tuple[int, int]] = {}
        for dirpath, dirnames, filenames in os.walk(root):
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir == ".":
                dirnames[:] = [d for d in dirnames if d not in UNTRACKED_TOP]
            for name in filenames:
                rel = name if rel_dir == "." else f"{rel_dir}/{name}"
                if rel in UNTRACKED_TOP or name.startswith(f".{NOTEBOOK}."):
                    continue
                try:
                    stat = os.lstat(os.path.join(dirpath, name))
                except OSError:
                    continue
                seen[rel] = (stat.st_mtime_ns, stat.st_size)
                if len(seen) >= MAX_TRACKED_FILES:
                    return seen
        return seen

    @staticmethod
    def _changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]], exclude: set[str]) -> list[str]:
        return sorted(path for path, sig in after.items() if before.get(path) != sig and path not in exclude)
