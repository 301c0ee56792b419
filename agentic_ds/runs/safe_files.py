"""The host's file I/O inside a run directory: the product's only atomic writer, and no-follow readers.

Executed code may plant symbolic links, hard links or FIFOs wherever it can write (and, without
bubblewrap, anywhere in the run directory). Nothing here follows them: every folder below a trusted
root is opened with `O_DIRECTORY | O_NOFOLLOW` from its parent's descriptor (openat-style), every
file with `O_NOFOLLOW` (`O_EXCL` when it is created), and a file must be a regular file with one
name. Anything else raises `UnsafeFile` (an `OSError`), which callers report as a finding.

One policy for every record the product writes: mode 0644 whatever the umask, data fsynced before
the atomic rename, the temporary file removed on any failure.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

FILE_MODE = 0o644
DIR_MODE = 0o755
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW


class UnsafeFile(OSError):
    """A path the host refuses to follow: a symlink, a hard link, or not a regular file or folder."""

    def __init__(self, path: Path | str, what: str) -> None:
        super().__init__(f"{path} is {what}: not followed")
        self.path = str(path)
        self.what = what


def _parts(path: Path, root: Path) -> tuple[str, ...]:
    rel = Path(os.path.relpath(path, root))
    if rel.parts[:1] == ("..",) or rel.is_absolute():
        raise ValueError(f"{path} is not inside {root}")
    return tuple(p for p in rel.parts if p != ".")


def _describe(dir_fd: int, name: str) -> str:
    try:
        st = os.lstat(name, dir_fd=dir_fd)
    except OSError:
        return "not a folder"
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link"
    return "not a folder" if not stat.S_ISDIR(st.st_mode) else "unusable"


@contextlib.contextmanager
def open_dir(path: Path, root: Path, *, create: bool = False) -> Iterator[int]:
    """A descriptor of folder `path`, reached from the trusted `root` without following any link."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        walked = Path(root)
        for name in _parts(path, root):
            walked = walked / name
            created = False
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, DIR_MODE, dir_fd=fd)
                    created = True
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                raise
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                raise UnsafeFile(walked, _describe(fd, name)) from exc
            if created:
                os.fchmod(child, DIR_MODE)   # the same mode whatever the umask, like the files
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def make_dirs(path: Path, root: Path) -> None:
    """`mkdir -p` below the trusted `root`, refusing (`UnsafeFile`) any component that is a link."""
    with open_dir(path, root, create=True):
        pass


def check_regular(st: os.stat_result, path: Path | str, *, allow_hardlinks: bool = False) -> None:
    """Raise `UnsafeFile` unless `st` is a regular file with one name (or any count when allowed)."""
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFile(path, "a symbolic link")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFile(path, "not a regular file")
    if st.st_nlink > 1 and not allow_hardlinks:
        raise UnsafeFile(path, f"a hard link ({st.st_nlink} names)")


