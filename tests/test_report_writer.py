"""write_reports: report.md keeps the agent's text and carries the appendix; report.html beside it."""

from __future__ import annotations

import json

from agentic_ds.report.view import APPENDIX_END_MARKER, APPENDIX_MARKER, GENERATED_MARKER
from agentic_ds.report.writer import write_reports
from agentic_ds.workspace import Workspace
from tests.report_fixtures import AGENT_REPORT, make_run


def test_writes_both_reports_keeping_the_agent_text(tmp_path):
    run = make_run(tmp_path)

    md_path, html_path = write_reports(Workspace(run))

    assert (md_path, html_path) == (run / "report.md", run / "report.html")
    text = md_path.read_text()
    assert text.startswith(AGENT_REPORT.rstrip())
    assert text.count(APPENDIX_MARKER) == 1 and text.count(APPENDIX_END_MARKER) == 1
    assert "| 3 | Monthly trend | failed | 3 |" in text
    assert html_path.read_text().startswith("<!DOCTYPE html>")
    assert oct(md_path.stat().st_mode & 0o777) == "0o644"
    assert not [p.name for p in run.iterdir() if p.name.endswith(".tmp")]


def test_is_idempotent(tmp_path):
    run = make_run(tmp_path)
    write_reports(Workspace(run))
    first = ((run / "report.md").read_bytes(), (run / "report.html").read_bytes())

    write_reports(Workspace(run))

    assert ((run / "report.md").read_bytes(), (run / "report.html").read_bytes()) == first


def test_rewriting_replaces_the_appendix_with_the_current_record(tmp_path):
    run = make_run(tmp_path)
    write_reports(Workspace(run))
    record = json.loads((run / "run.json").read_text())
    record.update(status="completed", reason="All stages approved after a resume.")
    (run / "run.json").write_text(json.dumps(record))
    with (run / "report.md").open("a") as handle:
        handle.write("\nA note the user added after the appendix.\n")

    write_reports(Workspace(run))

    text = (run / "report.md").read_text()
    assert text.count(APPENDIX_MARKER) == 1
    assert "**completed**: All stages approved after a resume." in text
    assert "completed with warnings" not in text
    assert text.rstrip().endswith("A note the user added after the appendix.")


def test_failed_run_without_report_gets_an_honest_one(tmp_path):
    run = make_run(tmp_path, status="failed", reason="The input file could not be parsed.")
    (run / "report.md").unlink()

    md_path, html_path = write_reports(Workspace(run))

    text = md_path.read_text()
    assert text.startswith(GENERATED_MARKER)
    assert "**No answer.** The run ended with status **failed**: The input file could not be parsed." in text
    assert "## What was done" in text and APPENDIX_MARKER in text
    assert "No answer." in html_path.read_text()
    # Rendering again regenerates our stand-in instead of keeping it as if an agent wrote it.
    record = json.loads((run / "run.json").read_text())
    record["reason"] = "Interrupted by the user."
    (run / "run.json").write_text(json.dumps(record))
    text = write_reports(Workspace(run))[0].read_text()
    assert "Interrupted by the user." in text and "could not be parsed" not in text
    assert text.count(GENERATED_MARKER) == 1 and text.count(APPENDIX_MARKER) == 1


def test_agent_report_written_later_replaces_the_stand_in(tmp_path):
    run = make_run(tmp_path)
    (run / "report.md").unlink()
    write_reports(Workspace(run))
    (run / "report.md").write_text("# Final\nThe answer is 7.\n")

    text = write_reports(Workspace(run))[0].read_text()

    assert text.startswith("# Final\nThe answer is 7.") and GENERATED_MARKER not in text


def test_empty_directory_still_gets_reports(tmp_path):
    run = tmp_path / "20261122-020000-nothing"
    run.mkdir()

    md_path, html_path = write_reports(Workspace(run))

    assert "status **unknown**" in md_path.read_text()
    assert "No stage was recorded." in html_path.read_text()
