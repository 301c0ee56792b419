"""Stops the sandbox the moment the run's disk quota is passed, however fast the disk and however busy
the CLI's event loop.

While a cell runs, a watcher process (`quota_watcher`, its own interpreter: it never waits for the
CLI's) reads the free space of the work folders' filesystems every 2 ms (`statvfs`, constant time),
and sums their blocks at every poll that about 1/20th of a CPU allows (files other programs delete give free
space back). When the folders may have grown past the quota, it stops every process of the sandbox with SIGSTOP
(the kernel first, then the sweep's own set: cgroup members and descendants of the sandbox's root,
never found by name), and only then does this guard's thread measure the growth exactly: a false
alarm (other programs on the machine wrote) costs the sandbox a pause the length of one walk. When
it is real, the kernel's other processes are killed at once (SIGKILL, unlike SIGSTOP, cuts short a
write under way; the sweep would kill them anyway), the kernel's RLIMIT_FSIZE is lowered to 0, so
any write that would grow a file fails with "File too large" once it runs again, and `tripped` is
set: the execution loop interrupts the kernel and `release()`s it. When the cell ends, `end()` gives
the kernel back its file size limit. What is written past the quota is what the sandbox's processes
wrote within one poll and the stop, plus the write each of the kernel's threads had under way.
Stopped processes are continued by the watcher itself, in the same step that arms it again: never by
this thread, which could be late enough to continue a process the watcher had stopped again since.

Changing another user's limits needs CAP_SYS_RESOURCE, which root in a container often lacks; the kernel
then runs as `nobody`, and util-linux's `prlimit`, run as `nobody`, lowers its soft limit. Raising a hard
limit back needs the capability too: with it the hard limit is lowered as well; without it only the soft
one, which the code could raise again. Code that does so and writes past the quota a second time (by more
than one file's size) is stopped for good: the kernel does not answer any more, and is restarted.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from agentic_ds.sandbox.quota import DiskQuota

CAP_SYS_RESOURCE = 24
WATCHER = Path(__file__).with_name("quota_watcher.py")


class QuotaGuard:
    def __init__(self, quota: DiskQuota, file_limit_bytes: int) -> None:
        self.quota = quota
        self.file_limit = file_limit_bytes
        self.tripped = threading.Event()
        self._released = threading.Event()
        self._done = False
        self._lock = threading.Lock()   # arming and disarming the watcher: never arm after the cell ended
        self._thread: threading.Thread | None = None
        self._watcher: subprocess.Popen[bytes] | None = None
        self._command: list[str] = []
        self._kernel: int | None = None
        self._stopped: set[int] = set()
        self._lower_hard = _has_capability(CAP_SYS_RESOURCE)

    def start(self, *, kernel: int, root: int, spare: set[int], cgroup_procs: Path | None) -> None:
        """Start the watcher for a started kernel (`spare`: the processes above it, never stopped)."""
        self._kernel = kernel
        self._command = [
            sys.executable, "-E", "-s", "-S", str(WATCHER), str(kernel), str(root), ",".join(map(str, sorted(spare))),
            str(cgroup_procs) if cgroup_procs is not None else "-", *map(str, self.quota.folders)]
        self._watcher = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)

    @property
    def lost(self) -> bool:
        """The watcher ended unasked (killed, or crashed): until the next cell starts another, the execution loop
        measures the folders itself (the bound is then what the sandbox writes between two of its checks)."""
        return self._watcher is not None and self._watcher.poll() is not None

    def close(self) -> None:
        self.end(kernel_pid=None)
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            with contextlib.suppress(OSError):
                watcher.stdin.close()   # type: ignore[union-attr]
            try:
                watcher.wait(timeout=2)
            except subprocess.TimeoutExpired:
                watcher.kill()
                watcher.wait()
            self._close_pipes(watcher)

    @staticmethod
    def _close_pipes(watcher: subprocess.Popen[bytes]) -> None:
        for pipe in (watcher.stdin, watcher.stdout):
            with contextlib.suppress(OSError):
                pipe.close()   # type: ignore[union-attr]

    def begin(self) -> None:
        """Watch this cell (the quota's `begin()` was called: it measures from the cell's start)."""
        if self._watcher is None:
            return
        if self.lost:
            self._close_pipes(self._watcher)
            self._watcher = self._spawn()
        self.tripped.clear()
        self._released.clear()
        self._stopped = set()
        self._done = False
        self._arm()
        self._thread = threading.Thread(target=self._watch, name="agentic-ds-quota-guard", daemon=True)
        self._thread.start()

    def release(self) -> None:
        """The kernel was interrupted: let it continue (the cell's other processes were killed; the kernel now
        fails to grow any file). The guard's thread arms the watcher again first, so a kernel that ignores the
        interrupt and raises its own limit again is stopped within one file's size, and for good."""
        if self.tripped.is_set():
            self._released.set()

    def end(self, kernel_pid: int | None) -> None:
        """Stop watching; give `kernel_pid` (the kernel, when it lives on) its file size limit back."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        with self._lock:
            self._done = True
            self._tell("disarm")
        self._released.set()   # wakes the thread if it waits for a release that will not come
        thread.join()
        if kernel_pid is None or not self.tripped.is_set():
            return
        _signal(self._stopped, signal.SIGCONT)
        _set_file_limit(kernel_pid, self.file_limit, self.file_limit if self._lower_hard else None)

    # -- the thread -----------------------------------------------------------------------------
    def _watch(self) -> None:
        assert self._watcher is not None and self._watcher.stdout is not None
        for line in self._watcher.stdout:
            words = line.split()
            if words[:1] != [b"stopped"]:
                return   # "disarmed" (or the watcher ended: nothing more will come)
            stopped = {int(pid) for pid in words[1:]}
            if not self.quota.confirm():
                self._arm(stopped)   # measured from here on
                continue
            if self._kernel in stopped:   # the cell's other processes are killed now: that cuts short a write
                _signal(stopped - {self._kernel}, signal.SIGKILL)
                stopped = {self._kernel}
            self._forbid_growth(stopped)
            self._stopped = stopped
            if self.tripped.is_set():
                continue   # the second time: stopped for good
            self.tripped.set()
            self._released.wait()
            self._stopped = set()
            if not self._done:
                self.quota.allow_more(self.file_limit)
            self._arm(stopped)

    def _arm(self, stopped: Iterable[int] = ()) -> None:
        """Watch from the quota's last measure on, and continue `stopped` (the processes of the watcher's last stop).
        The watcher continues them itself, once armed: continued from this thread, which the processes it continues
        can put off for tens of milliseconds on a loaded machine, some would be continued after the watcher had
        stopped them again, and write unwatched until this thread read that second stop."""
        budget, free = self.quota.budget()
        words = [str(budget), str(self.quota.threshold), ",".join(map(str, sorted(stopped))) or "-",
                 *(f"{dev}={value}" for dev, value in free.items())]
        with self._lock:
            told = not self._done and self._tell("arm " + " ".join(words))
        if not told:
            _signal(stopped, signal.SIGCONT)   # the cell is over (or the watcher gone): nothing will stop them again

    def _tell(self, line: str) -> bool:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self._watcher.stdin.write((line + "\n").encode())   # type: ignore[union-attr]
            self._watcher.stdin.flush()   # type: ignore[union-attr]
            return True
        return False

    def _forbid_growth(self, pids: Iterable[int]) -> None:
        for pid in pids:
            _set_file_limit(pid, 0, 0 if self._lower_hard else None)


def _set_file_limit(pid: int, soft: int, hard: int | None) -> None:
    """Set the RLIMIT_FSIZE of `pid` (stopped or between cells; `hard` None: kept). Without CAP_SYS_RESOURCE
    only a process of the same user may: the kernel runs as `nobody` when the CLI is root, and root in a
    container often lacks that capability, so a short helper of the kernel's own user does it then."""
    try:
        kept = resource.prlimit(pid, resource.RLIMIT_FSIZE)[1]
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, kept if hard is None else hard))
    except PermissionError:
        _set_as_owner(pid, soft)
    except OSError:
        pass   # ended