def _open_file(
    path: Path, root: Path | None, flags: int, *, create: bool = False, allow_hardlinks: bool = False
) -> int:
    root = Path(root) if root is not None else path.parent
    with open_dir(path.parent, root, create=create) as dir_fd:
        try:
            fd = os.open(path.name, flags | _NOFOLLOW | os.O_NONBLOCK, FILE_MODE, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:   # O_NOFOLLOW on a symlink
                raise UnsafeFile(path, "a symbolic link") from exc
            raise
    try:
        check_regular(os.fstat(fd), path, allow_hardlinks=allow_hardlinks)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


# -- writing ------------------------------------------------------------------------------------
def write_atomic(path: Path, data: str | bytes, *, root: Path | None = None) -> None:
    """Replace `path` with `data` in one step: a fresh temp file (0644, fsynced), then rename.

    `root` is the folder trusted as it is (default: the file's own folder); every folder between
    it and the file is created if missing and opened without following links. A link planted at
    `path` itself is replaced, never written through.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    root = Path(root) if root is not None else path.parent
    with open_dir(path.parent, root, create=True) as dir_fd:
        tmp = f".{path.name}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, FILE_MODE, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fchmod(handle.fileno(), FILE_MODE)
                os.fsync(handle.fileno())
            os.replace(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
            raise


def create_new(path: Path, *, root: Path | None = None, text: bool = True) -> IO:
    """A new file opened for writing; fails (`FileExistsError`) if any entry, link or not, has the name."""
    fd = _open_file(path, root, os.O_WRONLY | os.O_CREAT | os.O_EXCL, create=True)
    os.fchmod(fd, FILE_MODE)
    raw = os.fdopen(fd, "wb")
    return io.TextIOWrapper(raw, encoding="utf-8", errors="replace") if text else raw


def open_private(path: Path, *, root: Path | None = None) -> int:
    """A descriptor on `path` for reading and writing, created 0600 if missing (a lock file: the host's alone);
    a planted link raises `UnsafeFile`."""
    fd = _open_file(path, root, os.O_RDWR | os.O_CREAT, create=True)
    os.fchmod(fd, 0o600)
    return fd


def open_append(path: Path, *, root: Path | None = None, text: bool = True, line_buffered: bool = False) -> IO:
    """`path` opened for appending (created 0644 if missing); a planted link raises `UnsafeFile`."""
    fd = _open_file(path, root, os.O_WRONLY | os.O_APPEND | os.O_CREAT, create=True)
    if not text:
        return os.fdopen(fd, "ab", buffering=0)
    return os.fdopen(fd, "a", encoding="utf-8", buffering=1 if line_buffered else -1)


# -- reading ------------------------------------------------------------------------------------
def read_bytes(
    path: Path, *, root: Path | None = None, limit: int | None = None, allow_hardlinks: bool = False
) -> bytes:
    """The file's bytes (its first `limit` bytes when given), never through a link."""
    fd = _open_file(path, root, os.O_RDONLY, allow_hardlinks=allow_hardlinks)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(-1 if limit is None else limit)


def read_text(path: Path, *, root: Path | None = None, limit: int | None = None) -> str:
    return read_bytes(path, root=root, limit=limit).decode("utf-8", errors="replace")


def open_read(path: Path, *, root: Path | None = None, allow_hardlinks: bool = False) -> IO[bytes]:
    """A binary handle on the file, opened without following links (for streaming readers)."""
    return os.fdopen(_open_file(path, root, os.O_RDONLY, allow_hardlinks=allow_hardlinks), "rb")


def file_problem(path: Path, *, root: Path | None = None) -> str | None:
    """None for a regular one-name file reached without links; else "missing" or what it is instead."""
    root = Path(root) if root is not None else path.parent
    try:
        with open_dir(path.parent, root) as dir_fd:
            st = os.lstat(path.name, dir_fd=dir_fd)
        check_regular(st, path)
    except FileNotFoundError:
        return "missing"
    except UnsafeFile as exc:
        return exc.what
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc)
    return None


def shown(name: str) -> str:
    """A name the code chose, as one safe line: escaped (like repr) when it holds control characters."""
    return name if name.isprintable() else repr(name)[1:-1]


# -- listing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One name under a walked folder: its path relative to the walk's root and its lstat."""

    rel: str
    st: os.stat_result

    @property
    def is_link(self) -> bool:
        return stat.S_ISLNK(self.st.st_mode)

    @property
    def is_regular(self) -> bool:
        return stat.S_ISREG(self.st.st_mode)

    @property
    def suspicious(self) -> str | None:
        """Why the host will not follow this entry (None for a plain file)."""
        if self.is_link:
            return "a symbolic link"
        if not self.is_regular:
            return "not a regular file"
        if self.st.st_nlink > 1:
            return f"a hard link ({self.st.st_nlink} names)"
        return None


def walk(
    folder: Path, *, root: Path | None = None, skip_top: frozenset[str] = frozenset(), limit: int = 20_000
) -> list[Entry]:
    """Every non-folder entry under `folder` (links included, never followed), at most `limit`.

    Paths are relative to `root` (default `folder`). Folders are descended through descriptors
    (`os.fwalk`), so a folder swapped for a link during the walk is not entered.
    """
    root = Path(root) if root is not None else folder
    entries: list[Entry] = []
    try:
        with open_dir(folder, root) as dir_fd:
            prefix = "/".join(_parts(folder, root))
            for dirpath, dirnames, filenames, fd in os.fwalk(".", dir_fd=dir_fd):
                rel_dir = os.path.normpath(os.path.join(prefix, dirpath))
                rel_dir = "" if rel_dir == "." else rel_dir
                if dirpath == ".":
                    dirnames[:] = [d for d in dirnames if d not in skip_top]
                names = list(filenames)
                for name in list(dirnames):
                    with contextlib.suppress(OSError):
                        if stat.S_ISLNK(os.lstat(name, dir_fd=fd).st_mode):
                            dirnames.remove(name)   # a link to a folder: listed, never entered
                            names.append(name)
                for name in names:
                    if dirpath == "." and name in skip_top:
                        continue
                    with contextlib.suppress(OSError):
                        st = os.lstat(name, dir_fd=fd)
                        entries.append(Entry(f"{rel_dir}/{name}" if rel_dir else name, st))
                        if len(entries) >= limit:
                            return entries
    except FileNotFoundError:
        return []
    except UnsafeFile:   # the folder itself was swapped for a link: that is the one entry to report
        with contextlib.suppress(OSError):
            return [Entry("/".join(_parts(folder, root)), os.lstat(folder))]
        return []
    return entries


def write_json(path: Path, data: object, *, root: Path | None = None) -> None:
    """`write_atomic` of `data` as indented JSON (values JSON cannot hold are written as strings)."""
    write_atomic(path, json.dumps(data, indent=2, default=str) + "\n", root=root)
