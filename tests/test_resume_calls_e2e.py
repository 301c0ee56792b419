"""A run a model call failed, resumed against the same (now healthy) endpoint: run.json's `calls` block covers both
attempts, through the real LiteLLM path and `agentic-ds resume`."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.runs import run_lock
from tests.fault_runs import FAST_CALLS, assert_consistent, run_cli
from tests.resume_support import make_project, resume, run_dir_of, start_run
from tests.support.fault_server import FaultServer, Hang, Rule, Status

pytestmark = [pytest.mark.early, pytest.mark.slow, pytest.mark.sandbox]


def test_a_run_failed_by_a_model_call_resumes_and_its_calls_are_counted_over_both_attempts(tmp_path):
    with FaultServer([Rule(Status(401, "key revoked"), agent="code_reviewer", times=1)]) as server:
        first = run_cli(tmp_path, server.url, mode="orchestrated")
        assert_consistent(first, "failed", 1)
        failure = first.calls["failure"]
        assert failure["agent"] == "code_reviewer" and failure["where"].startswith("in stage 1 of ")
        assert first.calls["failures"] == 1 and first.calls["attempts"] == len(server.seen)
        requests_before = len(server.seen)

        result = CliRunner().invoke(main, ["resume", str(first.run_dir), "--config", str(tmp_path / "agentic-ds.yaml")],
                                    catch_exceptions=False)
    record = json.loads((first.run_dir / "run.json").read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert record["status"] in ("completed", "completed_with_warnings")
    assert [a["status"] for a in record["attempts"]] == ["failed", record["status"]]
    calls = record["calls"]
    resumed_requests = len(server.seen) - requests_before
    assert resumed_requests > 0
    # Nothing was retried in the second attempt: each of its requests is one answered call.
    assert calls["calls"] == first.calls["calls"] + resumed_requests
    assert calls["attempts"] == len(server.seen)
    assert calls["failures"] == 1 and calls["failure"] is None   # counted, but it did not end this run
    assert sum(m["calls"] for m in calls["by_model"].values()) == calls["calls"]
    report = (first.run_dir / "report.md").read_text(encoding="utf-8")
    assert f"Model calls: {calls['calls']} answered" in report and "The call that ended the run" not in report


def test_sigterm_while_a_model_call_hangs_stops_the_run_at_once_and_resume_finishes_it(tmp_path):
    """The run lock and the signal handling wrap the loop the call policy waits in: a signal during a hung call
    (no answer, well inside calls.timeout_s) ends the run 143 within seconds, run.json `incomplete` with the
    calls made so far, the lock free; resumed against the same endpoint, the run completes."""
    project = make_project(tmp_path)
    with FaultServer([Rule(Hang(), agent="coding_agent", times=1)], max_hang_s=60) as server:
        config = {"model_options": {"openai/fake": {"api_base": server.url}}, "calls": {**FAST_CALLS, "timeout_s": 30}}
        (project / "agentic-ds.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
        process = start_run(project, "--model", "openai/fake")
        deadline, run_dir = time.monotonic() + 120, None
        while time.monotonic() < deadline and process.poll() is None:
            run_dir = run_dir or run_dir_of(project)
            if run_dir is not None and server.answered("hang") == 1 and _waiting_without_answer(run_dir):
                break
            time.sleep(0.1)
        assert process.poll() is None and run_dir is not None, "the run never waited on the hung call"
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
        stopped_in = time.monotonic() - sent
        assert process.returncode == 143, stderr
        assert stopped_in < 15, f"took {stopped_in:.1f} s to stop"   # not the 30 s the call could still have hung
        record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        assert record["status"] == "incomplete" and record["reason"].startswith("interrupted by SIGTERM")
        assert record["calls"]["calls"] > 0 and record["calls"]["failure"] is None
        assert run_lock.is_held(run_dir) is False
        assert "Traceback" not in stderr and stdout.splitlines()[-1].startswith("status: interrupted")

        done = resume(run_dir.name, cwd=project)
    assert done.returncode == 0, done.stdout[-1500:] + done.stderr[-1500:]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert [a["status"] for a in record["attempts"]] == ["incomplete", record["status"]]
    assert record["calls"]["calls"] + record["calls"]["timeouts"] <= len(server.seen)


def _waiting_without_answer(run_dir: Path) -> bool:
    log = run_dir / "events.jsonl"
    if not log.is_file():
        return False
    lines = log.read_text(encoding="utf-8").splitlines()
    return any('"kind": "waiting"' in line and "no answer for" in line for line in lines)
