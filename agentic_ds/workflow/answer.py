"""The final answer in both modes: `answer_validator` states it ask by ask, code judges it, `evidence_check` sets
the status.

Simple mode: simple_loop[coding_agent, answer_validator] -> evidence_check -> summary_agent; the loop goes round
again while the evidence says the answer does not stand (no code ran, an ask unanswered), with the reason shown
to the next attempt. Orchestrated mode: ... stage_orchestrator -> answer_validator -> evidence_check ->
summary_agent. In both, the validator's structured answer (`answer_claim`) is judged by `agentic_ds.evidence`
into run.json's `final_answer`, and the status is decided there, never from the model's word.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from typing import Any

from google.adk.agents import BaseAgent, InvocationContext, LlmAgent
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.evidence import status as evidence_status
from agentic_ds.evidence.answers import AnswerCheck, judge_answer
from agentic_ds.evidence.asks import Ask, task_asks
from agentic_ds.evidence.coverage import render_asks
from agentic_ds.evidence.sources import collect
from agentic_ds.runs import safe_files
from agentic_ds.schema import (
    FinalAnswer,
    RunStatus,
    StageRecord,
    StageResult,
    StageStatus,
    criteria_in,
    stages_in,
    stages_out,
)
from agentic_ds.workflow import plan_state
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workflow.implementation import render_execution
from agentic_ds.workflow.loops import status_event
from agentic_ds.workflow.services import RunServices

SIMPLE_STAGE_TITLE = "Answer the task"


def asks_of(state: Mapping[str, Any]) -> list[Ask]:
    """The asks of the run's task (read in code from the task itself: `evidence/asks.py`)."""
    return task_asks(state.get(S.TASK))


def build_answer_validator(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: Mapping[str, Any]) -> dict[str, Any]:
        base = {"task": state.get(S.TASK, ""), "asks": render_asks(asks_of(state)),
                "files": list_produced(services.workspace)}
        if mode == "simple":
            return {**base, "execution": render_execution(state.get(S.LAST_EXECUTION)),
                    "summary": state.get(S.IMPL_SUMMARY) or "(no summary)", "stage_results": "", "criteria": ""}
        stages = stages_in(state.get(S.STAGES))
        return {**base, "execution": _stages_execution(stages), "summary": "",
                "stage_results": plan_state.render_finished(stages, limit_chars=1200),
                "criteria": plan_state.render_criteria(criteria_in(state.get(S.CRITERIA)), with_evidence=True)}

    def judge(callback_context: Any) -> None:
        state = callback_context.state
        claim = state.get(S.ANSWER_CLAIM)
        final, check = judge_answer(str(state.get(S.TASK) or ""), asks_of(state), claim, collect(services.workspace))
        state[S.FINAL_ANSWER] = final.model_dump(mode="json") if final is not None else None
        state[S.ANSWER_CHECK] = check.as_state()
        state[S.ANSWER_CLAIMS] = [*(state.get(S.ANSWER_CLAIMS) or []), claim]

    return llm_agent(services, "answer_validator", mode, context, after_agent_callback=judge)


def _stages_execution(stages: list[StageRecord]) -> str:
    """Orchestrated mode's execution, as the validator reads it: how many stages were approved."""
    approved = sum(s.status is StageStatus.APPROVED for s in stages)
    state = "ok" if approved else "error"
    return f"status: {state}\nstages approved: {approved} of {len(stages)}"


def best_answer(state: Mapping[str, Any], workspace: Any) -> tuple[FinalAnswer | None, AnswerCheck | None]:
    """Every answer the validator gave (one per attempt), judged against the run's outputs as they are now; the
    best stands: a later attempt that answered less does not replace an earlier, better one."""
    claims = list(state.get(S.ANSWER_CLAIMS) or [])
    if not claims:
        return None, None
    task, asks, evidence = str(state.get(S.TASK) or ""), asks_of(state), collect(workspace)
    judged = [judge_answer(task, asks, claim, evidence) for claim in claims]

    def rank(item: tuple[int, tuple[FinalAnswer | None, AnswerCheck]]) -> tuple[Any, ...]:
        index, (_final, check) = item
        return (check.exit, check.given, check.code_ran, check.valid, -len(check.unanswered), -len(check.untraced),
                index)

    _index, (final, check) = max(enumerate(judged), key=rank)
    return final, check


