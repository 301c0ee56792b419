"""`agentic-ds run`: validate everything the user gave, create the run directory, run the workflow.

Everything that can be wrong with the input (task, flags, config, models, credentials, paths) is
checked before the run directory is created, so a usage error leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agentic_ds.cli.errors import report_error, report_traceback
from agentic_ds.errors import (
    EXIT_AWAITING_APPROVAL,
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    AgenticDSError,
    UsageError,
)
from agentic_ds.schema import RunStatus

if TYPE_CHECKING:
    from agentic_ds.agent_table import Mode
    from agentic_ds.runs.stop_signals import StopSignals
    from agentic_ds.workflow.runner import RunRequest
    from agentic_ds.workspace import Workspace

STATUS_EXIT_CODES = {
    RunStatus.COMPLETED: EXIT_OK,
    RunStatus.COMPLETED_WITH_WARNINGS: EXIT_OK,
    RunStatus.INCOMPLETE: EXIT_INCOMPLETE,
    RunStatus.FAILED: EXIT_FAILED,
    RunStatus.INTERRUPTED: EXIT_INTERRUPTED,
    RunStatus.AWAITING_APPROVAL: EXIT_AWAITING_APPROVAL,
}


@dataclass
class RunOptions:
    """The `run` command's arguments, as the user gave them."""

    task: str
    mode: Mode
    files: tuple[str, ...]
    workdir: str | None = None
    models: tuple[str, ...] = ()
    config: str | None = None
    quiet: bool = False
    as_json: bool = False
    sandbox: str | None = None
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    parallel_stages: int | None = None
    approve_plan: bool = False
    debug: bool = False


def read_task(task: str) -> str:
    """The task text; `-` reads it from stdin. An empty task is a usage error."""
    text = sys.stdin.read() if task == "-" else task
    text = text.strip()
    if not text:
        raise UsageError(
            "the task is empty" + (" (nothing on stdin)" if task == "-" else ""),
            hint='say what to find out, e.g. agentic-ds run --mode simple "Mean price by region" --files data.csv',
        )
    return text


def settings_overrides(options: RunOptions, model_flags: dict[str, str]) -> dict[str, Any]:
    """CLI flags as the top settings layer (None means "not given": lower layers stay)."""
    from agentic_ds.config.models import model_overrides

    return {
        "workdir": options.workdir,
        "models": model_overrides(model_flags),
        "sandbox": {"mode": options.sandbox},
        "loops": {"parallel_stages": options.parallel_stages},
        "budgets": {
            "max_cost_usd": options.max_cost,
            "max_llm_calls": options.max_llm_calls,
            "max_tokens": options.max_tokens,
        },
    }


def run_command(options: RunOptions) -> int:
    """The whole `run` command; returns the exit code. Ctrl-C, SIGTERM and SIGHUP stop it cleanly (`Stopped`)."""
    from agentic_ds.runs.stop_signals import StopSignals

    stop = StopSignals()
    with stop.raising():
        return _run(options, stop)


def _run(options: RunOptions, stop: StopSignals) -> int:
    from agentic_ds.cli.approval import drive_with_approval, interactive
    from agentic_ds.cli.progress import make_renderer
    from agentic_ds.config.models import export_dotenv_credentials
    from agentic_ds.runs.input_check import refused_inputs

    interactive_now = interactive(options.as_json) and options.task != "-"   # stdin gave the task: no prompts
    checked = check_run(options, read_task(options.task))
    renderer = make_renderer(quiet=options.quiet, as_json=options.as_json)
    renderer.models(checked.models, checked.unpriced)
    workspace, inputs = create_run(checked)
    renderer.run_started(workspace.root, inputs)
    export_dotenv_credentials()

    from agentic_ds.workflow.runner import RunRequest

    request = RunRequest(
        task=checked.task, mode=options.mode, workspace=workspace, settings=checked.settings, models=checked.models,
        skipped_inputs=refused_inputs(checked.planned), approve_plan=options.approve_plan,
    )
    code = drive(request, renderer, stop, debug=options.debug)
    return drive_with_approval(request, code, options, stop, interactive=interactive_now)


@dataclass
class CheckedRun:
    """Everything a new run needs, checked: nothing is created until all of it holds."""

    task: str
    mode: Mode
    settings: Any          # agentic_ds.config.settings.Settings
    models: Any            # agentic_ds.config.models.RoleModels
    paths: list[Path]
    planned: list[Any]     # agentic_ds.runs.workdir.PlannedFile
    unpriced: list[str]


