"""What a cell changed in the run directory: the files it wrote, and the links it planted.

Snapshots are taken without following anything (`safe_files.walk`). A symbolic link, a hard link
or a FIFO the cell created or changed is a finding: the host never follows it, and the agent and
the run record are told.
"""

from __future__ import annotations

from pathlib import Path

from agentic_ds.runs import safe_files

Signature = tuple[int, int, int, int]    # mtime_ns, size, mode, link count
MAX_TRACKED_FILES = 20_000


def snapshot(root: Path, *, skip_top: frozenset[str], skip_prefix: str) -> dict[str, tuple[Signature, str | None]]:
    """Every entry under `root` but the skipped top-level names: its signature and why it is suspicious."""
    seen: dict[str, tuple[Signature, str | None]] = {}
    for entry in safe_files.walk(root, skip_top=skip_top, limit=MAX_TRACKED_FILES):
        if entry.rel.startswith(skip_prefix):
            continue
        st = entry.st
        seen[entry.rel] = ((st.st_mtime_ns, st.st_size, st.st_mode, st.st_nlink), entry.suspicious)
    return seen


def changed_files(before: dict, after: dict, exclude: set[str]) -> list[str]:
    """Plain files new or changed since `before` (links and other oddities are findings, not files)."""
    return sorted(
        rel for rel, (sig, problem) in after.items()
        if problem is None and before.get(rel, (None,))[0] != sig and rel not in exclude
    )


def planted(before: dict, after: dict) -> list[str]:
    """One line per link (or other non-file) the cell created or changed."""
    return [
        f"{safe_files.shown(rel)} is {problem}: the host does not follow it"
        for rel, (sig, problem) in sorted(after.items())
        if problem is not None and before.get(rel, (None,))[0] != sig
    ]
