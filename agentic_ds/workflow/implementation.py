"""One stage's `implementation_loop`: coding_agent -> code_reviewer -> impl_confirmation, bounded."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from google.adk.agents import BaseAgent

from agentic_ds import state as S
from agentic_ds.runs import safe_files
from agentic_ds.state import Decision
from agentic_ds.workflow import plan_state
from agentic_ds.workflow.agents import llm_agent, structured_agent, turn_call_limit
from agentic_ds.workflow.loops import NonEscalatingLoopAgent
from agentic_ds.workflow.planning import reject_when_undecided
from agentic_ds.workflow.services import RunServices

OUTPUT_TAIL_CHARS = 1500


def current_stage(state: Mapping[str, Any]) -> dict[str, Any]:
    index = state.get(S.CURRENT_STAGE)
    stages = state.get(S.STAGES) or []
    if index is None or not 0 <= index < len(stages):
        return {"id": "-", "title": "(no current stage)", "description": "", "expected_outputs": []}
    return stages[index]


def render_execution(execution: Mapping[str, Any] | None) -> str:
    if not execution:
        return "No code was executed in this attempt."
    lines = [f"status: {'ok' if execution.get('ok') else 'error'}", f"cells run: {execution.get('cells', 0)}"]
    if execution.get("error"):
        lines.append(f"error: {execution['error']}")
    if execution.get("files"):
        lines.append("files written: " + ", ".join(execution["files"]))
    tail = (execution.get("output_tail") or "").strip()
    if tail:
        lines.append("output (tail):\n" + tail[-OUTPUT_TAIL_CHARS:])
    return "\n".join(lines)


def coder_context(services: RunServices):
    def build(state: Mapping[str, Any]) -> dict[str, Any]:
        stage = current_stage(state)
        retry = (state.get(S.STAGE_ATTEMPT) or 1) > 1
        execution = state.get(S.LAST_EXECUTION) or {}
        return {
            "task": state.get(S.TASK, ""),
            "data_profile": state.get(S.DATA_PROFILE) or "",
            "stage_map": plan_state.render_stage_map(state.get(S.STAGES) or [], state.get(S.CURRENT_STAGE)),
            "finished_stages": plan_state.render_finished(state.get(S.STAGES) or []),
            "stage": stage,
            "feedback": (state.get(S.CODE_REVIEW) or "") if retry else "",
            "previous_code": _stage_code(services, stage) if retry else "",
            "last_error": (execution.get("error") or "") if retry else "",
            "skills": services.relevant_skills(f"{stage['title']} {stage['description']}"),
        }

    return build


def build_coder(services: RunServices) -> BaseAgent:
    build = coder_context(services)
    if services.coder_factory is not None:
        return services.coder_factory(name="coding_agent", context_builder=build)
    # The prompt carries everything the coder needs (stage, map, summaries, feedback, its earlier code); its
    # history is only its own current turn, so no plan, criteria or other stage's transcript leaks in.
    return llm_agent(services, "coding_agent", "coding_agent", build, tools=[services.coder_toolset],
                     output_key=S.IMPL_SUMMARY,
                     before_model_callback=turn_call_limit(services.settings.loops.coder_tool_calls))


def build_implementation_loop(services: RunServices) -> NonEscalatingLoopAgent:
    settings = services.settings

    def reviewer_context(state: Mapping[str, Any]) -> dict[str, Any]:
        stage = current_stage(state)
        stage_dir = stage.get("dir") or ""
        return {
            "task": state.get(S.TASK, ""),
            "stage": stage,
            "execution": render_execution(state.get(S.LAST_EXECUTION)),
            "summary": state.get(S.IMPL_SUMMARY) or "(the coder gave no summary)",
            "files": _stage_files(services, stage_dir),
        }

    def confirmation_context(state: Mapping[str, Any]) -> dict[str, Any]:
        stage = current_stage(state)
        return {"subject": f"Stage '{stage['title']}' of an analysis.", "review": state.get(S.CODE_REVIEW) or ""}

    reviewer = llm_agent(
        services, "code_reviewer", "code_reviewer", reviewer_context,
        tools=[services.read_only_toolset], output_key=S.CODE_REVIEW,
    )
    confirmation = structured_agent(
        services, "impl_confirmation", "confirmation", confirmation_context,
        schema=Decision, output_key=S.IMPL_DECISION, give_up=reject_when_undecided(S.IMPL_DECISION),
    )
    return NonEscalatingLoopAgent(
        name="implementation_loop",
        sub_agents=[build_coder(services), reviewer, confirmation],
        max_iterations=settings.loops.impl_iterations,
        decision_key=S.IMPL_DECISION,
        round_key=S.STAGE_ATTEMPT,
    )


def _stage_code(services: RunServices, stage: Mapping[str, Any], limit: int = 4000) -> str:
    """The code already run in this stage (its `code.py`), tail-clipped, so a retry builds on it."""
    if not stage.get("dir"):
        return ""
    root = services.workspace.root
    try:
        code = safe_files.read_text(root / stage["dir"] / "code.py", root=root).strip()
    except (OSError, ValueError):
        return ""
    return code if len(code) <= limit else "# ... earlier cells omitted ...\n" + code[-limit:]


def _stage_files(services: RunServices, stage_dir: str) -> str:
    if not stage_dir:
        return ""
    root = services.workspace.root
    try:
        entries = safe_files.walk(root / stage_dir, root=root)
    except (OSError, ValueError):
        return ""
    own = sorted(e.rel for e in entries if e.suspicious is None and Path(e.rel).parent == Path(stage_dir))
    return "\n".join(f"- {rel}" for rel in own)
