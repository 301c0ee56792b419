"""Runs as the API shows them: found by id in the work directory only, summarised for lists, in full for one.

A run id is the name of a run directory directly under the work directory (what `agentic-ds list` shows); anything
else, a link among them, or a name with a path in it, is an unknown run (404). Every file is read through
`safe_files`, never following a link. The status is this server's when it has a job for the run (queued,
running), else run.json's, read as `agentic-ds list` reads it.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

from agentic_ds.report.coerce import read_json_object, read_text
from agentic_ds.report.listing import is_run_dir, list_runs, summarize_run
from agentic_ds.runs import safe_files
from agentic_ds.schema import RunRecord, read_model
from agentic_ds.server.errors import not_found
from agentic_ds.server.live import live_view
from agentic_ds.server.shapes import LinksOut, QueueOut, RunDetailOut, RunSummaryOut, TokensOut
from agentic_ds.server.supervisor import Supervisor

RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
PLAN_MD_CHARS = 100_000


def run_dir(workdir: Path, run_id: str) -> Path:
    """The run directory named `run_id`, directly under the work directory; 404 for anything else."""
    if not RUN_ID.fullmatch(run_id) or ".." in run_id:
        raise not_found(run_id)
    path = workdir / run_id
    try:
        mode = path.lstat().st_mode
    except OSError:
        raise not_found(run_id) from None
    if not stat.S_ISDIR(mode) or not is_run_dir(path):
        raise not_found(run_id)
    return path


def run_ids(workdir: Path) -> list[str]:
    """Every run under the work directory, newest first (as `agentic-ds list`)."""
    return [summary.path.name for summary in list_runs(workdir) if not summary.path.is_symlink()]


def record_of(path: Path) -> tuple[RunRecord, dict[str, Any]]:
    data = read_json_object(path / "run.json", "run.json", [], root=path, quiet=True)
    return read_model(RunRecord, data) or RunRecord(), data


def summary(path: Path, supervisor: Supervisor) -> RunSummaryOut:
    run_id = path.name
    listed = summarize_run(path)
    record, _data = record_of(path)
    status: str = listed.status.value
    reason = record.reason
    queue = None
    dispatch = supervisor.dispatch_of(run_id)
    if dispatch is not None:   # this server's job decides the status; run.json's reason is its last attempt's
        state, job = dispatch
        status, reason = state, ""
        if state == "queued":
            queue = QueueOut(position=supervisor.queue.position(run_id) or 0, action=job.action,
                             enqueued_at=job.enqueued_at)
    base = f"/runs/{run_id}"
    return RunSummaryOut(
        id=run_id, title=listed.title or None, task=listed.task, status=status,  # type: ignore[arg-type]
        reason=reason, mode=listed.mode, models=dict(record.models), started_at=record.started_at or None,
        ended_at=record.ended_at, wall_s=listed.wall_s, cost_usd=listed.total_usd,
        tokens=TokensOut(input=record.tokens.input, output=record.tokens.output, cached=record.tokens.cached,
                         llm_calls=record.tokens.llm_calls),
        has_report=listed.has_report, queue=queue, approval=record.approval, managed=run_id in supervisor.active,
        links=LinksOut(self=base, events=f"{base}/events", files=f"{base}/files",
                       report=f"{base}/report" if listed.has_report else None),
    )


def detail(path: Path, supervisor: Supervisor) -> RunDetailOut:
    head = summary(path, supervisor)
    record, data = record_of(path)
    plan = read_json_object(path / "plan.json", "plan.json", [], root=path, quiet=True) or None
    stages = [item for item in data.get("stages") or [] if isinstance(item, dict)]
    criteria = [item for item in data.get("criteria") or [] if isinstance(item, dict)]
    answer = data.get("final_answer") if isinstance(data.get("final_answer"), dict) else None
    return RunDetailOut(
        **head.model_dump(), plan=plan, plan_markdown=read_text(path / "plan.md", root=path, limit=PLAN_MD_CHARS),
        stages=stages, criteria=criteria, live=live_view(path), final_answer=answer,
        last_job=supervisor.last_job(path.name), record=data,
    )


def api_status(path: Path, supervisor: Supervisor) -> tuple[str, str]:
    """The run's status as the API says it, and run.json's reason (cheap enough to poll)."""
    dispatch = supervisor.dispatch_of(path.name)
    if dispatch is not None:
        return dispatch[0], ""
    listed = summarize_run(path)
    record, _ = record_of(path)
    return listed.status.value, record.reason


def json_file(path: Path, root: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(safe_files.read_text(path, root=root))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
