"""Small helpers that write run-directory files atomically and list what a run produced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_ds.workspace import Workspace

_LISTED = ("outputs", "figures")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, indent=2, default=str) + "\n")


def list_produced(workspace: Workspace, limit: int = 60) -> str:
    """The analysis files produced so far (outputs/ and figures/), one per line, for prompts."""
    lines: list[str] = []
    for folder in _LISTED:
        root = workspace.root / folder
        if not root.exists():
            continue
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            lines.append(f"- {workspace.rel(path)} ({path.stat().st_size:,} bytes)")
    if len(lines) > limit:
        lines = lines[:limit] + [f"- ... and {len(lines) - limit} more"]
    return "\n".join(lines)
