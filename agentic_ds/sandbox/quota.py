"""The run's disk quota: everything the code may write (its work folders) counts, not each file alone.

RLIMIT_FSIZE caps each file; this caps their sum. While a cell runs it is polled cheaply: the free
space of the filesystems holding the work folders (`statvfs`, constant time) tells how much was
written since the cell began, whoever wrote it (`budget()`: how much may be). Only when that could
put the run over its quota are the folders measured exactly (allocated blocks, hard links counted
once), so writes by other programs on the machine never stop a cell by themselves. `QuotaGuard` and
its watcher process do the polling.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from agentic_ds.runs import safe_files


class DiskQuota:
    def __init__(self, run_dir: Path, folders: list[Path], quota_bytes: int) -> None:
        self.run_dir = run_dir
        self.folders = folders
        self.quota = quota_bytes
        self.used_at_start = 0
        self.threshold = quota_bytes
        self._used_at_base = 0
        self._free_at_base: dict[int, int] = {}

    def usage(self) -> int:
        """Bytes allocated under the work folders (hard links counted once), walked without following links."""
        seen: set[tuple[int, int]] = set()
        total = 0
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                for entry in safe_files.walk(folder, root=self.run_dir, limit=200_000):
                    key = (entry.st.st_dev, entry.st.st_ino)
                    if key not in seen:
                        seen.add(key)
                        total += entry.st.st_blocks * 512
        return total

    def begin(self) -> None:
        free = self._free()
        self.used_at_start = self.usage()
        # A cell is stopped when the folders grow past the quota, and past what they held when it began.
        self.threshold = max(self.quota, self.used_at_start)
        self._rebase(self.used_at_start, free)

    def _rebase(self, used: int, free: dict[int, int]) -> None:
        """Measure growth from `free`, read before the walk that found `used`: a write that ends during the walk
        (one under way when the sandbox was stopped) is then counted once or twice, never not at all."""
        self._used_at_base = used
        self._free_at_base = free

    def _free(self) -> dict[int, int]:
        free: dict[int, int] = {}
        for folder in self.folders:
            with contextlib.suppress(OSError):
                st = os.stat(folder)
                vfs = os.statvfs(folder)
                free[st.st_dev] = vfs.f_bfree * vfs.f_frsize
        return free

    def budget(self) -> tuple[int, dict[int, int]]:
        """What the folders' filesystems may still lose before the threshold could be passed, and their free
        bytes (by device) it is counted from: the watcher's trigger."""
        return self.threshold - self._used_at_base, dict(self._free_at_base)

    def confirm(self) -> bool:
        """Exact (a walk): True when the work folders are past the threshold. When they are not, the space
        was taken by other programs: growth is measured from here on, so they alone never stop a cell."""
        free = self._free()
        used = self.usage()
        if used > self.threshold:
            return True
        self._rebase(used, free)
        return False

    def allow_more(self, extra: int) -> None:
        """Raise the threshold to what the folders hold now plus `extra` bytes (after a cell was stopped)."""
        free = self._free()
        used = self.usage()
        self.threshold = max(self.threshold, used) + extra
        self._rebase(used, free)

    def over(self) -> int:
        """Bytes over the quota now (0 when under)."""
        return max(0, self.usage() - self.quota)
