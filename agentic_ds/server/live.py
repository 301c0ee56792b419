"""What a run is doing now, read from the end of its events.jsonl: the agent that spoke last, the stage and round
under way, the latest tool call and result, the latest words. Never follows a link (`safe_files`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_ds.agent_names import ROOT
from agentic_ds.runs import safe_files
from agentic_ds.server.shapes import LiveOut, TextOut, ToolCallOut, ToolResultOut

TAIL_BYTES = 256 * 1024
SPOKEN = ("text", "status", "warning", "error", "waiting")


def live_view(run_dir: Path) -> LiveOut:
    lines, tail = _tail(run_dir / "events.jsonl", run_dir)
    live = LiveOut(agent=None, stage=None, iteration=None, last_tool_call=None, last_tool_result=None,
                   last_text=None, events=lines)
    for record in reversed(tail):
        author = str(record.get("author") or "")
        kind = record.get("kind")
        if live.agent is None and author and author not in (ROOT, "user"):
            live.agent = author
        if live.stage is None and isinstance(record.get("stage"), dict):
            live.stage = record["stage"]
        if live.iteration is None and isinstance(record.get("iteration"), int):
            live.iteration = record["iteration"]
        stamp = str(record.get("timestamp") or "")
        if kind == "tool_call" and live.last_tool_call is None:
            live.last_tool_call = ToolCallOut(tool=str(record.get("tool") or ""), args=str(record.get("args") or ""),
                                              author=author, timestamp=stamp)
        elif kind == "tool_result" and live.last_tool_result is None:
            live.last_tool_result = ToolResultOut(tool=str(record.get("tool") or ""),
                                                  text=str(record.get("text") or ""), author=author, timestamp=stamp)
        elif kind in SPOKEN and live.last_text is None and record.get("text"):
            live.last_text = TextOut(author=author, kind=str(kind), text=str(record["text"]), timestamp=stamp)
    return live


def _tail(path: Path, root: Path) -> tuple[int, list[dict[str, Any]]]:
    """How many lines the log holds, and the records of its last `TAIL_BYTES` (whole lines only)."""
    try:
        handle = safe_files.open_read(path, root=root)
    except OSError:
        return 0, []
    with handle:
        lines = 0
        while chunk := handle.read(1 << 20):
            lines += chunk.count(b"\n")
        size = handle.tell()
        handle.seek(max(0, size - TAIL_BYTES))
        data = handle.read()
    if size > TAIL_BYTES:
        data = data.split(b"\n", 1)[1] if b"\n" in data else b""
    records = []
    for raw in data.split(b"\n"):
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return lines, records
