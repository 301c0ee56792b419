"""The server's app is ADK's own FastAPI app (`google.adk.cli.fast_api.get_fast_api_app`), with the run routes
added on top. What ADK brings: its app and OpenAPI document, its guard against cross-origin requests and DNS
rebinding (on a loopback bind, requests addressed to another host are refused), CORS only for the origins given,
`/health`, `/version`, `/list-apps`, and its session routes, which here read the runs' own sessions:

    GET /apps/agentic_ds/users/local/sessions               every run with a session (the session id is the run id)
    GET /apps/agentic_ds/users/local/sessions/{run_id}      the run's ADK session: every event and the whole state

Sessions come from a read-only session service over the work directory (`RunsSessionService`, registered with
ADK's service registry under `agentic-ds-runs://`): each run's `session.db` opened read-only (`immutable` once no
process writes it), never written.

What ADK's app does not serve here, and why: its routes that run an agent (`/run`, `/run_sse`, `/run_live`) would
run it inside the server's process with one session service for all, whereas a run here is its own `agentic-ds`
process with its own session.db in its run directory, which only that process writes (`POST /runs`,
`GET /runs/{id}/events` are their counterparts); and its routes that create, change or delete sessions, artifacts
or memory, or finish agent-identity handshakes, would let a client rewrite a run's record. They are removed from
the app (404, absent from the OpenAPI document).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from google.adk.cli.utils.base_agent_loader import BaseAgentLoader
from google.adk.events import Event
from google.adk.sessions import BaseSessionService, Session
from google.adk.sessions.base_session_service import GetSessionConfig, ListSessionsResponse

from agentic_ds.runs import run_lock
from agentic_ds.server.views import RUN_ID

APP_NAME = "agentic_ds"
USER_ID = "local"
SCHEME = "agentic-ds-runs"
KEPT_ROUTES = frozenset({
    ("GET", "/health"), ("GET", "/version"), ("GET", "/list-apps"),
    ("GET", "/apps/{app_name}/users/{user_id}/sessions"),
    ("GET", "/apps/{app_name}/users/{user_id}/sessions/{session_id}"),
})
DOC_ROUTES = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})
READ_ONLY = "runs are read here, not written: create and continue runs with POST /runs and its routes"


class RunsSessionService(BaseSessionService):
    """Each run of the work directory as an ADK session (id: the run id), read from its session.db, read-only."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir

    async def get_session(self, *, app_name: str, user_id: str, session_id: str,
                          config: GetSessionConfig | None = None) -> Session | None:
        path = self._db(app_name, user_id, session_id)
        if path is None:
            return None
        from google.adk.sessions.sqlite_session_service import SqliteSessionService

        # While a process writes the run, its WAL files exist and are read; once none does, `immutable` opens the
        # file without creating any.
        mode = "ro" if run_lock.is_held(path.parent) else "ro&immutable=1"
        service = SqliteSessionService(f"sqlite:///{urllib.parse.quote(str(path))}?mode={mode}")
        try:
            listed = await service.list_sessions(app_name=APP_NAME, user_id=USER_ID)
            if not listed.sessions:
                return None
            session = await service.get_session(app_name=APP_NAME, user_id=USER_ID,
                                                session_id=listed.sessions[0].id, config=config)
        finally:
            await service.close()
        return session.model_copy(update={"id": session_id}) if session is not None else None

    async def list_sessions(self, *, app_name: str, user_id: str | None = None) -> ListSessionsResponse:
        if app_name != APP_NAME or user_id not in (None, USER_ID) or not self.workdir.is_dir():
            return ListSessionsResponse()
        sessions = []
        for entry in sorted(self.workdir.iterdir()):
            db = self._db(APP_NAME, USER_ID, entry.name)
            if db is not None:
                sessions.append(Session(id=entry.name, app_name=APP_NAME, user_id=USER_ID,
                                        last_update_time=db.stat().st_mtime))
        sessions.sort(key=lambda session: session.last_update_time)
        return ListSessionsResponse(sessions=sessions)

    def _db(self, app_name: str, user_id: str, run_id: str) -> Path | None:
        if app_name != APP_NAME or user_id != USER_ID or not RUN_ID.fullmatch(run_id) or ".." in run_id:
            return None
        folder = self.workdir / run_id
        db = folder / "session.db"
        if folder.is_symlink() or not folder.is_dir() or db.is_symlink() or not db.is_file():
            return None
        return db

    async def create_session(self, *, app_name: str, user_id: str, state: dict[str, Any] | None = None,
                             session_id: str | None = None) -> Session:
        raise PermissionError(READ_ONLY)

    async def delete_session(self, *, app_name: str, user_id: str, session_id: str) -> None:
        raise PermissionError(READ_ONLY)

    async def append_event(self, session: Session, event: Event) -> Event:
        raise PermissionError(READ_ONLY)


class RunsAgentLoader(BaseAgentLoader):
    """Names the one app (`agentic_ds`) whose sessions are served; no agent is loaded into the server."""

    def load_agent(self, agent_name: str) -> Any:
        raise ValueError(f"no agent runs inside this server ({READ_ONLY})")

    def list_agents(self) -> list[str]:
        return [APP_NAME]


def build(workdir: Path, *, host: str, port: int, allow_origins: list[str], lifespan: Callable[..., Any]) -> FastAPI:
    """ADK's app over the runs of `workdir`, without the routes that would run or change anything."""
    from google.adk.cli.fast_api import get_fast_api_app
    from google.adk.cli.service_registry import get_service_registry

    get_service_registry().register_session_service(SCHEME, lambda uri, **kwargs: RunsSessionService(workdir))
    empty = workdir / ".serve" / "adk"   # ADK reads services.py from its agents folder: one that holds nothing
    empty.mkdir(parents=True, exist_ok=True)
    app = get_fast_api_app(
        agents_dir=str(empty), agent_loader=RunsAgentLoader(), session_service_uri=f"{SCHEME}://runs",
        artifact_service_uri="memory://", memory_service_uri="memory://", use_local_storage=False, web=False,
        a2a=False, host=host, bind_host=host, port=port, allow_origins=allow_origins or None, lifespan=lifespan,
    )
    app.router.routes = [route for route in app.router.routes if _kept(route)]
    app.title, app.version = "agentic-ds", _version()
    app.description = "Runs of agentic-ds over HTTP (docs/api.md), on ADK's own app (its session routes read runs)."
    return app


def _kept(route: Any) -> bool:
    path = getattr(route, "path", "")
    if path in DOC_ROUTES:
        return True
    methods = getattr(route, "methods", None) or set()
    return any((method, path) in KEPT_ROUTES for method in methods)


def _version() -> str:
    from agentic_ds import __version__

    return __version__
