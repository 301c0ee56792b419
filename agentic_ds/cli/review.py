"""`agentic-ds list / show / open`: review what runs left behind. Read-only, except that `open`
renders report.html from the run directory when a run ended before writing it.

Errors are raised as `agentic_ds.errors` exceptions; the main group maps them to messages and exit codes.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

import click

# The report modules load pydantic and the run schema: imported where a command runs, not for `--help`.
if TYPE_CHECKING:
    from agentic_ds.report.listing import RunSummary
    from agentic_ds.report.model import RunView

_BROWSER_TIMEOUT_S = 10.0

workdir_option = click.option(
    "--workdir",
    "workdir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder holding the run directories (default: the configured workdir, ./workdirs).",
)


def register(group: click.Group) -> None:
    """Add `list`, `show` and `open` to the main command group."""
    group.add_command(list_command)
    group.add_command(show_command)
    group.add_command(open_command)


def run_root(workdir: Path | None) -> Path:
    """Where RUN arguments are looked for: --workdir, else the configured workdir."""
    if workdir is not None:
        return workdir
    from agentic_ds.config.settings import load_settings

    return load_settings().workdir


@click.command("list")
@workdir_option
@click.option("--json", "as_json", is_flag=True, help="Print the runs as a JSON array.")
def list_command(workdir: Path | None, as_json: bool) -> None:
    """List runs, newest first: status, mode, date, duration, cost, title (or task).

    \b
    Examples:
      agentic-ds list
      agentic-ds list --workdir ~/analyses --json
    """
    from agentic_ds.report.listing import list_runs
    from agentic_ds.schema import RunStatus

    root = run_root(workdir)
    runs = list_runs(root)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in runs], indent=2))
        return
    if not runs:
        click.echo(f"No runs under {root}.")
        return
    # Fit the terminal when there is one; piped output keeps whole tasks for grep.
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    click.echo(runs_table(runs, width))
    stopped = [r for r in runs if r.status is RunStatus.INTERRUPTED]
    if stopped:
        click.echo(f"\n{len(stopped)} interrupted run(s): `agentic-ds resume RUN` continues one where it stopped.")
    waiting = [r for r in runs if r.status is RunStatus.AWAITING_APPROVAL]
    if waiting:
        click.echo(f"\n{len(waiting)} run(s) wait for their plan to be approved: `agentic-ds approve RUN` decides.")


def runs_table(runs: list[RunSummary], width: int | None = None) -> str:
    """Aligned columns, one run per line; the title (the task when a run has none) is cut to fit `width`."""
    from agentic_ds.report import formatting as fmt

    header = ("RUN", "STATUS", "MODE", "STARTED", "DURATION", "COST", "TITLE")
    rows = [(r.id, fmt.status_label(r.status), r.mode or "-", fmt.when(r.started_at), fmt.duration(r.wall_s),
             fmt.cost(r.total_usd, r.unpriced), r.title or r.task or "-") for r in runs]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    task_width = max(24, width - sum(widths) - 2 * len(widths)) if width else None
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(column_width) for cell, column_width in zip(row[:-1], widths, strict=True)]
        task = row[-1] if task_width is None or len(row[-1]) <= task_width else row[-1][: task_width - 1] + "…"
        lines.append("  ".join([*cells, task]).rstrip())
    return "\n".join(lines)


@click.command("show")
@click.argument("run")
@workdir_option
def show_command(run: str, workdir: Path | None) -> None:
    """Summarize a run: status, stages, criteria, artifacts, and where its report is.

    RUN is a run directory, a run id, or a unique prefix of one.

    \b
    Examples:
      agentic-ds show 20261122-0215
      agentic-ds show workdirs/20261122-021538-what-drives-revenue
    """
    from agentic_ds.report.listing import find_run
    from agentic_ds.report.view import load_run_view

    view = load_run_view(find_run(run, run_root(workdir)))
    click.echo(_show_text(view))


def _show_text(view: RunView) -> str:
    from agentic_ds.report import formatting as fmt
    from agentic_ds.schema import RunStatus, StageStatus

    out = [f"Run      {view.id}", f"Path     {view.root}"]
    if view.title:
        out.append(f"Title    {view.title}")
    out.append(f"Task     {view.task or '-'}")
    status = fmt.status_label(view.status) + (f": {view.reason}" if view.reason else "")
    out.append(f"Status   {status}")
    if view.status.resumable and (view.root / "session.db").is_file():
        out.append(f"Resume   agentic-ds resume {view.id}    (continues where it stopped; finished stages are kept)")
    if view.status is RunStatus.AWAITING_APPROVAL:
        out.append(f"Approve  agentic-ds approve {view.id}    (or --edit \"NOTES\" to have the plan revised, --stop)")
    out.append(f"Mode     {view.mode or '-'}    Started {fmt.when(view.started_at)}    "
               f"Duration {fmt.duration(view.wall_s)}    Cost {view.cost_text} "
               f"({fmt.count(view.total_tokens)} tokens)")
    if view.attempts_note:
        out.append(f"Attempts {view.attempts_note}")
    if view.final_answer and view.final_answer.answer.strip():
        out.append(f"Answer   {view.final_answer.answer}")
    if view.followups:
        out += ["", "Follow-ups"]
        for item in view.followups:
            out.append(f"  {item.id}  {fmt.status_label(item.status)}  {item.question}")
            if item.answer:
                out.append(f"      {item.answer}")
    out += ["", "Stages"]
    title_width = min(48, max((len(s.title) for s in view.stages), default=0))
    for number, stage in enumerate(view.stages, 1):
        label = "not run" if stage.not_run else fmt.status_label(stage.status)
        if stage.status is StageStatus.RUNNING and view.status is not RunStatus.RUNNING:
            label = "stopped"   # it was under way when the run stopped
        tries = fmt.attempts(stage.attempts) if stage.attempts else ""
        title = stage.title if len(stage.title) <= title_width else stage.title[: title_width - 1] + "…"
        out.append(f"  {number:>2}. {title:<{title_width}}  {label:<10} {tries:<11} {stage.dir or '-'}")
    if not view.stages:
        out.append("  (none recorded)")
    if view.criteria:
        out += ["", "Success criteria"]
        for criterion in view.criteria:
            mark = {True: "met", False: "NOT met", None: "unchecked"}[criterion.met]
            evidence = f" — {criterion.evidence}" if criterion.evidence else ""
            out.append(f"  [{mark}] {criterion.text}{evidence}")
    for title, items in (("Warnings", view.warnings), ("Gaps in the run directory", view.problems)):
        if items:
            out += ["", title, *(f"  - {item}" for item in items)]
    out += ["", "Artifacts"]
    present = [name for name, ok in view.artifacts.items() if ok]
    out.append(f"  {', '.join(present) or 'none'}")
    out.append(f"  figures: {len([f for f in view.all_figures if f.file])}    outputs: {len(view.outputs)}"
               f"    stage code: {len([s for s in view.stages if s.code_path])} of {len(view.stages)}")
    out.append("")
    report = view.root / "report.html"
    if report.is_file():
        out.append(f"Report   {report}")
    else:
        out.append(f"Report   not written yet; `agentic-ds open {view.id}` renders it from the run directory")
    return "\n".join(out)


@click.command("open")
@click.argument("run")
@workdir_option
def open_command(run: str, workdir: Path | None) -> None:
    """Open a run's report.html in the browser (prints its path when there is no display).

    RUN is a run directory, a run id, or a unique prefix of one.

    \b
    Examples:
      agentic-ds open 20261122-0215
      agentic-ds open --workdir ~/analyses 20261122
    """
    from agentic_ds.report.listing import find_run

    run_dir = find_run(run, run_root(workdir))
    report = run_dir / "report.html"
    if not report.is_file():
        from agentic_ds.report.writer import write_reports  # jinja2 and markdown-it only when needed
        from agentic_ds.workspace import Workspace

        _, report = write_reports(Workspace(run_dir))
        click.echo("report.html was missing; rendered it from the run directory.", err=True)
    if not has_display():
        click.echo(str(report))
        return
    if _open_in_browser(report.resolve().as_uri()):
        click.echo(f"Opened {report}")
    else:
        click.echo(str(report))
        click.echo("Could not start a browser; open the file above yourself.", err=True)


def has_display() -> bool:
    """Whether a browser window can appear: macOS, Windows, or an X11/Wayland session."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _open_in_browser(uri: str) -> bool:
    """`webbrowser.open` with a deadline: some registered browsers block until they exit."""
    outcome: list[bool] = []

    def attempt() -> None:
        try:
            outcome.append(webbrowser.open(uri))
        except webbrowser.Error:
            outcome.append(False)

    worker = threading.Thread(target=attempt, name="open-report", daemon=True)
    worker.start()
    worker.join(_BROWSER_TIMEOUT_S)
    return bool(outcome and outcome[0])
