"""run.json can never be left saying `running` once execute_run has returned, whatever broke on the way."""

from __future__ import annotations

import json

import agentic_ds.workflow.runner as runner_module
from agentic_ds.testing.harness import run_scripted
from tests.workflow_scripts import happy_scripts, write_sales


async def test_a_failure_while_finishing_the_run_still_records_it_failed(tmp_path, monkeypatch):
    def broken_reports(_workspace):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runner_module, "_write_reports", broken_reports)
    csv = write_sales(tmp_path / "data")
    outcome, _models = await run_scripted(tmp_path, "Which region has the highest mean price?", [csv], happy_scripts())
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert outcome.status == "failed" and record["status"] == "failed"
    assert "No space left on device" in record["reason"] and record["ended_at"]


async def test_a_model_that_raises_marks_the_run_failed_before_anything_else_happens(tmp_path, monkeypatch):
    seen: list[str] = []

    async def slow_state(_service):
        # By the time the workflow asks the session for its state, run.json already says failed.
        run_json = next((tmp_path / "run").glob("run.json"))
        seen.append(json.loads(run_json.read_text())["status"])
        return {}

    monkeypatch.setattr(runner_module, "_safe_state", slow_state)
    csv = write_sales(tmp_path / "data")
    scripts = {"plan_maker": [lambda _request: (_ for _ in ()).throw(RuntimeError("model exploded"))]}
    outcome, _models = await run_scripted(tmp_path, "Mean price?", [csv], scripts)
    assert seen == ["failed"]
    assert outcome.status == "failed" and "model exploded" in outcome.reason
