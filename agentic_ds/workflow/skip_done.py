"""Agents that skip what the session already records as done, so a resumed run never redoes finished work.

Each entry tests session state and gives None (not done) or the status line to show (empty: none); when done,
the agent's `before_agent_callback` answers with that line instead of the agent running (ADK's own way to skip
an agent). A new run never meets these conditions; a resumed one (`workflow/resume.py`) keeps the inputs'
profile, the plan and a validated simple-mode answer. The stage orchestrator skips finished stages itself (it
runs only pending ones), and the summary always runs again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.adk.agents import BaseAgent
from google.genai import types

from agentic_ds import state as S


def _planned(state: Mapping[str, Any]) -> bool:
    return bool(state.get(S.STAGES))


DONE: dict[str, Callable[[Mapping[str, Any]], str | None]] = {
    "file_analyzer": lambda state: (
        "inputs profiled before: data_profile.json kept" if state.get(S.DATA_PROFILE) else None
    ),
    "planning_loop": lambda state: "planned before: plan.md kept" if _planned(state) else None,
    # Silent: text from a structured agent would be read as its answer (planning_loop's line says it all).
    "plan_parser": lambda state: "" if _planned(state) else None,
    "task_reader": lambda state: "" if state.get(S.ASKS) else None,
    "simple_loop": lambda state: (
        "an answer stood before: kept" if (state.get(S.ANSWER_CHECK) or {}).get("exit") else None
    ),
}


def attach(agent: BaseAgent) -> None:
    """Give `agent` its skip, when it has one: before it runs, a check of what state records as done."""
    done = DONE.get(agent.name)
    if done is None:
        return

    def skip_when_done(callback_context: Any) -> types.Content | None:
        text = done(callback_context.state)
        if text is None:
            return None
        return types.Content(role="model", parts=[types.Part(text=text)] if text else [])

    existing = agent.before_agent_callback
    callbacks = existing if isinstance(existing, list) else [existing] if existing else []
    agent.before_agent_callback = [skip_when_done, *callbacks]
