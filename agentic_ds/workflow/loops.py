"""Workflow containers. The only module that touches ADK's deprecated SequentialAgent.

ADK 2.x deprecates SequentialAgent/LoopAgent in favour of Workflow, but a Workflow cannot hold BaseAgents yet and
the user asked for this tree; keeping the deprecated class here makes a later move one file's change.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event, EventActions
from google.genai import types
from typing_extensions import override

from agentic_ds.state import SessionState


def sequence(name: str, sub_agents: list[BaseAgent]) -> BaseAgent:
    from google.adk.agents import SequentialAgent

    return SequentialAgent(name=name, sub_agents=sub_agents)


def status_event(ctx: InvocationContext, author: str, text: str | None = None, **state_delta: object) -> Event:
    """An event that changes state (and so persists) with an optional line of text for the log. The keys are
    `SessionState`'s, or a structured agent's own (its output key, its error key)."""
    content = types.Content(role="model", parts=[types.Part(text=text)]) if text else None
    return Event(
        invocation_id=ctx.invocation_id,
        author=author,
        branch=ctx.branch,
        content=content,
        actions=EventActions(state_delta=dict(state_delta)),
    )


class NonEscalatingLoopAgent(BaseAgent):
    """Runs its sub-agents in order, round after round, until approved or `max_iterations` rounds.

    The loop ends when the decision stored under `decision_key` has a true `exit_field`, or when a sub-agent
    escalates. An escalation ends this loop only: the event is passed up with `escalate` cleared (on a copy), so
    the parent keeps going. At the start of each round, `round_key` is set to the 1-based round number and
    `decision_key` is cleared, so a stale approval can never end a later round.
    """

    max_iterations: int = 3
    decision_key: str
    exit_field: str = "exit"
    round_key: str
    on_round_start: Callable[[InvocationContext, int], SessionState] | None = None

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        for round_no in range(1, self.max_iterations + 1):
            extra = self.on_round_start(ctx, round_no) if self.on_round_start else {}
            yield status_event(ctx, self.name, None, **{self.round_key: round_no, self.decision_key: None, **extra})
            for sub in self.sub_agents:
                escalated = False
                async for event in sub.run_async(ctx):
                    if event.actions and event.actions.escalate:
                        escalated = True
                        event = event.model_copy(
                            update={"actions": event.actions.model_copy(update={"escalate": None})}
                        )
                    yield event
                if escalated:
                    return
                if ctx.end_invocation:
                    return
            decision = ctx.session.state.get(self.decision_key) or {}
            if isinstance(decision, dict) and decision.get(self.exit_field):
                return
