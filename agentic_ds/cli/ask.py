"""`agentic-ds ask RUN "question"`: a follow-up question on a finished run, answered in `RUN/followups/NN-slug/`.

The follow-up is a simple-mode run of its own inside the run's folder (`followups/`): the same agents (coder,
answer validator, task reader, judge, evidence check, summary), the run's models and settings, its inputs and what
it left (`earlier/`) as their files, and what it found (`followups/memory.py`) in their prompts. Its status is
decided by the same evidence rules as a run's, and its exit code is `run`'s. Refused with exit 2: an unknown run, an
empty question, a run still running, queued or waiting for a decision on its plan.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentic_ds.followups.record import FollowupRecord
    from agentic_ds.runs.stop_signals import StopSignals
    from agentic_ds.schema import RunRecord
    from agentic_ds.workspace import Workspace


@dataclass
class AskOptions:
    run: str
    question: str | None = None
    followup: str | None = None        # a follow-up prepared by `agentic-ds serve` (its id), run now
    workdir: Path | None = None
    config: str | None = None
    quiet: bool = False
    as_json: bool = False
    max_cost: float | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    debug: bool = False


def ask_command(options: AskOptions) -> int:
    from agentic_ds.runs.stop_signals import StopSignals

    stop = StopSignals()
    with stop.raising():
        return _ask(options, stop)


def _ask(options: AskOptions, stop: StopSignals) -> int:
    from agentic_ds.cli.review import run_root
    from agentic_ds.errors import UsageError
    from agentic_ds.followups import record as followups
    from agentic_ds.followups.answer import prepare
    from agentic_ds.report.listing import find_run

    root = find_run(options.run, run_root(options.workdir))
    if options.followup:
        if options.question:
            raise UsageError("give a question or --followup, not both",
                             hint="--followup runs a follow-up `agentic-ds serve` prepared")
        workspace, record = followups.find(root, options.followup)
        if record.status.value != "queued":
            raise UsageError(f"follow-up {record.id} of run {root.name} has already run ({record.status.label})",
                             hint=f'ask again: agentic-ds ask {root.name} "..."')
        parent = followups.check_can_ask(root)
    else:
        question = followups.read_question(_question_text(options.question))
        parent = followups.check_can_ask(root)
        workspace, record = prepare(root, question)
    return _answer(options, root, parent, workspace, record, stop)


def _question_text(given: str | None) -> str:
    if given == "-":
        return sys.stdin.read()
    return given or ""


def _answer(options: AskOptions, root: Path, parent: RunRecord, workspace: Workspace, record: FollowupRecord,
            stop: StopSignals) -> int:
    from agentic_ds.cli.progress import make_renderer
    from agentic_ds.cli.resume import ResumeOptions, resumed_models, resumed_settings
    from agentic_ds.cli.run import check_bundled, check_sandbox, drive
    from agentic_ds.config.models import export_dotenv_credentials
    from agentic_ds.followups.answer import finish, request_for
    from agentic_ds.runs.pricing import unpriced_models

    try:
        budgets = ResumeOptions(run=options.run, config=options.config, max_cost=options.max_cost,
                                max_llm_calls=options.max_llm_calls, max_tokens=options.max_tokens)
        settings = resumed_settings(parent, budgets)
        models = resumed_models(parent, settings)
        check_sandbox(settings.sandbox.mode, models.choices["coder"])
        check_bundled()
        renderer = make_renderer(quiet=options.quiet, as_json=options.as_json)
        renderer.models(models, unpriced_models(models, settings))
        request = request_for(root, parent, workspace, record, settings, models)
        renderer.run_started(request.workspace.root, [request.workspace.rel(p) for p in
                                                      request.workspace.input_files()])
        export_dotenv_credentials()
        return drive(request, renderer, stop, debug=options.debug)
    finally:
        finish(root, workspace, record)
