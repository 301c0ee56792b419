"""Run one analysis: build the tree, run it under ADK's Runner with a persisted session, record everything.

`execute_run` never loses work: events are appended to `events.jsonl` and `session.db` as they happen, run.json
is kept current while the run goes (`runs/checkpoint.py`), and whatever ends the run (success, a failure, a
budget, Ctrl-C, SIGTERM, SIGHUP) the run record and the reports are written with an honest status. The process
holds the run's lock (`runs/run_lock.py`) from start to end. Given a `ResumePoint` it continues a run that
stopped, in the same directory and session (`workflow/resume.py`).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from google.genai import types

from agentic_ds import state as S
from agentic_ds.adk_private import RunSessionService
from agentic_ds.agent_names import ROOT
from agentic_ds.config.secrets import settings_record
from agentic_ds.config.settings import Settings
from agentic_ds.runs import run_lock
from agentic_ds.runs.checkpoint import Checkpoint
from agentic_ds.runs.events_log import EventsLog
from agentic_ds.runs.stop_signals import StopSignals
from agentic_ds.schema import (
    CriterionRecord,
    PlanApproval,
    RunRecord,
    RunStatus,
    SkippedInput,
    StageRecord,
    read_model,
    read_records,
)
from agentic_ds.state import Json, SessionState, typed
from agentic_ds.workflow.run_facts import new_record, usage_into, where
from agentic_ds.workspace import Workspace

if TYPE_CHECKING:
    from google.adk.agents import RunConfig
    from google.adk.models import BaseLlm
    from google.adk.sessions import BaseSessionService

    from agentic_ds.config.models import RoleModels
    from agentic_ds.workflow.assembly import Assembled
    from agentic_ds.workflow.resume import ResumePoint

APP_NAME = ROOT  # the App is named after the root agent; sessions are stored under it
USER_ID = "local"

EventSink = Callable[[Json], None]   # one events.jsonl record


@dataclass
class RunRequest:
    task: str
    mode: str                      # "orchestrated" | "simple"
    workspace: Workspace
    settings: Settings
    models: RoleModels
    skipped_inputs: list[dict[str, str]] = field(default_factory=list)  # found in folders, not copied: {path, reason}
    resume: ResumePoint | None = None   # continue the run it describes
    approve_plan: bool = False     # the plan waits for a person before any stage runs (workflow/plan_gate.py)
    earlier_run: str = ""          # a follow-up question: what the run it follows found (followups/memory.py)


@dataclass
class RunOutcome:
    status: RunStatus
    reason: str
    workspace: Workspace
    report_path: Path | None
    hint: str | None = None        # what to do, when a model call ended the run


async def execute_run(
    request: RunRequest,
    *,
    on_event: EventSink | None = None,
    on_tree: Callable[[dict[str, str]], None] | None = None,
    llm_overrides: dict[str, BaseLlm] | None = None,
    session_service: BaseSessionService | None = None,
    stop: StopSignals | None = None,
) -> RunOutcome:
    """Run the analysis described by `request`; always returns an outcome with an honest status.

    `on_tree` is shown the agent tree once it is built (each agent -> its parent: the live progress panel);
    `llm_overrides` maps agent names to models (tests, benchmarks); `session_service` replaces the persisted
    `session.db` service (benchmarks compare against ADK's in-memory one); `stop` names the signal that
    interrupts the run, if one does (the CLI's handled signals).
    """
    from agentic_ds.workflow.assembly import assemble

    workspace = request.workspace
    for folder in (workspace.outputs, workspace.figures):
        folder.mkdir(parents=True, exist_ok=True)
    lock = run_lock.acquire(workspace.root)
    record = request.resume.record if request.resume else new_record(request)
    if request.resume:
        record.begin_attempt()
        record.settings = settings_record(request.settings)   # as this attempt runs (budgets may be raised)
    record.save(workspace.file("run.json"))
    started = time.perf_counter()
    events = EventsLog(workspace.file("events.jsonl"))
    sink = on_event or (lambda _record: None)
    session_service = session_service or RunSessionService(str(workspace.file("session.db")))
    checkpoint = Checkpoint(record, workspace.file("run.json"), started)
    assembled = None
    final_state: SessionState = {}
    try:
        assembled = assemble(request, llm_overrides or {})
        if on_tree is not None:
            from agentic_ds.workflow.tree import parents

            on_tree(parents(assembled.root))
        # Everything imported and built so far lives for the whole run; keeping it out of the collector's scans
        # removes full-collection pauses of 100+ ms from a long session.
        gc.freeze()
        record.isolation = assembled.services.code_runner.isolation
        checkpoint.usage = lambda: usage_into(record, assembled, request)
        if request.resume:
            request.resume.carry_usage(assembled)
            for item in events.append_notice("status", request.resume.notice()):
                sink(item)
        record.save(workspace.file("run.json"))
        if assembled.warning:
            for item in events.append_notice("warning", assembled.warning):
                sink(item)
        assembled.calls.on_notice = lambda kind, text, author: _each(sink, events.append_notice(kind, text, author))
        if assembled.compaction_guard is not None:
            assembled.compaction_guard.on_event = lambda event: _each(sink, events.append(event))
        session_id, state_delta, run_config = await _open_session(request, session_service, assembled.run_config)
        from google.adk.runners import Runner

        runner = Runner(app=assembled.app, session_service=session_service)
        message = types.Content(role="user", parts=[types.Part(text=request.task)])
        async for event in runner.run_async(
            user_id=USER_ID, session_id=session_id, new_message=message, run_config=run_config,
            state_delta=dict(state_delta) if state_delta is not None else None,
        ):
            assembled.usage.record_event(event)
            for item in events.append(event):
                sink(item)
            checkpoint.after(event, events.count)
        final_state = await _final_state(session_service, session_id)
    except (KeyboardInterrupt, asyncio.CancelledError):
        _take_back_cancellation()
        final_state = await _safe_state(session_service)
        reason = stop.reason if stop is not None and stop.received else "interrupted by the user"
        final_state[S.STOP] = {"status": RunStatus.INCOMPLETE,
                               "reason": f"{reason}; `agentic-ds resume {workspace.root.name}` continues it"}
        raise
    except Exception as exc:  # noqa: BLE001 - any failure must still leave an honest record
        # First, so no later step (reading the session, writing the reports) can leave run.json saying `running`.
        record.end_attempt(RunStatus.FAILED, f"{type(exc).__name__}: {str(exc)[:300]}")
        record.save(workspace.file("run.json"))
        final_state = await _safe_state(session_service)
        # A stop recorded before (a budget, a failed plan) stays; anything else is this failure.
        if not final_state.get(S.STOP):
            status, reason = _classify_failure(exc, final_state)
            final_state[S.STOP] = {"status": status, "reason": reason}
        hint = getattr(exc, "hint", None)
        text = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        for item in events.append_notice("error", text + (f" (hint: {hint})" if hint else "")):
            sink(item)
    finally:
        gc.unfreeze()
        if stop is not None:
            stop.finishing()
        try:
            outcome = await _finish_safely(request, record, final_state, started, events, session_service, assembled)
        finally:
            lock.release()
    return outcome


def _each(sink: EventSink, records: list[Json]) -> None:
    for record in records:
        sink(record)


async def _open_session(
    request: RunRequest, service: BaseSessionService, run_config: RunConfig
) -> tuple[str, SessionState | None, RunConfig]:
    """The session to run in, the state change the run starts with, and the run config."""
    if request.resume is not None:
        return request.resume.session_id, request.resume.state_delta(), request.resume.run_config(run_config)
    state: SessionState = {S.TASK: request.task, S.MODE: request.mode, S.SKIPPED_INPUTS: list(request.skipped_inputs)}
    if request.earlier_run:
        state[S.EARLIER_RUN] = request.earlier_run
    if request.approve_plan:
        state[S.PLAN_APPROVAL] = PlanApproval(required=True).model_dump(mode="json")
    session = await service.create_session(app_name=APP_NAME, user_id=USER_ID, state=dict(state))
    return session.id, None, run_config


def _take_back_cancellation() -> None:
    """The run's task was cancelled to stop it: what follows (finishing the run) must not be cancelled again."""
    task = asyncio.current_task()
    if task is not None:
        while task.uncancel():
            pass


def _classify_failure(exc: Exception, state: SessionState) -> tuple[RunStatus, str]:
    from google.adk.agents.invocation_context import LlmCallsLimitExceededError

    from agentic_ds.errors import InputError
    from agentic_ds.llm.faults import ModelCallFailed

    if isinstance(exc, InputError):  # our own words: what is wrong with the inputs and what to do
        return RunStatus.FAILED, exc.message + (f"; {exc.hint}" if exc.hint else "")
    if isinstance(exc, LlmCallsLimitExceededError):
        return RunStatus.INCOMPLETE, f"budget reached: the run hit max_llm_calls ({exc})"
    if isinstance(exc, ModelCallFailed):
        return RunStatus.FAILED, exc.message + where(state)
    return RunStatus.FAILED, f"{type(exc).__name__}: {str(exc)[:300]}"


async def _finish_safely(
    request: RunRequest, record: RunRecord, state: SessionState, started: float, events: EventsLog,
    session_service: BaseSessionService, assembled: Assembled | None,
) -> RunOutcome:
    """`_finish`, and should it break, still a run.json and an outcome that say the run failed."""
    try:
        return await _finish(request, record, state, started, events, session_service, assembled)
    except Exception as exc:  # noqa: BLE001 - the record must never be left saying `running`
        before = state.get(S.STATUS_REASON) or "the run failed"
        record.end_attempt(RunStatus.FAILED, f"{before}; finishing it failed too: {type(exc).__name__}: {exc}")
        record.save(request.workspace.file("run.json"))
        return RunOutcome(status=RunStatus.FAILED, reason=record.reason, workspace=request.workspace, report_path=None)


async def _final_state(service: BaseSessionService, session_id: str) -> SessionState:
    session = await service.get_session(app_name=APP_NAME, user_id=USER_ID, session_id=session_id)
    return typed(dict(session.state)) if session else {}


async def _safe_state(service: BaseSessionService) -> SessionState:
    try:
        listed = await service.list_sessions(app_name=APP_NAME, user_id=USER_ID)
        if listed.sessions:
            return await _final_state(service, listed.sessions[0].id)
    except Exception:  # noqa: BLE001 - the session may not exist yet
        pass
    return {}


async def _finish(
    request: RunRequest,
    record: RunRecord,
    state: SessionState,
    started: float,
    events: EventsLog,
    session_service: BaseSessionService,
    assembled: Assembled | None,
) -> RunOutcome:
    workspace = request.workspace
    if assembled is not None:
        await _quietly(assembled.services.code_runner.close())
        assembled.toolset.close()
    if hasattr(session_service, "close"):
        await _quietly(session_service.close())
    from agentic_ds.evidence.answers import no_answer
    from agentic_ds.evidence.asks import asks_in
    from agentic_ds.workflow.answer import decided

    # The same decision `evidence_check` made, again over the final state: a stop after it (a signal while the
    # report was written) counts too.
    verdict, final = decided(state, request.mode, assembled.services.code_runner.findings if assembled else ())
    status, reason = verdict.status, verdict.reason
    record.end_attempt(status, reason)
    record.clock(time.perf_counter() - started)
    # Read as tolerantly as any reader: a malformed entry in state must not cost the run its record.
    record.stages = read_records(StageRecord, state.get(S.STAGES))
    record.criteria = read_records(CriterionRecord, state.get(S.CRITERIA))
    record.warnings = [str(w) for w in state.get(S.WARNINGS) or []]
    record.final_answer = final or no_answer(asks_in(state), f"the run ended before an answer was validated "
                                                            f"({reason[:300]})")
    record.title = str(state.get(S.TITLE) or record.title)
    record.asks = asks_in(state)
    skipped = state.get(S.SKIPPED_INPUTS) or request.skipped_inputs
    record.skipped_inputs = read_records(SkippedInput, skipped)
    if state.get(S.PLAN_APPROVAL):
        record.approval = read_model(PlanApproval, state[S.PLAN_APPROVAL])
    if assembled is not None:
        usage_into(record, assembled, request)
        record.warnings += [w for w in assembled.extra_warnings() if w not in record.warnings]
        if record.calls is not None and record.calls.failure is not None:
            record.calls.failure.where = where(state).strip(" ()") or None
    events.append_notice("status", f"status: {status} - {reason}")
    events.close()
    record.events = events.count  # after the status notice, so it matches the lines of events.jsonl
    record.save(workspace.file("run.json"))
    report_path = _write_reports(workspace)
    failure = record.calls.failure if record.calls is not None and status is RunStatus.FAILED else None
    hint = failure.hint if failure else None
    return RunOutcome(status=status, reason=reason, workspace=workspace, report_path=report_path, hint=hint)


def _write_reports(workspace: Workspace) -> Path:
    from agentic_ds.report.writer import write_reports

    _md, html = write_reports(workspace)
    return html


async def _quietly(awaitable: Awaitable[object]) -> None:
    try:
        await awaitable
    except Exception:  # noqa: BLE001 - cleanup must not hide the run's outcome
        pass
