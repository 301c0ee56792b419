"""Resource limits on the kernel: rlimits always, a pids cgroup where the machine lets us make one.

- Memory: RLIMIT_AS (per process) - a memory bomb gets `MemoryError`.
- File size: RLIMIT_FSIZE - a runaway write gets `OSError: File too large`.
- Core dumps: off.
- Processes: RLIMIT_NPROC is per user and never applies to root, so where a cgroup can be created
  (cgroup v2, or v1's pids controller, writable: typically root in a container) the kernel runs in
  its own cgroup with `pids.max`; that also lets us find every process the analysis started, even
  daemonized ones. Without a cgroup, RLIMIT_NPROC is set to the user's current process count plus
  the allowance, so it bounds what the sandbox adds; as root without a cgroup it bounds nothing
  (`ProcessLimits.process_limit == "none"`).
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil

CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Limits:
    memory_mb: int
    max_processes: int
    max_file_mb: int


class PidsCgroup:
    """A throw-away cgroup with `pids.max`, or `None` from `create()` when we cannot make one."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, max_pids: int) -> PidsCgroup | None:
        for parent in _candidate_parents():
            path = parent / f"agentic-ds-{uuid.uuid4().hex[:12]}"
            try:
                path.mkdir()
            except OSError:
                continue
            try:
                (path / "pids.max").write_text(str(max_pids))
                return cls(path)
            except OSError:
                with contextlib.suppress(OSError):
                    path.rmdir()
        return None

    def pids(self) -> list[int]:
        try:
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def join_self(self) -> None:
        """Move the calling process in (called in the child before exec)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        for _ in range(50):
            for pid in self.pids():
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)   # killed processes leave the cgroup once reaped


def _candidate_parents() -> list[Path]:
    parents = []
    v2 = CGROUP_ROOT / "cgroup.controllers"
    if v2.exists() and "pids" in v2.read_text().split():
        own = _own_cgroup_v2()
        if own is not None:
            parents.append(own)
    parents.append(CGROUP_ROOT / "pids")  # cgroup v1
    return [p for p in parents if (p / "cgroup.procs").exists() and os.access(p, os.W_OK)]


def _own_cgroup_v2() -> Path | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return CGROUP_ROOT / line[3:].lstrip("/")
    return None


class ProcessLimits:
    """Limits for one kernel process tree; `preexec()` runs in the child before it execs."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.cgroup = PidsCgroup.create(limits.max_processes)
        if self.cgroup is not None:
            self.process_limit = "cgroup"
            self._nproc = resource.RLIM_INFINITY
        else:
            self.process_limit = "none" if os.geteuid() == 0 else "rlimit"
            self._nproc = _user_process_count() + limits.max_processes

    def preexec(self) -> None:
        mb = 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (self.limits.memory_mb * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.limits.max_file_mb * mb,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self._nproc != resource.RLIM_INFINITY:
            resource.setrlimit(resource.RLIMIT_NPROC, (self._nproc, self._nproc))
        if self.cgroup is not None:
            self.cgroup.join_self()

    def close(self) -> None:
        if self.cgroup is not None:
            self.cgroup.remove()


def probe_process_limit() -> str:
    """What would bound the sandbox's process count here: "cgroup", "rlimit" or "none"."""
    cgroup = PidsCgroup.create(16)
    if cgroup is not None:
        cgroup.remove()
        return "cgroup"
    return "none" if os.geteuid() == 0 else "rlimit"


def _user_process_count() -> int:
    uid = os.getuid()
    count = 0
    for proc in psutil.process_iter(["uids"]):
        uids = proc.info.get("uids")
        if uids is not None and uids.real == uid:
            count += 1
    return count
