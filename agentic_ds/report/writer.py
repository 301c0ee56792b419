"""Write report.md (agent text + generated appendix) and report.html for a run directory.

Safe to call at the end of any run, finished or not, and as often as wanted: the output depends only
on the directory's content, and each file is replaced atomically so a reader never sees half of it.
"""

from __future__ import annotations

from pathlib import Path

from agentic_ds.report.coerce import read_text
from agentic_ds.report.html import render_html
from agentic_ds.report.markdown import render_markdown_appendix, render_missing_report
from agentic_ds.report.view import load_run_view, split_report
from agentic_ds.runs.safe_files import write_atomic
from agentic_ds.workspace import Workspace


def write_reports(workspace: Workspace) -> tuple[Path, Path]:
    """Write `report.md` and `report.html`; return their paths.

    report.md keeps the summary agent's text and (re)places the appendix between the
    `<!-- agentic-ds:appendix -->` markers. When the agent wrote nothing (a failed or interrupted
    run), report.md says so and lists what was done, instead of pretending there is an answer.
    """
    view = load_run_view(workspace.root)
    md_path, html_path = workspace.file("report.md"), workspace.file("report.html")
    existing = read_text(md_path, root=workspace.root) or ""
    head, tail = split_report(existing)
    if view.report_text is None:  # absent, empty, or our own stand-in from an earlier call
        head = render_missing_report(view)
    else:
        head = view.report_text  # capped: a runaway model reply must not become a 200 KB report
    body = head.rstrip() + "\n\n" + render_markdown_appendix(view) + tail.lstrip("\n")
    write_atomic(md_path, body)
    write_atomic(html_path, render_html(view))
    return md_path, html_path

