"""The listing of what a run produced (outputs/ and figures/), for prompts."""

from __future__ import annotations

from agentic_ds.runs.safe_files import shown, walk
from agentic_ds.workspace import Workspace

_LISTED = ("outputs", "figures")


def list_produced(workspace: Workspace, limit: int = 60) -> str:
    """The analysis files produced so far, one per line; links the code planted are named as such, never followed."""
    lines: list[str] = []
    for folder in _LISTED:
        try:
            entries = walk(workspace.root / folder, root=workspace.root)
        except OSError:
            continue
        for entry in sorted(entries, key=lambda e: e.rel):
            problem = entry.suspicious
            if problem is None:
                lines.append(f"- {shown(entry.rel)} ({entry.st.st_size:,} bytes)")
            else:
                lines.append(f"- {shown(entry.rel)} (not read: {problem})")
    if len(lines) > limit:
        lines = lines[:limit] + [f"- ... and {len(lines) - limit} more"]
    return "\n".join(lines)
