"""The follow-up routes: ask a follow-up question on a finished run, list them, read one (docs/api.md).

A follow-up is checked as `agentic-ds ask` checks it (the same messages), prepared on disk in the run's
`followups/` folder as `queued`, and answered by its own child process (`agentic-ds ask RUN --followup ID --json`)
in its turn, through the same queue and slots as runs.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import APIRouter
from pydantic import BaseModel, Field

from agentic_ds.errors import UsageError
from agentic_ds.followups import record as followups
from agentic_ds.followups.record import FollowupRecord
from agentic_ds.server import views
from agentic_ds.server.errors import ApiError
from agentic_ds.server.queue import Job
from agentic_ds.server.routes import Ctx
from agentic_ds.server.supervisor import Supervisor

router = APIRouter(tags=["follow-ups"])


class FollowupIn(BaseModel):
    question: str = Field(description="the follow-up question, as for `agentic-ds ask RUN QUESTION`",
                          max_length=20_000)


class FollowupOut(FollowupRecord):
    """followup.json, its status as the API says it (`queued` or `running` while this server has its job), and
    where to find it."""

    url: str = ""
    report: str = ""


class FollowupListOut(BaseModel):
    followups: list[FollowupOut]


@router.post("/runs/{run_id}/followups", status_code=202, response_model=FollowupOut,
             summary="Ask a follow-up question on a finished run: checked as `agentic-ds ask`, then queued")
async def ask(run_id: str, body: FollowupIn, ctx: Ctx) -> FollowupOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    try:
        question = followups.read_question(body.question)
    except UsageError as exc:
        raise ApiError.of(exc, 400) from None
    dispatch = ctx.supervisor.dispatch_of(run_id)
    if dispatch is not None:
        raise ApiError(409, f"run {run_id} is {dispatch[0]} here ({dispatch[1].action}): it has no results to ask "
                       "about yet", "ask once it has finished")
    from agentic_ds.followups.answer import prepare

    try:
        _workspace, made = await asyncio.to_thread(prepare, path, question)
    except UsageError as exc:
        raise ApiError.of(exc, 409) from None
    ctx.supervisor.submit(Job(run_id=run_id, action="ask", followup=made.id))
    return _shown(path, made, ctx.supervisor)


@router.get("/runs/{run_id}/followups", response_model=FollowupListOut, summary="A run's follow-up questions")
async def list_followups(run_id: str, ctx: Ctx) -> FollowupListOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    found = await asyncio.to_thread(followups.list_records, path)
    return FollowupListOut(followups=[_shown(path, item, ctx.supervisor) for item in found])


@router.get("/runs/{run_id}/followups/{followup_id}", response_model=FollowupOut, summary="One follow-up")
async def get_followup(run_id: str, followup_id: str, ctx: Ctx) -> FollowupOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    found = await asyncio.to_thread(followups.read, path, followup_id)
    if found is None:
        raise ApiError(404, f"run {run_id} has no follow-up {followup_id!r}", f"GET /runs/{run_id}/followups "
                       "lists them")
    return _shown(path, found, ctx.supervisor)


def _shown(path: Path, item: FollowupRecord, supervisor: Supervisor) -> FollowupOut:
    from agentic_ds.runs import run_lock
    from agentic_ds.schema import RunStatus

    out = FollowupOut(**item.model_dump())
    dispatch = supervisor.dispatch_of(Job(run_id=path.name, action="ask", followup=item.id).key)
    if dispatch is not None:
        out.status = RunStatus(dispatch[0])
    elif run_lock.died(followups.folder_of(path) / item.id, item.status):
        out.status, out.reason = RunStatus.INTERRUPTED, run_lock.DIED_REASON
    base = f"/runs/{path.name}/files/followups/{item.id}"
    out.url, out.report = f"/runs/{path.name}/followups/{item.id}", f"{base}/report.html"
    return out
