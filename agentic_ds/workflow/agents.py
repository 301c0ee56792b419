"""Builders for the tree's LLM agents and loops, from the table of agents: the model of the agent's role, a
Jinja2 prompt rendered from state, and (unless asked otherwise) only the agent's own current turn as history,
since its prompt carries the rest."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypedDict, TypeVar

from google.adk.agents import BaseAgent, InvocationContext, LlmAgent
from google.adk.agents.base_agent import AfterAgentCallback, BeforeAgentCallback
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.llm_agent import AfterModelCallback, BeforeModelCallback, ToolUnion
from google.adk.models import LlmRequest, LlmResponse
from google.genai import types
from typing_extensions import Unpack

from agentic_ds import state as S
from agentic_ds.agent_table import Mode, agent
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.loops import NonEscalatingLoopAgent
from agentic_ds.workflow.prompting import ContextBuilder, PromptProviders
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import GiveUp, StructuredAgent

C = TypeVar("C")


class AgentOptions(TypedDict, total=False):
    """What a builder may add to an LLM agent beyond its table entry."""

    include_contents: Literal["default", "none"]
    before_agent_callback: BeforeAgentCallback
    after_agent_callback: AfterAgentCallback
    before_model_callback: BeforeModelCallback
    after_model_callback: AfterModelCallback
    give_up: GiveUp          # a StructuredAgent's: what the run records when no valid answer came


class _LlmOptions(TypedDict):
    """An `LlmAgent`'s own fields among `AgentOptions`."""

    include_contents: Literal["default", "none"]
    before_agent_callback: BeforeAgentCallback | None
    after_agent_callback: AfterAgentCallback | None
    before_model_callback: BeforeModelCallback | None
    after_model_callback: AfterModelCallback | None


def llm_agent(
    services: RunServices, name: str, mode: Mode, context: ContextBuilder, **options: Unpack[AgentOptions]
) -> LlmAgent:
    """Agent `name` as the table of agents describes it: its model, its prompt for `mode` rendered with
    `context(state)` (the static part as its instruction, the per-call part through `services.per_call`), its
    tools and output key, and, with an output schema, as a `StructuredAgent`. Unless asked otherwise, its history
    is only its own current turn."""
    entry = agent(name)
    prompt = PromptProviders(entry.prompt_for(mode), context)
    services.per_call.register(name, prompt.per_call, prompt.context)
    if entry.output_schema is None and entry.output_key and entry.tools:
        _keep_final_text(entry.output_key, options)
    own = _LlmOptions(
        include_contents=options.get("include_contents", "none"),
        before_agent_callback=options.get("before_agent_callback"),
        after_agent_callback=options.get("after_agent_callback"),
        before_model_callback=options.get("before_model_callback"),
        after_model_callback=options.get("after_model_callback"),
    )
    model = services.model(name)
    tools: list[ToolUnion] = list(services.tools(entry.tools))
    if entry.output_schema is None:
        if "give_up" in options:
            raise ValueError(f"{name} has no output schema: only a structured agent gives up")
        return LlmAgent(name=name, model=model, instruction=prompt.instruction, output_key=entry.output_key,
                        tools=tools, **own)
    return StructuredAgent(name=name, model=model, instruction=prompt.instruction, output_key=entry.output_key,
                           tools=tools, **own, output_schema=entry.output_schema, give_up=options.get("give_up"),
                           retries=services.settings.loops.structured_retries)


def _keep_final_text(output_key: str, options: AgentOptions) -> None:
    """Store only the turn's final answer under `output_key`: ADK joins the text of every response of a turn into
    it, so a model's notes between tool calls ("The error came from my variable C...") were glued, without a
    space, onto the front of the answer every later agent and the report read. The last response that calls no
    tool is the answer; a turn that never gave one keeps ADK's text."""
    final: dict[tuple[str, str | None, str], str] = {}

    def remember(callback_context: CallbackContext, llm_response: LlmResponse) -> None:
        content = llm_response.content
        if llm_response.partial or content is None or not content.parts:
            return
        if any(part.function_call for part in content.parts):
            return
        text = "".join(part.text for part in content.parts if part.text and not part.thought)
        if text.strip():
            final[(callback_context.invocation_id, callback_context.branch, callback_context.agent_name)] = text

    def store(callback_context: CallbackContext) -> None:
        key = (callback_context.invocation_id, callback_context.branch, callback_context.agent_name)
        text = final.pop(key, None)
        if text is not None:
            callback_context.state[output_key] = text

    options["after_model_callback"] = [remember, *_callbacks(options.get("after_model_callback"))]
    options["after_agent_callback"] = [store, *_callbacks(options.get("after_agent_callback"))]


def _callbacks(given: C | list[C] | None) -> list[C]:
    if given is None:
        return []
    return list(given) if isinstance(given, list) else [given]


def loop_agent(
    services: RunServices, name: str, sub_agents: list[BaseAgent],
    on_round_start: Callable[[InvocationContext, int], SessionState] | None = None,
) -> NonEscalatingLoopAgent:
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
        on_round_start=on_round_start,
    )


def turn_call_limit(limit: int) -> Callable[[CallbackContext, LlmRequest], LlmResponse | None]:
    """A `before_model_callback` that lets a turn make `limit` tool calls and then one more model call to answer.

    A coder that keeps calling tools would otherwise only be stopped by the run's budget; a model call past
    `limit + 1` is answered with a final text instead, the turn ends, and the reviewer judges what exists.
    A turn is one stage attempt (or simple-mode attempt) on one branch.
    """
    counts: dict[tuple[str, str | None, int | None, int | None, int | None], int] = {}

    def callback(callback_context: CallbackContext, llm_request: LlmRequest) -> LlmResponse | None:
        state = typed(callback_context.state)
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
