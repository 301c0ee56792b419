"""Real signals sent to a real `agentic-ds run` (the installed command, offline model, orchestrated, sandbox):
SIGTERM, SIGHUP and Ctrl-C stop it cleanly at any moment, SIGKILL leaves a run that reads as interrupted, and
either kind of stop is resumed.

Checked from the outside: the exit code (143, 129, 130), the last line, run.json (`incomplete`, the signal named,
its end recorded), events.jsonl (every line JSON, as many as run.json counts, the status last), session.db
(intact and resumable), both reports written, the lock free, and no process the run started still alive.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import time

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.runs import run_lock
from tests.resume_support import Stopped, alive, make_project, phase, resume, signal_at

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def _running_a_cell(record: dict) -> bool:
    return record.get("kind") == "tool_call" and record.get("tool") == "run_python"


# signal, events.jsonl lines (and a record to wait for), exit code, how the last line names it, where it lands
IN_A_CELL = (signal.SIGTERM, 14, _running_a_cell, 143, "SIGTERM", "coder turn")
CASES = [
    (signal.SIGTERM, 6, None, 143, "SIGTERM", "planning"),
    (signal.SIGHUP, 33, None, 129, "SIGHUP", "between stages"),
    (signal.SIGINT, 44, None, 130, "Ctrl-C", None),
]   # SIGTERM in a cell is checked the same way by the test that then resumes that run


@pytest.mark.parametrize(("sig", "lines", "when", "code", "named", "where"), CASES,
                         ids=["sigterm-planning", "sighup-between-stages", "ctrl-c-second-stage"])
def test_a_signal_stops_the_run_cleanly_and_says_so(tmp_path, sig, lines, when, code, named, where):
    stopped = signal_at(make_project(tmp_path), lines, sig, when=when, in_a_cell=when is not None)
    check_stopped_cleanly(stopped, sig, when, code, named, where)


def check_stopped_cleanly(stopped: Stopped, sig: signal.Signals, when, code: int, named: str, where: str | None):
    run_dir = stopped.run_dir
    if where:
        assert phase(stopped.last) == where, stopped.last
    if when is not None:
        assert stopped.descendants, "the sandbox kernel was not running when the signal came"

    assert stopped.returncode == code, stopped.stderr
    last = stopped.stdout.splitlines()[-1]
    assert last == (f"status: interrupted - stopped by {named}; the run directory keeps everything done so far "
                    f"(`agentic-ds resume {run_dir.name}` continues it)")
    assert "Traceback" not in stopped.stderr
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "incomplete" and record["ended_at"]
    named_in_record = "Ctrl-C" if sig == signal.SIGINT else signal.Signals(sig).name
    assert record["reason"].startswith(f"interrupted by {named_in_record}")
    assert record["attempts"][-1]["status"] == "incomplete"
    log = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert record["events"] == len(log) and all(json.loads(line) for line in log)
    assert json.loads(log[-1])["text"].startswith("status: incomplete - interrupted by")
    for report in ("report.md", "report.html"):
        assert (run_dir / report).is_file()
    assert "incomplete" in (run_dir / "report.md").read_text(encoding="utf-8")
    with sqlite3.connect(run_dir / "session.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] > 0
    assert run_lock.is_held(run_dir) is False
    deadline = time.monotonic() + 5
    while alive(stopped.descendants) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive(stopped.descendants) == [], "processes the run started outlived it"
    shown = CliRunner().invoke(main, ["show", str(run_dir)]).output
    assert "Status   incomplete: interrupted by" in shown and f"agentic-ds resume {run_dir.name}" in shown


def test_a_run_stopped_by_sigterm_inside_a_cell_resumes_to_completion(tmp_path):
    """Stopped as cleanly as by the signals above (the same checks, before the resume), then resumed."""
    project = make_project(tmp_path)
    sig, lines, when, code, named, where = IN_A_CELL
    stopped = signal_at(project, lines, sig, when=when, in_a_cell=True)
    check_stopped_cleanly(stopped, sig, when, code, named, where)
    assert stopped.returncode == 143

    done = resume(stopped.run_dir.name, cwd=project)

    assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-1500:]
    assert done.stdout.splitlines()[-1].startswith("status: completed")
    record = json.loads((stopped.run_dir / "run.json").read_text())
    assert [a["status"] for a in record["attempts"]] == ["incomplete", "completed"]
    assert [s["status"] for s in record["stages"]] == ["approved", "approved"]
    first = stopped.run_dir / "stages" / record["stages"][0]["dir"].split("/")[-1]
    assert sorted(p.name for p in first.glob("cell_*.py"))[0] == "cell_001.py"   # earlier cells kept, numbering on


def test_sigkill_leaves_a_run_that_lists_as_interrupted_with_its_plan(tmp_path):
    project = make_project(tmp_path)
    stopped = signal_at(project, 40, signal.SIGKILL)
    assert stopped.returncode == -signal.SIGKILL
    run_dir = stopped.run_dir
    assert json.loads((run_dir / "run.json").read_text())["status"] == "running"   # as the process left it

    listed = CliRunner().invoke(main, ["list", "--workdir", str(project / "workdirs")]).output
    shown = CliRunner().invoke(main, ["show", str(run_dir)]).output

    assert " interrupted " in listed and " running " not in listed
    assert "Status   interrupted: the process running it ended without finishing" in shown
    plan = json.loads((run_dir / "plan.json").read_text())
    stage_lines = [line for line in shown.splitlines() if line.startswith("   ") and ". " in line[:8]]
    assert len(stage_lines) == len(plan["stages"]), shown   # the plan's stages, and no other
    for number, stage in enumerate(plan["stages"], 1):
        assert f"{number:>2}. {stage['title']}" in shown
