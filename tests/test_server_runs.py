"""`agentic-ds serve` from the outside: a real server process on 127.0.0.1, real HTTP, the offline model.

A run is created with an upload and streamed to its end (event ids are events.jsonl's lines, a reconnect with
Last-Event-ID misses nothing), its report and files fetched; a plan is edited then approved over HTTP while the
run waits with no process; a running run is cancelled (a clean SIGTERM stop) and resumed to completion.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.server_support import CSV, log_lines, start_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

TASK = "Mean price by region"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("serve")
    data = base / "data"
    (data / "shop").mkdir(parents=True)
    (data / "shop" / "sales.csv").write_text(CSV, encoding="utf-8")
    started = start_server(base / "workdirs", "--data-root", str(data), "--max-runs", "2")
    yield started
    assert started.stop() in (0, -15, 143), started.log.read_text()


def _fields(mode: str, *extra: tuple[str, str]) -> list[tuple[str, str]]:
    return [("task", TASK), ("mode", mode), ("model", "offline"), *extra]


def test_a_run_created_with_an_upload_streams_to_its_end_and_serves_its_report(server):
    made = server.create(_fields("simple"), [("prices.csv", CSV.encode())])

    assert made.status == 201, made.body
    run = made.json()
    run_id = run["id"]
    assert made.headers["location"] == f"/runs/{run_id}" and run["links"]["events"] == f"/runs/{run_id}/events"
    assert run["status"] in ("queued", "running") and run["mode"] == "simple" and run["models"]["coder"] == "offline"
    run_dir = server.workdir / run_id
    assert (run_dir / "inputs" / "prices.csv").read_text() == CSV

    events = server.events(run_id)

    statuses = [e["status"] for e in events if e["kind"] == "run_status"]
    assert statuses[0] in ("queued", "running") and statuses[-1] == "completed", statuses
    assert events[-1] == {"kind": "stream_end", "status": "completed", "last_event_id": len(log_lines(run_dir))}
    lines = [e for e in events if "_id" in e]
    assert [e["_id"] for e in lines] == list(range(1, len(log_lines(run_dir)) + 1))   # every line, in order, once
    assert [{k: v for k, v in e.items() if k != "_id"} for e in lines] == log_lines(run_dir)   # as events.jsonl

    # A client that reconnects after event N gets the lines after N and the end, nothing twice.
    again = server.events(run_id, last_event_id=len(lines) - 3)
    assert [e["_id"] for e in again if "_id" in e] == [len(lines) - 2, len(lines) - 1, len(lines)]

    detail = server.get(f"/runs/{run_id}").json()
    assert detail["status"] == "completed" and detail["record"]["status"] == "completed"
    assert detail["title"] and detail["title"] == detail["record"]["title"]   # the run's own title, when it has one
    assert detail["final_answer"]["answer"] and detail["live"]["events"] == len(lines)
    assert detail["live"]["last_tool_call"]["tool"] in ("run_python", "read_file", "list_files", "sql_query")
    assert detail["live"]["agent"] == "summary_agent" and detail["cost_usd"] == 0
    report = server.get(f"/runs/{run_id}/report")
    assert report.status == 200 and report.headers["content-type"].startswith("text/html")
    assert report.headers["content-security-policy"] == "sandbox" and b"Mean price by region" in report.body
    listed = {f["path"]: f for f in server.get(f"/runs/{run_id}/files").json()["files"]}
    assert {"report.html", "report.md", "run.json", "analysis.ipynb", "inputs/prices.csv"} <= set(listed)
    assert listed["analysis.ipynb"]["kind"] == "notebook" and not any(p.startswith(".") for p in listed)
    figure = next(f for f in listed.values() if f["kind"] == "figure")
    png = server.get(figure["url"])
    assert png.status == 200 and png.headers["content-type"] == "image/png" and png.body.startswith(b"\x89PNG")
    session = server.get(f"/apps/agentic_ds/users/local/sessions/{run_id}").json()   # ADK's own session route
    assert session["id"] == run_id and session["state"]["run_status"] == "completed" and session["events"]
    assert sorted(p.name for p in run_dir.glob("session.db*")) == ["session.db"]     # read, never written
    assert run_id in [r["id"] for r in server.get("/runs").json()["runs"]]


def test_a_plan_is_edited_then_approved_over_http_while_the_run_waits_without_a_process(server):
    made = server.create(_fields("orchestrated", ("path", "shop/sales.csv"), ("approve_plan", "true")))
    assert made.status == 201, made.body
    run_id = made.json()["id"]
    run_dir = server.workdir / run_id

    waiting = server.events(run_id, until=lambda e: e.get("status") == "awaiting_approval")
    assert waiting[-1]["kind"] == "run_status" and "agentic-ds approve" in waiting[-1]["reason"]
    run = server.wait_status(run_id, "awaiting_approval")
    assert run["managed"] is False and run["approval"] == {"required": True, "state": "awaiting", "decisions": []}
    assert not (run_dir / "stages").exists() and (run_dir / "plan.md").is_file()   # no stage ran, nothing spent
    assert json.loads((run_dir / "run.json").read_text())["status"] == "awaiting_approval"
    assert server.post_json(f"/runs/{run_id}/resume").status == 409   # it waits for a decision, not a resume

    edit = server.post_json(f"/runs/{run_id}/approval", {"decision": "edit", "notes": "Compare medians too."})
    assert edit.status == 202 and edit.json()["status"] in ("queued", "running")
    run = _settled(server, run_id, after=run)
    assert run["status"] == "awaiting_approval" and [d["decision"] for d in run["approval"]["decisions"]] == ["edit"]
    assert "Compare medians too." in run["plan_markdown"]   # the planner got the notes and answered them

    assert server.post_json(f"/runs/{run_id}/approval", {"decision": "approve"}).status == 202
    events = server.events(run_id)
    assert events[-1]["status"] == "completed", events[-1]
    run = server.get(f"/runs/{run_id}").json()
    assert run["approval"]["state"] == "approved" and len(run["record"]["attempts"]) == 3
    assert [s["status"] for s in run["stages"]] == ["approved"] * len(run["stages"])
    assert server.post_json(f"/runs/{run_id}/approval", {"decision": "approve"}).status == 409


def test_a_running_run_is_cancelled_cleanly_and_resumed_to_completion(server):
    run_id = server.create(_fields("orchestrated", ("path", "shop"))).json()["id"]
    run_dir = server.workdir / run_id
    server.events(run_id, until=lambda e: e.get("kind") == "tool_call")   # it works: stop it mid-run

    cancelled = server.post_json(f"/runs/{run_id}/cancel")

    assert cancelled.status == 202
    events = server.events(run_id)
    assert events[-1]["status"] == "incomplete"
    record = json.loads((run_dir / "run.json").read_text())
    assert record["reason"].startswith("interrupted by SIGTERM") and f"agentic-ds resume {run_id}" in record["reason"]
    assert (run_dir / "report.html").is_file() and server.get(f"/runs/{run_id}").json()["last_job"]["cancelled"]
    assert server.post_json(f"/runs/{run_id}/cancel").status == 409   # nothing left to stop

    resumed = server.post_json(f"/runs/{run_id}/resume", {"max_cost": 1.0})
    assert resumed.status == 202
    assert server.events(run_id)[-1]["status"] == "completed"
    record = json.loads((run_dir / "run.json").read_text())
    assert [a["status"] for a in record["attempts"]] == ["incomplete", "completed"]


def _settled(server, run_id, *, after, timeout=300.0):
    """The run once the job started after `after` (a detail read before it) has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = server.get(f"/runs/{run_id}").json()
        if not run["managed"] and run["status"] not in ("queued", "running") and run["record"] != after["record"]:
            return run
        time.sleep(0.5)
    raise AssertionError(f"run {run_id} did not settle")
