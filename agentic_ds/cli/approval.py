"""Plan approval on the command line: `run --approve-plan` asks at the terminal, `agentic-ds approve RUN` decides.

A run started with `--approve-plan` stops after its plan is reviewed and parsed, in the resumable status
`awaiting_approval` (exit code 4), and no process needs to stay alive while it waits (`workflow/plan_gate.py`).
With a person at the terminal (stdin and stdout a TTY, not `CI`, not `--json`) the command shows the plan and asks:
approve (the stages run), edit (the notes go back to the planner, which revises the plan; then it asks again) or
stop (the run ends `incomplete`). Anywhere else it stops there and says how to decide: `agentic-ds approve RUN`,
`--edit "NOTES"` or `--stop`, which continue the run in the foreground as `resume` does.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from agentic_ds.errors import EXIT_AWAITING_APPROVAL, UsageError

if TYPE_CHECKING:
    from agentic_ds.runs.stop_signals import StopSignals
    from agentic_ds.schema import PlanDecision
    from agentic_ds.workflow.runner import RunRequest

PLAN_SHOWN_CHARS = 20_000
_CHOICES: dict[str, Literal["approve", "edit", "stop"]] = {
    "a": "approve", "approve": "approve", "e": "edit", "edit": "edit", "s": "stop", "stop": "stop",
}


def interactive(as_json: bool) -> bool:
    """A person can answer at this terminal (not a pipe, not CI, not a program reading JSON lines)."""
    return not as_json and sys.stdin.isatty() and sys.stdout.isatty() and not os.environ.get("CI")


def ask(root: Path) -> PlanDecision | None:
    """Show run `root`'s plan and ask what to do with it; None when no answer came (end of input, Ctrl-C)."""
    from agentic_ds.runs import safe_files
    from agentic_ds.schema import PlanDecision

    try:
        plan = safe_files.read_text(root / "plan.md", root=root, limit=PLAN_SHOWN_CHARS)
    except OSError:
        plan = "(plan.md could not be read; plan.json holds the parsed stages)"
    click.echo("\n" + plan.rstrip() + "\n")
    try:
        answer = click.prompt(
            "Approve this plan? [a]pprove, [e]dit (your notes go to the planner), [s]top",
            type=click.Choice(list(_CHOICES), case_sensitive=False), show_choices=False,
        )
        decision = _CHOICES[answer.lower()]
        notes = click.prompt("Notes for the planner") if decision == "edit" else ""
    except click.Abort:
        click.echo(f"\nThe plan still waits: `agentic-ds approve {root.name}` decides later.", err=True)
        return None
    return PlanDecision(decision=decision, notes=notes)


def drive_with_approval(request: RunRequest, code: int, options: Any, stop: StopSignals, *, interactive: bool) -> int:
    """While the plan waits and a person is at the terminal: show it, ask, and go on with the decision.

    The run's lock is held while the question is open, so no other process decides meanwhile."""
    from agentic_ds.cli.progress import make_renderer
    from agentic_ds.cli.run import drive
    from agentic_ds.runs import run_lock

    root = request.workspace.root
    while code == EXIT_AWAITING_APPROVAL and interactive:
        lock = run_lock.acquire(root)
        try:
            decision = ask(root)
            if decision is None:
                return code
            request = continued(request, decision)
            renderer = make_renderer(quiet=options.quiet, as_json=options.as_json)
            code = drive(request, renderer, stop, debug=options.debug)
        finally:
            lock.release()
    return code


def continued(request: RunRequest, decision: PlanDecision) -> RunRequest:
    """The same run, continued from where it waits, with `decision` taken."""
    import asyncio
    import dataclasses

    from agentic_ds.workflow.resume import find_resume_point

    point = asyncio.run(find_resume_point(request.workspace.root))
    point.decision = decision
    return dataclasses.replace(request, resume=point)


def decision_from_flags(notes: str | None, stop: bool) -> PlanDecision:
    """`approve`'s flags as a decision: none approves, `--edit NOTES` edits (`-`: from stdin), `--stop` stops."""
    from agentic_ds.schema import PlanDecision

    if notes is not None and stop:
        raise UsageError("--edit and --stop cannot go together", hint="give one decision: approve, --edit or --stop")
    if stop:
        return PlanDecision(decision="stop")
    if notes is None:
        return PlanDecision(decision="approve")
    text = (sys.stdin.read() if notes == "-" else notes).strip()
    if not text:
        raise UsageError("--edit needs notes for the planner" + (" (nothing on stdin)" if notes == "-" else ""),
                         hint='say what to change, e.g. --edit "compare medians too, and leave out 2019"')
    return PlanDecision(decision="edit", notes=text)


@click.command("approve", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("run", metavar="RUN")
@click.option("--edit", "notes", metavar="NOTES",
              help="Send the plan back to the planner with NOTES ('-' reads them from stdin): it is revised, then "
                   "waits again.")
@click.option("--stop", "stop_run", is_flag=True,
              help="Do not run the plan: the run ends incomplete (`approve` later still runs it).")
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the run directories (default: the configured workdir, ./workdirs).")
@click.option("--config", metavar="FILE", help="YAML config file to read secrets such as API keys from (as for `run`).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final lines (run, report, status).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per line: every event, then run_finished.")
@click.option("--max-cost", type=click.FloatRange(min=0, min_open=True), metavar="USD",
              help="Raise or set the run's cost limit (what earlier attempts spent counts).")
def approve_command(run: str, notes: str | None, stop_run: bool, **kwargs: Any) -> int:
    """Decide on the plan of a run that waits for approval (`run --approve-plan`), and continue it.

    With no flag the plan is approved and the stages run, in the foreground, as `resume` runs them. --edit
    sends the plan back to the planner with your notes; the revised plan waits again. --stop ends the run
    incomplete. RUN is a run directory, a run id, or a unique prefix of one.

    \b
    Examples:
      agentic-ds approve 20261122-0215
      agentic-ds approve 20261122-0215 --edit "also compare the medians"
      agentic-ds approve 20261122-0215 --stop
    """
    from agentic_ds.cli.resume import ResumeOptions, resume_command

    decision = decision_from_flags(notes, stop_run)
    debug = bool(click.get_current_context().find_root().params.get("debug"))
    return resume_command(ResumeOptions(run=run, debug=debug, decision=decision, **kwargs))


def register(group: click.Group) -> None:
    group.add_command(approve_command)
