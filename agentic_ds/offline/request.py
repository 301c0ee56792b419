"""Read an `LlmRequest` the way the offline model needs it (which agent asks, and its own tool history), and what
one offline turn answers: text or tool calls (`Reply`), after reading the result files it needs.

The offline model is stateless. What it knows comes from the values the agent's prompt was rendered from
(`context`: the task, the asks, the profile, the plan, the stage, the criteria, as data, never the rendered text)
and from this agent's own tool calls and their results in the request's `contents`. The agent's name is the label
ADK puts on the request (`adk_private.agent_of`); the text of the prompt is read only by the compactor, which keeps
lines verbatim.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from google.adk.models import LlmRequest

from agentic_ds.adk_private import agent_of
from agentic_ds.offline.reader import Reading, read_question
from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import CriterionRecord, StageRecord, read_model, read_records


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
    user_texts: list[str]
    exchanges: list[ToolExchange] = field(default_factory=list)
    tools: tuple[str, ...] = ()
    context: Mapping[str, Any] = field(default_factory=dict)   # the values its prompt was rendered from

    @property
    def turn(self) -> list[ToolExchange]:
        """Tool exchanges of the current turn (since the last message from the user or another agent)."""
        return [ex for ex in self.exchanges if ex.current_turn]

    def text(self) -> str:
        """All of the request as plain text (for token estimates and the compactor)."""
        pieces = [self.instruction, *self.user_texts]
        for ex in self.exchanges:
            pieces.append(f"{ex.name} {json.dumps(ex.args, default=str)}")
            if ex.response is not None:
                pieces.append(json.dumps(ex.response, default=str))
        return "\n".join(pieces)

    # The values its prompt was rendered from, typed, never parsed from text. Each context builder in `workflow/`
    # passes records (`StageRecord`, `CriterionRecord`), the run's `DataProfile`, the asks and the execution record;
    # these take them as given, or rebuild a record from a plain dict (a context that went through JSON), and fall
    # back to an empty value when a key is missing.

    def task(self) -> str:
        return str(self.context.get("task") or "")

    def text_of(self, key: str) -> str:
        value = self.context.get(key)
        return value if isinstance(value, str) else ""

    def profile(self) -> DataProfile:
        value = self.context.get("profile")
        if isinstance(value, DataProfile):
            return value
        return DataProfile.from_json(value) if isinstance(value, dict) else DataProfile()

    def reading(self) -> Reading:
        """The offline reader's reading of the task against the profile."""
        return read_question(self.task(), self.profile())

    def stage(self) -> StageRecord | None:
        value = self.context.get("stage")
        return value if isinstance(value, StageRecord) else read_model(StageRecord, value)

    def stages(self) -> list[StageRecord]:
        return _records(StageRecord, self.context.get("stages"))

    def criteria(self) -> list[CriterionRecord]:
        return _records(CriterionRecord, self.context.get("criteria"))

    def asks(self) -> list[dict[str, str]]:
        """The run's asks, `{id, text, slot}` each."""
        return [{"id": str(a.get("id") or ""), "text": str(a.get("text") or ""), "slot": str(a.get("slot") or "")}
                for a in self.context.get("asks") or [] if isinstance(a, dict)]

    def execution(self) -> dict[str, Any]:
        """Simple mode's last execution record (`ok`, `cells`, `error`, `files`, `output_tail`); {} when none ran."""
        value = self.context.get("execution")
        return dict(value) if isinstance(value, dict) else {}

    def produced(self) -> list[str]:
        """The paths of the files the run produced (outputs/ and figures/) that can be read."""
        return [str(f.get("path")) for f in self.context.get("files") or []
                if isinstance(f, dict) and f.get("path") and not f.get("problem")]


def _records(model: Any, value: Any) -> list[Any]:
    if isinstance(value, list) and all(isinstance(v, model) for v in value):
        return list(value)
    return read_records(model, value)


