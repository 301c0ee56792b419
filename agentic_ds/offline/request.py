"""Read an `LlmRequest` the way the offline model needs it.

The offline model is stateless: everything it knows comes from the request ADK sends — the
system instruction (the agent's name and the `## Heading` sections the lead's prompts render),
the user's messages, and this agent's own tool calls and their results in `contents`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from google.adk.models import LlmRequest

from agentic_ds.context.per_call import PROMPT_CONTEXT, published
from agentic_ds.offline.prompt_headings import agent_headings

_AGENT_NAME = re.compile(r'Your internal name is "([^"]+)"')
_IDENTITY_START = "You are an agent. Your internal name is "
_HEADING = re.compile(r"^##\s+(.+?)\s*$")
# ADK moves a dynamic instruction into `contents` when a static one exists (context caching).
_BEGIN_BLOCK, _END_BLOCK = "<<<BEGIN_SYSTEM_INSTRUCTION>>>", "<<<END_SYSTEM_INSTRUCTION>>>"
_OTHER_AGENT_PREFIX = "For context:"


@dataclass
class ToolExchange:
    """One tool call this agent made, with the response it got (None while unanswered)."""

    name: str
    args: dict[str, Any]
    response: dict[str, Any] | None = None
    current_turn: bool = True


@dataclass
class ParsedRequest:
    agent: str
    instruction: str
    sections: dict[str, str]
    user_texts: list[str]
    exchanges: list[ToolExchange] = field(default_factory=list)
    tools: tuple[str, ...] = ()
    wants_json: bool = False
    context: Mapping[str, Any] = field(default_factory=dict)   # the values its prompt was rendered from
    per_call: str = ""                                          # the per-call part of its prompt, as sent

    def section(self, *names: str) -> str:
        """The first present section among `names` (headings compared case-insensitively)."""
        for name in names:
            value = self.sections.get(name.lower())
            if value:
                return value
        return ""

    @property
    def turn(self) -> list[ToolExchange]:
        """Tool exchanges of the current turn (since the last message from the user or another agent)."""
        return [ex for ex in self.exchanges if ex.current_turn]

    def calls(self, name: str, *, current: bool = True) -> list[ToolExchange]:
        source = self.turn if current else self.exchanges
        return [ex for ex in source if ex.name == name]

    def has_tool(self, name: str) -> bool:
        return name in self.tools

    @property
    def task(self) -> str:
        text = self.section("Task")
        if text:
            return text
        for candidate in self.user_texts:
            if not candidate.startswith(_OTHER_AGENT_PREFIX):
                return candidate.strip()
        return ""

    def text(self) -> str:
        """All of the request as plain text (for token estimates and the compactor)."""
        pieces = [self.instruction, *self.user_texts]
        for ex in self.exchanges:
            pieces.append(f"{ex.name} {json.dumps(ex.args, default=str)}")
            if ex.response is not None:
                pieces.append(json.dumps(ex.response, default=str))
        return "\n".join(pieces)


def split_sections(text: str, headings: frozenset[str] | None = None) -> dict[str, str]:
    """`## Heading` blocks of a markdown text, keyed by lower-cased heading (headings in code fences ignored).

    With `headings`, only those start a section, each at its first occurrence; other `## ` lines are content.
    """
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line)
        name = match.group(1).strip().lower() if match else ""
        if match and (headings is None or (name in headings and name not in sections)):
            current = sections.setdefault(name, [])
            continue
        if current is not None:
            current.append(line)
    return {name: "\n".join(lines).strip() for name, lines in sections.items()}


def parse_request(request: LlmRequest) -> ParsedRequest:
    per_call = ""
    instruction = _system_text(request)
    user_texts: list[str] = []
    exchanges: list[ToolExchange] = []
    pending: dict[str, ToolExchange] = {}
    for content in request.contents or []:
        for part in content.parts or []:
            if part.text:
                block = _instruction_block(part.text)
                if block is not None:
                    instruction = f"{instruction}\n{block}"
                    per_call = block
                    continue
                if content.role == "user":
                    user_texts.append(part.text)
                    _close_turn(exchanges)
            if part.function_call:
                call = part.function_call
                exchange = ToolExchange(name=call.name or "", args=dict(call.args or {}))
                exchanges.append(exchange)
                pending[call.id or f"{call.name}#{len(exchanges)}"] = exchange
            if part.function_response:
                _attach(pending, exchanges, part.function_response)
    match = _AGENT_NAME.search(instruction)
    agent = match.group(1) if match else ""
    tools = tuple(sorted(request.tools_dict)) if request.tools_dict else _declared_tools(request)
    config = request.config
    wants_json = bool(config and (config.response_schema is not None or config.response_json_schema is not None))
    return ParsedRequest(
        agent=agent,
        instruction=instruction,
        sections=split_sections(_without_identity(instruction), agent_headings(agent)),
        user_texts=user_texts,
        exchanges=exchanges,
        tools=tools,
        wants_json=wants_json,
        per_call=per_call,
        context=_context_of(agent, per_call),
    )


def _context_of(agent: str, per_call: str) -> Mapping[str, Any]:
    """The values the agent's prompt was rendered from: set for this call in this task, or, for a model answering
    from another thread (behind a test server), published with the per-call text its request carries."""
    given = PROMPT_CONTEXT.get()
    if given is not None and given[0] == agent:
        return given[1]
    return published(agent, per_call) or {}


def _without_identity(instruction: str) -> str:
    """The instruction without ADK's identity line, which ADK appends after the prompt's static part: it would
    otherwise read as the end of the last static section (the task, the data profile)."""
    return "\n".join(line for line in instruction.splitlines() if not line.startswith(_IDENTITY_START))


def _instruction_block(text: str) -> str | None:
    """The text between the BEGIN marker line and the last END marker line (plain `find`, linear).

    ADK's label names both markers in its preamble sentence first, so only a marker on a line of its own counts;
    markers inside the fenced text are elided by ADK."""
    begin_line, end_line = f"\n{_BEGIN_BLOCK}\n", f"\n{_END_BLOCK}"
    begin = text.find(begin_line)
    if begin < 0:
        return None
    start = begin + len(begin_line)
    end = text.rfind(end_line, start - 1)
    return text[start:end] if end >= start - 1 else None


def _system_text(request: LlmRequest) -> str:
    system = request.config.system_instruction if request.config else None
    if system is None:
        return ""
    if isinstance(system, str):
        return system
    parts = getattr(system, "parts", None)
    if parts:
        return "\n".join(p.text for p in parts if getattr(p, "text", None))
    return str(system)


def _declared_tools(request: LlmRequest) -> tuple[str, ...]:
    names: list[str] = []
    for tool in (request.config.tools if request.config else None) or []:
        for declaration in getattr(tool, "function_declarations", None) or []:
            names.append(declaration.name)
    return tuple(sorted(names))


def _close_turn(exchanges: list[ToolExchange]) -> None:
    for exchange in exchanges:
        exchange.current_turn = False


def _attach(pending: dict[str, ToolExchange], exchanges: list[ToolExchange], response: Any) -> None:
    payload = response.response if isinstance(response.response, dict) else {"result": response.response}
    key = response.id or ""
    exchange = pending.pop(key, None) if key else None
    if exchange is None:
        # Match by name: the earliest unanswered call of that tool.
        exchange = next((ex for ex in exchanges if ex.name == response.name and ex.response is None), None)
    if exchange is not None:
        exchange.response = payload


def tool_text(response: dict[str, Any] | None) -> str:
    """The main text a file tool returned, whatever key the tool uses for it."""
    if not response:
        return ""
    for key in ("content", "text", "result", "output", "data"):
        value = response.get(key)
        if isinstance(value, str):
            return value
    return json.dumps(response, default=str)


def tool_json(response: dict[str, Any] | None) -> Any:
    """Parse the JSON document a `read_file` returned; None when it was not JSON (or failed).

    File tools cut long files. A cut JSON object still yields every top-level value that arrived whole
    (result files put `summary` first), so a long result is not mistaken for a missing one.
    """
    if not response:
        return None
    for key in ("content", "text", "result", "output", "data"):
        value = response.get(key)
        if isinstance(value, (dict, list)):
            return value
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                salvaged = salvage_json_object(value)
                if salvaged:
                    return salvaged
    return None


def salvage_json_object(text: str) -> dict[str, Any]:
    """The complete top-level members of a JSON object whose text was cut off."""
    decoder = json.JSONDecoder()
    found: dict[str, Any] = {}
    position = text.find("{")
    if position < 0:
        return found
    position += 1
    while True:
        match = _MEMBER.match(text, position)
        if not match:
            return found
        try:
            key = json.loads(match.group(1))
            value, end = decoder.raw_decode(text, match.end())
        except ValueError:
            return found
        found[key] = value
        position = end


_MEMBER = re.compile(r'\s*,?\s*("(?:[^"\\]|\\.)*")\s*:\s*')
