"""Continuing a run that stopped (interrupted, killed, failed, out of budget) from its run directory.

Everything needed is there: run.json says what was asked and how (task, mode, models, the effective settings
without secrets, the usage so far), and `session.db` holds the session's state, which is the truth of how far the
run got. The run goes on in the same directory and session: a new invocation of the same tree, whose agents skip
what state shows done (`workflow/skip_done.py`): the inputs' profile, the plan, every finished stage (approved or
failed: never re-run, their files untouched). A stage that was under way when the run stopped is run again from
its start, in its own folder: its earlier cells stay on record and numbering goes on after them. Stage checks
the run had not finished yet are done, then the summary is written again; run.json and the reports cover every
attempt (`RunRecord.attempts`), and the budget counts what earlier attempts spent.

The resumed invocation loads no earlier events into memory (agents render their prompts from state), so a long
run's thousands of events are not read back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentic_ds import state as S
from agentic_ds.errors import UsageError
from agentic_ds.runs import safe_files
from agentic_ds.schema import (
    PlanDecision,
    RunRecord,
    StageRecord,
    StageStatus,
    read_model,
    read_records,
    stages_out,
)
from agentic_ds.state import SessionState, typed

if TYPE_CHECKING:
    from google.adk.agents import RunConfig

    from agentic_ds.workflow.assembly import Assembled

SESSION_FILE = "session.db"
_DECIDED = {
    "approve": "the plan was approved: the stages run",
    "edit": "the plan was sent back with the user's notes: the planner revises it",
    "stop": "the plan was not approved: the run stops",
}
START_AGAIN = "start the analysis again with `agentic-ds run`"


@dataclass
class ResumePoint:
    """Where a stopped run stands: its record, its session, and the state the session holds."""

    root: Path
    record: RunRecord
    session_id: str
    state: SessionState
    decision: PlanDecision | None = None    # a person's decision on the plan the run waits with (--approve-plan)

    def __post_init__(self) -> None:
        self.context_before = dict(self.record.context)   # run.json's `context` as earlier attempts left it
        self.calls_before = self.record.calls.model_copy(deep=True) if self.record.calls else None   # and `calls`

    @property
    def stages(self) -> list[StageRecord]:
        return read_records(StageRecord, self.state.get(S.STAGES))

    def state_delta(self) -> SessionState:
        """What the resumed invocation's first event changes: no status decided yet, and the stage that was under
        way pending again, to be run from its start."""
        stages = self.stages
        again = [s.model_copy(update={"status": StageStatus.PENDING}) if s.status is StageStatus.RUNNING else s
                 for s in stages]
        delta: SessionState = {S.RUN_STATUS: None, S.STATUS_REASON: None, S.STOP: None, S.CURRENT_STAGE: None}
        if again != stages:
            delta[S.STAGES] = stages_out(again)
        if self.decision is not None:
            from agentic_ds.workflow import plan_gate

            delta.update(plan_gate.decide(self.state, self.decision))
        return delta

    def run_config(self, run_config: RunConfig) -> RunConfig:
        """The run config, loading none of the session's earlier events (prompts come from state)."""
        from google.adk.agents.run_config import GetSessionConfig

        return run_config.model_copy(update={"get_session_config": GetSessionConfig(num_recent_events=0)})

    def carry_usage(self, assembled: Assembled) -> None:
        """The run's usage so far counts: per agent, and against the budget."""
        assembled.usage.preload(self.record.agents)
        assembled.usage.ledger.preload(self.record)

    def notice(self) -> str:
        """The line events.jsonl and the progress display get: what is kept and what runs again."""
        attempt = len(self.record.attempts)
        kept = []
        if self.state.get(S.DATA_PROFILE):
            kept.append("the inputs' profile")
        stages = self.stages
        if stages and not (self.decision is not None and self.decision.decision == "edit"):
            kept.append("the plan")
        finished = [f"{i + 1} ({s.status.value})" for i, s in enumerate(stages) if s.status.finished]
        if finished:
            kept.append("stage" + ("s " if len(finished) > 1 else " ") + ", ".join(finished))
        if self.record.mode == "simple" and (self.state.get(S.FINAL_ANSWER) or {}).get("valid"):
            kept.append("the validated answer")
        text = f"resumed (attempt {attempt})"
        text += ": kept " + _join(kept) if kept else ": nothing was finished, so it starts over"
        if self.decision is not None:
            text += "; " + _DECIDED[self.decision.decision]
        again = [f"stage {i + 1} ({s.title}) runs again from its start" for i, s in enumerate(stages)
                 if s.status is StageStatus.RUNNING]
        return text + ("; " + "; ".join(again) if again else "")


