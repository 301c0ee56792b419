"""Agents that skip what the session already records as done, so a resumed run never redoes finished work.

Each entry tests session state and gives None (not done) or the status line to show (empty: none); when done,
the agent's `before_agent_callback` answers with that line instead of the agent running (ADK's own way to skip
an agent). A new run never meets these conditions; a resumed one (`workflow/resume.py`) keeps the inputs'
profile, the plan and a validated simple-mode answer. The stage orchestrator skips finished stages itself (it
runs only pending ones), and the summary always runs again. Once the plan gate closed in an invocation (the plan
waits for a person, or was stopped: `workflow/plan_gate.py`), every agent after it is skipped silently.
"""

from __future__ import annotations

from collections.abc import Callable

from google.adk.agents import BaseAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow import plan_gate


def _planned(state: SessionState) -> bool:
    return bool(state.get(S.STAGES))


DONE: dict[str, Callable[[SessionState], str | None]] = {
    A.FILE_ANALYZER: lambda state: (
        "inputs profiled before: data_profile.json kept" if state.get(S.DATA_PROFILE) else None
    ),
    A.PLANNING_LOOP: lambda state: "planned before: plan.md kept" if _planned(state) else None,
    # Silent: text from a structured agent would be read as its answer (planning_loop's line says it all).
    A.PLAN_PARSER: lambda state: "" if _planned(state) else None,
    A.TASK_READER: lambda state: "" if state.get(S.ASKS) else None,
    A.SIMPLE_LOOP: lambda state: (
        "an answer stood before: kept" if (state.get(S.ANSWER_CHECK) or {}).get("exit") else None
    ),
}


def attach(agent: BaseAgent) -> None:
    """Give `agent` its skip: before it runs, a check of what state records as done, and of the plan gate."""
    done = DONE.get(agent.name, lambda state: None)

    def skip_when_done(callback_context: CallbackContext) -> types.Content | None:
        state = typed(callback_context.state)
        text = "" if plan_gate.held(state) else done(state)
        if text is None:
            return None
        return types.Content(role="model", parts=[types.Part(text=text)] if text else [])

    existing = agent.before_agent_callback
    callbacks = existing if isinstance(existing, list) else [existing] if existing else []
    agent.before_agent_callback = [skip_when_done, *callbacks]
