"""File tools confined to the run directory: `read_file`, `write_file`, `list_files`.

Every path goes through `Workspace.resolve()`, which refuses absolute paths, `~`, `..`, NUL bytes
and symlinks that lead out; writes are also refused into the run's evidence (`inputs/`, logs,
session). Refusals come back to the model as `{"error", "hint"}`, never as exceptions.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_ds.errors import AgenticDSError, PathEscape
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
            full = workspace.resolve(path)
        except AgenticDSError as exc:
            return error_result(exc)
        if full.is_dir():
            return {"error": f"{path!r} is a directory", "hint": "use list_files to see what it holds"}
        if not full.is_file():
            return no_such_file(path)
        offset = max(0, int(offset or 0))
        try:
            size = full.stat().st_size
            with full.open("rb") as handle:
                head = handle.read(8192)
            if b"\x00" in head:
                return {
                    "error": f"{path!r} is a binary file ({size} bytes)",
                    "hint": "inspect it with profile_data, sql_query or run_python instead",
                }
            text, more = _read_chars(full, offset, output_cap)
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
            return {"error": f"content too large ({len(content)} characters)", "hint": "write big outputs from run_python"}
        try:
            full = workspace.resolve(path, for_write=True)
            if full.is_dir():
                return {"error": f"{path!r} is a directory", "hint": "give a file name inside it"}
            full.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8")
            # O_NOFOLLOW: a symlink planted after resolve() is refused, not followed.
            fd = os.open(full, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except AgenticDSError as exc:
            return error_result(exc)
        except OSError as exc:
            return {"error": f"cannot write {path!r}: {exc.strerror}"}
        return {"path": workspace.rel(full), "bytes": len(data)}

    def list_files(path: str = ".") -> dict[str, Any]:
        """List the files under a folder of the run directory (recursively), with their sizes.

        Args:
            path: a folder relative to the run directory; '.' (the default) is the whole run.

        Returns:
            {"path", "files": ["inputs/data.csv (12.3 KB)", ...], "truncated"} or {"error", "hint"}.
        """
        try:
            full = workspace.resolve(path)
        except AgenticDSError as exc:
            return error_result(exc)
        if not full.is_dir():
            return {"error": f"not a folder: {path!r}", "hint": "list '.' to see the run directory"}
        entries: list[str] = []
        truncated = False
        for dirpath, dirnames, filenames in os.walk(full):
            rel_dir = os.path.relpath(dirpath, workspace.root)
            dirnames[:] = sorted(
                d for d in dirnames if not d.startswith(".") and not (rel_dir == "." and d in HIDDEN_TOP)
            )
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                file_path = os.path.join(dirpath, name)
                try:
                    size = os.lstat(file_path).st_size
                except OSError:
                    continue
                entries.append(f"{workspace.rel(Path(file_path))} ({_human(size)})")
                if len(entries) >= MAX_LIST_ENTRIES:
                    truncated = True
                    break
            if truncated:
                break
        return {"path": workspace.rel(full), "files": sorted(entries), "truncated": truncated}

    return read_file, write_file, list_files


def _human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def _read_chars(path: Path, offset: int, count: int) -> tuple[str, bool]:
    """`count` characters of a UTF-8 text file from character `offset`, and whether more follow."""
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        skip = offset
        while skip > 0:
            chunk = handle.read(min(skip, 1 << 20))
            if not chunk:
                break
            skip -= len(chunk)
        text = handle.read(count + 1)
    return text[:count], len(text) > count
