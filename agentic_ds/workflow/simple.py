"""Simple mode: one coding pass with a mandatory validation step, retried a bounded number of times.

Tree: file_analyzer -> task_reader -> simple_loop[coding_agent, answer_validator, judge] -> evidence_check ->
summary_agent (the validator and the status are in `answer.py`, the judge in `judging.py`). Each retry shows
the agent what earlier attempts did and why they
did not stand, so it does not repeat them.
"""

from __future__ import annotations

from google.adk.agents import BaseAgent, InvocationContext

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.agents import loop_agent
from agentic_ds.workflow.prompting import ContextBuilder, PromptContext
from agentic_ds.workflow.services import RunServices


def _remember_failed_attempt(ctx: InvocationContext, round_no: int) -> SessionState:
    if round_no == 1:
        return {}
    state = typed(ctx.session.state)
    execution = state.get(S.LAST_EXECUTION) or {}
    check = state.get(S.ANSWER_CHECK) or {}
    answer = state.get(S.FINAL_ANSWER) or {}
    verdict = check.get("reason") or "; ".join(answer.get("caveats") or []) or answer.get("answer") or ""
    attempts = list(state.get(S.EARLIER_ATTEMPTS) or [])
    attempts.append({"attempt": round_no - 1, "ran": bool(execution), "error": execution.get("error") or "",
                     "verdict": verdict[:500]})
    return {S.EARLIER_ATTEMPTS: attempts, S.LAST_EXECUTION: None, S.IMPL_SUMMARY: "", S.ANSWER_CLAIM: None,
            S.FINAL_ANSWER: None}


def simple_coder_context(services: RunServices) -> ContextBuilder:
    """The coder's prompt context in simple mode: the task, the profile, and what earlier attempts did."""

    def build(state: SessionState) -> PromptContext:
        task = state.get(S.TASK, "")
        return {
            "task": task,
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "earlier_run": state.get(S.EARLIER_RUN) or "",
            "earlier_attempts": [dict(item) for item in state.get(S.EARLIER_ATTEMPTS) or []],
            "skills": services.relevant_skills(task),
            "profile": services.profile(),
        }

    return build


def build_simple_loop(services: RunServices, mode: Mode, sub_agents: list[BaseAgent]) -> BaseAgent:
    return loop_agent(services, A.SIMPLE_LOOP, sub_agents, on_round_start=_remember_failed_attempt)
