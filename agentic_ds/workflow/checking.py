"""After each stage: `criteria_checker` re-checks every criterion; `stage_reflector` adapts what is left."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.adk.agents import LlmAgent

from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.schema import criteria_in, stages_in
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.plan_state import checked_stage
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import GiveUp


def _warn(agent: str) -> GiveUp:
    def give_up(ctx: Any, problem: str) -> dict[str, Any]:
        if ctx.session.state.get(S.STOP):   # a budget stopped the run: its model was never asked
            return {}
        warnings = list(ctx.session.state.get(S.WARNINGS) or [])
        warnings.append(f"{agent} gave no valid answer after retries: {problem}")
        return {S.WARNINGS: warnings}

    return give_up


def build_criteria_checker(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "task": state.get(S.TASK, ""),
            "criteria": criteria_in(state.get(S.CRITERIA)),
            "stages": stages_in(state.get(S.STAGES)),
            "files": list_produced(services.workspace),
            "profile": services.profile(),
        }

    return llm_agent(services, "criteria_checker", mode, context, give_up=_warn("criteria_checker"))


def build_stage_reflector(services: RunServices, mode: Mode) -> LlmAgent:
    loops = services.settings.loops

    def context(state: Mapping[str, Any]) -> dict[str, Any]:
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

    return llm_agent(services, "stage_reflector", mode, context, give_up=_warn("stage_reflector"))
