"""Rewrite one LiteLLM chat request for what the model's server accepts (`Capabilities`), and read its reply back.

ADK builds OpenAI-style requests: list-of-parts content, `response_format: json_schema`, native `tools` and
`tool` messages. `adapt_request` lowers each of those the server cannot take: parts become one string, the schema
moves into the system message (with `json_object`, or no response_format at all), tools and their results move
into the text protocol (`agentic_ds.llm.text_tools`). `read_text_calls` turns a text-protocol reply back into
native tool calls, so ADK runs the tools as usual.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentic_ds.llm import text_tools
from agentic_ds.llm.capabilities import Capabilities

SCHEMA_PROMPT = (
    "# Answer format\nReply with one JSON object only (no prose, no code fence) that validates against this JSON "
    "schema:\n"
)


@dataclass
class Adapted:
    kwargs: dict[str, Any]
    text_tools: frozenset[str] = frozenset()   # tools declared in the text protocol (their calls are parsed back)


def adapt_request(kwargs: Mapping[str, Any], caps: Capabilities) -> Adapted:
    out = dict(kwargs)
    messages = [dict(m) for m in out.get("messages") or []]
    system_extra: list[str] = []
    response_format = out.get("response_format")
    schema = _schema_of(response_format)
    if schema is not None and caps.structured != "json_schema":
        system_extra.append(SCHEMA_PROMPT + json.dumps(schema, ensure_ascii=False))
        out["response_format"] = {"type": "json_object", "schema": schema} if caps.structured == "json_object" else None
    if out.get("response_format") is None:
        out.pop("response_format", None)
    tools = out.get("tools") or []
    declared: frozenset[str] = frozenset()
    if caps.tools == "text":
        if tools:
            system_extra.append(text_tools.tools_prompt(tools))
            declared = frozenset((t.get("function") or t).get("name") for t in tools)
        messages = _tools_as_text(messages)
        out.pop("tools", None)
        out.pop("tool_choice", None)
    elif tools and caps.tool_choice and "tool_choice" not in out:
        out["tool_choice"] = caps.tool_choice
    if not tools:
        out.pop("tools", None)
        out.pop("tool_choice", None)
    if system_extra:
        messages = _with_system(messages, "\n\n".join(system_extra))
    if caps.content == "string":
        messages = _merge_same_roles([_as_string(m) for m in messages])
    out["messages"] = messages
    if caps.max_output_tokens and "max_tokens" not in out and "max_completion_tokens" not in out:
        out["max_tokens"] = caps.max_output_tokens
    return Adapted(out, declared)


def _schema_of(response_format: Any) -> dict[str, Any] | None:
    if not isinstance(response_format, Mapping):
        return None
    if response_format.get("type") == "json_schema":
        inner = response_format.get("json_schema") or {}
        return inner.get("schema") or {}
    return None


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    pieces = []
    for part in content if isinstance(content, list) else [content]:
        if isinstance(part, Mapping):
            if part.get("type") == "text" or "text" in part:
                pieces.append(str(part.get("text") or ""))
            else:
                pieces.append(f"[{part.get('type', 'attachment')} omitted]")
        else:
            pieces.append(str(part))
    return "\n\n".join(p for p in pieces if p)


def _as_string(message: dict[str, Any]) -> dict[str, Any]:
    if isinstance(message.get("content"), list):
        return {**message, "content": _text_of(message["content"])}
    return message


def _with_system(messages: list[dict[str, Any]], extra: str) -> list[dict[str, Any]]:
    for index, message in enumerate(messages):
        if message.get("role") in ("system", "developer"):
            text = _text_of(message.get("content"))
            return [*messages[:index], {**message, "content": f"{text}\n\n{extra}"}, *messages[index + 1 :]]
    return [{"role": "system", "content": extra}, *messages]


def _tools_as_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Assistant tool calls become `<tool_call>` text, tool results `<tool_response>` user text."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            blocks = [_text_of(message.get("content"))] if message.get("content") else []
            for call in message["tool_calls"]:
                function = _get(call, "function") or {}
                name, arguments = _get(function, "name") or "", _get(function, "arguments") or "{}"
                names[str(_get(call, "id"))] = name
                try:
                    parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
                except ValueError:
                    parsed = arguments
                blocks.append(text_tools.call_text(name, parsed))
            out.append({"role": "assistant", "content": "\n".join(blocks)})
        elif role == "tool":
            content = _text_of(message.get("content"))
            try:
                value: Any = json.loads(content)
            except ValueError:
                value = content
            name = names.get(str(message.get("tool_call_id")), message.get("name") or "tool")
            out.append({"role": "user", "content": text_tools.response_text(name, value)})
        else:
            out.append(message)
    return out


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, Mapping) else getattr(obj, key, None)


def _merge_same_roles(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive user (or assistant) string messages as one: strict chat templates want turns to alternate."""
    merged: list[dict[str, Any]] = []
    for message in messages:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and message.get("role") == previous.get("role") in ("user", "assistant")
            and isinstance(message.get("content"), str)
            and isinstance(previous.get("content"), str)
            and not message.get("tool_calls")
            and not previous.get("tool_calls")
        ):
            merged[-1] = {**previous, "content": f"{previous['content']}\n\n{message['content']}"}
        else:
            merged.append(message)
    return merged


def read_text_calls(content: str, declared: frozenset[str]) -> tuple[list[dict[str, Any]], str | None]:
    """(OpenAI-style tool_calls, remaining content) from a text-protocol reply."""
    calls, _problems, rest = text_tools.parse_calls(content, declared)
    tool_calls = [
        {
            "id": f"call_text_{index}",
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)},
        }
        for index, call in enumerate(calls)
    ]
    return tool_calls, (rest or None) if tool_calls else content


def cap_text(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters, keeping its head and tail, with a marker saying what was cut."""
    if len(text) <= limit:
        return text
    keep = max(limit - 120, 200)
    head, tail = keep * 3 // 4, keep // 4
    cut = len(text) - head - tail
    marker = f"[... {cut:,} characters of this reply cut: a model reply may be at most {limit:,} ...]"
    return f"{text[:head]}\n\n{marker}\n\n{text[-tail:]}"
