"""Wait for files to change in some folders without spinning: Linux inotify through ctypes (tests only).

A test that must act the moment a run's events.jsonl reaches a line used to stat it every half millisecond, which
kept most of a core busy beside the run it watched (and so slowed that run down). `FolderEvents.wait()` sleeps in
`select` until something in a watched folder is created, written or moved in, or the timeout passes. Where inotify
is missing, `wait()` sleeps half a millisecond, which is the old polling.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import select
import time
from pathlib import Path
from types import TracebackType

IN_MODIFY, IN_MOVED_TO, IN_CREATE = 0x2, 0x80, 0x100
POLL_S = 0.0005


class FolderEvents:
    def __init__(self) -> None:
        self._watched: set[Path] = set()
        self._libc: ctypes.CDLL | None = None
        self.fd = -1
        try:
            self._libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            self.fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            self._libc = None

    def watch(self, folder: Path) -> None:
        """Wake `wait()` on changes directly in `folder` (once it exists; a missing folder is not an error)."""
        if self._libc is None or self.fd < 0 or folder in self._watched or not folder.is_dir():
            return
        if self._libc.inotify_add_watch(self.fd, os.fsencode(folder), IN_MODIFY | IN_MOVED_TO | IN_CREATE) >= 0:
            self._watched.add(folder)

    def wait(self, timeout: float) -> None:
        """Return when a watched folder changed (events read and dropped) or `timeout` seconds passed."""
        if self.fd < 0:
            time.sleep(min(timeout, POLL_S))
            return
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                while os.read(self.fd, 65536):
                    pass
            except BlockingIOError:
                pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> FolderEvents:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
