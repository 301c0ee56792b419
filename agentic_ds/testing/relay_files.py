"""The relay's folder: each request written for a responder, and its reply read back.

For request `NNNN` the relay writes `NNNN.request.json` (the raw body), `NNNN.delta.md` (only the messages after
the longest prefix shared with the same agent's previous request) and, last, `NNNN.request.md` (everything:
agent, tools with their JSON schemas, tool_choice, response_format, every message). The responder answers with
`NNNN.reply.json` = `{"content": str|null, "tool_calls": [{"name", "arguments"}]}`. A reply that is not valid is
moved aside to `NNNN.reply.K.rejected.json` with `NNNN.reply.K.error` next to it saying what is wrong, and the
relay waits for a new `NNNN.reply.json`. Every write is create-only (a temporary file, then `os.link` into
place): two writers can never overwrite each other, nor the relay a file the responder wrote.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from agentic_ds.testing.chat_request import ChatRequest, reply_calls, text_of

REPLY_FORMAT = '{"content": str|null, "tool_calls": [{"name": str, "arguments": {...}}]}'


def write_new(path: Path, data: bytes | str) -> None:
    """Create `path` holding `data`, never replacing anything: `FileExistsError` when it exists."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
        os.link(temporary, path)
    finally:
        os.unlink(temporary)


def name(number: int, suffix: str) -> str:
    return f"{number:04d}.{suffix}"


# -- rendering


def _message_lines(index: int, message: dict[str, Any]) -> list[str]:
    role = message.get("role")
    head = f"### [{index}] {role}"
    if role == "tool":
        head += f" (result of {message.get('tool_call_id')})"
    lines = [head, "", text_of(message.get("content"))]
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        lines.append(f"-> tool call {call.get('id')}: {function.get('name')} {function.get('arguments')}")
    return [*lines, ""]


def _protocol_line(request: ChatRequest) -> str:
    if request.protocol == "native":
        return "native tool calls: answer tool calls in `tool_calls`"
    if request.protocol == "text":
        return ("text protocol (tools declared in the system message): put calls in `tool_calls`, or write "
                "`<tool_call>` blocks in `content`")
    return "no tools: answer in `content`"


def _header(number: int, request: ChatRequest, scope: str, index: int) -> list[str]:
    exchanges = request.trailing_exchanges()
    lines = [
        f"# Request {number:04d}: agent `{request.agent}`",
        "",
        f"- scope (ADK branch): `{scope or '(root)'}`; request {index + 1} of this agent in it; "
        f"{len(exchanges)} tool exchange(s) so far in this turn",
        f"- tools: {_protocol_line(request)}",
        f"- tool_choice: {json.dumps(request.tool_choice)}",
        f"- response_format: {request.response_format or 'none'}"
        + (" (answer with one JSON object in `content`)" if request.wants_json and request.protocol == "none" else ""),
        f"- reply: write `{name(number, 'reply.json')}` (create-only: a temporary file, then `ln` it "
        f"into place) = `{REPLY_FORMAT}`",
        "",
    ]
    return lines


def render_request(number: int, request: ChatRequest, scope: str, index: int) -> str:
    lines = _header(number, request, scope, index)
    if request.protocol == "native":
        lines += ["## Tools", ""]
        for tool in request.tools:
            lines += [f"### {tool['name']}", "", tool["description"], "", "```json",
                      json.dumps(tool["parameters"], indent=1, ensure_ascii=False), "```", ""]
    elif request.protocol == "text":
        lines += ["## Tools", "", f"In the system message (text protocol): {', '.join(request.tool_names)}", ""]
    response_format = request.body.get("response_format")
    if isinstance(response_format, dict):
        lines += ["## Response format", "", "```json", json.dumps(response_format, indent=1, ensure_ascii=False),
                  "```", ""]
    lines += ["## Messages", ""]
    for index_, message in enumerate(request.messages):
        lines += _message_lines(index_, message)
    return "\n".join(lines)


