"""One ipykernel process, inside bubblewrap (or under rlimits only), and the execution of a cell.

Nothing the code starts outlives its cell: after every cell, every process of the sandbox other
than the kernel and the bubblewrap processes it runs under is killed. They are found by membership
of the sandbox's cgroup and by descent from the sandbox's root process, never by name (a child that
renames itself `bwrap` is still found); the kernel's own ancestors are known by process id from the
start. A thread the cell started inside the kernel that is still running when the cell returns
cannot be killed alone: the kernel is restarted, and the agent told. While a cell runs, a
`Watchdog` stops it when the sandbox as a whole goes past its CPU time or the run's disk quota (the
quota's own watcher stops the sandbox's processes the moment it is passed; see `quota_guard`).
Under rlimits only without a cgroup, a process that daemonizes (double fork + setsid) escapes the
sweep and lives until it exits on its own.
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

from agentic_ds.runs import safe_files
from agentic_ds.sandbox import layout, leftovers, proctree
from agentic_ds.sandbox.bwrap import bwrap_argv
from agentic_ds.sandbox.capture import CellCapture
from agentic_ds.sandbox.kernel_command import is_kernel_command, kernel_command
from agentic_ds.sandbox.limits import Limits, ProcessLimits
from agentic_ds.sandbox.quota import DiskQuota
from agentic_ds.sandbox.reset import BASELINE_CODE, RESET_CODE
from agentic_ds.sandbox.seccomp import filter_fd
from agentic_ds.sandbox.user import SandboxUser
from agentic_ds.sandbox.watchdog import CHECK_EVERY_S, Watchdog

MAX_MESSAGE_BYTES = 64 * 1024 * 1024   # one iopub message larger than this is dropped, not buffered
START_TIMEOUT_S = 60
RESET_TIMEOUT_S = 10
REAP_CODE = (
    "import os as _os\nwhile True:\n    try:\n        if _os.waitpid(-1, _os.WNOHANG)[0] == 0:\n            break\n"
    "    except ChildProcessError:\n        break\ndel _os"
)


class SandboxedKernelManager(AsyncKernelManager):
    """A KernelManager whose launch command is our own argv, optionally wrapped in bwrap."""

    def __init__(self, *, wrap: Any, user: SandboxUser, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._wrap = wrap
        self._user = user

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        # Our own argv, never a kernelspec found on the machine (which could point anywhere).
        return self._wrap(kernel_command(self.connection_file))

    def write_connection_file(self, **kwargs: Any) -> None:
        super().write_connection_file(**kwargs)
        self._user.give(Path(self.connection_file))   # 0600: the kernel, as the sandbox user, must read it


@dataclass
class Outcome:
    timed_out: bool = False
    overflow: bool = False
    limit: str = ""             # "cpu" or "disk": the sandbox-wide limit that stopped the cell
    died: bool = False          # the kernel is gone (killed by a limit, or did not recover)


class SandboxKernel:
    """A started kernel: `execute()` cells, `sweep()` strays, `stop()` everything."""

    def __init__(
        self, *, run_dir: Path, env: Mapping[str, str], limits: Limits, use_bwrap: bool, user: SandboxUser
    ) -> None:
        self.run_dir = run_dir
        self.env = dict(env)
        self.use_bwrap = use_bwrap
        self.user = user
        self.process_limits = ProcessLimits(limits, user)
        leftovers.sweep_socket_folders(Path(tempfile.gettempdir()))
        # Short: ipc socket paths are limited to ~100 chars.
        self.socket_dir = Path(tempfile.mkdtemp(prefix=leftovers.owned_name(leftovers.SOCKET_PREFIX)))
        user.give(self.socket_dir)   # the kernel creates its sockets there
        self._context = zmq.asyncio.Context()
        self._context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        self._mount_fds = layout.MountFds()
        self._seccomp_fd: int | None = None
        self._prefix: list[str] = []
        self.km = SandboxedKernelManager(
            wrap=self._wrap,
            user=user,
            transport="ipc",
            ip=str(self.socket_dir / "k"),
            connection_file=str(self.socket_dir / "kernel.json"),
            context=self._context,
        )
        self.kc: Any = None
        self.kernel_pid: int | None = None
        self.busy = False                # a cell did not come back (its task was cancelled) or the kernel died
        self._keep: set[int] = set()     # the kernel and the processes it runs under
        self.watchdog = Watchdog(
            cgroup=self.process_limits.cgroup,
            pids=self._sandbox_pids,
            quota=DiskQuota(run_dir, layout.writable_paths(run_dir), limits.disk_quota_mb * 1024 * 1024),
            cpu_s=limits.cpu_s,
            file_limit_bytes=limits.max_file_mb * 1024 * 1024,
        )

    def _wrap(self, cmd: list[str]) -> list[str]:
        return [*self._prefix, *cmd]

    def _open_launch(self) -> tuple[int, ...]:
        """Build the bwrap prefix (opening the descriptors it names); return the descriptors to pass."""
        self._prefix = []
        if not self.use_bwrap:
            return ()
        self._seccomp_fd = filter_fd()
        self._prefix = bwrap_argv(
            run_dir=self.run_dir,
            socket_dir=self.socket_dir,
            env=self.env,
            command=[],
            user=self.user,
            fds=self._mount_fds,
            seccomp_fd=self._seccomp_fd,
            tmp_size_mb=self.process_limits.limits.max_file_mb,
        )
        return (*self._mount_fds.fds, self._seccomp_fd)

    async def start(self) -> None:
        try:
            # In `.sandbox/`, which the sandbox cannot write: the code cannot swap the log for a link; what it
            # prints to the inherited descriptor is bounded by RLIMIT_FSIZE like any file it writes.
            with safe_files.open_append(self.run_dir / ".sandbox" / "kernel.log", root=self.run_dir, text=False) as log:
                await self.km.start_kernel(
                    env=self.env,
                    cwd=str(self.run_dir),
                    preexec_fn=self.process_limits.preexec,
                    stdout=log,
                    stderr=log,
                    pass_fds=self._open_launch(),
                )
            self._close_launch_fds()
            self.kc = self.km.client(context=self._context)
            self.kc.start_channels()
            await self.kc.wait_for_ready(timeout=START_TIMEOUT_S)
            if not await self._silently(BASELINE_CODE, timeout=START_TIMEOUT_S):
                raise RuntimeError("it did not run its first line of code")
        except Exception as exc:
            self._close_launch_fds()
            await self.stop()
            raise RuntimeError(f"the sandboxed kernel did not start: {exc}") from exc
        self.kernel_pid = self._find_kernel_pid()
        self._keep = self._ancestry(self.kernel_pid)
        runs_code = self.kernel_pid if self.kernel_pid is not None else self.root_pid
        if runs_code is not None and self.root_pid is not None:
            cgroup = self.process_limits.cgroup
            self.watchdog.quota_guard.start(
                kernel=runs_code, root=self.root_pid, spare=self._keep - {runs_code},
                cgroup_procs=cgroup.procs_file if cgroup is not None else None,
            )

    def _close_launch_fds(self) -> None:
        self._mount_fds.close()
        if self._seccomp_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._seccomp_fd)
            self._seccomp_fd = None

    # -- processes ------------------------------------------------------------------------------
    @property
    def root_pid(self) -> int | None:
        provisioner = self.km.provisioner
        return getattr(provisioner, "pid", None) if provisioner is not None else None

    def _find_kernel_pid(self) -> int | None:
        """The kernel's process id, read once at start (before any code ran) by its command line."""
        root = self.root_pid
        if root is None or not self.use_bwrap:
            return root
        with contextlib.suppress(psutil.Error):
            for proc in psutil.Process(root).children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if is_kernel_command(proc.cmdline()):
                        return proc.pid
        return None

    def _ancestry(self, pid: int | None) -> set[int]:
        """`pid` and its ancestors up to the sandbox's root process (bubblewrap's own processes)."""
        keep: set[int] = set()
        root = self.root_pid
        with contextlib.suppress(psutil.Error):
            proc = psutil.Process(pid) if pid is not None else None
            while proc is not None:
                keep.add(proc.pid)
                if proc.pid == root:
                    break
                proc = proc.parent()
        return keep | ({root} if root is not None else set())

    def _sandbox_pids(self) -> set[int]:
        """Every process of the sandbox: members of its cgroup and descendants of its root process."""
        pids = set(self.process_limits.cgroup.pids()) if self.process_limits.cgroup is not None else set()
        root = self.root_pid
        if root is not None:
            pids |= proctree.descendants(root)
        return pids

    def sweep(self) -> int:
        """Kill every process of the sandbox except the kernel and its ancestors. Returns how many."""
        victims = []
        for pid in self._sandbox_pids() - self._keep:
            with contextlib.suppress(psutil.Error):
                proc = psutil.Process(pid)
                if proc.status() == psutil.STATUS_ZOMBIE:
                    continue
                proc.kill()
                victims.append(proc)
        _wait_gone(victims, timeout_s=2.0)
        return len(victims)

    async def reset(self) -> bool:
        """Make this kernel forget the stage it served (see `reset`), so another stage can have it. False when it
        cannot be (gone, busy, or the reset failed): the caller stops it."""
        if self.busy or self.kc is None or not await self.is_alive():
            return False
        return await self._silently(RESET_CODE, timeout=RESET_TIMEOUT_S)

    async def _silently(self, code: str, *, timeout: float) -> bool:
        """Run our own `code` in the kernel, unrecorded; True when it ran without an error."""
        msg_id = self.kc.execute(code, silent=True, store_history=False, allow_stdin=False)
        reply = await self._shell_reply(msg_id, timeout=timeout)
        return reply is not None and reply.get("content", {}).get("status") == "ok"

    async def reap(self) -> None:
        """Have the kernel collect the exit status of children the sweep killed: a zombie still counts
        against the sandbox's process limit. Silent (not recorded); a kernel that will not is only
        hurting itself, the limit holds either way."""
        if self.kernel_pid is None or self.kc is None:
            return
        with contextlib.suppress(psutil.Error):
            if not any(c.status() == psutil.STATUS_ZOMBIE for c in psutil.Process(self.kernel_pid).children()):
                return
        await self._silently(REAP_CODE, timeout=2.0)

    def thread_ids(self) -> set[int]:
        """The kernel process's threads (their ids), to find those a cell left running."""
        if self.kernel_pid is None:
            return set()
        try:
            return {int(tid) for tid in os.listdir(f"/proc/{self.kernel_pid}/task")}
        except OSError:
            return set()

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
        self.watchdog.quota_guard.close()   # after the kill: waiting for the watcher to end must not delay it
        self.process_limits.close()
        with contextlib.suppress(Exception):
            await self.km.cleanup_resources()
        self._context.destroy(linger=0)
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    # -- execution ------------------------------------------------------------------------------
    async def execute(self, code: str, capture: CellCapture, *, timeout_s: float, grace_s: float) -> Outcome:
        """Run `code`, feeding its outputs to `capture`. On timeout, an output flood or a sandbox-wide limit:
        stop the cell's other processes, interrupt the kernel, then give up on it after `grace_s`."""
        outcome = Outcome()
        self.watchdog.begin()
        self.busy = True
        try:
            await self._execute(code, capture, outcome, timeout_s=timeout_s, grace_s=grace_s)
            self.busy = outcome.died   # not cleared when cancelled: the cell may still be running
            return outcome
        finally:
            self.watchdog.end(None if outcome.died else self.kernel_pid)

    async def _execute(
        self, code: str, capture: CellCapture, outcome: Outcome, *, timeout_s: float, grace_s: float
    ) -> Outcome:
        msg_id = self.kc.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        interrupted = False
        idle = False
        reply: dict[str, Any] | None = None
        while not (idle and reply is not None):
            now = loop.time()
            stop_reason = "timeout" if now >= deadline else ("overflow" if capture.output_overflow else "")
            if not stop_reason and not interrupted:
                stop_reason = self.watchdog.check() or ""
            stopping = bool(stop_reason) and not interrupted
            if stopping:
                outcome.timed_out = stop_reason == "timeout"
                outcome.overflow = stop_reason == "overflow"
                outcome.limit = stop_reason if stop_reason in ("cpu", "disk") else ""
                self.sweep()
                self.interrupt()
                interrupted = True
                deadline = now + grace_s
            if interrupted:
                self.watchdog.quota_guard.release()   # after the sweep: the kernel alone continues, interrupted
            if stopping:
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
                msg = await self.kc.get_iopub_msg(timeout=min(max(deadline - now, 0.001), CHECK_EVERY_S))
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
