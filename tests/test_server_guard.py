"""`agentic-ds serve` refuses what it must, from the outside: the token on every route (header or query), upload
limits, paths outside the data roots and the run directories (`..`, absolute, symbolic links), unknown runs,
invalid runs (the CLI's own error and hint), and the command's own options; the OpenAPI document is served and
describes the API. No run is started here but one that is refused."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.server_support import CSV, TOKEN, environment, free_port, start_server

pytestmark = pytest.mark.slow

FIELDS = [("task", "Mean price by region"), ("mode", "simple"), ("model", "offline")]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    base = tmp_path_factory.mktemp("guard")
    data, outside = base / "data", base / "outside"
    data.mkdir()
    outside.mkdir()
    (data / "sales.csv").write_text(CSV, encoding="utf-8")
    (outside / "secret.csv").write_text("id,secret\n1,hunter2\n", encoding="utf-8")
    os.symlink(outside / "secret.csv", data / "link.csv")          # a link out of the data root
    (data / "mixed").mkdir()
    (data / "mixed" / "ok.csv").write_text(CSV, encoding="utf-8")
    os.symlink(outside / "secret.csv", data / "mixed" / "leak.csv")  # a folder holding one
    workdir = base / "workdirs"
    run = workdir / "20260101-000000-done"                           # a finished run, written by hand
    run.mkdir(parents=True)
    (run / "run.json").write_text('{"id": "20260101-000000-done", "status": "completed", "task": "t"}')
    (run / "report.md").write_text("# report\n")
    (run / "outputs").mkdir()
    (run / "outputs" / "page.html").write_text("<script>alert(1)</script>")
    os.symlink(outside / "secret.csv", run / "outputs" / "planted.csv")
    server = start_server(workdir, "--data-root", str(data), "--max-upload-mb", "1")
    yield server, data, outside, run
    server.stop()


def _error(response, status):
    assert response.status == status, (response.status, response.body)
    body = response.json()
    assert body["error"] and "hint" in body, body
    return body


def test_every_route_needs_the_token(setup):
    server, *_ = setup
    for path in ("/runs", "/server", "/health", "/openapi.json", "/apps/agentic_ds/users/local/sessions"):
        missing = _error(server.get(path, token=False), 401)
        assert missing["error"].startswith("no token was sent") and "Bearer" in missing["hint"]
        assert _error(server.get(path, token="wrong-token-0123456789"), 401)["error"].startswith("the token is wrong")
    assert server.get(f"/runs?token={TOKEN}", token=False).status == 200   # EventSource cannot set headers
    assert _error(server.create(FIELDS, [("a.csv", b"x,y\n1,2\n")], token=False), 401)


def test_unknown_runs_and_paths_outside_a_run_are_refused(setup):
    server, _data, _outside, run = setup
    assert "no run 'nope'" in _error(server.get("/runs/nope"), 404)["error"]
    for bad in ("/runs/..", "/runs/%2e%2e", "/runs/nope/events", "/runs/nope/files", "/runs/.serve/files"):
        assert server.get(bad).status == 404, bad
    done = f"/runs/{run.name}"
    assert server.get(f"{done}/files/report.md").body == b"# report\n"
    for path, status in ((f"{done}/files/../../outside/secret.csv", 400), (f"{done}/files/%2e%2e/run.json", 400),
                         (f"{done}/files//etc/passwd", 400), (f"{done}/files/.lock", 404),
                         (f"{done}/files/outputs/planted.csv", 400), (f"{done}/files/nothing.txt", 404)):
        _error(server.get(path), status)
    page = server.get(f"{done}/files/outputs/page.html")   # written by executed code: never served as a page
    assert page.headers["content-type"].startswith("text/plain") and page.headers["content-security-policy"] == \
        "sandbox" and page.headers["x-content-type-options"] == "nosniff"
    files = [f["path"] for f in server.get(f"{done}/files").json()["files"]]
    assert "outputs/planted.csv" not in files and "outputs/page.html" in files
    assert _error(server.post_json(f"{done}/cancel"), 409)["error"].startswith(f"run {run.name} is not running")
    assert _error(server.post_json(f"{done}/approval", {"decision": "approve"}), 409)
    assert _error(server.post_json(f"{done}/approval", {"decision": "maybe"}), 422)


def test_inputs_outside_the_data_roots_are_refused_before_anything_is_created(setup):
    server, data, outside, _run = setup
    before = sorted(p.name for p in server.workdir.iterdir())
    for path, words in (("../outside/secret.csv", "'..' is not allowed"),
                        (str(outside / "secret.csv"), "is outside the server's data roots"),
                        ("/etc/passwd", "is outside the server's data roots"),
                        ("link.csv", "leads outside the server's data roots"),
                        ("mixed", "leak.csv is a link that leads outside"),
                        ("nothing.csv", "input not found")):
        body = _error(server.create([*FIELDS, ("path", path)]), 400)
        assert words in body["error"], (path, body)
    assert sorted(p.name for p in server.workdir.iterdir()) == before   # nothing left behind
    assert "secret" not in " ".join(str(p) for p in server.workdir.rglob("*"))


def test_invalid_runs_get_the_clis_error_and_hint(setup):
    server, *_ = setup
    upload = [("sales.csv", CSV.encode())]
    assert "mode must be orchestrated or simple" in _error(server.create([("task", "t"), ("mode", "fast")], upload),
                                                           400)["error"]
    assert _error(server.create([("task", "  "), ("mode", "simple")], upload), 400)["error"] == "the task is empty"
    assert _error(server.create(FIELDS), 400)["error"] == "no input files given"
    unknown = _error(server.create([*FIELDS[:2], ("model", "nosuchprovider/model")], upload), 400)
    assert "nosuchprovider" in unknown["error"]
    keyless = _error(server.create([*FIELDS[:2], ("model", "openai/gpt-4.1")], upload), 400)
    assert "OPENAI_API_KEY" in keyless["error"] + keyless["hint"]
    simple_plan = _error(server.create([*FIELDS, ("approve_plan", "true")], upload), 400)
    assert simple_plan["error"].startswith("--approve-plan needs --mode orchestrated")
    assert _error(server.create(FIELDS, [("empty.csv", b"")]), 400)["error"].startswith("input")
    assert _error(server.create(FIELDS, [("a.csv", CSV.encode()), ("a.csv", CSV.encode())]), 400)
    assert server.get("/runs").json()["runs"][0]["id"] == "20260101-000000-done"   # none was created


def test_uploads_over_the_limit_are_refused_before_they_are_read(setup):
    server, *_ = setup
    big = b"a,b\n" + b"1,2\n" * (300 * 1024)   # 1.2 MB, over --max-upload-mb 1
    body = _error(server.create(FIELDS, [("big.csv", big)]), 413)
    assert "over the server's limit of 1 MB" in body["error"] and "--data-root" in body["hint"]
    assert not list((server.workdir / ".serve" / "uploads").glob("*/*/*"))   # nothing staged


def test_the_openapi_document_describes_the_run_routes_and_none_that_would_run_an_agent_inside(setup):
    server, *_ = setup
    schema = server.get("/openapi.json").json()
    routes = {(method.upper(), path) for path, item in schema["paths"].items() for method in item}
    assert {("GET", "/runs"), ("POST", "/runs"), ("GET", "/runs/{run_id}"), ("POST", "/runs/{run_id}/cancel"),
            ("POST", "/runs/{run_id}/resume"), ("POST", "/runs/{run_id}/approval"), ("GET", "/runs/{run_id}/events"),
            ("GET", "/runs/{run_id}/files"), ("GET", "/runs/{run_id}/files/{rel}"), ("GET", "/runs/{run_id}/report"),
            ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"), ("GET", "/health")} <= routes
    assert not {path for _, path in routes if path in ("/run", "/run_sse", "/run_live")}
    assert not [r for r in routes if r[0] in ("DELETE", "PATCH") or (r[0] == "POST" and r[1].startswith("/apps"))]
    models = schema["components"]["schemas"]
    summary = set(models["RunSummaryOut"]["properties"])
    assert {"id", "title", "status", "mode", "models", "started_at", "wall_s", "cost_usd", "queue",
            "approval"} <= summary
    live = set(models["LiveOut"]["properties"])
    assert {"agent", "stage", "last_tool_call", "last_tool_result", "events"} <= live
    assert {"plan", "stages", "criteria", "live", "record"} <= set(models["RunDetailOut"]["properties"])
    assert server.post_json("/run_sse", {}).status == 404


def test_serve_refuses_an_open_address_without_a_token_and_a_second_server_on_one_workdir(setup, tmp_path):
    server, *_ = setup

    def serve(*args):
        return subprocess.run([sys.executable, "-m", "agentic_ds", "serve", "--port", str(free_port()), *args],
                              capture_output=True, text=True, env=environment(), timeout=120, cwd=tmp_path)

    open_host = serve("--host", "0.0.0.0", "--workdir", str(tmp_path / "w"))
    assert open_host.returncode == 2 and "needs a token" in open_host.stderr and "AGENTIC_DS_TOKEN" in open_host.stderr
    assert serve("--token", "short", "--workdir", str(tmp_path / "w")).returncode == 2
    second = serve("--workdir", str(server.workdir))
    assert second.returncode == 2 and "already serves" in second.stderr
