"""`agentic-ds run --approve-plan` from the outside: with no terminal it stops in `awaiting_approval` (exit 4) and
says how to decide; `approve --stop` ends it incomplete; at a terminal (a pseudo-terminal here) it shows the plan
and asks, an edit goes back to the planner, and an approval runs the stages to the end."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time

import pytest

from tests import warm_cli
from tests.resume_support import command, environment, make_project

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

TASK = "Mean price by region"


def _run(project, *args, **env):
    return warm_cli.run(args, cwd=project, env={**environment(), **env}, timeout=600)


def _record(run_dir):
    return json.loads((run_dir / "run.json").read_text())


def test_without_a_terminal_the_plan_waits_and_approve_decides(tmp_path):
    project = make_project(tmp_path)

    waiting = _run(project, "run", "--mode", "orchestrated", TASK, "--files", "data", "--approve-plan", CI="true")

    assert waiting.returncode == 4, waiting.stderr
    [run_dir] = (project / "workdirs").iterdir()
    last = waiting.stdout.splitlines()[-1]
    assert last.startswith("status: awaiting_approval - the plan waits for approval: ")
    assert f"`agentic-ds approve {run_dir.name}` runs it" in last and "--edit" in last and "--stop" in last
    record = _record(run_dir)
    assert record["status"] == "awaiting_approval" and record["approval"]["state"] == "awaiting"
    assert not (run_dir / "stages").exists() and (run_dir / "plan.json").is_file()
    listed = _run(project, "list")
    assert "awaiting approval" in listed.stdout and "agentic-ds approve RUN" in listed.stdout
    refused = _run(project, "resume", run_dir.name)
    assert refused.returncode == 2 and f"hint: `agentic-ds approve {run_dir.name}` runs it" in refused.stderr

    stopped = _run(project, "approve", run_dir.name, "--stop")

    assert stopped.returncode == 3, stopped.stderr
    record = _record(run_dir)
    assert record["status"] == "incomplete" and record["reason"].startswith("stopped at plan approval")
    assert [d["decision"] for d in record["approval"]["decisions"]] == ["stop"]
    assert not (run_dir / "stages").exists() and (run_dir / "report.html").is_file()
    assert _run(project, "approve", run_dir.name, "--edit", "x", "--stop").returncode == 2


def test_simple_mode_has_no_plan_to_approve(tmp_path):
    project = make_project(tmp_path)
    refused = _run(project, "run", "--mode", "simple", TASK, "--files", "data", "--approve-plan")
    assert refused.returncode == 2 and "--approve-plan needs --mode orchestrated" in refused.stderr
    assert not (project / "workdirs").exists()


def test_at_a_terminal_the_plan_is_shown_edited_and_approved(tmp_path):
    project = make_project(tmp_path)
    env = {k: v for k, v in environment().items() if k != "CI"}
    main, child = pty.openpty()
    process = subprocess.Popen(command("run", "--mode", "orchestrated", TASK, "--files", "data", "--approve-plan"),
                               cwd=project, env={**env, "TERM": "dumb"}, stdin=child, stdout=child, stderr=child)
    os.close(child)
    seen = _Screen(main)
    try:
        seen.wait_for("Approve this plan?")
        assert "## Stages" in seen.text   # the plan is shown first
        os.write(main, b"e\n")
        seen.wait_for("Notes for the planner")
        os.write(main, b"Compare the medians too.\n")
        seen.wait_for("Approve this plan?", after=seen.text.index("Notes for the planner"))
        os.write(main, b"a\n")
        assert process.wait(timeout=600) == 0, seen.text
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    [run_dir] = (project / "workdirs").iterdir()
    record = _record(run_dir)
    assert record["status"] == "completed", record["reason"]
    assert [d["decision"] for d in record["approval"]["decisions"]] == ["edit", "approve"]
    assert record["approval"]["decisions"][0]["notes"] == "Compare the medians too."
    assert "Compare the medians too." in (run_dir / "plan.md").read_text()


class _Screen:
    """What a program wrote to its pseudo-terminal so far."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""

    def wait_for(self, words: str, *, after: int = 0, timeout: float = 600.0) -> None:
        deadline = time.monotonic() + timeout
        while words not in self.text[after:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {words!r}:\n{self.text[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], 1.0)
            if ready:
                try:
                    self.text += os.read(self.fd, 65536).decode("utf-8", errors="replace")
                except OSError:   # the program ended
                    raise AssertionError(f"ended before {words!r}:\n{self.text[-3000:]}") from None
