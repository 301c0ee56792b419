"""One stage's `implementation_loop`: the coder's context (the agent is built in `coder.py`), code_reviewer and
impl_confirmation."""

from __future__ import annotations

from pathlib import Path

from google.adk.agents import LlmAgent

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.runs import safe_files
from agentic_ds.schema import StageRecord, criteria_in, stages_in
from agentic_ds.state import SessionState
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.planning import reject_when_undecided
from agentic_ds.workflow.prompting import ContextBuilder, PromptContext
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.verdicts import decide_when_explicit, explicit_verdict


def current_stage(state: SessionState, stages: list[StageRecord] | None = None) -> StageRecord:
    index = state.get(S.CURRENT_STAGE)
    stages = stages_in(state.get(S.STAGES)) if stages is None else stages
    if index is None or not 0 <= index < len(stages):
        return StageRecord(id="-", title="(no current stage)")
    return stages[index]


def coder_context(services: RunServices) -> ContextBuilder:
    # A retry is shown the stage's code and its last error as they were when the attempt began: read again on every
    # call they would grow with each cell the attempt runs, so the head of the request would change mid-turn and no
    # prompt cache could serve the turn so far (the attempt's own cells are in its tool exchanges anyway).
    began: dict[tuple[str, int], tuple[str, str]] = {}

    def build(state: SessionState) -> PromptContext:
        stages = stages_in(state.get(S.STAGES))
        stage = current_stage(state, stages)
        attempt = state.get(S.STAGE_ATTEMPT) or 1
        retry = attempt > 1
        execution = state.get(S.LAST_EXECUTION) or {}
        if retry and (stage.id, attempt) not in began:
            began[(stage.id, attempt)] = (_stage_code(services, stage), execution.get("error") or "")
        previous_code, last_error = began[(stage.id, attempt)] if retry else ("", "")
        review = str(state.get(S.CODE_REVIEW) or "")
        # An approval is no feedback: after a resume the last review in state may be an earlier stage's.
        feedback = review if retry and explicit_verdict(review) is not True else ""
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "stages": stages,
            "current": state.get(S.CURRENT_STAGE),
            "stage": stage,
            "feedback": feedback,
            "previous_code": previous_code,
            "last_error": last_error,
            "skills": services.relevant_skills(f"{stage.title} {stage.description}"),
            "criteria": criteria_in(state.get(S.CRITERIA)),
            "profile": services.profile(),
            "execution": dict(execution),   # this attempt's runs so far (read by the offline coder, not shown)
        }

    return build


def build_code_reviewer(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        stage = current_stage(state)
        return {
            "task": state.get(S.TASK, ""),
            "stage": stage,
            "execution": dict(state.get(S.LAST_EXECUTION) or {}),
            "summary": state.get(S.IMPL_SUMMARY) or "(the coder gave no summary)",
            "files": _stage_files(services, stage.dir),
        }

    return llm_agent(services, A.CODE_REVIEWER, mode, context)


def build_impl_confirmation(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        stage = current_stage(state)
        return {"subject": f"Stage '{stage.title}' of an analysis.", "review": state.get(S.CODE_REVIEW) or ""}

    return llm_agent(services, A.IMPL_CONFIRMATION, mode, context, give_up=reject_when_undecided(S.IMPL_DECISION),
                     before_agent_callback=decide_when_explicit(S.CODE_REVIEW, S.IMPL_DECISION))


def _stage_code(services: RunServices, stage: StageRecord, limit: int = 4000) -> str:
    """The code already run in this stage (its `code.py`), tail-clipped, so a retry builds on it."""
    if not stage.dir:
        return ""
    root = services.workspace.root
    try:
        code = safe_files.read_text(root / stage.dir / "code.py", root=root).strip()
    except (OSError, ValueError):
        return ""
    return code if len(code) <= limit else "# ... earlier cells omitted ...\n" + code[-limit:]


def _stage_files(services: RunServices, stage_dir: str) -> list[str]:
    if not stage_dir:
        return []
    root = services.workspace.root
    try:
        entries = safe_files.walk(root / stage_dir, root=root)
    except (OSError, ValueError):
        return []
    return sorted(e.rel for e in entries if e.suspicious is None and Path(e.rel).parent == Path(stage_dir))
