"""LLM agents whose answer must validate against a pydantic schema: repaired, re-asked, then given up on.

ADK validates `output_schema` answers itself and raises on invalid JSON, which would end the run. Here a bad
answer is first repaired (code fences, prose around the JSON, trailing commas); if it still does not validate,
the agent is asked again with the error under `<name>_error` in state (rendered into its prompt), at most
`retries` more times. Past that, `give_up` decides what the run records (a failure, or a warning).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator, Callable, Mapping
from typing import TypeGuard

from google.adk.agents import InvocationContext, LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.events import Event
from google.adk.models import LlmResponse
from google.genai import types
from pydantic import BaseModel, ValidationError
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.workflow.loops import status_event

# What the run records when the agent gave no valid answer after its retries: a state delta.
GiveUp = Callable[[InvocationContext, str], Mapping[str, object]]

_FENCE = "```"
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def error_key(agent_name: str) -> str:
    return f"{agent_name}_error"


def repair_json(text: str) -> str | None:
    """Best-effort: the JSON object inside `text`, or None when there is none."""
    candidates = list(dict.fromkeys([text.strip(), *_fenced_blocks(text)]))  # 300,000 empty fences are one candidate
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        for variant in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                value = json.loads(variant)
            except (ValueError, RecursionError):  # "[[[[..." nested past Python's recursion limit
                continue
            if isinstance(value, dict):
                return json.dumps(value)
    return None


def _fenced_blocks(text: str) -> list[str]:
    """The bodies of ``` fences (a leading `json` tag dropped), each fence closed by the next.

    With `str.find`, in one pass: the regex it replaces (optional whitespace, then a lazy match up to the
    next fence) took time quadratic in an unclosed fence followed by whitespace (2.3 s for 20 KB).
    """
    blocks = []
    start = text.find(_FENCE)
    while start >= 0:
        end = text.find(_FENCE, start + len(_FENCE))
        if end < 0:
            break
        body = text[start + len(_FENCE) : end]
        blocks.append(body.removeprefix("json").strip())
        start = text.find(_FENCE, end + len(_FENCE))
    return blocks


def _response_text(response: LlmResponse) -> str | None:
    if not response.content or not response.content.parts:
        return None
    if any(p.function_call for p in response.content.parts):
        return None
    texts = [p.text for p in response.content.parts if p.text and not p.thought]
    return "".join(texts) if texts else None


class StructuredAgent(LlmAgent):
    """An `LlmAgent` with `output_schema`, made tolerant of malformed answers."""

    retries: int = 2
    give_up: GiveUp | None = None

    def model_post_init(self, context: object) -> None:
        super().model_post_init(context)
        if self.output_key is None or not _is_model(self.output_schema):
            raise ValueError(f"{self.name}: a structured agent needs an output_key and a pydantic output_schema")
        callbacks = self.after_model_callback
        existing = callbacks if isinstance(callbacks, list) else ([callbacks] if callbacks else [])
        self.after_model_callback = [self._repair, *existing]

    def _repair(self, callback_context: CallbackContext, llm_response: LlmResponse) -> LlmResponse | None:
        text = _response_text(llm_response)
        if text is None or self.output_schema is None:
            return None
        fixed = repair_json(text)
        if fixed is None or fixed == text:
            return None
        return llm_response.model_copy(
            update={"content": types.Content(role="model", parts=[types.Part(text=fixed)])}
        )

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        key, schema = self.output_key or "", self.output_schema if _is_model(self.output_schema) else None
        problem = ""
        for attempt in range(self.retries + 1):
            # A value left from an earlier stage or round must not pass for this answer.
            yield status_event(ctx, self.name, None, **{key: None})
            try:
                async for event in super()._run_async_impl(ctx):
                    yield event
            except (ValidationError, ValueError) as exc:
                problem = _describe(exc, schema)
                # ADK raised before yielding the answer's event, and dropped the state its callbacks wrote into it
                # (a loop guard's warning, kept only in memory): the run's warnings go into this event instead.
                kept = {S.WARNINGS: ctx.session.state[S.WARNINGS]} if S.WARNINGS in ctx.session.state else {}
                yield status_event(
                    ctx, self.name, f"invalid structured output (attempt {attempt + 1}): {problem}",
                    **{error_key(self.name): problem, **kept},
                )
                continue
            if ctx.session.state.get(key) is None:
                problem = "the answer was empty: reply with the JSON object only"
                yield status_event(ctx, self.name, None, **{error_key(self.name): problem})
                continue
            if ctx.session.state.get(error_key(self.name)):
                yield status_event(ctx, self.name, None, **{error_key(self.name): None})
            return
        delta = self.give_up(ctx, problem) if self.give_up else {}
        yield status_event(
            ctx, self.name, f"gave up after {self.retries + 1} invalid answers: {problem}",
            **{error_key(self.name): None, **delta},
        )


def _is_model(schema: object) -> TypeGuard[type[BaseModel]]:
    return isinstance(schema, type) and issubclass(schema, BaseModel)


def _describe(exc: Exception, schema: type[BaseModel] | None) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        fields = ", ".join(schema.model_fields) if schema else ""
        return f"{first['msg']} at {where}; expected a JSON object with keys: {fields}"
    return str(exc)[:300]
