"""Simple mode: one coding pass with a mandatory validation step, retried a bounded number of times.

Tree: file_analyzer -> simple_loop[coding_agent, answer_validator] -> simple_status -> summary_agent.
Each retry shows the agent what earlier attempts did and why they failed, so it does not repeat them.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from typing import Any

from google.adk.agents import BaseAgent, InvocationContext, LlmAgent
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.schema import RunStatus
from agentic_ds.workflow.agents import ContextBuilder, llm_agent, loop_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.implementation import render_execution
from agentic_ds.workflow.loops import status_event
from agentic_ds.workflow.services import RunServices


def _earlier(state: Mapping[str, Any]) -> str:
    parts = []
    for item in state.get(S.EARLIER_ATTEMPTS) or []:
        parts.append(
            f"### Attempt {item['attempt']}\nerror: {item.get('error') or 'none'}\n"
            f"verdict: {item.get('verdict') or '-'}"
        )
    return "\n\n".join(parts)


def _remember_failed_attempt(ctx: InvocationContext, round_no: int) -> dict[str, Any]:
    if round_no == 1:
        return {}
    state = ctx.session.state
    execution = state.get(S.LAST_EXECUTION) or {}
    answer = state.get(S.FINAL_ANSWER) or {}
    verdict = "; ".join(answer.get("caveats") or []) or answer.get("answer") or ""
    attempts = list(state.get(S.EARLIER_ATTEMPTS) or [])
    attempts.append({"attempt": round_no - 1, "error": execution.get("error") or "", "verdict": verdict[:500]})
    return {S.EARLIER_ATTEMPTS: attempts, S.LAST_EXECUTION: None, S.IMPL_SUMMARY: ""}


class SimpleStatus(BaseAgent):
    """Decides simple mode's status from the validated answer."""

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        state = ctx.session.state
        if state.get(S.RUN_STATUS):
            return
        answer = state.get(S.FINAL_ANSWER) or {}
        execution = state.get(S.LAST_EXECUTION) or {}
        warnings = state.get(S.WARNINGS) or []
        if answer.get("valid"):
            status = RunStatus.COMPLETED_WITH_WARNINGS if warnings else RunStatus.COMPLETED
            reason = "answer validated against the outputs" + (f", with {len(warnings)} warning(s)" if warnings else "")
        elif execution.get("ok"):
            status, reason = RunStatus.INCOMPLETE, "code ran, but no answer passed validation"
        else:
            status = RunStatus.FAILED
            reason = "no attempt produced a result: " + (execution.get("error") or "no code ran")[:200]
        yield status_event(
            ctx, self.name, f"status: {status} - {reason}", **{S.RUN_STATUS: status, S.STATUS_REASON: reason}
        )


def simple_coder_context(services: RunServices) -> ContextBuilder:
    """The coder's prompt context in simple mode: the task, the profile, and what earlier attempts did."""

    def build(state: Mapping[str, Any]) -> dict[str, Any]:
        task = state.get(S.TASK, "")
        return {
            "task": task,
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "earlier_attempts": _earlier(state),
            "skills": services.relevant_skills(task),
        }

    return build


def build_answer_validator(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "task": state.get(S.TASK, ""),
            "execution": render_execution(state.get(S.LAST_EXECUTION)),
            "summary": state.get(S.IMPL_SUMMARY) or "(no summary)",
            "files": list_produced(services.workspace),
        }

    return llm_agent(services, "answer_validator", mode, context)


def build_simple_loop(services: RunServices, mode: Mode, sub_agents: list[BaseAgent]) -> BaseAgent:
    return loop_agent(services, "simple_loop", sub_agents, on_round_start=_remember_failed_attempt)
