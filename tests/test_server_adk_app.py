"""The server's footing on ADK's own FastAPI app (`agentic_ds/server/adk_app.py`): every route ADK registers is
either kept or removed knowingly (an ADK upgrade that adds one fails here, to be decided), and the runs' sessions
are read without a byte written to a run directory."""

from __future__ import annotations

import os
import shutil
from contextlib import asynccontextmanager

from agentic_ds.server import adk_app

# Every route ADK 2.13's API app registers (web=False), with what the server does with it.
ADK_ROUTES = {
    ("GET", "/health"): "kept", ("GET", "/version"): "kept", ("GET", "/list-apps"): "kept",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions"): "kept",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"): "kept",
    ("GET", "/apps/{app_name}/app-info"): "removed: our root is no LlmAgent, ADK answers 400",
    ("POST", "/agent-identity/finalize"): "removed: no credentials flow through the server",
    ("POST", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"): "removed: sessions are the runs' own",
    ("POST", "/apps/{app_name}/users/{user_id}/sessions"): "removed",
    ("DELETE", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"): "removed",
    ("PATCH", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"): "removed",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}/versions/"
            "{version_id}/metadata"): "removed: a run's files are under /runs/{id}/files",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}/versions/"
            "metadata"): "removed",
    ("POST", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts"): "removed",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}/versions/"
            "{version_id}"): "removed",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts"): "removed",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}/versions"):
        "removed",
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}"): "removed",
    ("DELETE", "/apps/{app_name}/users/{user_id}/sessions/{session_id}/artifacts/{artifact_name:path}"): "removed",
    ("PATCH", "/apps/{app_name}/users/{user_id}/memory"): "removed",
    ("POST", "/run"): "removed: a run is its own process (POST /runs)",
    ("POST", "/run_sse"): "removed: GET /runs/{id}/events streams a run",
    ("WEBSOCKET", "/run_live"): "removed",
}


def _routes(app):
    out = set()
    for route in app.router.routes:
        if route.path in adk_app.DOC_ROUTES:
            continue
        for method in getattr(route, "methods", None) or {"WEBSOCKET"}:
            out.add((method, route.path))
    return out


@asynccontextmanager
async def _nothing(_app):
    yield


def test_every_route_adk_registers_is_kept_or_removed_knowingly(tmp_path, monkeypatch):
    from google.adk.cli import fast_api

    seen = {}
    original = fast_api.get_fast_api_app

    def spy(**kwargs):
        app = original(**kwargs)
        seen["routes"] = _routes(app)
        return app

    monkeypatch.setattr(fast_api, "get_fast_api_app", spy)
    app = adk_app.build(tmp_path, host="127.0.0.1", port=8000, allow_origins=[], lifespan=_nothing)

    assert seen["routes"] == set(ADK_ROUTES), "ADK's routes changed: decide for each new one in server/adk_app.py"
    kept = {route for route, fate in ADK_ROUTES.items() if fate == "kept"}
    assert _routes(app) == kept


async def _session_run(workdir, name):
    """A run directory whose session.db holds a session with one event, closed as a finished run leaves it."""
    from google.adk.events import Event, EventActions

    from agentic_ds.adk_private import RunSessionService

    run_dir = workdir / name
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text('{"status": "completed"}')
    service = RunSessionService(str(run_dir / "session.db"))
    session = await service.create_session(app_name="agentic_ds", user_id="local", state={"task": "t"})
    await service.append_event(session, Event(author="file_analyzer", invocation_id="i",
                                              actions=EventActions(state_delta={"data_profile": "p"})))
    await service.close()
    return run_dir


async def test_runs_are_read_as_sessions_and_never_written(tmp_path):
    run_dir = await _session_run(tmp_path / "workdirs", "20260101-000000-a")
    before = sorted(os.listdir(run_dir))
    service = adk_app.RunsSessionService(tmp_path / "workdirs")

    session = await service.get_session(app_name="agentic_ds", user_id="local", session_id=run_dir.name)

    assert session is not None and session.id == run_dir.name and session.state["task"] == "t" and session.events
    assert sorted(os.listdir(run_dir)) == before   # no -wal, no -shm: opened immutable, nothing written
    listed = await service.list_sessions(app_name="agentic_ds", user_id="local")
    assert [s.id for s in listed.sessions] == [run_dir.name]
    shutil.copytree(run_dir, tmp_path / "elsewhere")
    os.symlink(tmp_path / "elsewhere", tmp_path / "workdirs" / "20260101-000000-link")
    for bad in ("..", "../workdirs", "20260101-000000-link", "nope", ".serve"):
        assert await service.get_session(app_name="agentic_ds", user_id="local", session_id=bad) is None, bad
    assert await service.get_session(app_name="other", user_id="local", session_id=run_dir.name) is None
