"""report.html: one self-contained file (inline CSS, figures as data URIs, no scripts, no fonts).

The template only lays out what `_context` prepares; every string from the run is escaped by
jinja2's autoescape, and agent markdown goes through `MarkdownRenderer` (raw HTML refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from agentic_ds import __version__
from agentic_ds.evidence.status import CONFIDENCE_RULE
from agentic_ds.report import formatting as fmt
from agentic_ds.report.markup import MarkdownRenderer, data_uri
from agentic_ds.report.model import FigureRef, RunView, StageView
from agentic_ds.schema import RunStatus, StageStatus
from agentic_ds.workspace import Workspace

_SKIPPED_CAP = 20  # skipped inputs listed among the caveats; report.md and run.json list more
_STATUS_TONE = {
    RunStatus.COMPLETED: "good",
    StageStatus.APPROVED: "good",
    RunStatus.COMPLETED_WITH_WARNINGS: "warn",
    RunStatus.INCOMPLETE: "warn",
    RunStatus.INTERRUPTED: "warn",
    RunStatus.RUNNING: "neutral",
    RunStatus.QUEUED: "neutral",
    RunStatus.AWAITING_APPROVAL: "neutral",
    StageStatus.PENDING: "neutral",
    RunStatus.FAILED: "bad",
}


def status_tone(status: RunStatus | StageStatus) -> str:
    """The colour a status is shown in (good, warn, bad, neutral): the report's, and the web page's."""
    return _STATUS_TONE.get(status, "neutral")


@dataclass
class FigureHtml:
    path: str
    uri: str | None      # None: not embedded
    missing: bool        # the file is absent (else: present but not an embeddable image)


@cache
def _environment() -> Environment:
    """Kept for the process: compiling the report's template took about 25 ms, every report (a server writes many)."""
    env = Environment(
        loader=PackageLoader("agentic_ds.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["duration"] = fmt.duration
    env.filters["usd"] = fmt.usd
    env.filters["count"] = fmt.count
    env.filters["when"] = fmt.when
    env.filters["status_label"] = fmt.status_label
    env.filters["tone"] = status_tone
    return env


def render_html(view: RunView) -> str:
    """The whole report.html for a run, as text."""
    template = _environment().get_template("report.html.j2")
    return template.render(**_context(view))


def _context(view: RunView) -> dict[str, Any]:
    markdown = MarkdownRenderer(Workspace(view.root))
    stages = [_stage(stage, markdown) for stage in view.stages]
    return {
        "view": view,
        "title": view.title or view.task or view.id,
        "version": __version__,
        "status_meaning": fmt.STATUS_MEANING.get(view.status, ""),
        "confidence_rule": CONFIDENCE_RULE,
        "report_html": markdown.render(view.report_text, top_heading=2) if view.report_text else None,
        # The answer is the validator's markdown (a list, for a question with several findings): rendered, as
        # the report's sections are, not shown as one run-on line.
        "answer_html": markdown.render(view.final_answer.answer, top_heading=4) if view.final_answer else "",
        "stages": stages,
        "extra_figures": [_figure(f, view.root) for f in view.extra_figures],
        "caveats": _caveats(view),
        "figure_count": len(view.all_figures),
        "totals": view.usage_totals,
    }


def _stage(stage: StageView, markdown: MarkdownRenderer) -> dict[str, Any]:
    return {
        "stage": stage,
        "description_html": markdown.render(stage.description, top_heading=4) if stage.description else None,
        "summary_html": markdown.render(stage.summary, top_heading=4) if stage.summary else None,
        "review_html": markdown.render(stage.review, top_heading=4) if stage.review else None,
        "figures": [_figure(f, markdown.root) for f in stage.figures],
        "not_run": stage.not_run,
    }


def _figure(ref: FigureRef, root: Path) -> FigureHtml:
    return FigureHtml(path=ref.path, uri=data_uri(ref.file, root) if ref.file else None, missing=ref.file is None)


def _caveats(view: RunView) -> list[str]:
    """Everything a reader should weigh before trusting the answer, most specific first."""
    items: list[str] = []
    if view.final_answer:
        items += view.final_answer.caveats
        items += [f"Not answered: {a.ask} ({a.why})." for a in view.final_answer.asks if not a.answered]
        if view.final_answer.untraced_numbers:
            items.append("Figures of the answer found in no output of executed code: "
                         + ", ".join(view.final_answer.untraced_numbers[:20]) + ".")
    items += view.warnings
    items += [f"Input skipped, {item.path}: {item.reason}" for item in view.skipped_inputs[:_SKIPPED_CAP]]
    if len(view.skipped_inputs) > _SKIPPED_CAP:
        items.append(f"… and {len(view.skipped_inputs) - _SKIPPED_CAP} more skipped inputs (run.json lists every one).")
    for criterion in view.criteria:
        if criterion.met is False:
            items.append(
                f"Success criterion not met: {criterion.text}"
                + (f" ({criterion.evidence})" if criterion.evidence else "")
            )
    warned = " ".join(view.warnings).lower()
    for stage in view.stages:
        if stage.title.lower() in warned:
            continue  # a warning already tells the reader about this stage
        if stage.status is StageStatus.FAILED:
            items.append(
                f"Stage \u201c{stage.title}\u201d failed after {fmt.attempts(stage.attempts)}; "
                "later results may lack its output."
            )
        elif stage.status is StageStatus.PENDING:
            items.append(f"Stage \u201c{stage.title}\u201d did not run.")
    items += [f"Run directory: {problem}." for problem in view.problems]
    return items
