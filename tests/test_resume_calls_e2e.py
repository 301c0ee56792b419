"""A run a model call failed, resumed against the same (now healthy) endpoint: run.json's `calls` block covers both
attempts, through the real LiteLLM path and `agentic-ds resume`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.testing.fault_server import FaultServer, Rule, Status
from tests.fault_runs import assert_consistent, run_cli

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


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
