"""Shared by the relay and replay tests: requests as ADK sends them, a relay with a responder, cassette edits."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_ds.testing.relay_files import name, write_new

IDENTITY = 'You are an agent. Your internal name is "{agent}".'
TOOLS = [
    {"type": "function", "function": {"name": "run_python", "description": "Run Python code.",
                                      "parameters": {"type": "object", "properties": {"code": {"type": "string"}},
                                                     "required": ["code"]}}},
    {"type": "function", "function": {"name": "read_file", "description": "Read a file.",
                                      "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}},
]


def body(agent: str = "coding_agent", *extra: dict[str, Any], tools: bool = True, **fields: Any) -> dict[str, Any]:
    messages = [{"role": "system", "content": f"You write code.\n\n{IDENTITY.format(agent=agent)}"},
                {"role": "user", "content": "Mean price by region"}, *extra]
    return {"model": "relay", "messages": messages, **({"tools": TOOLS} if tools else {}), **fields}


def call_and_result(call_id: str, tool: str, arguments: dict[str, Any], result: Any) -> list[dict[str, Any]]:
    return [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": tool, "arguments": json.dumps(arguments)}}]},
        {"role": "tool", "tool_call_id": call_id, "content": json.dumps(result)},
    ]


def answer_when_asked(folder: Path, number: int, reply: dict[str, Any] | bytes, timeout_s: float = 60) -> None:
    """Wait for request `number` to be complete in `folder`, then write its reply (create-only)."""
    deadline = time.monotonic() + timeout_s
    while not (folder / name(number, "request.md")).exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"request {number} never appeared in {folder}")
        time.sleep(0.02)
    data = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
    write_new(folder / name(number, "reply.json"), data)


def in_background(function: Callable[[], Any]) -> threading.Thread:
    thread = threading.Thread(target=function, daemon=True)
    thread.start()
    return thread


def edit_cassette(path: Path, keep: Callable[[dict[str, Any]], bool],
                  change: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Rewrite `cassette.jsonl`, keeping the exchanges `keep` accepts (after `change`, when given)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "exchange" in record:
            if not keep(record):
                continue
            if change is not None:
                change(record)
        lines.append(json.dumps(record, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