class NotStarted(UsageError):
    """The run was prepared (queued by `agentic-ds serve`) and never started: `resume` starts it from its record."""

    def __init__(self, record: RunRecord) -> None:
        super().__init__(f"run {record.id} has not started yet")
        self.record = record


async def find_resume_point(root: Path) -> ResumePoint:
    """The resume point of run `root`, or a `UsageError` saying why it cannot be resumed (`NotStarted` for a run
    that was prepared and never started).

    The caller holds the run's lock (`run_lock.acquire`), so a run recorded as `running` has died."""
    record = _read_record(root)
    if not record.started_at and safe_files.file_problem(root / SESSION_FILE, root=root) == "missing" and record.task:
        raise NotStarted(record)
    if record.status.answered:
        raise UsageError(
            f"run {root.name} {record.status.label}: there is nothing to resume",
            hint=f"`agentic-ds show {root.name}` shows it; `agentic-ds run` starts a new analysis",
        )
    if record.mode not in ("orchestrated", "simple"):
        raise UsageError(f"run {root.name} does not record its mode (orchestrated or simple): it cannot be resumed",
                         hint=START_AGAIN)
    session_id, state = await _read_session(root)
    if not record.task:
        record.task = str(state.get(S.TASK) or "")
    if not record.task:
        raise UsageError(f"run {root.name} records no task: it cannot be resumed", hint=START_AGAIN)
    return ResumePoint(root=root, record=record, session_id=session_id, state=state)


def _read_record(root: Path) -> RunRecord:
    try:
        data = json.loads(safe_files.read_text(root / "run.json", root=root))
    except FileNotFoundError:
        data = None
    except ValueError:   # not JSON: no record either
        data = None
    except OSError as exc:
        raise UsageError(f"run {root.name}: run.json cannot be read ({exc})", hint=START_AGAIN) from exc
    record = read_model(RunRecord, data)
    if record is None:
        raise UsageError(
            f"run {root.name} has no readable run.json: what was asked and with which models is unknown",
            hint=START_AGAIN,
        )
    return record


async def _read_session(root: Path) -> tuple[str, SessionState]:
    """The run's session id and state, read from session.db without loading its events."""
    from google.adk.agents.run_config import GetSessionConfig

    from agentic_ds.adk_private import RunSessionService
    from agentic_ds.workflow.runner import APP_NAME, USER_ID

    no_session = UsageError(
        f"run {root.name} has no session to resume from ({SESSION_FILE} is missing or empty): it stopped before "
        "its first step was recorded",
        hint=START_AGAIN,
    )
    problem = safe_files.file_problem(root / SESSION_FILE, root=root)
    if problem == "missing":
        raise no_session
    if problem is not None:
        raise UsageError(f"run {root.name}: {SESSION_FILE} is {problem}; it is not opened",
                         hint=START_AGAIN)
    service = RunSessionService(str(root / SESSION_FILE))
    try:
        listed = await service.list_sessions(app_name=APP_NAME, user_id=USER_ID)
        if not listed.sessions:
            raise no_session
        session = await service.get_session(
            app_name=APP_NAME, user_id=USER_ID, session_id=listed.sessions[0].id,
            config=GetSessionConfig(num_recent_events=0),
        )
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged database is the user's to know about, not a traceback
        raise UsageError(f"run {root.name}: {SESSION_FILE} cannot be read ({type(exc).__name__}: {exc})",
                         hint=START_AGAIN) from exc
    finally:
        await service.close()
    if session is None:
        raise no_session
    return session.id, typed(dict(session.state))


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
