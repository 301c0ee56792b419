"""The run's disk quota: everything the code may write (its work folders) counts, not each file alone.

RLIMIT_FSIZE caps each file; this caps their sum. While a cell runs it is polled cheaply: the free
space of the filesystems holding the work folders (`statvfs`, constant time) tells how much was
written since the cell began, whoever wrote it. Only when that could put the run over its quota are
the folders measured exactly (allocated blocks, hard links counted once), so writes by other
programs on the machine never stop a cell by themselves.
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
        self._free_at_start: dict[int, int] = {}

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
        self.used_at_start = self.usage()
        self._free_at_start = self._free()

    def _free(self) -> dict[int, int]:
        free: dict[int, int] = {}
        for folder in self.folders:
            with contextlib.suppress(OSError):
                st = os.stat(folder)
                vfs = os.statvfs(folder)
                free[st.st_dev] = vfs.f_bfree * vfs.f_frsize
        return free

    def exceeded(self) -> bool:
        """True when the work folders grew past the quota during this cell (a cell that only deletes
        files, to come back under the quota, is never stopped)."""
        now = self._free()
        written = sum(max(0, self._free_at_start.get(dev, free) - free) for dev, free in now.items())
        if self.used_at_start + written <= self.quota:
            return False
        used = self.usage()
        return used > self.quota and used > self.used_at_start

    def over(self) -> int:
        """Bytes over the quota now (0 when under)."""
        return max(0, self.usage() - self.quota)
