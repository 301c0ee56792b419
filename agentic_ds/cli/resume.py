"""`agentic-ds resume RUN`: continue a run that stopped (interrupted, killed, failed, incomplete) where it stopped.

Everything comes from the run directory (`workflow/resume.py`): the task, the mode, the models and the
settings the run recorded; secrets, which are never recorded, come from today's configuration (so a fixed API
key is picked up). Flags change only how the run is shown and its budgets. Refused with exit 2: a run that
completed, a run still running (its lock is held), a run without a session to continue.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentic_ds.errors import ConfigError, UsageError

if TYPE_CHECKING:
    from agentic_ds.config.models import RoleModels
    from agentic_ds.config.settings import Settings
    from agentic_ds.runs.stop_signals import StopSignals
    from agentic_ds.schema import PlanDecision, RunRecord
    from agentic_ds.workflow.resume import ResumePoint


@dataclass
class ResumeOptions:
    """The `resume` command's arguments, as the user gave them."""

    run: str
    workdir: Path | None = None
    config: str | None = None
    quiet: bool = False
    as_json: bool = False
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    debug: bool = False
    decision: PlanDecision | None = None    # `agentic-ds approve`: the decision on the plan the run waits with

    @property
    def budgets(self) -> dict[str, Any]:
        given = {"max_cost_usd": self.max_cost, "max_llm_calls": self.max_llm_calls, "max_tokens": self.max_tokens}
        return {key: value for key, value in given.items() if value is not None}


def resume_command(options: ResumeOptions) -> int:
    """The whole `resume` command; returns the exit code (as `run`'s, and 2 when the run cannot be resumed)."""
    from agentic_ds.runs.stop_signals import StopSignals

    stop = StopSignals()
    with stop.raising():
        return _resume(options, stop)


def _resume(options: ResumeOptions, stop: StopSignals) -> int:
    from agentic_ds.cli.approval import drive_with_approval, interactive
    from agentic_ds.cli.progress import make_renderer
    from agentic_ds.cli.review import run_root
    from agentic_ds.cli.run import check_bundled, check_sandbox, drive
    from agentic_ds.config.models import export_dotenv_credentials
    from agentic_ds.report.listing import find_run
    from agentic_ds.runs import run_lock
    from agentic_ds.runs.pricing import unpriced_models
    from agentic_ds.workflow.resume import NotStarted, find_resume_point
    from agentic_ds.workflow.runner import RunRequest
    from agentic_ds.workspace import Workspace

    root = find_run(options.run, run_root(options.workdir))
    lock = run_lock.acquire(root)   # held until the resumed run ends; refused (exit 2) while another holds it
    try:
        try:
            found = asyncio.run(find_resume_point(root))
            point: ResumePoint | None = found
            record = found.record
        except NotStarted as never:   # prepared (queued by `agentic-ds serve`) and never started: it starts now
            if options.decision is not None:
                raise UsageError(f"run {root.name} has not started: it has no plan to decide on",
                                 hint=f"`agentic-ds resume {root.name}` starts it") from None
            point, record = None, never.record
        if point is not None:
            point.decision = _decision(point, options)
        settings = resumed_settings(record, options)
        models = resumed_models(record, settings)
        check_sandbox(settings.sandbox.mode, models.choices["coder"])
        check_bundled()
        unpriced = unpriced_models(models, settings)
        mode = record.mode
        renderer = make_renderer(quiet=options.quiet, as_json=options.as_json)
        renderer.models(models, unpriced)
        workspace = Workspace(root)
        renderer.run_started(workspace.root, record.inputs)
        export_dotenv_credentials()
        request = RunRequest(task=record.task, mode=mode, workspace=workspace, settings=settings, models=models,
                             resume=point, skipped_inputs=[s.model_dump() for s in record.skipped_inputs],
                             approve_plan=bool(record.approval and record.approval.required))
        code = drive(request, renderer, stop, debug=options.debug)
        return drive_with_approval(request, code, options, stop, interactive=interactive(options.as_json))
    finally:
        lock.release()


def _decision(point: ResumePoint, options: ResumeOptions) -> PlanDecision | None:
    """The decision the continued run takes on its plan. A run whose plan waits (or was stopped) goes on only with
    one: given (`approve`), asked at the terminal, or refused with how to give one. Other runs take none, and a
    decision given for them is refused."""
    from agentic_ds.cli.approval import ask, interactive
    from agentic_ds.workflow import plan_gate

    name = point.root.name
    approval = plan_gate.approval_of(point.state)
    waiting = approval is not None and approval.state in plan_gate.WAITING
    if options.decision is not None:
        if not waiting:
            raise UsageError(
                f"run {name} is not waiting for a decision on its plan (it is {point.record.status.label})",
                hint=f"`agentic-ds show {name}` shows it; `agentic-ds resume {name}` continues a stopped run")
        return options.decision
    if not waiting:
        return None
    if not interactive(options.as_json):
        raise UsageError(f"run {name} waits for a decision on its plan",
                         hint=f"`agentic-ds approve {name}` runs it; add --edit \"NOTES\" to have it revised, or "
                              "--stop to end the run")
    decision = ask(point.root)
    if decision is None:
        raise UsageError(f"no decision was given: run {name} still waits",
                         hint=f"`agentic-ds approve {name}` decides later")
    return decision


def resumed_settings(record: RunRecord, options: ResumeOptions) -> Settings:
    """The settings the run recorded, its masked secrets from today's configuration, budgets as the flags say."""
    from pydantic import ValidationError

    from agentic_ds.config.secrets import restore
    from agentic_ds.config.settings import Settings, load_settings

    today = load_settings(Path(options.config) if options.config else None, {"budgets": options.budgets})
    if not record.settings:   # recorded before runs kept their settings: today's are the best guess
        return today
    settings = restore(record.settings, today.model_dump(mode="json"))
    settings["budgets"] = {**settings.get("budgets", {}), **options.budgets}
    try:
        return Settings(**settings)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"the settings run.json recorded are not valid today ('{where}': {first['msg']})",
                          hint="start the analysis again with `agentic-ds run`") from exc


def resumed_models(record: RunRecord, settings: Settings) -> RoleModels:
    """The models the run started with, every role as recorded; credentials are checked as for `run`."""
    from agentic_ds.config.models import RoleModels, resolve_models
    from agentic_ds.config.settings import FOLLOWS, ROLES

    recorded = {role: spec for role, spec in record.models.items() if role in ROLES and spec}
    for role, follows in FOLLOWS.items():   # a run of an earlier version, before the role existed
        if role not in recorded and follows in recorded:
            recorded[role] = recorded[follows]
    if set(recorded) != set(ROLES):
        missing = ", ".join(sorted(set(ROLES) - set(recorded)))
        raise UsageError(f"run {record.id} does not record the model of every role (missing: {missing})",
                         hint="start the analysis again with `agentic-ds run`")
    settings.models = settings.models.model_copy(update=recorded)
    chosen = resolve_models(settings)
    return RoleModels(choices=chosen.choices, reason="the models this run started with")
