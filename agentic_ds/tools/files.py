"""File tools confined to the run directory: `read_file`, `write_file`, `list_files`.

Every path goes through `Workspace.resolve()`, which refuses absolute paths, `~`, `..`, NUL bytes
and symlinks that lead out; writes are also refused into the run's evidence (`inputs/`, logs,
session). Refusals come back to the model as `{"error", "hint"}`, never as exceptions.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from agentic_ds.errors import AgenticDSError, PathEscape
from agentic_ds.runs import safe_files
from agentic_ds.workspace import Workspace

HIDDEN_TOP = {".sandbox"}
MAX_WRITE_CHARS = 2_000_000
MAX_LIST_ENTRIES = 300
PATH_HINT = "use a plain path inside the run directory, e.g. 'outputs/table.csv' (see list_files)"


def error_result(exc: Exception) -> dict[str, Any]:
    """The dict a tool returns instead of raising: what went wrong and what to do."""
    if isinstance(exc, AgenticDSError):
        result: dict[str, Any] = {"error": exc.message}
        hint = exc.hint or (PATH_HINT if isinstance(exc, PathEscape) else None)
        if hint:
            result["hint"] = hint
        return result
    return {"error": f"{type(exc).__name__}: {exc}"}


def no_such_file(path: str) -> dict[str, Any]:
    return {"error": f"no such file: {path!r}", "hint": "use list_files to see what exists"}


def make_file_tools(workspace: Workspace, *, output_cap: int) -> tuple[Callable[..., Any], ...]:
    """`(read_file, write_file, list_files)` bound to `workspace`."""

    def read_file(path: str, offset: int = 0) -> dict[str, Any]:
        """Read a text file of the run directory, e.g. 'plan.md', 'outputs/summary.csv', 'inputs/data.csv'.

        Args:
            path: relative to the run directory (no absolute paths, no '..').
            offset: the character to start at (0 = the start); pass a cut read's `next_offset` to read on.

        Returns:
            {"path", "content", "size_bytes", "truncated"} and, when the content was cut, "next_offset";
            long files are cut (use run_python or sql_query to work on big data files), or {"error", "hint"}.
        """
        try:
            full = _literal(workspace, path)
        except AgenticDSError as exc:
            return error_result(exc)
        if full.is_dir() and not full.is_symlink():
            return {"error": f"{path!r} is a directory", "hint": "use list_files to see what it holds"}
        offset = max(0, int(offset or 0))
        # Inputs may be hard links to the user's own files (big inputs are linked, not copied); nothing
        # else in the run legitimately has two names.
        inputs = workspace.rel(full).startswith("inputs/")
        try:
            with safe_files.open_read(full, root=workspace.root, allow_hardlinks=inputs) as handle:
                size = os.fstat(handle.fileno()).st_size
                if b"\x00" in handle.read(8192):
                    return {
                        "error": f"{path!r} is a binary file ({size} bytes)",
                        "hint": "inspect it with profile_data, sql_query or run_python instead",
                    }
                handle.seek(0)
                text, more = _read_chars(handle, offset, output_cap)
        except FileNotFoundError:
            return no_such_file(path)
        except safe_files.UnsafeFile as exc:
            return _unsafe(workspace, path, exc)
        except OSError as exc:
            return {"error": f"cannot read {path!r}: {exc.strerror}"}
        result: dict[str, Any] = {"path": workspace.rel(full), "content": text, "size_bytes": size, "truncated": more}
        if more:
            result["next_offset"] = offset + len(text)
        return result

    def write_file(path: str, content: str) -> dict[str, Any]:
        """Write a text file in the run directory (creating folders), e.g. 'outputs/notes.md'.

        Args:
            path: relative to the run directory; 'inputs/' and the run's logs are read-only.
            content: the full text of the file (it replaces any existing file).

        Returns:
            {"path", "bytes"} or {"error", "hint"}.
        """
        if len(content) > MAX_WRITE_CHARS:
            return {
                "error": f"content too large ({len(content)} characters)",
                "hint": "write big outputs from run_python",
            }
        try:
            full = _literal(workspace, path, for_write=True)
            if full.is_dir() and not full.is_symlink():
                return {"error": f"{path!r} is a directory", "hint": "give a file name inside it"}
            data = content.encode("utf-8")
            # Replaces the name: a link planted there is replaced, never written through.
            safe_files.write_atomic(full, data, root=workspace.root)
        except AgenticDSError as exc:
            return error_result(exc)
        except safe_files.UnsafeFile as exc:
            return _unsafe(workspace, path, exc)
        except OSError as exc:
            return {"error": f"cannot write {path!r}: {exc.strerror}"}
        result: dict[str, Any] = {"path": workspace.rel(full), "bytes": len(data)}
        if workspace.rel(full).split("/", 1)[0] in CODE_FOLDERS:
            _writable_by_code(full)
            result["note"] = ("not evidence: only files that run_python code wrote count as a result; write "
                              "figures you will cite from run_python")
        return result

    def list_files(path: str = ".") -> dict[str, Any]:
        """List the files under a folder of the run directory (recursively), with their sizes.

        Args:
            path: a folder relative to the run directory; '.' (the default) is the whole run.

        Returns:
            {"path", "files": ["inputs/data.csv (12.3 KB)", ...], "truncated"} or {"error", "hint"}.
        """
        try:
            full = _literal(workspace, path)
        except AgenticDSError as exc:
            return error_result(exc)
        if not full.is_dir() or full.is_symlink():
            return {"error": f"not a folder: {path!r}", "hint": "list '.' to see the run directory"}
        try:
            found = safe_files.walk(
                full, root=workspace.root, skip_top=frozenset(HIDDEN_TOP) if full == workspace.root else frozenset()
            )
        except safe_files.UnsafeFile as exc:
            return _unsafe(workspace, path, exc)
        entries: list[str] = []
        for entry in sorted(found, key=lambda e: e.rel):
            if any(part.startswith(".") for part in Path(entry.rel).parts):
                continue
            problem = entry.suspicious
            if problem is not None and not (problem.startswith("a hard link") and entry.rel.startswith("inputs/")):
                entries.append(f"{safe_files.shown(entry.rel)} ({problem}: not followed)")
            else:
                entries.append(f"{safe_files.shown(entry.rel)} ({_human(entry.st.st_size)})")
        truncated = len(entries) > MAX_LIST_ENTRIES
        return {"path": workspace.rel(full), "files": entries[:MAX_LIST_ENTRIES], "truncated": truncated}

    return read_file, write_file, list_files


CODE_FOLDERS = ("outputs", "figures")   # the folders executed code writes (sandbox.layout.WRITABLE)


def _writable_by_code(full: Path) -> None:
    """Let the sandboxed code (another user) rewrite a file this tool put in its folders: it could replace it
    anyway (the folder is its own), but `open(..., "w")` on our file failed with a PermissionError mid-stage."""
    try:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return
    try:
        if os.path.samestat(os.fstat(fd), os.lstat(full)):
            os.fchmod(fd, 0o666)
    except OSError:
        pass
    finally:
        os.close(fd)


def _literal(workspace: Workspace, path: str, *, for_write: bool = False) -> Path:
    """The path as given, under the run directory, once `Workspace.resolve` has accepted it.

    Not the resolved path: a link inside the run is refused by the no-follow open, never followed.
    """
    resolved = workspace.resolve(path, for_write=for_write)
    literal = workspace.root / Path(path.strip())
    return resolved if literal == workspace.root else literal


def _unsafe(workspace: Workspace, path: str, exc: safe_files.UnsafeFile) -> dict[str, Any]:
    return {
        "error": f"refused {path!r}: {workspace.rel(Path(exc.path))} is {exc.what}, and links are never followed",
        "hint": "work with plain files; links and hard links in the run directory are not followed",
    }


def _human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _read_chars(handle: IO[bytes], offset: int, count: int) -> tuple[str, bool]:
    """`count` characters of UTF-8 text from character `offset` of the open file, and whether more follow."""
    reader = io.TextIOWrapper(handle, encoding="utf-8", errors="replace", newline="")
    try:
        skip = offset
        while skip > 0:
            chunk = reader.read(min(skip, 1 << 20))
            if not chunk:
                break
            skip -= len(chunk)
        text = reader.read(count + 1)
    finally:
        reader.detach()  # the caller's `with` closes the handle
    return text[:count], len(text) > count