@dataclass
class Reply:
    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def say(cls, text: str) -> Reply:
        return cls(text=text)

    @classmethod
    def json(cls, value: Any) -> Reply:
        return cls(text=json.dumps(value, ensure_ascii=False))

    @classmethod
    def changes_requested(cls, problems: list[str]) -> Reply:
        return cls.say("CHANGES REQUESTED\n" + "\n".join(f"{i}. {p}" for i, p in enumerate(problems, start=1)))

    @classmethod
    def call(cls, name: str, **args: Any) -> Reply:
        return cls(calls=[(name, args)])


def parse_request(request: LlmRequest) -> ParsedRequest:
    instruction = _system_text(request)
    user_texts: list[str] = []
    exchanges: list[ToolExchange] = []
    pending: dict[str, ToolExchange] = {}
    for content in request.contents or []:
        for part in content.parts or []:
            if part.text:
                if content.role == "user":
                    user_texts.append(part.text)
                    for earlier in exchanges:           # a message ends the turn of every call before it
                        earlier.current_turn = False
            if part.function_call:
                call = part.function_call
                exchange = ToolExchange(name=call.name or "", args=dict(call.args or {}))
                exchanges.append(exchange)
                pending[call.id or f"{call.name}#{len(exchanges)}"] = exchange
            if part.function_response:
                _attach(pending, exchanges, part.function_response)
    tools = tuple(sorted(request.tools_dict)) if request.tools_dict else _declared_tools(request)
    return ParsedRequest(agent_of(request), instruction, user_texts, exchanges, tools)


def _system_text(request: LlmRequest) -> str:
    system = request.config.system_instruction if request.config else None
    if system is None or isinstance(system, str):
        return system or ""
    parts = getattr(system, "parts", None)
    return "\n".join(p.text for p in parts if getattr(p, "text", None)) if parts else str(system)


def _declared_tools(request: LlmRequest) -> tuple[str, ...]:
    tools = (request.config.tools if request.config else None) or []
    return tuple(sorted(d.name for t in tools for d in getattr(t, "function_declarations", None) or []))


def _attach(pending: dict[str, ToolExchange], exchanges: list[ToolExchange], response: Any) -> None:
    payload = response.response if isinstance(response.response, dict) else {"result": response.response}
    key = response.id or ""
    exchange = pending.pop(key, None) if key else None
    if exchange is None:
        # Match by name: the earliest unanswered call of that tool.
        exchange = next((ex for ex in exchanges if ex.name == response.name and ex.response is None), None)
    if exchange is not None:
        exchange.response = payload


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


def read_json_file(req: ParsedRequest, path: str, after: int | None = None) -> tuple[bool, Any]:
    """(asked, document): whether `read_file(path)` was already called, and the JSON it returned (or None); the
    last such call, or with `after` the first one made after exchange number `after`."""
    for exchange in reversed(req.exchanges) if after is None else req.exchanges[after + 1:]:
        if exchange.name == "read_file" and exchange.args.get("path") == path and exchange.response is not None:
            return True, tool_json(exchange.response)
    return False, None


def json_files_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, Any] | Reply:
    """Documents of every `paths` entry (None when unreadable), or one reply fetching all missing ones at once."""
    missing = [p for p in paths if not read_json_file(req, p)[0]]
    if missing and "read_file" in req.tools:
        return Reply(calls=[("read_file", {"path": p}) for p in missing])
    return {p: read_json_file(req, p)[1] for p in paths}


def results_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, dict[str, Any]] | Reply:
    """The result documents (those with summary sentences) among the `result_files` of `paths`, or the reads that
    fetch them."""
    documents = json_files_or_fetch(req, result_files(paths))
    if isinstance(documents, Reply):
        return documents
    return {p: d for p, d in documents.items() if has_summary(d)}


def has_summary(document: Any) -> bool:
    return isinstance(document, dict) and bool(document.get("summary"))


def result_files(paths: list[str]) -> list[str]:
    """The result documents among `paths`: `outputs/....json`, in order, without duplicates."""
    return list(dict.fromkeys(p for p in paths if p.startswith("outputs/") and p.endswith(".json")))
