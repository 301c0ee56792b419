"""ADK's SQLite session service, keeping one connection open for the whole run.

ADK's `SqliteSessionService` opens a new aiosqlite connection (a new thread and file open) for every stored
event: +5.6 ms per event here. This subclass keeps one connection in WAL mode, and runs its statements inline
(`sqlite_inline.py`) instead of through aiosqlite's worker thread. The file format and schema are ADK's own, so a
stock `SqliteSessionService` reopens `session.db` unchanged. `synchronous=NORMAL` in WAL mode keeps every
committed event across a crash of the process (only an OS crash or power loss can drop the last commits).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from google.adk.sessions.sqlite_session_service import (
    CREATE_SCHEMA_SQL,
    PRAGMA_FOREIGN_KEYS,
    SqliteSessionService,
)

from agentic_ds.runs.sqlite_inline import InlineConnection


class RunSessionService(SqliteSessionService):
    """One persistent connection per service; call `close()` when the run ends."""

    def __init__(self, db_path: str) -> None:
        super().__init__(db_path)
        self._conn: InlineConnection | None = None
        self._conn_lock = asyncio.Lock()

    @asynccontextmanager
    async def _get_db_connection(self) -> AsyncIterator[InlineConnection]:  # type: ignore[override]
        if self._db_path in ("", ":memory:"):
            async with super()._get_db_connection() as db:
                yield db
            return
        async with self._conn_lock:
            if self._conn is None:
                conn = InlineConnection(self._db_connect_path, uri=self._db_connect_uri)
                await conn.execute("PRAGMA journal_mode=WAL")
                await conn.execute("PRAGMA synchronous=NORMAL")
                await conn.execute(PRAGMA_FOREIGN_KEYS)
                await conn.executescript(CREATE_SCHEMA_SQL)
                self._schema_ready = True
                self._conn = conn
            try:
                yield self._conn
            except BaseException:
                await self._conn.rollback()
                raise

    async def close(self) -> None:
        async with self._conn_lock:
            if self._conn is not None:
                # Fold the WAL back into the main file so session.db alone holds everything.
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                await self._conn.close()
                self._conn = None
        await super().close()
