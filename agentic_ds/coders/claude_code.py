"""`claude-code` coder: Claude Code (through claude-agent-sdk) as the ADK `coding_agent`.

The workflow builds it instead of the default `LlmAgent` coder when the coder model string is
`claude-code` or `claude-code:MODEL`. One run of the agent is one coder turn:

1. render the coder prompt with the workflow's `prompt_builder` (same templates as the LlmAgent coder:
   stage, stage map, finished stages, reviewer feedback, last error) and send it as the user prompt;
2. copy the skills into `<run>/.claude/skills/` and start the bundled CLI in the run directory, isolated
   from the user's Claude settings, with our tools served in-process (see `claude_options`, `claude_tools`);
3. turn every SDK message into an ADK event (`claude_events`), tool state changes included;
4. end with the final summary in `output_key`, and usage and cost in the final event's `usage_metadata`
   and `custom_metadata["claude_code"]`.

Failures (CLI missing, not logged in, an error result, a crashed process) end the turn with a text event
that says what went wrong and what to do, and `state.LAST_EXECUTION.ok = False`; they never raise.
"""

from __future__ import annotations

import inspect
import logging
from collections import deque
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.adk.agents import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.events import Event, EventActions
from pydantic import ConfigDict, Field
from typing_extensions import override

from agentic_ds import state
from agentic_ds.coders.claude_events import METADATA_KEY, EventMapper, TurnUsage, cap_text, merge_actions
from agentic_ds.coders.claude_failures import describe_error_result, describe_failure, stderr_note
from agentic_ds.coders.claude_options import build_options, install_skills
from agentic_ds.coders.claude_tools import ToolBridge
from agentic_ds.errors import ConfigError
from agentic_ds.workspace import Workspace

log = logging.getLogger(__name__)

MODEL_PREFIX = "claude-code"
SUMMARY_CAP = 20_000
STDERR_LINES = 40


def is_claude_code(model_string: str | None) -> bool:
    """True for `claude-code` and `claude-code:MODEL`."""
    return model_string is not None and (model_string == MODEL_PREFIX or model_string.startswith(MODEL_PREFIX + ":"))


def claude_model(model_string: str) -> str | None:
    """`claude-code` -> None (the CLI's default model); `claude-code:claude-sonnet-4-5` -> `claude-sonnet-4-5`."""
    if not is_claude_code(model_string):
        raise ConfigError(
            f"{model_string!r} is not a claude-code model string",
            hint="use 'claude-code' or 'claude-code:MODEL', e.g. 'claude-code:claude-sonnet-4-5'",
        )
    name = model_string.removeprefix(MODEL_PREFIX).removeprefix(":").strip()
    if model_string != MODEL_PREFIX and not name:
        raise ConfigError("'claude-code:' names no model", hint="write 'claude-code' for the CLI's default model")
    return name or None


