"""A server killed outright (SIGKILL) with one run going and one queued: the running run is stopped cleanly by
its own process (it gets SIGTERM when the server dies) and stays resumable, what `agentic-ds list` shows for both
is checked, and a new server on the same work directory takes up the queued run and runs it to its end."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from agentic_ds.runs import run_lock
from tests.server_support import CSV, environment, start_server

pytestmark = [pytest.mark.early, pytest.mark.slow, pytest.mark.sandbox]


def test_a_killed_server_leaves_its_run_resumable_and_the_next_one_runs_its_queue(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "sales.csv").write_text(CSV, encoding="utf-8")
    workdir = tmp_path / "workdirs"
    server = start_server(workdir, "--data-root", str(data), "--max-runs", "1")
    fields = [("task", "Mean price by region"), ("model", "offline"), ("path", "sales.csv")]
    first = server.create([*fields, ("mode", "orchestrated")]).json()["id"]
    second = server.create([*fields, ("mode", "simple")]).json()
    assert second["status"] == "queued" and second["queue"]["position"] == 1
    assert json.loads((workdir / second["id"] / "run.json").read_text())["status"] == "queued"
    assert len(list((workdir / ".serve" / "queue").glob("*.json"))) == 1   # the queue is on disk
    server.events(first, until=lambda e: e.get("kind") == "tool_call")    # the first run is well under way

    assert server.stop(signal.SIGKILL) == -signal.SIGKILL

    first_dir = workdir / first
    deadline = time.monotonic() + 120
    while run_lock.is_held(first_dir) and time.monotonic() < deadline:   # its process stops the run itself
        time.sleep(0.2)
    record = json.loads((first_dir / "run.json").read_text())
    assert record["status"] == "incomplete" and record["reason"].startswith("interrupted by SIGTERM"), record["reason"]
    assert (first_dir / "report.html").is_file()
    listed = subprocess.run([sys.executable, "-m", "agentic_ds", "list", "--workdir", str(workdir), "--json"],
                            capture_output=True, text=True, env=environment(), check=True)
    statuses = {run["id"]: run["status"] for run in json.loads(listed.stdout)}
    assert statuses == {first: "incomplete", second["id"]: "queued"}

    again = start_server(workdir, "--data-root", str(data), "--max-runs", "1")
    try:
        assert again.events(second["id"])[-1]["status"] == "completed"
        assert again.get(f"/runs/{first}").json()["status"] == "incomplete"   # not resumed by itself
        assert not list((workdir / ".serve" / "queue").glob("*.json"))
    finally:
        again.stop()
