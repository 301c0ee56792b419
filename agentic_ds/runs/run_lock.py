"""Who is working on a run: an exclusive `flock` on `.lock` in the run directory, held for the whole run.

A run whose record says `running` while nobody holds its lock has died (killed, crashed, the machine
stopped): `list`, `show` and the reports call it interrupted, and `agentic-ds resume` may take it over.
The kernel drops a `flock` when its holder ends, however it ends. It belongs to an open file description, so a
second open in the same process conflicts too (a POSIX `lockf` would not, and closing any descriptor of the
file would silently drop it). `.lock` sits in the run directory's top folder, which executed code cannot
write, is opened without following links (`safe_files`) and is mode 0600; it holds the holder's process id.

Readers probe with a shared lock, which never conflicts with another reader; a run taking the lock retries for
a moment so that a probe in progress cannot make it fail.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

from agentic_ds.errors import UsageError
from agentic_ds.runs import safe_files
from agentic_ds.schema import RunStatus

LOCK_FILE = ".lock"
DIED_REASON = "the process running it ended without finishing (killed, crashed, or the machine stopped)"
_ACQUIRE_FOR_S = 1.0


class RunBusy(UsageError):
    """Another process holds the run's lock: it is still running."""


class RunLock:
    """The run's lock, held by this process until `release()` (re-entrant: `acquire` of a run already held
    here hands out the same lock and counts)."""

    def __init__(self, root: Path, fd: int) -> None:
        self.root = root
        self._fd: int | None = fd
        self._holds = 1

    def release(self) -> None:
        self._holds -= 1
        if self._holds > 0 or self._fd is None:
            return
        _HELD.pop(self.root, None)
        fd, self._fd = self._fd, None
        os.close(fd)   # closing the only descriptor drops the lock


_HELD: dict[Path, RunLock] = {}


def acquire(root: Path) -> RunLock:
    """Take run `root`'s lock for this process; `RunBusy` (exit 2) when another process holds it."""
    root = Path(root).resolve()
    held = _HELD.get(root)
    if held is not None:
        held._holds += 1
        return held
    fd = safe_files.open_private(root / LOCK_FILE, root=root)
    deadline = time.monotonic() + _ACQUIRE_FOR_S
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    holder = _holder(fd)
                    raise RunBusy(
                        f"run {root.name} is still running" + (f" (process {holder})" if holder else ""),
                        hint="wait for it to finish, or stop it (Ctrl-C, or kill that process) and resume it then",
                    ) from None
                time.sleep(0.02)
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    lock = RunLock(root, fd)
    _HELD[root] = lock
    return lock


def is_held(root: Path) -> bool | None:
    """Whether some process holds run `root`'s lock; None when it cannot be told (the file is unreadable).

    A run without a `.lock` (written by a version without locks, or not started yet) is not held."""
    root = Path(root).resolve()
    if root in _HELD:
        return True
    try:
        handle = safe_files.open_read(root / LOCK_FILE, root=root)
    except FileNotFoundError:
        return False
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return None
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return False


def died(root: Path, status: RunStatus) -> bool:
    """A run recorded as running whose lock nobody holds: its process ended without finishing."""
    return status is RunStatus.RUNNING and is_held(root) is False


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return text
    return ""
