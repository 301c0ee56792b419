"""The planning agents: plan_maker, plan_reviewer, plan_confirmation (in `planning_loop`) and plan_parser."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.adk.agents import InvocationContext

from agentic_ds import state as S
from agentic_ds.runs.safe_files import write_atomic, write_json
from agentic_ds.state import Decision, ParsedPlan
from agentic_ds.workflow import plan_state
from agentic_ds.workflow.agents import llm_agent, structured_agent
from agentic_ds.workflow.loops import NonEscalatingLoopAgent
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import StructuredAgent, error_key


def _problems(state: Mapping[str, Any]) -> str:
    return "\n".join(f"- {p}" for p in state.get(S.INPUT_PROBLEMS) or [])


def reject_when_undecided(decision_key: str):
    """A confirmation agent that never gave a valid answer counts as a rejection (the loop goes round again)."""

    def give_up(ctx: InvocationContext, problem: str) -> dict[str, Any]:
        return {decision_key: {"exit": False, "reason": f"no valid decision: {problem}"}}

    return give_up


def build_planning_loop(services: RunServices) -> NonEscalatingLoopAgent:
    settings = services.settings

    def maker_context(state: Mapping[str, Any]) -> dict[str, Any]:
        again = (state.get(S.PLAN_ROUND) or 1) > 1
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "input_problems": _problems(state),
            "previous_plan": state.get(S.PLAN_TEXT) or "" if again else "",
            "review": state.get(S.PLAN_REVIEW) or "" if again else "",
            "max_stages": settings.loops.max_stages,
        }

    def reviewer_context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "plan": state.get(S.PLAN_TEXT) or "",
        }

    def confirmation_context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {"subject": "An analysis plan.", "review": state.get(S.PLAN_REVIEW) or ""}

    def save_plan_md(callback_context: Any) -> None:
        text = callback_context.state.get(S.PLAN_TEXT) or ""
        if text:
            write_atomic(services.workspace.file("plan.md"), text.strip() + "\n")

    maker = llm_agent(
        services, "plan_maker", "plan_maker", maker_context,
        tools=[services.read_only_toolset], output_key=S.PLAN_TEXT, after_agent_callback=save_plan_md,
    )
    reviewer = llm_agent(
        services, "plan_reviewer", "plan_reviewer", reviewer_context,
        tools=[services.read_only_toolset], output_key=S.PLAN_REVIEW,
    )
    confirmation = structured_agent(
        services, "plan_confirmation", "confirmation", confirmation_context,
        schema=Decision, output_key=S.PLAN_DECISION, give_up=reject_when_undecided(S.PLAN_DECISION),
    )
    return NonEscalatingLoopAgent(
        name="planning_loop",
        sub_agents=[maker, reviewer, confirmation],
        max_iterations=settings.loops.plan_iterations,
        decision_key=S.PLAN_DECISION,
        round_key=S.PLAN_ROUND,
    )


def build_plan_parser(services: RunServices) -> StructuredAgent:
    settings = services.settings

    def parser_context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {"plan": state.get(S.PLAN_TEXT) or "", "previous_error": state.get(error_key("plan_parser")) or ""}

    def store_plan(callback_context: Any) -> None:
        raw = callback_context.state.get(S.PARSED_PLAN)
        if not raw:
            return
        plan = ParsedPlan.model_validate(raw)
        stages = plan_state.stages_from_plan(plan, settings.loops.max_stages)
        criteria = plan_state.criteria_from_plan(plan)
        callback_context.state[S.STAGES] = stages
        callback_context.state[S.CRITERIA] = criteria
        write_json(
            services.workspace.file("plan.json"),
            {
                "stages": [{k: s[k] for k in ("id", "title", "description", "expected_outputs")} for s in stages],
                "success_criteria": [c["text"] for c in criteria],
            },
        )

    def give_up(ctx: InvocationContext, problem: str) -> dict[str, Any]:
        if ctx.session.state.get(S.RUN_STATUS):  # a budget already ended the run: keep its honest reason
            return {}
        return {
            S.RUN_STATUS: "failed",
            S.STATUS_REASON: f"the plan could not be turned into stages (plan_parser: {problem})",
        }

    return structured_agent(
        services, "plan_parser", "plan_parser", parser_context,
        schema=ParsedPlan, output_key=S.PARSED_PLAN, give_up=give_up, after_agent_callback=store_plan,
    )
