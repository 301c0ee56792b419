"""The files a run produced (outputs/ and figures/), as prompts list them: `{path, bytes, problem}` each."""

from __future__ import annotations

from agentic_ds.runs.safe_files import shown, walk
from agentic_ds.workspace import Workspace

_LISTED = ("outputs", "figures")


def list_produced(workspace: Workspace, limit: int = 60) -> list[dict[str, str | int | None]]:
    """The analysis files produced so far; a link the code planted is named with why it is not read, never
    followed. Past `limit`, one entry says how many more there are."""
    found: list[dict[str, str | int | None]] = []
    for folder in _LISTED:
        try:
            entries = walk(workspace.root / folder, root=workspace.root)
        except OSError:
            continue
        for entry in sorted(entries, key=lambda e: e.rel):
            found.append({"path": shown(entry.rel), "bytes": entry.st.st_size, "problem": entry.suspicious or ""})
    if len(found) > limit:
        more = len(found) - limit
        found = found[:limit] + [{"path": f"... and {more} more", "bytes": None, "problem": ""}]
    return found
