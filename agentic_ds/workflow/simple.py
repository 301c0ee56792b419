"""Simple mode: one coding pass with a mandatory validation step, retried a bounded number of times.

Tree: file_analyzer -> simple_loop[coding_agent, answer_validator] -> simple_status -> summary_agent.
Each retry shows the agent what earlier attempts did and why they failed, so it does not repeat them.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from typing import Any

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.state import FinalAnswer
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.implementation import render_execution
from agentic_ds.workflow.loops import NonEscalatingLoopAgent, status_event
from agentic_ds.workflow.agents import llm_agent, structured_agent, turn_call_limit
from agentic_ds.workflow.services import RunServices


def _earlier(state: Mapping[str, Any]) -> str:
    parts = []
    for item in state.get(S.EARLIER_ATTEMPTS) or []:
        parts.append(f"### Attempt {item['attempt']}\nerror: {item.get('error') or 'none'}\nverdict: {item.get('verdict') or '-'}")
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
            status = "completed_with_warnings" if warnings else "completed"
            reason = "answer validated against the outputs" + (f", with {len(warnings)} warning(s)" if warnings else "")
        elif execution.get("ok"):
            status, reason = "incomplete", "code ran, but no answer passed validation"
        else:
            status, reason = "failed", "no attempt produced a result: " + (execution.get("error") or "no code ran")[:200]
        yield status_event(ctx, self.name, f"status: {status} - {reason}", **{S.RUN_STATUS: status, S.STATUS_REASON: reason})


def build_simple_agents(services: RunServices) -> list[BaseAgent]:
    def coder_context(state: Mapping[str, Any]) -> dict[str, Any]:
        task = state.get(S.TASK, "")
        return {
            "task": task,
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "earlier_attempts": _earlier(state),
            "skills": services.relevant_skills(task),
        }

    def validator_context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "task": state.get(S.TASK, ""),
            "execution": render_execution(state.get(S.LAST_EXECUTION)),
            "summary": state.get(S.IMPL_SUMMARY) or "(no summary)",
            "files": list_produced(services.workspace),
        }

    if services.coder_factory is not None:
        coder = services.coder_factory(name="coding_agent", context_builder=coder_context, template="simple_coder")
    else:
        coder = llm_agent(services, "coding_agent", "simple_coder", coder_context,
                          tools=[services.coder_toolset], output_key=S.IMPL_SUMMARY,
                          before_model_callback=turn_call_limit(services.settings.loops.coder_tool_calls))
    validator = structured_agent(
        services, "answer_validator", "answer_validator", validator_context,
        tools=[services.read_only_toolset], schema=FinalAnswer, output_key=S.FINAL_ANSWER,
    )
    loop = NonEscalatingLoopAgent(
        name="simple_loop",
        sub_agents=[coder, validator],
        max_iterations=services.settings.loops.simple_attempts,
        decision_key=S.FINAL_ANSWER,
        exit_field="valid",
        round_key=S.SIMPLE_ATTEMPT,
        on_round_start=_remember_failed_attempt,
    )
    return [loop, SimpleStatus(name="simple_status")]