def check_run(options: RunOptions, task: str) -> CheckedRun:
    """Check the task's flags, config, models, credentials and inputs (a `UsageError` says what is wrong).

    `agentic-ds serve` checks a run created over HTTP with this same function, so both say the same."""
    from agentic_ds.config.models import parse_model_flags, resolve_models
    from agentic_ds.config.settings import load_settings
    from agentic_ds.runs.input_check import check_inputs
    from agentic_ds.runs.pricing import unpriced_models
    from agentic_ds.runs.workdir import validate_inputs

    if options.approve_plan and options.mode != "orchestrated":
        raise UsageError("--approve-plan needs --mode orchestrated: simple mode makes no plan to approve",
                         hint="pass --mode orchestrated, or leave out --approve-plan")
    settings = load_settings(
        Path(options.config) if options.config else None,
        settings_overrides(options, parse_model_flags(options.models)),
    )
    models = resolve_models(settings)
    if not options.files:
        raise UsageError("no input files given", hint="pass --files PATH (a file or a folder; repeat for more)")
    paths = [Path(p) for p in options.files]
    planned = validate_inputs(paths, settings.workdir)
    check_inputs(planned)
    check_sandbox(settings.sandbox.mode, models.choices["coder"])
    check_bundled()
    return CheckedRun(task=task, mode=options.mode, settings=settings, models=models, paths=paths, planned=planned,
                      unpriced=unpriced_models(models, settings))


def create_run(checked: CheckedRun) -> tuple[Workspace, list[str]]:
    """The new run directory, with the inputs copied in; their run-relative paths."""
    from agentic_ds.runs.workdir import copy_inputs, create_run_dir

    workspace = create_run_dir(checked.settings.workdir, checked.task)
    return workspace, copy_inputs(checked.paths, workspace)


def drive(request: RunRequest, renderer: Any, stop: StopSignals, *, debug: bool) -> int:
    """Run the workflow for `request` (a new run or a resumed one) under the handled signals; the exit code."""
    workspace = request.workspace
    try:
        outcome = asyncio.run(_watched(request, renderer, stop))
    except (KeyboardInterrupt, asyncio.CancelledError):
        renderer.finish(RunStatus.INTERRUPTED, interrupted_reason(stop, workspace), workspace.root,
                        _existing_report(workspace))
        return stop.exit_code
    except AgenticDSError as exc:
        renderer.close()
        if debug:
            report_traceback()
        report_error(exc.message, exc.hint)
        renderer.finish(RunStatus.FAILED, exc.message, workspace.root, _existing_report(workspace))
        return exc.exit_code
    except Exception as exc:  # a bug in a part of the workflow: the run directory still holds what was done
        renderer.close()
        if debug:
            report_traceback()
        report_error(
            f"internal error: {type(exc).__name__}: {exc}",
            "this is a bug in agentic-ds; rerun with --debug and report the traceback",
        )
        reason = f"internal error: {type(exc).__name__}"
        renderer.finish(RunStatus.FAILED, reason, workspace.root, _existing_report(workspace))
        return EXIT_FAILED
    if outcome.hint:
        renderer.close()
        report_error(outcome.reason, outcome.hint)
    renderer.finish(outcome.status, outcome.reason, outcome.workspace.root, outcome.report_path)
    if stop.received:   # it came while the run was writing its records: they are whole, the exit code says it came
        return stop.exit_code
    return STATUS_EXIT_CODES.get(outcome.status, EXIT_FAILED)


async def _watched(request: RunRequest, renderer: Any, stop: StopSignals) -> Any:
    from agentic_ds.workflow import runner

    with stop.watching():
        return await runner.execute_run(request, on_event=renderer.on_event, on_tree=renderer.tree, stop=stop)


def interrupted_reason(stop: StopSignals, workspace: Workspace) -> str:
    return (f"stopped by {stop.short}; the run directory keeps everything done so far "
            f"(`agentic-ds resume {workspace.root.name}` continues it)")


def check_sandbox(mode: str, coder: Any) -> None:
    """No silent downgrade: without a usable sandbox, code a model writes is refused before anything is created.

    `--sandbox require` always needs bubblewrap. `auto` without it runs only the offline model's code (the
    bundled templates, trusted like the product itself); any other coder needs `--sandbox off`, the user's
    explicit acceptance of the risk.
    """
    if mode == "off":
        return
    from agentic_ds.sandbox.isolation import INSTALL_HINT, choose_isolation

    chosen = choose_isolation(mode)
    if chosen.problem is None:
        return
    if mode == "require":
        raise UsageError(f"--sandbox require: {chosen.problem}", hint=INSTALL_HINT)
    if coder.kind != "offline":
        raise UsageError(
            f"no sandbox for the code {coder.spec} would write: {chosen.problem}",
            hint=f"{INSTALL_HINT}; or pass --sandbox off to run model-written code without isolation, at your own risk",
        )


def check_bundled() -> None:
    """The prompts and skills a run needs are found and readable (a broken install is found here, not in the run)."""
    from agentic_ds.agent_table import prompts
    from agentic_ds.skills import SkillLibrary, default_skills_dir
    from agentic_ds.workflow.prompting import require_templates

    require_templates(prompts())
    SkillLibrary.load(default_skills_dir())


def _existing_report(workspace: Workspace) -> Path | None:
    """The report the workflow managed to write before the run was stopped, if any."""
    for name in ("report.html", "report.md"):
        if workspace.file(name).is_file():
            return workspace.file(name)
    return None


def run_click_command(**kwargs: Any) -> int:
    ctx = click.get_current_context()
    debug = bool(ctx.find_root().params.get("debug"))
    return run_command(RunOptions(debug=debug, **kwargs))