def shared_prefix(previous: list[dict[str, Any]], current: list[dict[str, Any]]) -> int:
    """How many leading messages `current` shares with `previous`."""
    count = 0
    for before, now in zip(previous, current, strict=False):
        if before != now:
            break
        count += 1
    return count


def render_delta(number: int, request: ChatRequest, scope: str, index: int,
                 previous: tuple[int, ChatRequest] | None) -> str:
    lines = _header(number, request, scope, index)
    if previous is None:
        lines += [f"First request of `{request.agent}`: every message is new (tools and schemas: "
                  f"{name(number, 'request.md')}).", ""]
        start = 0
    else:
        before_number, before = previous
        start = shared_prefix(before.messages, request.messages)
        same_tools = before.body.get("tools") == request.body.get("tools")
        same_format = before.body.get("response_format") == request.body.get("response_format")
        lines += [
            f"The first {start} of {len(request.messages)} messages are those of request {before_number:04d} "
            f"(this agent's previous request); only the messages after them follow.",
            f"Tools {'unchanged' if same_tools else 'CHANGED'}, response_format "
            f"{'unchanged' if same_format else 'CHANGED'} since then (full request: {name(number, 'request.md')}).",
            "",
        ]
    lines += ["## New messages", ""]
    for index_, message in enumerate(request.messages[start:], start=start):
        lines += _message_lines(index_, message)
    return "\n".join(lines)


# -- replies


def check_reply(raw: bytes, request: ChatRequest) -> tuple[dict[str, Any] | None, list[str]]:
    """(the neutral reply, []) when `raw` is a valid reply to `request`, else (None, what is wrong)."""
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        return None, [f"not valid JSON in UTF-8: {error}"]
    if not isinstance(value, dict):
        return None, [f"the reply must be a JSON object {REPLY_FORMAT}, not {type(value).__name__}"]
    problems = [f"unknown key {key!r} (allowed: content, tool_calls)" for key in value
                if key not in ("content", "tool_calls")]
    content = value.get("content")
    if content is not None and not isinstance(content, str):
        problems.append("content must be a string or null")
    calls = value.get("tool_calls") or []
    if not isinstance(calls, list):
        problems.append("tool_calls must be a list")
        calls = []
    tool_calls = []
    for index, call in enumerate(calls):
        checked, problem = _check_call(index, call, request)
        if problem:
            problems.append(problem)
        else:
            tool_calls.append(checked)
    if problems:
        return None, problems
    reply = {"content": content, "tool_calls": tool_calls}
    return _check_whole(reply, request)


def _check_call(index: int, call: Any, request: ChatRequest) -> tuple[dict[str, Any], str | None]:
    where = f"tool_calls[{index}]"
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        return {}, f"{where} must be an object with a string name and an object of arguments"
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError) as error:
            return {}, f"{where}.arguments is a string that is not JSON: {error}"
    if not isinstance(arguments, dict):
        return {}, f"{where}.arguments must be a JSON object"
    if call["name"] not in request.tool_names:
        offered = ", ".join(request.tool_names) or "none"
        return {}, f"{where} calls {call['name']!r}, which this request does not offer (tools: {offered})"
    return {"name": call["name"], "arguments": arguments}, None


def _check_whole(reply: dict[str, Any], request: ChatRequest) -> tuple[dict[str, Any] | None, list[str]]:
    content, calls = reply_calls(reply, request)
    unknown = sorted({c["name"] for c in calls} - set(request.tool_names))
    if unknown:
        return None, [f"content calls {', '.join(unknown)}, which this request does not offer"]
    if not calls and not (content or "").strip():
        return None, ["the reply has neither content nor tool calls"]
    if request.wants_json and not calls:
        try:
            parsed = json.loads(content or "")
        except (ValueError, RecursionError) as error:
            return None, [f"this request asks for JSON ({request.response_format}): content is not JSON: {error}"]
        if not isinstance(parsed, dict):
            return None, ["this request asks for one JSON object in content"]
    return reply, []
