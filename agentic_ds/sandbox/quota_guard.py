"""Stops the sandbox the moment the run's disk quota is passed, however fast the disk and however busy
the event loop.

While a cell runs, a daemon thread polls the quota every few milliseconds (`statvfs`, constant time).
When the work folders may have grown past it, every process of the sandbox that can write (the
sweep's own set: cgroup members and descendants of the sandbox's root, never found by name) is
stopped with SIGSTOP at once, and only then is the growth measured exactly: a false alarm (other
programs on the machine wrote) costs the sandbox a pause the length of one walk. When it is real, the
kernel's other processes are killed at once (SIGKILL, unlike SIGSTOP, cuts short a write under way;
the sweep would kill them anyway), the kernel's RLIMIT_FSIZE is lowered to 0, so any write that would
grow a file fails with "File too large" once it runs again, and `tripped` is set: the execution loop
interrupts the kernel and `release()`s it. When the cell ends, `end()` gives the kernel back its file
size limit. What is written past the quota is what the sandbox's processes wrote within one poll,
plus the write each of the kernel's threads had under way when stopped (at most the file size limit).

Raising a hard limit back needs CAP_SYS_RESOURCE: as root the hard limit is lowered too; otherwise
only the soft one, which the code could raise again. Code that does so and writes past the quota a
second time (by more than one file's size) is stopped for good: the kernel does not answer any more,
and is restarted.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sys
import threading
from collections.abc import Callable, Iterable

from agentic_ds.sandbox.quota import DiskQuota

POLL_S = 0.002
SWITCH_INTERVAL_S = 0.0005   # while a guard runs: the thread gets the GIL within this, not Python's default 5 ms
CAP_SYS_RESOURCE = 24
_switch = {"guards": 0, "saved": 0.005}
_switch_lock = threading.Lock()


class QuotaGuard:
    def __init__(
        self, quota: DiskQuota, writers: Callable[[], set[int]], kernel: Callable[[], int | None], file_limit_bytes: int
    ) -> None:
        self.quota = quota
        self.writers = writers
        self.kernel = kernel
        self.file_limit = file_limit_bytes
        self.tripped = threading.Event()
        self._released = threading.Event()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped: set[int] = set()
        self._lower_hard = _has_capability(CAP_SYS_RESOURCE)

    def begin(self) -> None:
        """Start watching (the quota's `begin()` was called: it measures from the cell's start)."""
        self.end(kernel_pid=None)
        self.tripped.clear()
        self._released.clear()
        self._done.clear()
        self._stopped = set()
        self._thread = threading.Thread(target=self._watch, name="agentic-ds-quota-guard", daemon=True)
        _share_the_gil_faster(True)
        self._thread.start()

    def release(self) -> None:
        """Continue the processes the first stop left (the cell's others were killed; the kernel, interrupted,
        now fails to grow any file). A later stop is for good."""
        if self.tripped.is_set() and not self._released.is_set():
            self._signal(self._stopped, signal.SIGCONT)
            self._stopped = set()
            self._released.set()

    def end(self, kernel_pid: int | None) -> None:
        """Stop watching; give `kernel_pid` (the kernel, when it lives on) its file size limit back."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._done.set()
        self._released.set()   # wakes the thread if it waits for a release that will not come
        thread.join()
        _share_the_gil_faster(False)
        if kernel_pid is None or not self.tripped.is_set():
            return
        self._signal(self._stopped, signal.SIGCONT)
        with contextlib.suppress(OSError):
            resource.prlimit(kernel_pid, resource.RLIMIT_FSIZE, (self.file_limit, self.file_limit))

    # -- the thread -----------------------------------------------------------------------------
    def _watch(self) -> None:
        _run_ahead_of_the_sandbox()
        while not self._done.wait(POLL_S):
            if self.tripped.is_set() and not self._released.is_set():
                continue   # stopped: waiting for the execution loop to release it
            if not self.quota.may_be_exceeded():
                continue
            stopped = self._stop_all()
            if not self.quota.confirm():
                self._signal(stopped, signal.SIGCONT)
                continue
            kernel = self.kernel()
            if kernel in stopped:   # the cell's other processes are killed now: that cuts short a write under way
                self._signal(stopped - {kernel}, signal.SIGKILL)
                stopped = {kernel}
            self._forbid_growth(stopped)
            self._stopped = stopped
            if self.tripped.is_set():
                return   # the second time: stopped for good
            self.tripped.set()
            self._released.wait()
            if self._done.is_set():
                return
            self.quota.allow_more(self.file_limit)

    def _stop_all(self) -> set[int]:
        """SIGSTOP every writer: the kernel first (it cannot start more), then the others found, again until
        no new one appeared (a child forked meanwhile)."""
        kernel = self.kernel()
        stopped = {kernel} if kernel is not None else set()
        self._signal(stopped, signal.SIGSTOP)
        while True:
            new = self.writers() - stopped
            if not new:
                return stopped
            self._signal(new, signal.SIGSTOP)
            stopped |= new

    def _forbid_growth(self, pids: Iterable[int]) -> None:
        for pid in pids:
            with contextlib.suppress(OSError):
                _, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, 0 if self._lower_hard else hard))

    @staticmethod
    def _signal(pids: Iterable[int], signum: int) -> None:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signum)


def _run_ahead_of_the_sandbox() -> None:
    """As root, the calling thread (which sleeps almost all the time) is woken ahead of every other process
    of the machine: real-time priority, else a lower nice value. Otherwise it stays as it is."""
    tid = threading.get_native_id()
    try:
        os.sched_setscheduler(tid, os.SCHED_FIFO, os.sched_param(1))
    except OSError:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, tid, -10)


def _share_the_gil_faster(start: bool) -> None:
    """Shorten the interpreter's switch interval while any guard runs (restored when the last one ends)."""
    with _switch_lock:
        if start:
            if _switch["guards"] == 0:
                _switch["saved"] = sys.getswitchinterval()
                sys.setswitchinterval(min(_switch["saved"], SWITCH_INTERVAL_S))
            _switch["guards"] += 1
        else:
            _switch["guards"] -= 1
            if _switch["guards"] == 0:
                sys.setswitchinterval(_switch["saved"])


def _has_capability(bit: int) -> bool:
    """Whether this process has the capability (effective set), e.g. CAP_SYS_RESOURCE."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> bit & 1)
    return False
