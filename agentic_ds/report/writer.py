"""Write report.md (agent text + generated appendix) and report.html for a run directory.

Safe to call at the end of any run, finished or not, and as often as wanted: the output depends only
on the directory's content, and each file is replaced atomically so a reader never sees half of it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from agentic_ds.report.html import render_html
from agentic_ds.report.markdown import render_markdown_appendix, render_missing_report
from agentic_ds.report.view import load_run_view, split_report
from agentic_ds.workspace import Workspace


def write_reports(workspace: Workspace) -> tuple[Path, Path]:
    """Write `report.md` and `report.html`; return their paths.

    report.md keeps the summary agent's text and (re)places the appendix between the
    `<!-- agentic-ds:appendix -->` markers. When the agent wrote nothing (a failed or interrupted
    run), report.md says so and lists what was done, instead of pretending there is an answer.
    """
    view = load_run_view(workspace.root)
    md_path, html_path = workspace.file("report.md"), workspace.file("report.html")
    existing = md_path.read_text(encoding="utf-8", errors="replace") if md_path.is_file() else ""
    head, tail = split_report(existing)
    if view.report_text is None:  # absent, empty, or our own stand-in from an earlier call
        head = render_missing_report(view)
    else:
        head = view.report_text  # capped: a runaway model reply must not become a 200 KB report
    body = head.rstrip() + "\n\n" + render_markdown_appendix(view) + tail.lstrip("\n")
    atomic_write_text(md_path, body)
    atomic_write_text(html_path, render_html(view))
    return md_path, html_path


def atomic_write_text(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step (temp file in the same directory, then rename)."""
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, 0o644)  # NamedTemporaryFile creates 0600; reports are meant to be shared
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
