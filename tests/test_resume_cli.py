"""`agentic-ds resume` refuses what it cannot continue with exit 2 and one clear error and hint, and leaves the
run directory as it was."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from agentic_ds.adk_private import RunSessionService
from agentic_ds.cli.main import main
from agentic_ds.workflow.runner import APP_NAME, USER_ID
from tests.report_fixtures import make_run
from tests.resume_support import HOLD, fingerprint


def with_session(run, **state):
    async def create():
        service = RunSessionService(str(run / "session.db"))
        await service.create_session(app_name=APP_NAME, user_id=USER_ID, state=state)
        await service.close()

    asyncio.run(create())
    return run


def stopped_run(root, status="failed", **overrides):
    run = make_run(root, status=status, reason="the provider failed", **overrides)
    return with_session(run, task="Which region sells most?", mode="orchestrated")


def resume(*args):
    return CliRunner().invoke(main, ["resume", *args])


def refused(result, message):
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {message}"), lines
    assert len(lines) == 2 and lines[1].startswith("hint: "), lines
    assert "Traceback" not in result.output


def test_a_completed_run_is_refused(tmp_path):
    run = stopped_run(tmp_path, status="completed")
    before = fingerprint(run)
    refused(resume(run.name, "--workdir", str(tmp_path)), f"run {run.name} completed: there is nothing to resume")
    after = fingerprint(run)
    assert after.pop(".lock") and after == before   # the lock it took to look is all it left


def test_a_run_still_running_is_refused(tmp_path):
    run = stopped_run(tmp_path, status="running")
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(run)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        refused(resume(str(run)), f"run {run.name} is still running (process {holder.pid})")
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_run_without_a_session_is_refused(tmp_path):
    run = make_run(tmp_path, status="failed")
    refused(resume(str(run)), f"run {run.name} has no session to resume from (session.db is missing or empty)")
    (run / "session.db").write_bytes(b"")
    refused(resume(str(run)), f"run {run.name} has no session to resume from")


def test_a_run_without_a_record_is_refused(tmp_path):
    run = stopped_run(tmp_path)
    (run / "run.json").unlink()
    refused(resume(str(run)), f"run {run.name} has no readable run.json")
    (run / "run.json").write_text("{not json")
    refused(resume(str(run)), f"run {run.name} has no readable run.json")


def test_an_unknown_run_is_refused(tmp_path):
    refused(resume("20991231", "--workdir", str(tmp_path)), "no run matches '20991231'")


def test_a_recorded_model_whose_key_is_missing_today_is_refused_with_its_hint(tmp_path):
    run = stopped_run(tmp_path)
    record = json.loads((run / "run.json").read_text())
    record["models"] = {role: "openai/gpt-4.1" for role in ("planner", "reviewer", "coder", "summarizer", "compactor")}
    (run / "run.json").write_text(json.dumps(record))
    result = resume(str(run))
    assert result.exit_code == 2 and "OPENAI_API_KEY" in result.stderr, result.output


@pytest.mark.parametrize("flag", ["--max-llm-calls", "--max-tokens", "--max-cost"])
def test_budget_flags_must_be_positive(tmp_path, flag):
    result = resume("x", flag, "0")
    assert result.exit_code == 2 and "invalid value for" in result.stderr.lower()
