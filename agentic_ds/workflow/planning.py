"""The planning agents: plan_maker, plan_reviewer, plan_confirmation (in `planning_loop`) and plan_parser."""

from __future__ import annotations

from google.adk.agents import InvocationContext, LlmAgent
from google.adk.agents.callback_context import CallbackContext

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.evidence.asks import asks_in, cover, render_asks, typed_asks
from agentic_ds.runs.safe_files import write_atomic, write_json
from agentic_ds.schema import PlanFile, PlannedStage, RunStatus, criteria_out, stages_out
from agentic_ds.state import ParsedPlan, SessionState, typed
from agentic_ds.workflow import plan_gate, plan_state
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import GiveUp, error_key
from agentic_ds.workflow.verdicts import decide_when_explicit


def _problems(state: SessionState) -> str:
    return "\n".join(f"- {p}" for p in state.get(S.INPUT_PROBLEMS) or [])


def reject_when_undecided(decision_key: str) -> GiveUp:
    """A confirmation agent that never gave a valid answer counts as a rejection (the loop goes round again)."""

    def give_up(ctx: InvocationContext, problem: str) -> dict[str, object]:
        return {decision_key: {"exit": False, "reason": f"no valid decision: {problem}"}}

    return give_up


def build_plan_maker(services: RunServices, mode: Mode) -> LlmAgent:
    settings = services.settings

    def context(state: SessionState) -> PromptContext:
        again = (state.get(S.PLAN_ROUND) or 1) > 1
        notes = plan_gate.render_notes(state)   # a person's edits of an earlier plan (--approve-plan)
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "input_problems": _problems(state),
            "asks": typed_asks(state),
            "previous_plan": state.get(S.PLAN_TEXT) or "" if again or notes else "",
            "review": state.get(S.PLAN_REVIEW) or "" if again else "",
            "user_notes": notes,
            "max_stages": settings.loops.max_stages,
            "profile": services.profile(),
        }

    def save_plan_md(callback_context: CallbackContext) -> None:
        state = typed(callback_context.state)
        text = state.get(S.PLAN_TEXT) or ""
        if text:
            asks = render_asks(asks_in(state))
            held = f"\n\n## What the run holds itself to (the task's asks)\n{asks}\n" if asks else "\n"
            write_atomic(services.workspace.file("plan.md"), text.strip() + held)

    return llm_agent(services, A.PLAN_MAKER, mode, context, after_agent_callback=save_plan_md)


def build_plan_reviewer(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        again = (state.get(S.PLAN_ROUND) or 1) > 1
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "asks": typed_asks(state),
            "plan": state.get(S.PLAN_TEXT) or "",
            "previous_review": (state.get(S.PLAN_REVIEW) or "") if again else "",
            "profile": services.profile(),
            "max_stages": services.settings.loops.max_stages,
        }

    return llm_agent(services, A.PLAN_REVIEWER, mode, context)


def build_plan_confirmation(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        return {"subject": "An analysis plan.", "review": state.get(S.PLAN_REVIEW) or ""}

    return llm_agent(services, A.PLAN_CONFIRMATION, mode, context, give_up=reject_when_undecided(S.PLAN_DECISION),
                     before_agent_callback=decide_when_explicit(S.PLAN_REVIEW, S.PLAN_DECISION))


def build_plan_parser(services: RunServices, mode: Mode) -> LlmAgent:
    settings = services.settings

    def context(state: SessionState) -> PromptContext:
        return {"task": state.get(S.TASK, ""), "plan": state.get(S.PLAN_TEXT) or "", "asks": typed_asks(state),
                "previous_error": state.get(error_key(A.PLAN_PARSER)) or ""}

    def store_plan(callback_context: CallbackContext) -> None:
        state = typed(callback_context.state)
        raw = state.get(S.PARSED_PLAN)
        if not raw:
            return
        plan = ParsedPlan.model_validate(raw)
        stages = plan_state.stages_from_plan(plan, settings.loops.max_stages)
        # The plan says how to answer, never what: every ask of the task gets a criterion, added when missing.
        criteria = cover(asks_in(state), plan_state.criteria_from_plan(plan))
        state[S.STAGES] = stages_out(stages)
        state[S.CRITERIA] = criteria_out(criteria)
        planned = [PlannedStage.model_validate(stage.model_dump()) for stage in stages]
        plan_file = PlanFile(stages=planned, success_criteria=[c.text for c in criteria])
        write_json(services.workspace.file("plan.json"), plan_file.model_dump(mode="json"))

    def give_up(ctx: InvocationContext, problem: str) -> SessionState:
        if typed(ctx.session.state).get(S.STOP):  # a budget already ended the run: keep its honest reason
            return {}
        return {S.STOP: {"status": RunStatus.FAILED,
                         "reason": f"the plan could not be turned into stages (plan_parser: {problem})"}}

    return llm_agent(services, A.PLAN_PARSER, mode, context, give_up=give_up, after_agent_callback=store_plan)
