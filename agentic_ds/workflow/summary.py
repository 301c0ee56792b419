"""`summary_agent`: writes report.md from state and artifacts (a callback writes the file, for real)."""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.runs.safe_files import write_atomic
from agentic_ds.schema import RunStatus, criteria_in, stages_in
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices

STATUS_LINE = "**Run status:** `{status}`"


def status_of(state: SessionState) -> tuple[RunStatus, str]:
    status = RunStatus.of(state.get(S.RUN_STATUS), RunStatus.FAILED)
    return status, state.get(S.STATUS_REASON) or "the run ended before a status was set"


def ensure_status_line(report: str, status: str, reason: str) -> str:
    """The report must state the run's status; add it when the model did not. A line in this status line's own
    form that names another status (a model copies the form, with a status of its own or one from before the
    decision) is dropped: the report never shows two."""
    own = STATUS_LINE.format(status=status)
    head = STATUS_LINE.split("`", 1)[0]
    lines = report.splitlines()
    kept = [line for line in lines if not line.startswith(head) or line.startswith(own)]
    if len(kept) < len(lines):
        report = "\n".join(kept)
    if f"`{status}`" in report or f"status: {status}" in report.lower():
        return report
    return f"{report.rstrip()}\n\n{own} - {reason}\n"


def write_report_md(services: RunServices, state: SessionState) -> None:
    text = (state.get(S.REPORT_TEXT) or "").strip()
    if not text:
        return
    status, reason = status_of(state)
    write_atomic(services.workspace.file("report.md"), ensure_status_line(text, status, reason) + "\n")


def build_summary_agent(services: RunServices, mode: Mode) -> LlmAgent:
    simple = mode == "simple"

    def context(state: SessionState) -> PromptContext:
        status, reason = status_of(state)
        base: dict[str, object] = {
            "task": state.get(S.TASK, ""),
            "mode": mode,
            "run_status": f"{status} - {reason}",
            "status": status.value,
            "status_reason": reason,
            "files": list_produced(services.workspace),
            "earlier_run": state.get(S.EARLIER_RUN) or "",
        }
        base["answer"] = dict(state.get(S.FINAL_ANSWER) or {})
        base["profile"] = services.profile()
        if simple:
            return base
        return {**base, "stages": stages_in(state.get(S.STAGES)), "criteria": criteria_in(state.get(S.CRITERIA))}

    def save(callback_context: CallbackContext) -> None:
        write_report_md(services, typed(callback_context.state))

    return llm_agent(services, A.SUMMARY_AGENT, mode, context, after_agent_callback=save)
