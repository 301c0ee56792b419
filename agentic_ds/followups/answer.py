"""A follow-up from question to record: its folder prepared, its run request, its record and the run's reports
written when it ends (whatever ended it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_ds.followups import memory
from agentic_ds.followups.record import FollowupRecord, check_can_ask, create
from agentic_ds.runs import safe_files
from agentic_ds.schema import RunRecord, RunStatus, now_iso, read_model
from agentic_ds.workspace import Workspace


def prepare(run_root: Path, question: str) -> tuple[Workspace, FollowupRecord]:
    """The follow-up's folder, with the run's inputs and what it left copied in, and its record (`queued`)."""
    check_can_ask(run_root)
    workspace, record = create(run_root, question)
    left_out = memory.copy_parent(run_root, workspace)
    if left_out:
        record.reason = "not copied from the run (links, or over the size cap): " + ", ".join(left_out[:20])
        record.save(workspace.root)
    return workspace, record


def request_for(run_root: Path, parent: RunRecord, workspace: Workspace, record: FollowupRecord, settings: Any,
                models: Any) -> Any:
    """The follow-up's run: simple mode, the run's models and settings, the run's memory in its state."""
    from agentic_ds.workflow.runner import RunRequest

    record.status, record.reason = RunStatus.RUNNING, ""
    record.save(workspace.root)
    return RunRequest(task=record.question, mode="simple", workspace=workspace, settings=settings, models=models,
                      earlier_run=memory.earlier_run(run_root, parent, workspace))


def finish(run_root: Path, workspace: Workspace, record: FollowupRecord) -> FollowupRecord:
    """followup.json from the follow-up's run.json (its status decided as any run's), then the run's reports
    written again so they show it. A follow-up that never started says so."""
    ran = _run_record(workspace)
    if ran is None:
        if record.status in (RunStatus.QUEUED, RunStatus.RUNNING):
            record.status = RunStatus.FAILED
            record.reason = record.reason or "it ended before its run started"
    else:
        record.status, record.reason = ran.status, ran.reason
        if ran.status is RunStatus.RUNNING:   # its process was killed outright
            record.status, record.reason = RunStatus.INTERRUPTED, "its process ended while it ran"
        answer = ran.final_answer
        record.answer = answer.answer.strip() if answer is not None else ""
        record.confidence = answer.confidence if answer is not None else ""
    record.ended_at = now_iso()
    record.code = sorted(_rel(run_root, p) for p in workspace.stages.glob("*/code.py") if p.is_file())
    record.outputs = sorted(_rel(run_root, Path(workspace.root / e.rel))
                            for folder in (workspace.outputs, workspace.figures)
                            for e in safe_files.walk(folder, root=workspace.root) if e.is_regular)
    record.save(workspace.root)
    from agentic_ds.report.writer import write_reports

    write_reports(Workspace(run_root))
    return record


def _run_record(workspace: Workspace) -> RunRecord | None:
    try:
        data = json.loads(safe_files.read_text(workspace.file("run.json"), root=workspace.root))
    except (OSError, ValueError):
        return None
    return read_model(RunRecord, data)


def _rel(run_root: Path, path: Path) -> str:
    return path.resolve().relative_to(run_root.resolve()).as_posix()