class EvidenceCheck(BaseAgent):
    """Sets the run's status from the evidence (`evidence/status.py`), at most the status the workflow reached."""

    mode: str = "simple"
    services: Any = None  # RunServices (kept loose: pydantic cannot validate it)

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        state = ctx.session.state
        final, check = best_answer(state, self.services.workspace)
        delta: dict[str, Any] = {S.ANSWER_CHECK: check.as_state() if check is not None else None}
        if self.mode == "simple":
            stage = _simple_stage(state, check, self.services)
            delta[S.STAGES] = stages_out([stage])
            if stage.dir:
                _write_result(self.services.workspace, stage, check)
            verdict = evidence_status.decide(_simple_ceiling(state, check), check, warnings=_warnings(state))
        else:
            verdict = evidence_status.decide(
                (RunStatus.of(state.get(S.RUN_STATUS), RunStatus.FAILED), state.get(S.STATUS_REASON) or ""),
                check, stages=stages_in(state.get(S.STAGES)), criteria=criteria_in(state.get(S.CRITERIA)),
                warnings=_warnings(state),
            )
        final = evidence_status.apply(final, verdict)
        delta[S.FINAL_ANSWER] = final.model_dump(mode="json") if final is not None else None
        delta.update({S.RUN_STATUS: verdict.status, S.STATUS_REASON: verdict.reason})
        yield status_event(ctx, self.name, f"status: {verdict.status} - {verdict.reason}", **delta)


def _warnings(state: Mapping[str, Any]) -> list[str]:
    return [str(w) for w in state.get(S.WARNINGS) or []]


def _simple_ceiling(state: Mapping[str, Any], check: AnswerCheck | None) -> tuple[RunStatus, str]:
    """What simple mode reached before evidence: a budget's stop, else an answer the validator passed."""
    if state.get(S.RUN_STATUS):
        return RunStatus.of(state.get(S.RUN_STATUS), RunStatus.FAILED), state.get(S.STATUS_REASON) or ""
    execution = state.get(S.LAST_EXECUTION) or {}
    if check is not None and check.valid:
        return RunStatus.COMPLETED, ""
    if (check is not None and check.code_ran) or execution.get("ok"):
        return RunStatus.INCOMPLETE, "code ran, but no answer passed validation"
    return RunStatus.FAILED, "no attempt produced a result: " + (execution.get("error") or "no code ran")[:200]


def _simple_stage(state: Mapping[str, Any], check: AnswerCheck | None, services: Any) -> StageRecord:
    """Simple mode's one stage, as the report shows it: its attempts and whether its answer stood."""
    attempts = int(state.get(S.SIMPLE_ATTEMPT) or 0)
    passed = check is not None and check.exit
    return StageRecord(id="s1", title=SIMPLE_STAGE_TITLE, status=StageStatus.APPROVED if passed else StageStatus.FAILED,
                       attempts=attempts, summary=str(state.get(S.IMPL_SUMMARY) or "")[:2000],
                       review=check.reason if check is not None else "no answer was validated",
                       dir=_stage_dir(services))


def _write_result(workspace: Any, stage: StageRecord, check: AnswerCheck | None) -> None:
    """The stage's result.json, as orchestrated mode writes one per stage."""
    decision = {"exit": bool(check and check.exit), "reason": check.reason if check else "no answer was validated"}
    result = StageResult(**stage.model_dump(include={"id", "title", "status", "attempts", "summary", "review"}),
                         decision=decision)
    safe_files.write_json(workspace.root / stage.dir / "result.json", result.model_dump(mode="json", exclude={"files"}),
                          root=workspace.root)


def _stage_dir(services: Any) -> str:
    """Where simple mode's cells were recorded (the code runner's first stage), when any ran."""
    if services is None:
        return ""
    folder = services.workspace.stage_dir(0, "analysis")
    return services.workspace.rel(folder) if folder.is_dir() else ""
