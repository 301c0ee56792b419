"""Resource limits on the sandbox: a cgroup where the machine lets us make one, rlimits always.

- Memory: a memory cgroup bounds all the sandbox's processes together (4 children of 700 MB each
  under a 1 GB limit: the OOM killer ends one, and the agent is told). RLIMIT_AS also bounds each
  process, so one big allocation is a `MemoryError`; without a memory cgroup that per-process
  bound is the only one (the documented fallback).
- Processes: `pids.max` of the cgroup; without one, RLIMIT_NPROC (per user: the sandbox user's
  current process count plus the allowance; it never applies to root, but the code never is root).
- CPU time: the cgroup's CPU accounting, checked while a cell runs (`Watchdog`); per-process
  times of the sandbox's processes where there is no CPU controller.
- File size: RLIMIT_FSIZE per file; the run's total is the `DiskQuota`'s job.
- Core dumps: off.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

import psutil

from agentic_ds.sandbox.cgroups import SandboxCgroup
from agentic_ds.sandbox.user import SandboxUser


@dataclass(frozen=True)
class Limits:
    memory_mb: int
    max_processes: int
    max_file_mb: int
    cpu_s: float = 240.0          # CPU seconds of all the sandbox's processes, per cell
    disk_quota_mb: int = 4096     # everything the code may write, for the whole run


class ProcessLimits:
    """Limits for one kernel's process tree; `preexec()` runs in the child before it execs."""

    def __init__(self, limits: Limits, user: SandboxUser) -> None:
        self.limits = limits
        self.user = user
        self.cgroup = SandboxCgroup.create(memory_mb=limits.memory_mb, max_pids=limits.max_processes)
        controllers = self.cgroup.controllers if self.cgroup is not None else []
        self.memory_limit = "cgroup" if "memory" in controllers else "rlimit (per process)"
        self.process_limit = "cgroup" if "pids" in controllers else "rlimit"
        self._nproc = (
            resource.RLIM_INFINITY if "pids" in controllers else _user_process_count(user.uid) + limits.max_processes
        )

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


def _user_process_count(uid: int) -> int:
    count = 0
    for proc in psutil.process_iter(["uids"]):
        uids = proc.info.get("uids")
        if uids is not None and uids.real == uid:
            count += 1
    return count
