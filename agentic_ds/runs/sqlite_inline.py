"""An aiosqlite-shaped connection that runs sqlite3 calls inline, on the event loop's thread.

aiosqlite runs every call on a worker thread; ADK's SQLite session service makes four or five calls per stored
event, and the thread hand-offs cost more than the statements (a statement on a WAL database with
`synchronous=NORMAL` takes tens of microseconds). Blocking the loop for that long is fine for one CLI run.
Only the part of aiosqlite's API that `SqliteSessionService` uses is provided.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterable
from typing import Any


class InlineCursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._rows()

    async def _rows(self) -> AsyncIterator[Any]:
        for row in self._cursor:
            yield row


class _Statement:
    """What `execute()` returns: awaitable (a cursor) and an async context manager (a cursor, closed on exit)."""

    def __init__(self, connection: sqlite3.Connection, sql: str, params: Iterable[Any]) -> None:
        self._cursor = InlineCursor(connection.execute(sql, tuple(params)))

    def __await__(self):
        return self._ready().__await__()

    async def _ready(self) -> InlineCursor:
        return self._cursor

    async def __aenter__(self) -> InlineCursor:
        return self._cursor

    async def __aexit__(self, *_exc: Any) -> None:
        await self._cursor.close()


class InlineConnection:
    def __init__(self, path: str, *, uri: bool = False) -> None:
        self._connection = sqlite3.connect(path, uri=uri, check_same_thread=False, isolation_level="DEFERRED")
        self._connection.row_factory = sqlite3.Row

    @property
    def row_factory(self) -> Any:
        return self._connection.row_factory

    @row_factory.setter
    def row_factory(self, factory: Any) -> None:
        self._connection.row_factory = factory

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Statement:
        return _Statement(self._connection, sql, params)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return self._connection.execute(sql, tuple(params)).fetchall()

    async def executescript(self, script: str) -> None:
        self._connection.executescript(script)

    async def commit(self) -> None:
        self._connection.commit()

    async def rollback(self) -> None:
        self._connection.rollback()

    async def close(self) -> None:
        self._connection.close()
