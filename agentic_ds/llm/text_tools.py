"""The text protocol for tool calls, for servers without native tool calling (or whose templates break on it).

The tools go into the system message, and the model calls one by writing a block (the format many open models
were trained on):

    <tool_call>
    {"name": "read_file", "arguments": {"path": "data_profile.json"}}
    </tool_call>

Results come back in the next user message as `<tool_response>` blocks holding `{"name": ..., "content": ...}`.
A reply that is nothing but one such JSON object (no tags) also counts as a call of a declared tool. Parsing is
linear in the reply: one left-to-right scan for the tags, one JSON decode per block.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"
RESPONSE_OPEN, RESPONSE_CLOSE = "<tool_response>", "</tool_response>"
TOOLS_OPEN, TOOLS_CLOSE = "<tools>", "</tools>"
PROTOCOL_MARK = "# Tools (text protocol)"

_INSTRUCTIONS = f"""{PROTOCOL_MARK}
You can call the tools listed below. To call one, write a block like this and nothing after it:
{CALL_OPEN}
{{"name": "TOOL_NAME", "arguments": {{"ARGUMENT": "VALUE"}}}}
{CALL_CLOSE}
The result comes back in a {RESPONSE_OPEN} block. {{ending}} The tools, with the JSON schema of their arguments:
"""
_ANSWER_IN_TEXT = f"When you need no more tools, answer in plain text with no {CALL_OPEN} block."
# An agent whose answer is structured gives it through a tool (ADK's set_model_response), never in plain text.
STRUCTURED_TOOL = "set_model_response"
_ANSWER_BY_TOOL = (f"When you need no more tools, give your final answer by calling {STRUCTURED_TOOL} with it as "
                   "the arguments.")


@dataclass(frozen=True)
class TextCall:
    name: str
    arguments: dict[str, Any]


def tools_prompt(tools: list[dict[str, Any]]) -> str:
    """The system-message section declaring OpenAI-style `tools` in the text protocol."""
    lines = []
    names = []
    for tool in tools:
        function = tool.get("function") or tool
        declared = {"name": function.get("name"), "description": function.get("description", "")}
        declared["parameters"] = function.get("parameters") or {"type": "object", "properties": {}}
        lines.append(json.dumps(declared, ensure_ascii=False))
        names.append(declared["name"])
    ending = _ANSWER_BY_TOOL if STRUCTURED_TOOL in names else _ANSWER_IN_TEXT
    return _INSTRUCTIONS.replace("{ending}", ending) + TOOLS_OPEN + "\n" + "\n".join(lines) + "\n" + TOOLS_CLOSE


def declared_tool_names(system_text: str) -> list[str]:
    """The tool names a `tools_prompt` section declares (for test doubles reading our requests)."""
    start = system_text.find(PROTOCOL_MARK)
    start = system_text.find(TOOLS_OPEN, start) if start >= 0 else -1
    end = system_text.find(TOOLS_CLOSE, start) if start >= 0 else -1
    if start < 0 or end < 0:
        return []
    names = []
    for line in system_text[start + len(TOOLS_OPEN) : end].splitlines():
        try:
            names.append(json.loads(line)["name"])
        except (ValueError, KeyError, TypeError):
            continue
    return names


def call_text(name: str, arguments: Any) -> str:
    return f"{CALL_OPEN}\n{json.dumps({'name': name, 'arguments': arguments}, ensure_ascii=False)}\n{CALL_CLOSE}"


def response_text(name: str, content: Any) -> str:
    return f"{RESPONSE_OPEN}\n{json.dumps({'name': name, 'content': content}, ensure_ascii=False)}\n{RESPONSE_CLOSE}"


def _blocks(text: str, opening: str, closing: str) -> tuple[list[str], str]:
    """The bodies of `opening ... closing` blocks, and the text outside them. An unclosed block runs to the end."""
    bodies: list[str] = []
    outside: list[str] = []
    cursor = 0
    while True:
        start = text.find(opening, cursor)
        if start < 0:
            outside.append(text[cursor:])
            break
        outside.append(text[cursor:start])
        end = text.find(closing, start + len(opening))
        stop = len(text) if end < 0 else end
        bodies.append(text[start + len(opening) : stop])
        cursor = len(text) if end < 0 else end + len(closing)
    return bodies, "".join(outside).strip()


def _call_from(value: Any) -> TextCall | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
            return None
    return TextCall(value["name"], arguments) if isinstance(arguments, dict) else None


def _strip_fence(body: str) -> str:
    body = body.strip()
    if body.startswith("```") and body.endswith("```") and len(body) >= 6:
        body = body[3:-3].strip()
        if body[:4].lower() == "json":
            body = body[4:]
    return body.strip()


def parse_calls(text: str, declared: set[str] | frozenset[str]) -> tuple[list[TextCall], list[str], str]:
    """(calls, problems, remaining text) from a model reply in the text protocol.

    A block that is not a JSON object with a string `name` and object `arguments` is a problem, reported back
    to the model as such; a call of a tool that is not declared is left to the tool layer (which answers with an
    error naming the tools it has). Without blocks, a reply that is exactly one call object of a declared tool
    counts as a call.
    """
    bodies, rest = _blocks(text, CALL_OPEN, CALL_CLOSE)
    calls: list[TextCall] = []
    problems: list[str] = []
    for body in bodies:
        try:
            call = _call_from(json.loads(_strip_fence(body)))
        except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
            call = None
        if call is None:
            expected = '{"name": ..., "arguments": {...}}'
            problems.append(f"not a tool call (expected {expected}): {body.strip()[:200]}")
        else:
            calls.append(call)
    if not bodies:
        candidate = _strip_fence(text)
        if candidate.startswith("{") and candidate.endswith("}"):
            try:
                call = _call_from(json.loads(candidate))
            except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
                call = None
            if call is not None and call.name in declared:
                return [call], [], ""
    return calls, problems, rest


def parse_responses(text: str) -> tuple[list[tuple[str, Any]], str]:
    """(name, content) of each `<tool_response>` block in a user message, and the text outside them."""
    bodies, rest = _blocks(text, RESPONSE_OPEN, RESPONSE_CLOSE)
    found: list[tuple[str, Any]] = []
    for body in bodies:
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
            continue
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            found.append((value["name"], value.get("content")))
    return found, rest
