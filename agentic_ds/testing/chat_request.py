"""An OpenAI chat request read the way a stand-in for the model needs it, whatever tool protocol it uses.

The relay (a capable model answering through files) and the replay server (a cassette answering) both need the
same facts of a request: which agent sent it (ADK's identity line in the system text), which tools it offers and
how (native `tools`, or the text protocol declared in the system text, `agentic_ds.llm.text_tools`), whether it
asks for JSON, and how many tool exchanges (a call, then its results) end it: the position of the request in the
agent's turn. A reply is kept protocol-neutral, `{"content": str|None, "tool_calls": [{"name", "arguments"}]}`,
and `reply_message` shapes it the way the request asked. Every scan here is linear in the request.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.llm import text_tools

IDENTITY = re.compile(r'Your internal name is "([^"\n]{1,200})"')
UNNAMED = "(unnamed)"   # a request without ADK's identity line: the compactor's summaries


def text_of(content: Any) -> str:
    """A message's content as text (a string, or the text of a list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict))
    return str(content)


@dataclass
class ChatRequest:
    body: dict[str, Any]
    agent: str
    system: str
    protocol: str                           # "native" (tools), "text" (tools declared in the system text), "none"
    tools: list[dict[str, Any]]             # each {"name", "description", "parameters"}
    response_format: str | None             # "json_schema", "json_object" or None
    messages: list[dict[str, Any]] = field(default_factory=list)

    @property
    def tool_names(self) -> list[str]:
        return sorted(str(t.get("name") or "") for t in self.tools)

    @property
    def wants_json(self) -> bool:
        return self.response_format in ("json_schema", "json_object")

    @property
    def tool_choice(self) -> Any:
        return self.body.get("tool_choice")

    def trailing_exchanges(self) -> list[list[str]]:
        """The tool exchanges that end the request, oldest first: the names each assistant message called, when
        its results follow it. [] for the first request of a turn."""
        return [calls for calls, _results in self._trailing()]

    def unanswered_calls(self) -> int:
        """Calls in those exchanges whose result is not in the request."""
        return sum(max(0, len(calls) - results) for calls, results in self._trailing())

    def _trailing(self) -> list[tuple[list[str], int]]:
        exchanges: list[tuple[list[str], int]] = []
        index = len(self.messages) - 1
        while index >= 0:
            results = 0
            while index >= 0 and (count := _results_in(self.messages[index])):
                results += count
                index -= 1
            calls = calls_in(self.messages[index]) if results and index >= 0 else []
            if not calls:
                break
            exchanges.append((calls, results))
            index -= 1
        return exchanges[::-1]


def read_request(body: dict[str, Any]) -> ChatRequest:
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    system = "\n\n".join(text_of(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
    match = IDENTITY.search(system)
    native = [_declaration(t) for t in body.get("tools") or [] if isinstance(t, dict)]
    declared = [] if native else _declared_in_text(system)
    protocol = "native" if native else "text" if declared else "none"
    response_format = body.get("response_format")
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    return ChatRequest(
        body=body,
        agent=match.group(1) if match else UNNAMED,
        system=system,
        protocol=protocol,
        tools=native or declared,
        response_format=kind if kind in ("json_schema", "json_object") else None,
        messages=messages,
    )


def _declaration(tool: dict[str, Any]) -> dict[str, Any]:
    inner = tool.get("function")
    function: dict[str, Any] = inner if isinstance(inner, dict) else tool
    return {
        "name": str(function.get("name") or ""),
        "description": str(function.get("description") or ""),
        "parameters": function.get("parameters") or {},
    }


def _declared_in_text(system: str) -> list[dict[str, Any]]:
    """The tools a text-protocol section of the system text declares (one JSON object a line)."""
    start = system.find(text_tools.PROTOCOL_MARK)
    start = system.find(text_tools.TOOLS_OPEN, start) if start >= 0 else -1
    end = system.find(text_tools.TOOLS_CLOSE, start) if start >= 0 else -1
    if start < 0 or end < 0:
        return []
    found = []
    for line in system[start + len(text_tools.TOOLS_OPEN) : end].splitlines():
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
            continue
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            found.append(_declaration(value))
    return found


def _results_in(message: dict[str, Any]) -> int:
    """How many tool results a message carries: 1 for a native `tool` message, the `<tool_response>` blocks of a
    text-protocol user message, else 0."""
    if message.get("role") == "tool":
        return 1
    if message.get("role") != "user":
        return 0
    text = text_of(message.get("content"))
    return len(text_tools.parse_responses(text)[0]) if text_tools.RESPONSE_OPEN in text else 0


def calls_in(message: dict[str, Any]) -> list[str]:
    """The names of the tools an assistant message calls (native `tool_calls` or text-protocol blocks)."""
    if message.get("role") != "assistant":
        return []
    native = [((c.get("function") or {}).get("name") or "") for c in message.get("tool_calls") or []
              if isinstance(c, dict)]
    if native:
        return native
    text = text_of(message.get("content"))
    if text_tools.CALL_OPEN not in text:
        return []
    return [call.name for call in text_tools.parse_calls(text, frozenset())[0]]


# -- replies


def reply_calls(reply: dict[str, Any], request: ChatRequest) -> tuple[str | None, list[dict[str, Any]]]:
    """(content, calls) of a neutral reply; text-protocol blocks in its content count as calls too."""
    content = reply.get("content")
    calls = [dict(c) for c in reply.get("tool_calls") or []]
    if not calls and isinstance(content, str) and request.protocol != "none" and text_tools.CALL_OPEN in content:
        parsed, _problems, rest = text_tools.parse_calls(content, frozenset(request.tool_names))
        if parsed:
            calls = [{"name": call.name, "arguments": call.arguments} for call in parsed]
            content = rest or None
    return content, calls


def reply_message(reply: dict[str, Any], request: ChatRequest, call_id: str) -> tuple[dict[str, Any], str]:
    """(an OpenAI assistant message, its finish_reason) answering `request` with a neutral `reply`."""
    content, calls = reply_calls(reply, request)
    if request.protocol == "text" and calls:
        blocks = [content] if content else []
        blocks += [text_tools.call_text(c["name"], c.get("arguments") or {}) for c in calls]
        return {"role": "assistant", "content": "\n".join(blocks)}, "stop"
    message: dict[str, Any] = {"role": "assistant", "content": content if content else None}
    if calls:
        message["tool_calls"] = [
            {"id": f"{call_id}_{index}", "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments") or {}, ensure_ascii=False)}}
            for index, c in enumerate(calls)
        ]
        return message, "tool_calls"
    return message, "stop"


def reply_of_message(message: dict[str, Any]) -> dict[str, Any]:
    """The neutral reply of an OpenAI assistant message (for responders that build one)."""
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
            arguments = {}
        calls.append({"name": function.get("name") or "", "arguments": arguments})
    return {"content": message.get("content"), "tool_calls": calls}
