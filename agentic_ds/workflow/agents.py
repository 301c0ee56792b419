"""Builders for the tree's LLM agents and loops, from the table of agents: the model of the agent's role, a
Jinja2 prompt rendered from state, and (unless asked otherwise) only the agent's own current turn as history,
since its prompt carries the rest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.adk.agents import BaseAgent, LlmAgent
from google.adk.models import LlmResponse
from google.genai import types

from agentic_ds import state as S
from agentic_ds.agent_table import Mode, agent
from agentic_ds.workflow.loops import NonEscalatingLoopAgent
from agentic_ds.workflow.prompting import PromptProviders
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import StructuredAgent

ContextBuilder = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def llm_agent(services: RunServices, name: str, mode: Mode, context: ContextBuilder, **kwargs: Any) -> LlmAgent:
    """Agent `name` as the table of agents describes it: its model, its prompt for `mode` rendered with
    `context(state)` (the static part as its instruction, the per-call part through `services.per_call`), its
    tools and output key, and, with an output schema, as a `StructuredAgent`."""
    entry = agent(name)
    kwargs.setdefault("include_contents", "none")
    prompt = PromptProviders(entry.prompt_for(mode), context)
    services.per_call.register(name, prompt.per_call, prompt.context)
    common: dict[str, Any] = {
        "name": name,
        "model": services.model(name),
        "instruction": prompt.instruction,
        "output_key": entry.output_key,
        "tools": services.tools(entry.tools),
    }
    if entry.output_schema is None:
        if entry.output_key and entry.tools:
            _keep_final_text(entry.output_key, kwargs)
        return LlmAgent(**common, **kwargs)
    kwargs.setdefault("retries", services.settings.loops.structured_retries)
    return StructuredAgent(**common, output_schema=entry.output_schema, **kwargs)


def _keep_final_text(output_key: str, kwargs: dict[str, Any]) -> None:
    """Store only the turn's final answer under `output_key`: ADK joins the text of every response of a turn into
    it, so a model's notes between tool calls ("The error came from my variable C...") were glued, without a
    space, onto the front of the answer every later agent and the report read. The last response that calls no
    tool is the answer; a turn that never gave one keeps ADK's text."""
    final: dict[tuple[str, str | None, str], str] = {}

    def remember(callback_context: Any, llm_response: LlmResponse) -> None:
        content = llm_response.content
        if llm_response.partial or content is None or not content.parts:
            return
        if any(part.function_call for part in content.parts):
            return
        text = "".join(part.text for part in content.parts if part.text and not part.thought)
        if text.strip():
            final[(callback_context.invocation_id, callback_context.branch, callback_context.agent_name)] = text

    def store(callback_context: Any) -> None:
        key = (callback_context.invocation_id, callback_context.branch, callback_context.agent_name)
        text = final.pop(key, None)
        if text is not None:
            callback_context.state[output_key] = text

    kwargs["after_model_callback"] = [remember, *_callbacks(kwargs.get("after_model_callback"))]
    kwargs["after_agent_callback"] = [store, *_callbacks(kwargs.get("after_agent_callback"))]


def _callbacks(given: Any) -> list[Any]:
    return [] if given is None else list(given) if isinstance(given, list) else [given]


def loop_agent(services: RunServices, name: str, sub_agents: list[BaseAgent], **kwargs: Any) -> NonEscalatingLoopAgent:
    """Loop `name` as the table describes it: its decision and round keys, bounded by its `loops.*` setting."""
    loop = agent(name).loop
    if loop is None:
        raise ValueError(f"{name} is not a loop in the table of agents")
    return NonEscalatingLoopAgent(
        name=name,
        sub_agents=sub_agents,
        max_iterations=getattr(services.settings.loops, loop.iterations),
        decision_key=loop.decision_key,
        round_key=loop.round_key,
        exit_field=loop.exit_field,
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
