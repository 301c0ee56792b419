"""One ipykernel process, inside bubblewrap (or under rlimits only), and the execution of a cell.

Background processes: after every cell, every process of the sandbox other than the kernel is
killed (found as descendants of the sandbox's root process and, when there is one, as members of
its pids cgroup). With bubblewrap the kernel has its own PID namespace, so a daemonized process
stays a descendant of the sandbox and is found too; under rlimits only without a cgroup, a process
that daemonizes (double fork + setsid) escapes this sweep and lives until it exits on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import shutil
import signal
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import zmq
import zmq.asyncio
from jupyter_client.manager import AsyncKernelManager

from agentic_ds.sandbox.bwrap import bwrap_argv, kernel_python
from agentic_ds.sandbox.capture import CellCapture
from agentic_ds.sandbox.limits import Limits, ProcessLimits

MAX_MESSAGE_BYTES = 64 * 1024 * 1024   # one iopub message larger than this is dropped, not buffered
START_TIMEOUT_S = 60
KERNEL_ARGS = ("--HistoryManager.enabled=False",)


class SandboxedKernelManager(AsyncKernelManager):
    """A KernelManager whose launch command is our own argv, optionally wrapped in bwrap."""

    def __init__(self, *, wrap: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._wrap = wrap

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        # Our own argv, never a kernelspec found on the machine (which could point anywhere).
        cmd = [str(kernel_python()), "-m", "ipykernel_launcher", "-f", os.path.realpath(self.connection_file), *KERNEL_ARGS]
        return self._wrap(cmd)


@dataclass
class Outcome:
    timed_out: bool = False
    overflow: bool = False
    died: bool = False          # the kernel is gone (killed by a limit, or did not recover)


class SandboxKernel:
    """A started kernel: `execute()` cells, `sweep()` strays, `stop()` everything."""

    def __init__(self, *, run_dir: Path, env: Mapping[str, str], limits: Limits, use_bwrap: bool) -> None:
        self.run_dir = run_dir
        self.env = dict(env)
        self.use_bwrap = use_bwrap
        self.process_limits = ProcessLimits(limits)
        self.socket_dir = Path(tempfile.mkdtemp(prefix="ads-"))   # short: ipc socket paths are limited to ~100 chars
        self._context = zmq.asyncio.Context()
        self._context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        self.km = SandboxedKernelManager(
            wrap=self._wrap,
            transport="ipc",
            ip=str(self.socket_dir / "k"),
            connection_file=str(self.socket_dir / "kernel.json"),
            context=self._context,
        )
        self.kc: Any = None
        self.kernel_pid: int | None = None

    def _wrap(self, cmd: list[str]) -> list[str]:
        if not self.use_bwrap:
            return cmd
        return bwrap_argv(
            run_dir=self.run_dir,
            socket_dir=self.socket_dir,
            env=self.env,
            command=cmd,
            tmp_size_mb=self.process_limits.limits.max_file_mb,
        )

    async def start(self) -> None:
        log_dir = self.run_dir / ".sandbox"
        log_dir.mkdir(exist_ok=True)
        try:
            with (log_dir / "kernel.log").open("ab") as log:
                await self.km.start_kernel(
                    env=self.env,
                    cwd=str(self.run_dir),
                    preexec_fn=self.process_limits.preexec,
                    stdout=log,
                    stderr=log,
                )
            self.kc = self.km.client(context=self._context)
            self.kc.start_channels()
            await self.kc.wait_for_ready(timeout=START_TIMEOUT_S)
        except Exception as exc:
            await self.stop()
            raise RuntimeError(f"the sandboxed kernel did not start: {exc}") from exc
        self.kernel_pid = self._find_kernel_pid()

    # -- processes ------------------------------------------------------------------------------
    @property
    def root_pid(self) -> int | None:
        provisioner = self.km.provisioner
        return getattr(provisioner, "pid", None) if provisioner is not None else None

    def _find_kernel_pid(self) -> int | None:
        root = self.root_pid
        if root is None or not self.use_bwrap:
            return root
        with contextlib.suppress(psutil.Error):
            for proc in psutil.Process(root).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if proc.name() != "bwrap" and "ipykernel_launcher" in proc.cmdline():
                        return proc.pid
        return None

    def _sandbox_pids(self) -> set[int]:
        if self.process_limits.cgroup is not None:
            # The sandbox's root joined the cgroup before exec, so it holds every process of the sandbox.
            return set(self.process_limits.cgroup.pids())
        root = self.root_pid
        if root is None:
            return set()
        with contextlib.suppress(psutil.Error):
            return {p.pid for p in psutil.Process(root).children(recursive=True)}
        return set()

    def sweep(self) -> int:
        """Kill every process of the sandbox except the kernel (and bwrap's own). Returns how many."""
        keep = {self.root_pid, self.kernel_pid}
        victims = []
        for pid in self._sandbox_pids() - keep:
            with contextlib.suppress(psutil.Error):
                proc = psutil.Process(pid)
                if proc.name() == "bwrap" or proc.status() == psutil.STATUS_ZOMBIE:
                    continue
                proc.kill()
                victims.append(proc)
        _wait_gone(victims, timeout_s=2.0)
        return len(victims)

    def interrupt(self) -> None:
        if self.kernel_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.kernel_pid, signal.SIGINT)

    async def is_alive(self) -> bool:
        return bool(await self.km.is_alive())

    async def stop(self) -> None:
        """Shut the kernel down (quickly), kill whatever it left, remove the sockets."""
        if self.kc is not None:
            self.kc.stop_channels()
            self.kc = None
        with contextlib.suppress(Exception):
            if await self.km.is_alive():
                await self.km.shutdown_kernel(now=True)
        self.sweep()
        root = self.root_pid
        if root is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(root, signal.SIGKILL)
        self.process_limits.close()
        with contextlib.suppress(Exception):
            await self.km.cleanup_resources()
        self._context.destroy(linger=0)
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    # -- execution ------------------------------------------------------------------------------
    async def execute(self, code: str, capture: CellCapture, *, timeout_s: float, grace_s: float) -> Outcome:
        """Run `code`, feeding its outputs to `capture`. On timeout: interrupt, then give up after `grace_s`."""
        outcome = Outcome()
        msg_id = self.kc.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        interrupted = False
        idle = False
        reply: dict[str, Any] | None = None
        while not (idle and reply is not None):
            now = loop.time()
            stop_reason = "timeout" if now >= deadline else ("overflow" if capture.output_overflow else "")
            if stop_reason and not interrupted:
                outcome.timed_out = stop_reason == "timeout"
                outcome.overflow = stop_reason == "overflow"
                self.interrupt()
                interrupted = True
                deadline = now + grace_s
                continue
            if interrupted and now >= deadline:
                outcome.died = True
                return outcome
            if idle:
                reply = await self._shell_reply(msg_id, timeout=min(deadline - now, 1.0))
                if reply is None and not await self.is_alive():
                    outcome.died = True
                    return outcome
                continue
            try:
                msg = await self.kc.get_iopub_msg(timeout=min(max(deadline - now, 0.001), 0.2))
            except queue.Empty:
                if reply is None:
                    reply = await self._shell_reply(msg_id, timeout=0.001)
                elif not interrupted:
                    return outcome   # replied, and iopub quiet since: its idle message was dropped
                if not await self.is_alive():
                    outcome.died = True
                    return outcome
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg["header"]["msg_type"] == "status":
                idle = msg["content"].get("execution_state") == "idle"
            else:
                capture.handle(msg)
        return outcome

    async def _shell_reply(self, msg_id: str, timeout: float) -> dict[str, Any] | None:
        end = time.monotonic() + max(timeout, 0.001)
        while time.monotonic() < end:
            try:
                reply = await self.kc.get_shell_msg(timeout=max(end - time.monotonic(), 0.001))
            except queue.Empty:
                return None
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return reply
        return None


def _wait_gone(procs: list[psutil.Process], timeout_s: float) -> None:
    """Wait until killed processes are dead (a zombie counts: its parent in the sandbox reaps it)."""
    end = time.monotonic() + timeout_s
    pending = list(procs)
    while pending and time.monotonic() < end:
        still = []
        for proc in pending:
            with contextlib.suppress(psutil.Error):
                if proc.status() != psutil.STATUS_ZOMBIE:
                    still.append(proc)
        pending = still
        if pending:
            time.sleep(0.01)
