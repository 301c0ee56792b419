"""Builders for the tree's LLM agents: model from the agent's role, a Jinja2 prompt rendered from state, and
(unless asked otherwise) only the agent's own current turn as history, since its prompt carries the rest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models import LlmResponse
from google.genai import types
from pydantic import BaseModel

from agentic_ds import state as S

from agentic_ds.workflow.prompting import instruction
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import StructuredAgent

ContextBuilder = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def llm_agent(
    services: RunServices, name: str, prompt: str, context: ContextBuilder, *, output_key: str, **kwargs: Any
) -> LlmAgent:
    kwargs.setdefault("include_contents", "none")
    return LlmAgent(
        name=name,
        model=services.model(name),
        instruction=instruction(prompt, context),
        output_key=output_key,
        **kwargs,
    )


def structured_agent(
    services: RunServices,
    name: str,
    prompt: str,
    context: ContextBuilder,
    *,
    schema: type[BaseModel],
    output_key: str,
    **kwargs: Any,
) -> StructuredAgent:
    kwargs.setdefault("include_contents", "none")
    kwargs.setdefault("retries", services.settings.loops.structured_retries)
    return StructuredAgent(
        name=name,
        model=services.model(name),
        instruction=instruction(prompt, context),
        output_schema=schema,
        output_key=output_key,
        **kwargs,
    )


def turn_call_limit(limit: int) -> Callable[..., LlmResponse | None]:
    """A `before_model_callback` that lets a turn make `limit` tool calls and then one more model call to answer.

    A coder that keeps calling tools would otherwise only be stopped by the run's budget; a model call past
    `limit + 1` is answered with a final text instead, the turn ends, and the reviewer judges what exists.
    A turn is one stage attempt (or simple-mode attempt) on one branch.
    """
    counts: dict[tuple[Any, ...], int] = {}

    def callback(callback_context: Any, llm_request: Any) -> LlmResponse | None:
        state = callback_context.state
        turn = (
            callback_context.invocation_id,
            callback_context.branch,
            state.get(S.CURRENT_STAGE),
            state.get(S.STAGE_ATTEMPT),
            state.get(S.SIMPLE_ATTEMPT),
        )
        counts[turn] = counts.get(turn, 0) + 1
        if counts[turn] <= limit + 1:
            return None
        text = (
            f"Stopped: this turn reached its limit of {limit} tool calls (loops.coder_tool_calls). "
            "The work done so far is on disk for review."
        )
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))

    return callback
