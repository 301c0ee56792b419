"""Limits checked while a cell runs: CPU time of the whole sandbox, the run's disk quota, the memory cgroup.

`check()` is cheap and called a few times a second by the execution loop; it names the limit a cell
went past ("cpu" or "disk"), so the cell is stopped and the agent told which. The disk quota is watched
by a `QuotaGuard` (a thread and a watcher process), which stops the sandbox's processes itself the
moment it is passed. `memory_kills()` says
whether the memory cgroup's OOM killer ended processes during the cell.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import psutil

from agentic_ds.sandbox.cgroups import SandboxCgroup
from agentic_ds.sandbox.quota import DiskQuota
from agentic_ds.sandbox.quota_guard import QuotaGuard

CHECK_EVERY_S = 0.05


class Watchdog:
    def __init__(
        self,
        *,
        cgroup: SandboxCgroup | None,
        pids: Callable[[], set[int]],
        quota: DiskQuota,
        cpu_s: float,
        file_limit_bytes: int,
    ) -> None:
        self.cgroup = cgroup
        self.pids = pids
        self.quota = quota
        self.quota_guard = QuotaGuard(quota, file_limit_bytes)
        self.cpu_s = cpu_s
        self._cpu_at_start = 0.0
        self._oom_at_start = 0
        self._next_check = 0.0
        self._seen_cpu: dict[int, float] = {}

    def begin(self) -> None:
        self.quota.begin()
        self._seen_cpu = {}
        self._cpu_at_start = self._cpu_now()
        self._oom_at_start = self.cgroup.oom_kills() if self.cgroup is not None else 0
        self._next_check = 0.0
        self.quota_guard.begin()

    def end(self, kernel_pid: int | None) -> None:
        """The cell is over: stop watching; `kernel_pid`, when the kernel lives on, may write again."""
        self.quota_guard.end(kernel_pid)

    def check(self) -> str | None:
        """"cpu" or "disk" when the cell went past that limit, else None (rate-limited)."""
        if self.quota_guard.tripped.is_set():
            return "disk"
        now = time.monotonic()
        if now < self._next_check:
            return None
        self._next_check = now + CHECK_EVERY_S
        if self._cpu_now() - self._cpu_at_start > self.cpu_s:
            return "cpu"
        if self.quota_guard.lost and self.quota.usage() > self.quota.threshold:
            return "disk"   # without its watcher, the quota still holds, only less tightly
        return None

    def cpu_used(self) -> float:
        return max(0.0, self._cpu_now() - self._cpu_at_start)

    def memory_kills(self) -> int:
        if self.cgroup is None:
            return 0
        return max(0, self.cgroup.oom_kills() - self._oom_at_start)

    def _cpu_now(self) -> float:
        if self.cgroup is not None:
            total = self.cgroup.cpu_seconds()
            if total is not None:
                return total
        # No CPU controller: the processes' own times (a process that already ended is remembered).
        for pid in self.pids():
            with contextlib.suppress(psutil.Error):
                times = psutil.Process(pid).cpu_times()
                self._seen_cpu[pid] = times.user + times.system + times.children_user + times.children_system
        return sum(self._seen_cpu.values())
