"""The final answer in both modes: `answer_validator` states it ask by ask, code checks its figures and the
`judge` its words (`judging.py`), `evidence_check` sets the status.

Simple mode: simple_loop[coding_agent, answer_validator, judge] -> evidence_check -> summary_agent; the loop goes
round again while the answer does not stand (no code ran, an ask unanswered), with the reason shown to the next
attempt. Orchestrated mode: ... stage_orchestrator -> answer_validator -> judge -> evidence_check ->
summary_agent. The status stands on the last answer given, as code and judge left it, and is decided by
`evidence.status.decide` alone (`run_facts` gathers what it rests on).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence

from google.adk.agents import BaseAgent, InvocationContext, LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.evidence import status as evidence_status
from agentic_ds.evidence.answers import AnswerCheck
from agentic_ds.evidence.asks import typed_asks
from agentic_ds.runs import safe_files
from agentic_ds.schema import (
    FinalAnswer,
    RunStatus,
    StageRecord,
    StageResult,
    StageStatus,
    criteria_in,
    read_model,
    stages_in,
    stages_out,
)
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.loops import status_event
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices
from agentic_ds.workspace import Workspace

SIMPLE_STAGE_TITLE = "Answer the task"


def build_answer_validator(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        base = {"task": state.get(S.TASK, ""), "mode": mode, "asks": typed_asks(state),
                "files": list_produced(services.workspace), "profile": services.profile()}
        if mode == "simple":
            return {**base, "execution": dict(state.get(S.LAST_EXECUTION) or {}),
                    "summary": state.get(S.IMPL_SUMMARY) or "(no summary)", "stages": [], "criteria": []}
        return {**base, "execution": {}, "summary": "", "stages": stages_in(state.get(S.STAGES)),
                "criteria": criteria_in(state.get(S.CRITERIA))}

    def keep(callback_context: CallbackContext) -> None:
        state = typed(callback_context.state)
        state[S.ANSWER_CLAIMS] = [*(state.get(S.ANSWER_CLAIMS) or []), state.get(S.ANSWER_CLAIM)]

    return llm_agent(services, A.ANSWER_VALIDATOR, mode, context, after_agent_callback=keep)


def answer_check(state: SessionState) -> AnswerCheck | None:
    """The last answer's check as the judge left it; None when no answer was judged."""
    raw = state.get(S.ANSWER_CHECK)
    if not isinstance(raw, dict):
        return None
    try:
        return AnswerCheck(**raw)
    except TypeError:
        return None


def run_facts(state: SessionState, mode: str, findings: Sequence[str] = ()) -> evidence_status.RunFacts:
    """What the status rests on, as the session state holds it, and what the sandbox found executed code planting
    (`CodeRunner.findings`, a warning each)."""
    stop = state.get(S.STOP)
    ceiling = None
    if isinstance(stop, dict) and stop.get("status"):
        ceiling = (RunStatus.of(stop.get("status"), RunStatus.FAILED), str(stop.get("reason") or "the run stopped"))
    execution = state.get(S.LAST_EXECUTION) or {}
    warnings = [str(w) for w in state.get(S.WARNINGS) or []]
    warnings += [finding for finding in findings if finding not in warnings]
    return evidence_status.RunFacts(
        mode=mode, check=answer_check(state), stop=ceiling, warnings=warnings,
        stages=stages_in(state.get(S.STAGES)) if mode != "simple" else [],
        criteria=criteria_in(state.get(S.CRITERIA)) if mode != "simple" else [],
        last_error=str(execution.get("error") or "") if isinstance(execution, dict) else "",
    )


def decided(state: SessionState, mode: str, findings: Sequence[str] = ()
            ) -> tuple[evidence_status.Verdict, FinalAnswer | None]:
    """The run's verdict, and its final answer with the verdict's confidence."""
    verdict = evidence_status.decide(run_facts(state, mode, findings))
    return verdict, evidence_status.apply(read_model(FinalAnswer, state.get(S.FINAL_ANSWER)), verdict)


class EvidenceCheck(BaseAgent):
    """Sets the run's status (`evidence/status.py`) from the facts and the judge's verdict."""

    mode: Mode = "simple"
    services: RunServices

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        state = typed(ctx.session.state)
        delta: SessionState = {}
        if self.mode == "simple":
            stage = _simple_stage(state, answer_check(state), self.services)
            delta[S.STAGES] = stages_out([stage])
            if stage.dir:
                _write_result(self.services.workspace, stage, answer_check(state))
        verdict, final = decided(state, self.mode, self.services.code_runner.findings)
        delta[S.FINAL_ANSWER] = final.model_dump(mode="json") if final is not None else None
        delta.update({S.RUN_STATUS: verdict.status, S.STATUS_REASON: verdict.reason})
        yield status_event(ctx, self.name, f"status: {verdict.status} - {verdict.reason}", **delta)


def _simple_stage(state: SessionState, check: AnswerCheck | None, services: RunServices) -> StageRecord:
    """Simple mode's one stage, as the report shows it: its attempts and whether its answer stood."""
    attempts = int(state.get(S.SIMPLE_ATTEMPT) or 0)
    passed = check is not None and check.exit
    return StageRecord(id="s1", title=SIMPLE_STAGE_TITLE, status=StageStatus.APPROVED if passed else StageStatus.FAILED,
                       attempts=attempts, summary=str(state.get(S.IMPL_SUMMARY) or "")[:2000],
                       review=check.reason if check is not None else "no answer was validated",
                       dir=_stage_dir(services))


def _write_result(workspace: Workspace, stage: StageRecord, check: AnswerCheck | None) -> None:
    """The stage's result.json, as orchestrated mode writes one per stage."""
    decision = {"exit": bool(check and check.exit), "reason": check.reason if check else "no answer was validated"}
    result = StageResult(**stage.model_dump(include={"id", "title", "status", "attempts", "summary", "review"}),
                         decision=decision)
    safe_files.write_json(workspace.root / stage.dir / "result.json", result.model_dump(mode="json", exclude={"files"}),
                          root=workspace.root)


def _stage_dir(services: RunServices) -> str:
    """Where simple mode's cells were recorded (the code runner's first stage), when any ran."""
    folder = services.workspace.stage_dir(0, "analysis")
    return services.workspace.rel(folder) if folder.is_dir() else ""
