"""Run one analysis: build the tree, run it under ADK's Runner with a persisted session, record everything.

`execute_run` never loses work: events are appended to `events.jsonl` and `session.db` as they happen, and
whatever ends the run (success, a failure, a budget, Ctrl-C) the run record and the reports are written with an
honest status.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.genai import types

from agentic_ds import __version__
from agentic_ds import state as S
from agentic_ds.adk_private import RunSessionService
from agentic_ds.agent_table import ROOT
from agentic_ds.config.settings import Settings
from agentic_ds.runs.events_log import EventsLog
from agentic_ds.schema import (
    Cost,
    CriterionRecord,
    FinalAnswer,
    RunRecord,
    RunStatus,
    SkippedInput,
    StageRecord,
    now_iso,
    read_model,
    read_records,
)
from agentic_ds.workspace import Workspace

APP_NAME = ROOT  # the App is named after the root agent; sessions are stored under it
USER_ID = "local"

EventSink = Callable[[dict[str, Any]], None]


@dataclass
class RunRequest:
    task: str
    mode: str                      # "orchestrated" | "simple"
    workspace: Workspace
    settings: Settings
    models: Any                    # agentic_ds.config.models.RoleModels
    skipped_inputs: list[dict[str, str]] = field(default_factory=list)  # found in folders, not copied: {path, reason}


@dataclass
class RunOutcome:
    status: RunStatus
    reason: str
    workspace: Workspace
    report_path: Path | None


async def execute_run(
    request: RunRequest,
    *,
    on_event: EventSink | None = None,
    llm_overrides: dict[str, Any] | None = None,
    session_service: Any = None,
) -> RunOutcome:
    """Run the analysis described by `request`; always returns an outcome with an honest status.

    `llm_overrides` maps agent names to models (tests, benchmarks); `session_service` replaces the persisted
    `session.db` service (benchmarks compare against ADK's in-memory one).
    """
    from agentic_ds.workflow.assembly import assemble

    workspace = request.workspace
    for folder in (workspace.outputs, workspace.figures):
        folder.mkdir(parents=True, exist_ok=True)
    record = RunRecord(
        id=workspace.root.name,
        status=RunStatus.RUNNING,
        started_at=now_iso(),
        version=__version__,
        task=request.task,
        mode=request.mode,
        models={role: choice.spec for role, choice in request.models.choices.items()},
        models_reason=request.models.reason,
        inputs=[workspace.rel(p) for p in workspace.input_files()],
    )
    record.save(workspace.file("run.json"))
    started = time.perf_counter()
    events = EventsLog(workspace.file("events.jsonl"))
    sink = on_event or (lambda _record: None)
    session_service = session_service or RunSessionService(str(workspace.file("session.db")))
    assembled = None
    final_state: dict[str, Any] = {}
    try:
        assembled = assemble(request, llm_overrides or {})
        # Everything imported and built so far lives for the whole run; keeping it out of the collector's scans
        # removes full-collection pauses of 100+ ms from a long session.
        gc.freeze()
        record.isolation = assembled.services.code_runner.isolation
        record.save(workspace.file("run.json"))
        if assembled.warning:
            for item in events.append_notice("warning", assembled.warning):
                sink(item)
        if assembled.compaction_guard is not None:
            assembled.compaction_guard.on_event = lambda event: [sink(item) for item in events.append(event)]
        session = await session_service.create_session(
            app_name=APP_NAME, user_id=USER_ID,
            state={S.TASK: request.task, S.MODE: request.mode, S.SKIPPED_INPUTS: list(request.skipped_inputs)},
        )
        from google.adk.runners import Runner

        runner = Runner(app=assembled.app, session_service=session_service)
        message = types.Content(role="user", parts=[types.Part(text=request.task)])
        async for event in runner.run_async(
            user_id=USER_ID, session_id=session.id, new_message=message, run_config=assembled.run_config
        ):
            assembled.usage.record_event(event)
            for item in events.append(event):
                sink(item)
        final_state = await _final_state(session_service, session.id)
    except (KeyboardInterrupt, asyncio.CancelledError):
        final_state = await _safe_state(session_service)
        final_state[S.RUN_STATUS] = RunStatus.INCOMPLETE
        final_state[S.STATUS_REASON] = "interrupted by the user"
        raise
    except Exception as exc:  # noqa: BLE001 - any failure must still leave an honest record
        final_state = await _safe_state(session_service)
        # A status already decided as a stop (a budget, a failed plan) stays; anything else is this failure.
        if RunStatus.of(final_state.get(S.RUN_STATUS), RunStatus.COMPLETED).answered:
            final_state[S.RUN_STATUS], final_state[S.STATUS_REASON] = _classify_failure(exc)
        for item in events.append_notice("error", f"{type(exc).__name__}: {exc}"):
            sink(item)
    finally:
        gc.unfreeze()
        outcome = await _finish(request, record, final_state, started, events, session_service, assembled)
    return outcome


def _classify_failure(exc: Exception) -> tuple[RunStatus, str]:
    from google.adk.agents.invocation_context import LlmCallsLimitExceededError

    from agentic_ds.errors import InputError

    if isinstance(exc, InputError):  # our own words: what is wrong with the inputs and what to do
        return RunStatus.FAILED, exc.message + (f"; {exc.hint}" if exc.hint else "")
    if isinstance(exc, LlmCallsLimitExceededError):
        return RunStatus.INCOMPLETE, f"budget reached: the run hit max_llm_calls ({exc})"
    return RunStatus.FAILED, f"{type(exc).__name__}: {str(exc)[:300]}"


async def _final_state(service: RunSessionService, session_id: str) -> dict[str, Any]:
    session = await service.get_session(app_name=APP_NAME, user_id=USER_ID, session_id=session_id)
    return dict(session.state) if session else {}


async def _safe_state(service: RunSessionService) -> dict[str, Any]:
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
    state: dict[str, Any],
    started: float,
    events: EventsLog,
    session_service: Any,
    assembled: Any,
) -> RunOutcome:
    workspace = request.workspace
    if assembled is not None:
        await _quietly(assembled.services.code_runner.close())
        assembled.toolset.close()
    if hasattr(session_service, "close"):
        await _quietly(session_service.close())
    status = RunStatus.of(state.get(S.RUN_STATUS), RunStatus.FAILED)
    reason = state.get(S.STATUS_REASON) or "the run ended before a status was decided"
    record.status, record.reason = status, reason
    record.ended_at = now_iso()
    record.wall_s = round(time.perf_counter() - started, 3)
    # Read as tolerantly as any reader: a malformed entry in state must not cost the run its record.
    record.stages = read_records(StageRecord, state.get(S.STAGES))
    record.criteria = read_records(CriterionRecord, state.get(S.CRITERIA))
    record.warnings = [str(w) for w in state.get(S.WARNINGS) or []]
    record.final_answer = read_model(FinalAnswer, state.get(S.FINAL_ANSWER)) or _no_answer(request.task, reason)
    skipped = state.get(S.SKIPPED_INPUTS) or request.skipped_inputs
    record.skipped_inputs = read_records(SkippedInput, skipped)
    if assembled is not None:
        record.agents = assembled.usage.agents_record()
        record.tokens = assembled.usage.totals()
        by_model = assembled.budget.usage_by_model()
        record.cost = Cost.model_validate({"total_usd": round(assembled.budget.usd, 6), "by_model": by_model})
        record.warnings += [w for w in assembled.extra_warnings() if w not in record.warnings]
        record.context = assembled.context_json()
    events.append_notice("status", f"status: {status} - {reason}")
    events.close()
    record.events = events.count  # after the status notice, so it matches the lines of events.jsonl
    record.save(workspace.file("run.json"))
    report_path = _write_reports(workspace)
    return RunOutcome(status=status, reason=reason, workspace=workspace, report_path=report_path)


def _no_answer(task: str, reason: str) -> FinalAnswer:
    """A run that ended before any answer was validated still says, ask by ask, that nothing was answered."""
    from agentic_ds.evidence.answers import no_answer
    from agentic_ds.evidence.asks import task_asks

    return no_answer(task_asks(task), f"the run ended before an answer was validated ({reason[:300]})")


def _write_reports(workspace: Workspace) -> Path:
    from agentic_ds.report.writer import write_reports

    _md, html = write_reports(workspace)
    return html


async def _quietly(awaitable: Any) -> None:
    try:
        await awaitable
    except Exception:  # noqa: BLE001 - cleanup must not hide the run's outcome
        pass
