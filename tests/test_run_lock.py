"""The run lock, with real processes: a run another process holds is busy, one whose holder died is free, and
`list`, `show` and the reports call a run recorded as running whose lock is free interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.report.listing import summarize_run
from agentic_ds.report.view import load_run_view
from agentic_ds.runs import run_lock
from agentic_ds.runs.safe_files import UnsafeFile
from agentic_ds.schema import RunStatus
from tests.report_fixtures import make_run
from tests.resume_support import HOLD


@pytest.fixture
def holder():
    """Start a process holding a run's lock; the processes are killed at the end."""
    started: list[subprocess.Popen] = []

    def hold(run_dir):
        process = subprocess.Popen([sys.executable, "-c", HOLD, str(run_dir)], stdout=subprocess.PIPE, text=True)
        assert process.stdout.readline().strip() == "held"
        started.append(process)
        return process

    yield hold
    for process in started:
        process.kill()
        process.wait()
        process.stdout.close()


def running_run(root, name="20261124-100000-mean-price"):
    """A run as a process that died mid-stage leaves it: run.json says running, its first stage had begun."""
    run = make_run(root, name, status="running", ended_at=None, wall_s=3.2)
    record = json.loads((run / "run.json").read_text())
    record["stages"] = [{"id": "s1", "title": "Load and audit", "status": "approved", "attempts": 1,
                         "dir": "stages/01-load-and-audit"},
                        {"id": "s2", "title": "Compare regions", "status": "running", "attempts": 0,
                         "dir": "stages/02-compare-regions"},
                        {"id": "s3", "title": "Monthly trend", "status": "pending", "attempts": 0, "dir": ""}]
    (run / "run.json").write_text(json.dumps(record))
    (run / "session.db").write_bytes(b"")
    for name in ("02-compare-regions", "03-monthly-trend"):   # results are written when a stage ends
        (run / "stages" / name / "result.json").unlink()
    return run


def test_a_lock_held_by_another_process_is_busy_until_it_ends(tmp_path, holder):
    run = running_run(tmp_path)
    process = holder(run)
    assert run_lock.is_held(run) is True
    with pytest.raises(run_lock.RunBusy) as busy:
        run_lock.acquire(run)
    assert busy.value.exit_code == 2 and f"(process {process.pid})" in busy.value.message
    assert summarize_run(run).status is RunStatus.RUNNING
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert run_lock.is_held(run) is False
    lock = run_lock.acquire(run)   # free again: the kernel dropped the dead holder's lock
    assert (run / ".lock").read_text() == f"{os.getpid()}\n" and os.stat(run / ".lock").st_mode & 0o777 == 0o600
    lock.release()


def test_the_lock_is_reentrant_in_one_process_and_held_against_others(tmp_path):
    run = running_run(tmp_path)
    probe = [sys.executable, "-c", "import sys; from pathlib import Path; from agentic_ds.runs import run_lock; "
             "print(run_lock.is_held(Path(sys.argv[1])))", str(run)]
    first = run_lock.acquire(run)
    second = run_lock.acquire(run)
    assert second is first
    second.release()
    assert subprocess.run(probe, capture_output=True, text=True).stdout.strip() == "True"
    first.release()
    assert subprocess.run(probe, capture_output=True, text=True).stdout.strip() == "False"


def test_a_link_planted_as_the_lock_file_is_refused(tmp_path):
    run = running_run(tmp_path)
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious")
    (run / ".lock").symlink_to(target)
    with pytest.raises(UnsafeFile):
        run_lock.acquire(run)
    assert target.read_text() == "precious" and oct(target.stat().st_mode & 0o777) != "0o600"


def test_list_show_and_the_report_call_a_dead_running_run_interrupted(tmp_path, holder):
    run = running_run(tmp_path)
    process = holder(run)
    listed = CliRunner().invoke(main, ["list", "--workdir", str(tmp_path)])
    assert " running " in listed.output and "interrupted" not in listed.output
    process.kill()
    process.wait()

    listed = CliRunner().invoke(main, ["list", "--workdir", str(tmp_path)])
    assert listed.exit_code == 0
    assert " interrupted " in listed.output and "`agentic-ds resume RUN`" in listed.output
    as_json = json.loads(CliRunner().invoke(main, ["list", "--workdir", str(tmp_path), "--json"]).output)
    assert as_json[0]["status"] == "interrupted"
    shown = CliRunner().invoke(main, ["show", run.name, "--workdir", str(tmp_path)]).output
    assert "Status   interrupted: the process running it ended without finishing" in shown
    assert f"Resume   agentic-ds resume {run.name}" in shown
    view = load_run_view(run)
    assert view.status is RunStatus.INTERRUPTED
    assert [(s.title, s.status.value) for s in view.stages] == [
        ("Load and audit", "approved"), ("Compare regions", "running"), ("Monthly trend", "pending")]
    assert "Compare regions  stopped" in shown


def test_show_places_a_begun_stage_folder_under_its_planned_stage(tmp_path):
    """A run.json from before the first stage ended names no stage: the folder `02-...` is the plan's
    second stage, not an extra one."""
    run = running_run(tmp_path)
    record = json.loads((run / "run.json").read_text())
    record["stages"] = []
    (run / "run.json").write_text(json.dumps(record))

    view = load_run_view(run)

    assert [s.title for s in view.stages] == ["Load and audit", "Compare regions", "Monthly trend"]
    assert [s.dir for s in view.stages] == ["stages/01-load-and-audit", "stages/02-compare-regions",
                                            "stages/03-monthly-trend"]
