"""Follow-up questions on a finished run, from the outside: `agentic-ds ask` and `POST /runs/{id}/followups`, with
the offline model.

A simple offline run on examples/eval/data/employees.csv is asked a new question: the follow-up's answer holds the
right figure (computed here with pandas), it is kept in `RUN/followups/01-.../` with its record, code and outputs,
every file the run wrote is byte-for-byte unchanged but its reports, which show the follow-up under the answer.
Bad inputs exit 2 with a hint; over HTTP the same follow-up is queued, answered by its own child process, listed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests import warm_cli
from tests.server_support import environment, start_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

DATA = Path(__file__).resolve().parents[1] / "examples" / "eval" / "data" / "employees.csv"
QUESTION = "What is the median salary of employees in the Sales department?"
REPORTS = {"report.md", "report.html"}


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return warm_cli.run(args, input=stdin, env=environment(), timeout=600)


def digests(run_dir: Path) -> dict[str, str]:
    return {p.relative_to(run_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run_dir.rglob("*")) if p.is_file() and not p.is_symlink()
            and p.relative_to(run_dir).parts[0] not in ("followups", ".sandbox")}


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    workdir = tmp_path_factory.mktemp("ask") / "workdirs"
    done = cli("run", "--mode", "simple", "What is the mean salary?", "--files", str(DATA), "--model", "offline",
               "--workdir", str(workdir), "--quiet")
    assert done.returncode == 0, done.stderr
    (run_dir,) = [p for p in workdir.iterdir() if p.is_dir()]
    return run_dir


def sales_median() -> str:
    data = pd.read_csv(DATA)
    return f"{data[data.department == 'Sales'].salary.median():.0f}"


def test_ask_answers_a_follow_up_in_its_own_folder_and_leaves_the_run_untouched(finished):
    before = digests(finished)

    asked = cli("ask", finished.name, QUESTION, "--workdir", str(finished.parent), "--json")

    assert asked.returncode == 0, asked.stderr
    last = json.loads(asked.stdout.strip().splitlines()[-1])
    assert last["status"] == "completed", last
    (folder,) = (finished / "followups").iterdir()
    assert folder.name.startswith("01-what-is-the-median-salary")
    record = json.loads((folder / "followup.json").read_text())
    assert record["question"] == QUESTION and record["status"] == "completed" and record["run_id"] == finished.name
    assert sales_median() in record["answer"]
    assert record["code"] and all((finished / path).is_file() for path in record["code"])
    assert any(path.endswith(".json") for path in record["outputs"])
    assert (folder / "earlier" / "analysis.ipynb").is_file() and (folder / "inputs" / "employees.csv").is_file()
    ran = json.loads((folder / "run.json").read_text())
    assert ran["mode"] == "simple" and ran["task"] == QUESTION and ran["models"]["coder"] == "offline"
    # The agents had the run as their memory: its question, answer, files and code, in the session's state.
    with sqlite3.connect(folder / "session.db") as db:
        (state,) = db.execute("SELECT state FROM sessions").fetchone()
    memory = json.loads(state)["earlier_run"]
    parent = json.loads((finished / "run.json").read_text())
    assert "What is the mean salary?" in memory and parent["final_answer"]["answer"] in memory
    assert "earlier/outputs/" in memory and "### Its code" in memory

    after = digests(finished)
    assert {k: v for k, v in after.items() if k not in REPORTS} == {k: v for k, v in before.items()
                                                                     if k not in REPORTS}
    report = (finished / "report.md").read_text()
    answer_at = report.index("The mean of salary")
    assert report.index("Follow-up questions") > answer_at and QUESTION in report and sales_median() in report
    assert QUESTION in (finished / "report.html").read_text()
    shown = cli("show", finished.name, "--workdir", str(finished.parent))
    assert folder.name in shown.stdout and sales_median() in shown.stdout

    # A second follow-up gets the next number; the first is kept as it was.
    first = (folder / "followup.json").read_bytes()
    again = cli("ask", str(finished), "What is the mean bonus?", "--quiet")
    assert again.returncode == 0, again.stderr
    assert sorted(p.name[:3] for p in (finished / "followups").iterdir()) == ["01-", "02-"]
    assert (folder / "followup.json").read_bytes() == first


@pytest.mark.parametrize(("args", "error", "hint"), [
    (["no-such-run", QUESTION], "no run matches 'no-such-run'", "agentic-ds list"),
    (["{run}", "   "], "the question is empty", "agentic-ds ask RUN"),
    (["{run}", "-"], "the question is empty", "agentic-ds ask RUN"),
])
def test_bad_asks_exit_2_with_a_hint_and_create_nothing(finished, args, error, hint):
    existing = sorted(p.name for p in (finished / "followups").glob("*")) if (finished / "followups").exists() else []
    done = cli("ask", *[a.format(run=finished.name) for a in args], "--workdir", str(finished.parent))
    assert done.returncode == 2, done.stderr
    assert f"error: {error}" in done.stderr and "hint:" in done.stderr and hint in done.stderr
    now = sorted(p.name for p in (finished / "followups").glob("*")) if (finished / "followups").exists() else []
    assert now == existing


def test_a_run_still_running_or_awaiting_approval_is_refused(finished, tmp_path):
    for status, words in (("running", "is still running"), ("awaiting_approval", "waiting for a decision")):
        copy = tmp_path / status / finished.name
        copy.mkdir(parents=True)
        record = json.loads((finished / "run.json").read_text())
        record["status"] = status
        (copy / "run.json").write_text(json.dumps(record))
        (copy / ".lock").write_text("")
        holder = None
        if status == "running":   # a live process holds the run's lock
            holder = subprocess.Popen([sys.executable, "-c", (
                "import fcntl,sys,time;f=open(sys.argv[1],'a');fcntl.flock(f,fcntl.LOCK_EX);print(1,flush=True);"
                "time.sleep(60)"), str(copy / ".lock")], stdout=subprocess.PIPE, text=True)
            assert holder.stdout is not None and holder.stdout.readline().strip() == "1"
        try:
            done = cli("ask", str(copy), QUESTION)
        finally:
            if holder is not None:
                holder.kill()
                holder.communicate()
        assert done.returncode == 2 and words in done.stderr and "hint:" in done.stderr, done.stderr
        assert not (copy / "followups").exists()


def test_a_follow_up_over_http_is_queued_answered_by_its_own_process_and_listed(finished, tmp_path):
    server = start_server(finished.parent, "--max-runs", "1")
    try:
        empty = server.post_json(f"/runs/{finished.name}/followups", {"question": " "})
        assert empty.status == 400 and empty.json()["error"] == "the question is empty" and empty.json()["hint"]
        unknown = server.post_json("/runs/nope/followups", {"question": QUESTION})
        assert unknown.status == 404 and unknown.json()["hint"]
        waiting = finished.parent / "20990101-000000-waiting"
        waiting.mkdir()
        record = json.loads((finished / "run.json").read_text())
        (waiting / "run.json").write_text(json.dumps({**record, "id": waiting.name, "status": "awaiting_approval"}))
        refused = server.post_json(f"/runs/{waiting.name}/followups", {"question": QUESTION})
        assert refused.status == 409 and "waiting for a decision on its plan" in refused.json()["error"], refused.body
        assert "agentic-ds approve" in refused.json()["hint"] and not (waiting / "followups").exists()

        made = server.post_json(f"/runs/{finished.name}/followups", {"question": "What is the maximum age?"})
        assert made.status == 202, made.body
        item = made.json()
        assert item["status"] in ("queued", "running") and item["question"] == "What is the maximum age?"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            item = server.get(item["url"]).json()
            if item["status"] not in ("queued", "running"):
                break
            time.sleep(0.5)
        assert item["status"] == "completed", item
        assert str(int(pd.read_csv(DATA).age.max())) in item["answer"]
        listed = server.get(f"/runs/{finished.name}/followups").json()["followups"]
        assert item["id"] in [f["id"] for f in listed]
        report = server.get(f"/runs/{finished.name}/report", headers={}).body.decode()
        assert "What is the maximum age?" in report
    finally:
        assert server.stop() in (0, -15, 143), server.log.read_text()
