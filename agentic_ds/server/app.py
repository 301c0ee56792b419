"""The server's app: ADK's FastAPI app (`adk_app.py`), the run routes, the API's error shape, and the gates every
request passes (token, then body size; `guard.py`), with the supervisor started and stopped with the app.

On start the supervisor takes up the queue a previous server left, and queues every run whose run.json says
`queued` without a job (prepared, but the server stopped before its job was written). On stop every child gets
SIGTERM and its run ends resumable.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from agentic_ds.server import adk_app, choices, errors, followups, page, views
from agentic_ds.server.guard import BodyLimit, TokenGuard
from agentic_ds.server.options import ServeOptions
from agentic_ds.server.routes import Context, router
from agentic_ds.server.supervisor import Supervisor

logger = logging.getLogger("agentic_ds.server")


def build_app(options: ServeOptions) -> FastAPI:
    supervisor = Supervisor(options.workdir, options.max_runs, config=options.config, grace_s=options.grace_s)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        queued = [run_id for run_id in views.run_ids(options.workdir)
                  if views.record_of(options.workdir / run_id)[0].status.value == "queued"]
        for name in supervisor.start(queued):
            logger.warning("queue file %s could not be read: left as it is", name)
        try:
            yield
        finally:
            await supervisor.shutdown()

    app = adk_app.build(options.workdir, host=options.host, port=options.port,
                        allow_origins=list(options.cors_origins), lifespan=lifespan)
    app.state.agentic_ds = Context(options=options, supervisor=supervisor)
    errors.install(app)
    app.include_router(router)
    app.include_router(followups.router)
    app.include_router(choices.router)
    app.include_router(page.router)
    app.add_middleware(BodyLimit, max_upload_bytes=options.max_upload_bytes)
    app.add_middleware(TokenGuard, token=options.token)   # added last: the outermost, so the first to answer
    return app
