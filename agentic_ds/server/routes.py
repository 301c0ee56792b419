"""The run routes: create, list, read, cancel, resume, decide on a plan; the run's files and events are in
`files.py` and `events.py`, served from here. See docs/api.md."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Header, Query, Request, UploadFile
from fastapi.responses import JSONResponse, StreamingResponse

from agentic_ds import __version__
from agentic_ds.schema import RunStatus, StageStatus
from agentic_ds.server import events, files, views
from agentic_ds.server.create import NewRun, create_run
from agentic_ds.server.errors import ApiError
from agentic_ds.server.options import ServeOptions
from agentic_ds.server.queue import Job
from agentic_ds.server.shapes import (
    ApprovalIn,
    FileListOut,
    ResumeIn,
    RunDetailOut,
    RunListOut,
    RunSummaryOut,
    ServerOut,
    StatusWordOut,
)
from agentic_ds.server.supervisor import Supervisor

router = APIRouter(tags=["runs"])
SANDBOX_MODES = ("auto", "require", "off")


@dataclass
class Context:
    options: ServeOptions
    supervisor: Supervisor


def context(request: Request) -> Context:
    found: Context = request.app.state.agentic_ds
    return found


Ctx = Annotated[Context, Depends(context)]


@router.get("/server", response_model=ServerOut, summary="What this server serves, and how busy it is")
async def server_info(ctx: Ctx) -> ServerOut:
    supervisor = ctx.supervisor
    return ServerOut(version=__version__, workdir=str(ctx.options.workdir),
                     data_roots=[str(root) for root in ctx.options.data_roots], max_runs=supervisor.max_runs,
                     running=len(supervisor.active), queued=len(supervisor.queue.jobs),
                     max_upload_mb=ctx.options.max_upload_mb, token_required=ctx.options.token is not None,
                     statuses=_words(RunStatus), stage_statuses=_words(StageStatus))


def _words(kind: type[RunStatus] | type[StageStatus]) -> dict[str, StatusWordOut]:
    from agentic_ds.report.formatting import STATUS_MEANING
    from agentic_ds.report.html import status_tone

    return {status.value: StatusWordOut(label=status.label, tone=status_tone(status),  # type: ignore[arg-type]
                                        meaning=STATUS_MEANING.get(status, "") if isinstance(status, RunStatus)
                                        else "")
            for status in kind}


@router.get("/runs", response_model=RunListOut, summary="Every run of the work directory, newest first")
async def list_runs(ctx: Ctx, status: Annotated[str | None, Query(description="only runs with this status")] = None,
                    limit: Annotated[int, Query(ge=1, le=10_000)] = 200) -> RunListOut:
    def listed() -> list[RunSummaryOut]:
        out = []
        for run_id in views.run_ids(ctx.options.workdir):
            item = views.summary(ctx.options.workdir / run_id, ctx.supervisor)
            if status is None or item.status == status:
                out.append(item)
            if len(out) >= limit:
                break
        return out

    return RunListOut(runs=await asyncio.to_thread(listed))


@router.post("/runs", status_code=201, response_model=RunSummaryOut,
             summary="Create a run: checked as `agentic-ds run` checks it, then queued")
async def create(
    ctx: Ctx,
    task: Annotated[str, Form(description="the question, as for `agentic-ds run TASK`")],
    mode: Annotated[str, Form(description="orchestrated or simple")],
    model: Annotated[list[str], Form(description="MODEL or ROLE=MODEL, as --model (repeat)")] = [],  # noqa: B006
    path: Annotated[list[str], Form(description="a file or folder under a data root (repeat)")] = [],  # noqa: B006
    files_: Annotated[list[UploadFile], File(alias="file", description="an uploaded data file (repeat)")] = [],  # noqa: B006
    sandbox: Annotated[str | None, Form(description="auto, require or off")] = None,
    max_cost: Annotated[float | None, Form(gt=0)] = None,
    max_llm_calls: Annotated[int | None, Form(ge=1)] = None,
    max_tokens: Annotated[int | None, Form(ge=1)] = None,
    approve_plan: Annotated[bool, Form(description="pause for a decision on the plan")] = False,
) -> JSONResponse:
    if sandbox is not None and sandbox not in SANDBOX_MODES:
        raise ApiError(400, f"sandbox must be auto, require or off, not {sandbox!r}",
                       "leave it out for the configured sandbox (auto by default)")
    if not path and not files_:
        raise ApiError(400, "no input files given", "upload files (field `file`) or name paths under a data root "
                       "(field `path`)")
    new = NewRun(task=task, mode=mode, models=model, paths=path, sandbox=sandbox, max_cost=max_cost,
                 max_llm_calls=max_llm_calls, max_tokens=max_tokens, approve_plan=approve_plan)
    run_id = await create_run(new, files_, ctx.options, ctx.supervisor)
    made = views.summary(ctx.options.workdir / run_id, ctx.supervisor)
    return JSONResponse(made.model_dump(mode="json"), status_code=201, headers={"Location": made.links.self})


@router.get("/runs/{run_id}", response_model=RunDetailOut, summary="One run in full")
async def get_run(run_id: str, ctx: Ctx) -> RunDetailOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    return await asyncio.to_thread(views.detail, path, ctx.supervisor)


@router.post("/runs/{run_id}/cancel", status_code=202, response_model=RunSummaryOut,
             summary="Stop a run cleanly, as SIGTERM does: it ends incomplete, reports written, resumable")
async def cancel(run_id: str, ctx: Ctx) -> RunSummaryOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    supervisor = ctx.supervisor
    done = await supervisor.cancel(run_id)
    if done == "dequeued":
        await asyncio.to_thread(_cancelled_before_start, path)
    elif not done:
        status, _ = views.api_status(path, supervisor)
        if status == "awaiting_approval":   # no process to stop: stopping is the decision
            supervisor.submit(Job(run_id=run_id, action="decide", flags=["--stop"]))
        elif status == "running":
            raise ApiError(409, f"run {run_id} is running in a process this server did not start",
                           "stop it where it runs (Ctrl-C, or kill the process named in its .lock)")
        else:
            raise ApiError(409, f"run {run_id} is not running (it is {status.replace('_', ' ')}): nothing to cancel",
                           f"POST /runs/{run_id}/resume continues a stopped run")
    return views.summary(path, supervisor)


@router.post("/runs/{run_id}/resume", status_code=202, response_model=RunSummaryOut,
             summary="Continue a stopped run where it stopped (or start a queued run that was cancelled)")
async def resume(run_id: str, ctx: Ctx, body: ResumeIn | None = None) -> RunSummaryOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    status = _free(path, ctx)
    if status == "awaiting_approval":
        raise ApiError(409, f"run {run_id} waits for a decision on its plan",
                       f"POST /runs/{run_id}/approval with decision approve, edit (with notes) or stop")
    if status in ("completed", "completed_with_warnings"):
        raise ApiError(409, f"run {run_id} {status.replace('_', ' ')}: there is nothing to resume",
                       "create a new run for a new analysis")
    ctx.supervisor.submit(Job(run_id=run_id, action="resume", flags=(body or ResumeIn()).flags()))
    return views.summary(path, ctx.supervisor)


@router.post("/runs/{run_id}/approval", status_code=202, response_model=RunSummaryOut,
             summary="Decide on the plan a run waits with: approve, edit (notes to the planner) or stop")
async def approval(run_id: str, body: ApprovalIn, ctx: Ctx) -> RunSummaryOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    status = _free(path, ctx)
    record, _ = views.record_of(path)
    state = record.approval.state if record.approval else None
    if state not in ("awaiting", "stopped"):
        raise ApiError(409, f"run {run_id} is not waiting for a decision on its plan (it is "
                       f"{status.replace('_', ' ')})", "only a run created with approve_plan waits for one")
    flags = ["--max-cost", str(body.max_cost)] if body.max_cost else []
    if body.decision == "edit":
        if not body.notes.strip():
            raise ApiError(400, "an edit needs notes for the planner", 'say what to change, e.g. "compare medians '
                           'too, and leave out 2019"')
        job = Job(run_id=run_id, action="decide", flags=["--edit", "-", *flags], stdin=body.notes)
    else:
        job = Job(run_id=run_id, action="decide", flags=(["--stop"] if body.decision == "stop" else []) + flags)
    ctx.supervisor.submit(job)
    return views.summary(path, ctx.supervisor)


@router.get("/runs/{run_id}/events", summary="The run's events as Server-Sent Events (ids: events.jsonl lines)",
            response_class=StreamingResponse, responses={200: {"content": {"text/event-stream": {}}}})
async def run_events(
    run_id: str, request: Request, ctx: Ctx,
    last_event_id_header: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    last_event_id: Annotated[int | None, Query(ge=0, description="replay after this line")] = None,
) -> StreamingResponse:
    path = views.run_dir(ctx.options.workdir, run_id)
    after = events.last_event_id(last_event_id_header, last_event_id)
    body = events.stream(path, after, lambda: views.api_status(path, ctx.supervisor), request.is_disconnected)
    return StreamingResponse(body, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.get("/runs/{run_id}/files", response_model=FileListOut, summary="The run's files")
async def run_files(run_id: str, ctx: Ctx) -> FileListOut:
    path = views.run_dir(ctx.options.workdir, run_id)
    return await asyncio.to_thread(files.list_files, path, run_id)


@router.get("/runs/{run_id}/files/{rel:path}", summary="One file of the run", response_class=StreamingResponse)
async def run_file(run_id: str, rel: str, ctx: Ctx, download: bool = False) -> StreamingResponse:
    path = views.run_dir(ctx.options.workdir, run_id)
    return files.file_response(path, rel, download=download)


@router.get("/runs/{run_id}/report", summary="The run's report.html (format=md: report.md)",
            response_class=StreamingResponse)
async def report(run_id: str, ctx: Ctx, format: Annotated[str, Query(pattern="^(html|md)$")] = "html") -> \
        StreamingResponse:
    path = views.run_dir(ctx.options.workdir, run_id)
    return files.file_response(path, f"report.{format}")


def _free(run_dir: Path, ctx: Context) -> str:
    """The run's status, refused (409) while this server already has a job for it or another process runs it."""
    dispatch = ctx.supervisor.dispatch_of(run_dir.name)
    if dispatch is not None:
        raise ApiError(409, f"run {run_dir.name} is already {dispatch[0]} here ({dispatch[1].action})",
                       f"wait for it, or POST /runs/{run_dir.name}/cancel")
    status, _ = views.api_status(run_dir, ctx.supervisor)
    if status == "running":
        raise ApiError(409, f"run {run_dir.name} is running in another process",
                       "wait for it to finish, or stop it where it runs")
    return status


def _cancelled_before_start(run_dir: Path) -> None:
    """A queued run taken out of the queue before it started: it says so, and resume starts it."""
    from agentic_ds.report.writer import write_reports
    from agentic_ds.schema import RunStatus
    from agentic_ds.workspace import Workspace

    record, _ = views.record_of(run_dir)
    if record.status is RunStatus.QUEUED:
        record.status = RunStatus.INCOMPLETE
        record.reason = f"cancelled before it started; `agentic-ds resume {run_dir.name}` starts it"
        record.save(run_dir / "run.json")
        write_reports(Workspace(run_dir))