class ClaudeCodeCoder(BaseAgent):
    """An ADK agent whose turn is one Claude Code session in the run directory."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: str | None = Field(None, description="Claude model name; None = the CLI's default")
    workspace: Workspace
    tools: list[Any] = Field(default_factory=list, description="the ADK tools the default coder gets")
    skills_dir: Path | None = None
    prompt_builder: Callable[[ReadonlyContext], Any]
    max_turns: int = Field(24, ge=1)
    max_budget_usd: float | None = None
    cli_env: dict[str, str] = Field(default_factory=dict, description="extra CLI environment (the call policy)")
    output_key: str = state.IMPL_SUMMARY
    transport_factory: Callable[[], Any] | None = Field(
        None, description="builds a claude_agent_sdk Transport (tests); None = the bundled CLI"
    )

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        prompt = self.prompt_builder(ReadonlyContext(ctx))
        if inspect.isawaitable(prompt):
            prompt = await prompt
        bridge = ToolBridge(self.tools, ctx)
        mapper = EventMapper(author=self.name, invocation_id=ctx.invocation_id, branch=ctx.branch, bridge=bridge)
        turn = _Turn()
        async for event in self._converse(prompt, bridge, mapper, turn):
            yield event
        for event in self._finish(ctx, bridge, mapper, turn):
            yield event

    async def _converse(
        self, prompt: str, bridge: ToolBridge, mapper: EventMapper, turn: _Turn
    ) -> AsyncGenerator[Event, None]:
        """Run the session, yielding an event per SDK message; the outcome is left in `turn`.

        The latest text-only event is held back one message, so the final summary can travel on it.
        """
        try:
            from claude_agent_sdk import AssistantMessage, ResultMessage, SystemMessage, UserMessage, query

            skill_names = install_skills(self.skills_dir, self.workspace.root) if self.skills_dir else []
            options = build_options(
                run_dir=self.workspace.root,
                model=self.model,
                mcp_server=bridge.server_config(),
                tool_ids=bridge.claude_tool_ids,
                skill_names=skill_names,
                max_turns=self.max_turns,
                max_budget_usd=self.max_budget_usd,
                stderr=turn.stderr.append,
                env=self.cli_env,
            )
            transport = self.transport_factory() if self.transport_factory else None
            # Drain the iterator to its end: breaking out of it leaves anyio cancel scopes in the wrong task.
            async for message in query(prompt=prompt, options=options, transport=transport):
                event: Event | None = None
                if isinstance(message, AssistantMessage):
                    event = mapper.assistant(message)
                elif isinstance(message, UserMessage):
                    event = mapper.tool_results(message)
                elif isinstance(message, SystemMessage) and message.subtype == "init":
                    turn.init_model = message.data.get("model")
                elif isinstance(message, ResultMessage):
                    turn.result = message
                if event is None:
                    continue
                if turn.held is not None:
                    yield turn.held
                    turn.held = None
                if _is_text_only(event):
                    turn.held = event
                else:
                    yield event
        except AssertionError:
            raise  # a bug or the test guard (RealModelCallBlocked), never a provider failure to report
        except Exception as exc:  # every SDK/CLI failure ends the turn with an explanation instead of killing the run
            turn.failure = describe_failure(exc, list(turn.stderr))
            log.warning("claude-code coder failed: %s", turn.failure)
        if turn.failure is None and turn.result is None:
            turn.failure = "Claude Code ended without a result message." + stderr_note(list(turn.stderr))
        elif turn.failure is None and turn.result.is_error:
            turn.failure = describe_error_result(turn.result)

    def _finish(self, ctx: InvocationContext, bridge: ToolBridge, mapper: EventMapper, turn: _Turn) -> list[Event]:
        """The closing event(s): summary (or failure) into state, usage and cost into metadata."""
        result, failure = turn.result, turn.failure
        model = self.model or turn.init_model
        usage = TurnUsage.from_result(result, model) if result is not None else TurnUsage(model=model)
        actions = EventActions()
        for leftover in bridge.take_all_actions():
            merge_actions(actions, leftover)
        result_text = (result.result or "").strip() if result is not None else ""
        if failure is None:
            summary = cap_text(result_text, SUMMARY_CAP) or "(Claude Code returned no summary)"
        else:
            summary = f"Claude Code could not finish this turn: {failure}"
            actions.state_delta[state.LAST_EXECUTION] = _failed_execution(ctx, actions, failure)
        actions.state_delta[self.output_key] = summary
        metadata = usage.custom_metadata()
        metadata[METADATA_KEY].update(status="error" if failure else "ok", error=failure)

        events: list[Event] = []
        if turn.held is not None and failure is None and _event_text(turn.held) == result_text:
            final = turn.held            # the last assistant text is the summary: the metadata travels on it
            merge_actions(final.actions, actions)
        else:
            if turn.held is not None:
                events.append(turn.held)
            final = mapper.text_event(summary, actions=actions)
        final.usage_metadata = usage.usage_metadata()
        final.custom_metadata = metadata
        events.append(final)
        return events


@dataclass
class _Turn:
    """What one session left behind for the closing event."""

    result: Any = None                   # the ResultMessage
    init_model: str | None = None
    failure: str | None = None
    held: Event | None = None
    stderr: deque[str] = field(default_factory=lambda: deque(maxlen=STDERR_LINES))


def _is_text_only(event: Event) -> bool:
    parts = event.content.parts if event.content and event.content.parts else []
    return bool(parts) and all(part.text is not None and not part.thought for part in parts)


def _event_text(event: Event) -> str:
    parts = event.content.parts if event.content and event.content.parts else []
    return "".join(part.text or "" for part in parts).strip()


def _failed_execution(ctx: InvocationContext, actions: EventActions, failure: str) -> dict[str, Any]:
    """`LAST_EXECUTION` marked failed, keeping what earlier cells of this stage recorded."""
    previous = actions.state_delta.get(state.LAST_EXECUTION) or ctx.session.state.get(state.LAST_EXECUTION) or {}
    return state.ExecutionSummary.model_validate({**previous, "ok": False, "error": failure}).model_dump()
