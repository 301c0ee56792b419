"""A run directory or an input carried between machines: a tar.gz in memory, within a size cap.

Packing a run directory follows no link: every file is read through `safe_files` (no-follow), only regular files
and folders go in, and a symbolic link, FIFO or hard link that executed code may have planted is left out and
named (the run's own hard links of large inputs, under `inputs/`, are packed as files). The cap is on the files'
total size, `RETURN_CAP_BYTES` unless the eval says otherwise: when a run directory is larger, its `inputs/` is
left out (the machine that started the eval has the originals), then its largest files stay on the worker (whose
folder is then kept), each named with why. Unpacking takes only regular files and folders with plain relative
names, within the cap, into a new folder.
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from agentic_ds.runs import safe_files

RETURN_CAP_BYTES = 256 * 1024 * 1024
INPUT_CAP_BYTES = 256 * 1024 * 1024
MAX_ENTRIES = 100_000
COMPRESS_LEVEL = 3                 # most of a run directory is text; level 3 gets most of the gain, fast


@dataclass
class Packed:
    data: bytes
    files: int = 0
    left: list[dict[str, Any]] = field(default_factory=list)   # {"path", "bytes", "why"}: not in the archive

    @property
    def left_for_size(self) -> bool:
        """Whether files of the run itself stayed on the worker (its folder is then kept there)."""
        return any(item["why"].startswith("left on the worker") for item in self.left)


def pack_run(run_dir: Path, cap: int = RETURN_CAP_BYTES) -> Packed:
    """`run_dir` as a tar.gz of at most `cap` bytes of files (names relative to it)."""
    keep: list[safe_files.Entry] = []
    left: list[dict[str, Any]] = []
    for entry in safe_files.walk(run_dir, limit=MAX_ENTRIES):
        why = entry.suspicious
        if why and not (entry.is_regular and entry.rel.startswith("inputs/")):
            left.append({"path": entry.rel, "bytes": entry.st.st_size, "why": f"not packed: {why}"})
        else:
            keep.append(entry)
    total = sum(entry.st.st_size for entry in keep)
    if total > cap:
        inputs = [entry for entry in keep if entry.rel.startswith("inputs/")]
        keep = [entry for entry in keep if not entry.rel.startswith("inputs/")]
        total -= sum(entry.st.st_size for entry in inputs)
        left += [{"path": e.rel, "bytes": e.st.st_size, "why": "not returned: a copy of an input (the original is on "
                                                                "the machine that started the eval)"} for e in inputs]
    keep.sort(key=lambda entry: entry.st.st_size)
    while total > cap and keep:
        entry = keep.pop()
        total -= entry.st.st_size
        left.append({"path": entry.rel, "bytes": entry.st.st_size,
                     "why": f"left on the worker: the run directory is over the {cap // 2**20} MB returned"})
    buffer = io.BytesIO()
    packed = 0
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=COMPRESS_LEVEL) as tar:
        for rel, st in _folders(run_dir):
            info = tarfile.TarInfo(rel)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, st.st_mode & 0o755, int(st.st_mtime)
            tar.addfile(info)
        for entry in sorted(keep, key=lambda e: e.rel):
            try:
                with safe_files.open_read(run_dir / entry.rel, root=run_dir, allow_hardlinks=True) as handle:
                    data = handle.read(cap + 1)
            except OSError as exc:
                left.append({"path": entry.rel, "bytes": entry.st.st_size, "why": f"not packed: {exc}"})
                continue
            info = tarfile.TarInfo(entry.rel)
            info.size, info.mtime, info.mode = len(data), int(entry.st.st_mtime), entry.st.st_mode & 0o755
            tar.addfile(info, io.BytesIO(data))
            packed += 1
    return Packed(data=buffer.getvalue(), files=packed, left=left)


def unpack_run(data: bytes, dest: Path, cap: int = RETURN_CAP_BYTES) -> int:
    """Unpack an archive of `pack_run` into the new folder `dest` (which must not exist); the number of files."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        members = tar.getmembers()
        for member in members:
            if not (member.isreg() or member.isdir()) or not _plain(member.name):
                raise ValueError(f"refused archive entry {safe_files.shown(member.name)!s}")
        if sum(member.size for member in members) > cap:
            raise ValueError(f"the archive holds more than {cap} bytes")
        dest.mkdir()
        tar.extractall(dest, members=members, filter="data")
    return sum(1 for member in members if member.isreg())


def pack_input(path: Path, cap: int = INPUT_CAP_BYTES) -> bytes | None:
    """An input file or folder as a tar.gz naming it by its absolute path (without the leading `/`), so that
    unpacked under any folder its name and its parents' are the same; None when its files exceed `cap`."""
    path = path.resolve()
    if _size(path) > cap:
        return None
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=COMPRESS_LEVEL) as tar:
        tar.add(path, arcname=path.as_posix().lstrip("/"))
    return buffer.getvalue()


def unpack_input(data: bytes, into: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(into, filter="data")


def _folders(root: Path) -> list[tuple[str, os.stat_result]]:
    """Every folder below `root` (never through a link), parents first, with its lstat."""
    found: list[tuple[str, os.stat_result]] = []
    for dirpath, dirnames, _files in os.walk(root):
        for name in list(dirnames):
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            if not stat.S_ISDIR(st.st_mode):
                dirnames.remove(name)
                continue
            found.append((os.path.relpath(full, root), st))
    return found


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(os.lstat(os.path.join(d, f)).st_size for d, _dirs, files in os.walk(path) for f in files)


def _plain(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return bool(parts) and not PurePosixPath(name).is_absolute() and ".." not in parts
