"""After each stage: `criteria_checker` re-checks every criterion; `stage_reflector` adapts what is left."""

from __future__ import annotations

from google.adk.agents import InvocationContext, LlmAgent

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.schema import criteria_in, stages_in
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.plan_state import checked_stage
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import GiveUp


def _warn(agent: str) -> GiveUp:
    def give_up(ctx: InvocationContext, problem: str) -> SessionState:
        state = typed(ctx.session.state)
        if state.get(S.STOP):   # a budget stopped the run: its model was never asked
            return {}
        warnings = list(state.get(S.WARNINGS) or [])
        warnings.append(f"{agent} gave no valid answer after retries: {problem}")
        return {S.WARNINGS: warnings}

    return give_up


def build_criteria_checker(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        return {
            "task": state.get(S.TASK, ""),
            "criteria": criteria_in(state.get(S.CRITERIA)),
            "stages": stages_in(state.get(S.STAGES)),
            "files": list_produced(services.workspace),
            "profile": services.profile(),
        }

    return llm_agent(services, A.CRITERIA_CHECKER, mode, context, give_up=_warn(A.CRITERIA_CHECKER))


def build_stage_reflector(services: RunServices, mode: Mode) -> LlmAgent:
    loops = services.settings.loops

    def context(state: SessionState) -> PromptContext:
        stages = stages_in(state.get(S.STAGES))
        latest = checked_stage(stages, state.get(S.CHECKED_STAGE))
        left = max(0, min(loops.max_added_stages - (state.get(S.ADDED_STAGES) or 0), loops.max_stages - len(stages)))
        return {
            "task": state.get(S.TASK, ""),
            "stages": stages,
            "criteria": criteria_in(state.get(S.CRITERIA)),
            "latest": latest,
            "stages_left": left,
            "profile": services.profile(),
        }

    return llm_agent(services, A.STAGE_REFLECTOR, mode, context, give_up=_warn(A.STAGE_REFLECTOR))
