"""`POST /runs`: a new run, checked as `agentic-ds run` checks one, prepared on disk, and queued.

Everything `run` checks is checked here with the same code and words (`cli.run.check_run`: task, mode, models and
their keys, budgets, sandbox, inputs): a bad request gets 400 with the CLI's error and hint, and leaves nothing
behind. Then the run directory is created with the inputs copied in and a run.json saying `queued`, so the run is
listed at once (by the CLI too) and a restarted server still knows it; a child process starts it in its turn.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import UploadFile

from agentic_ds.errors import AgenticDSError
from agentic_ds.server.errors import ApiError
from agentic_ds.server.inputs import Staging, check_sources, data_path
from agentic_ds.server.options import ServeOptions
from agentic_ds.server.queue import Job
from agentic_ds.server.supervisor import Supervisor

MODES = ("orchestrated", "simple")


@dataclass
class NewRun:
    """The fields of the form, as `agentic-ds run` takes them."""

    task: str
    mode: str
    models: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    sandbox: str | None = None
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    approve_plan: bool = False


async def create_run(new: NewRun, uploads: list[UploadFile], options: ServeOptions, supervisor: Supervisor) -> str:
    """Check, prepare and queue the run; its id."""
    if new.mode not in MODES:
        raise ApiError(400, f"mode must be orchestrated or simple, not {new.mode!r}",
                       "orchestrated: plan, staged code with review loops (thorough); simple: one agent pass (fast)")
    if not new.task.strip():
        raise ApiError(400, "the task is empty",
                       "say what to find out, e.g. task=Mean price by region, with the data as files or paths")
    sources = [data_path(given, options.data_roots) for given in new.paths]
    staging = Staging(supervisor.state_dir) if uploads else None
    try:
        if staging is not None:
            sources += await staging.save(uploads)
        allowed = [*options.data_roots, *([staging.folder] if staging else [])]
        run_id = await asyncio.to_thread(_prepare, new, sources, allowed, options)
    except AgenticDSError as exc:
        raise ApiError.of(exc) from exc
    finally:
        if staging is not None:
            staging.remove()
    supervisor.submit(Job(run_id=run_id, action="start"))
    return run_id


def _prepare(new: NewRun, sources: list[Path], allowed: list[Path], options: ServeOptions) -> str:
    from agentic_ds.cli.run import RunOptions, check_run, create_run
    from agentic_ds.runs.input_check import refused_inputs
    from agentic_ds.workflow.run_facts import queued_record
    from agentic_ds.workflow.runner import RunRequest

    run_options = RunOptions(
        task=new.task, mode=new.mode, files=tuple(str(p) for p in sources),  # type: ignore[arg-type]
        workdir=str(options.workdir), models=tuple(new.models), config=options.config, sandbox=new.sandbox,
        max_cost=new.max_cost, max_llm_calls=new.max_llm_calls, max_tokens=new.max_tokens,
        approve_plan=new.approve_plan,
    )
    checked = check_run(run_options, new.task.strip())
    check_sources(checked.planned, allowed)
    workspace, _inputs = create_run(checked)
    request = RunRequest(task=checked.task, mode=checked.mode, workspace=workspace, settings=checked.settings,
                         models=checked.models, skipped_inputs=refused_inputs(checked.planned),
                         approve_plan=new.approve_plan)
    queued_record(request).save(workspace.file("run.json"))
    return workspace.root.name