def _set_as_owner(pid: int, soft: int) -> None:
    """The soft limit of `pid`, set by util-linux's `prlimit` run as its user (no groups, nothing inherited; the
    interpreter may be in a folder that user cannot enter). Without `prlimit` it stays: the watcher still stops a
    kernel that writes past the quota again, for good."""
    owner, tool = _owner(pid), shutil.which("prlimit")
    if owner is None or owner[0] == os.getuid() or tool is None:
        return   # gone, ours already (nothing another process of ours could do), or no tool
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [tool, f"--pid={pid}", f"--fsize={soft}:"], user=owner[0], group=owner[1], extra_groups=[], cwd="/",
            env={}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10,
        )


def _owner(pid: int) -> tuple[int, int] | None:
    """The real uid and gid of `pid`, when its real, effective and saved ids agree (else no process may act on it
    as its user)."""
    ids: dict[str, set[str]] = {}
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("Uid", "Gid"):
                ids[key] = set(value.split()[:3])
    uid, gid = ids.get("Uid", set()), ids.get("Gid", set())
    if len(uid) != 1 or len(gid) != 1:
        return None
    return int(uid.pop()), int(gid.pop())


def _signal(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signum)


def _has_capability(bit: int) -> bool:
    """Whether this process has the capability (effective set), e.g. CAP_SYS_RESOURCE."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> bit & 1)
    return False
