"""`GET /runs/{id}/events`: the run's events as Server-Sent Events, the same records as events.jsonl and `--json`.

Each line of events.jsonl is one event whose id is its line number (1-based), so a client that reconnects with
`Last-Event-ID: N` (EventSource does) gets every line after N and misses nothing. Every connection first gets the
run's status (`{"kind": "run_status", ...}`, no id), then the lines, then a `run_status` event at each change
(queued, running, awaiting_approval, a final status). Once the run has settled (no process works on it and none
is due to) and every line is sent, a last `{"kind": "stream_end"}` event says so and the stream ends: a finished
run's stream replays and ends. All events are plain `message` events; `kind` tells them apart. A comment line
keeps an idle connection open.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import IO, Any

from agentic_ds.runs import safe_files

POLL_S = 0.25
KEEPALIVE_S = 15.0
SETTLED = frozenset({"completed", "completed_with_warnings", "incomplete", "failed", "interrupted", "unknown"})
RETRY_MS = 2000


def sse(data: dict[str, Any], event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return head + "data: " + json.dumps(data, ensure_ascii=False, default=str) + "\n\n"


class LogReader:
    """Reads events.jsonl line by line as it grows, without following links; `number` is the last line read."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.handle: IO[bytes] | None = None
        self.number = 0
        self.partial = b""

    def new_lines(self) -> list[tuple[int, bytes]]:
        if self.handle is None:
            try:
                self.handle = safe_files.open_read(self.run_dir / "events.jsonl", root=self.run_dir)
            except OSError:
                return []
        out = []
        while chunk := self.handle.read(1 << 16):
            self.partial += chunk
            *whole, self.partial = self.partial.split(b"\n")
            for line in whole:
                self.number += 1
                out.append((self.number, line))
        return out

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


async def stream(
    run_dir: Path, after: int, status_of: Callable[[], tuple[str, str]], disconnected: Callable[[], Any],
) -> AsyncIterator[str]:
    """The SSE text of the run's events after line `after`, until the run settles or the client leaves."""
    reader = LogReader(run_dir)
    last_status: tuple[str, str] | None = None
    quiet_since = time.monotonic()
    yield f"retry: {RETRY_MS}\n\n"
    try:
        while True:
            status = await asyncio.to_thread(status_of)
            lines = await asyncio.to_thread(reader.new_lines)
            for number, raw in lines:
                if number <= after:
                    continue
                yield sse(_record(raw), number)
                quiet_since = time.monotonic()
            if status != last_status:
                last_status = status
                yield sse({"kind": "run_status", "status": status[0], "reason": status[1]})
                quiet_since = time.monotonic()
            if status[0] in SETTLED and not lines:
                yield sse({"kind": "stream_end", "status": status[0], "last_event_id": reader.number})
                return
            if await disconnected():
                return
            if time.monotonic() - quiet_since > KEEPALIVE_S:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
            await asyncio.sleep(POLL_S)
    except asyncio.CancelledError:   # the server shuts down with the stream open: the client reconnects later
        return
    finally:
        reader.close()


def _record(raw: bytes) -> dict[str, Any]:
    try:
        record = json.loads(raw)
    except ValueError:
        return {"kind": "unreadable", "text": raw.decode("utf-8", errors="replace")[:2000]}
    return record if isinstance(record, dict) else {"kind": "unreadable", "text": str(record)[:2000]}


def last_event_id(header: str | None, query: int | None) -> int:
    """Where a client left off: the `Last-Event-ID` header (EventSource's reconnect), else `?last_event_id=`."""
    if header is not None and header.strip().isdigit():
        return int(header.strip())
    return max(0, query or 0)
