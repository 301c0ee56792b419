"""`sql_query`: read-only DuckDB over the run's input files.

The connection is in memory, sees each input file as a view, and is locked down before the first
query: external access off except for the exact input files (`allowed_paths`; a symlink in inputs/
is never among them), no extension installing or loading, no Python replacement scans, and
`lock_configuration`, so no query can turn any of it back on. On top of that only a single
SELECT (WITH, FROM, DESCRIBE, SUMMARIZE, VALUES...) statement is accepted, as DuckDB's own parser
classifies it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from agentic_ds.workspace import Workspace

MAX_ROWS = 200
MAX_CELL_CHARS = 60
READERS = {
    ".csv": "read_csv_auto", ".tsv": "read_csv_auto", ".txt": "read_csv_auto",
    ".parquet": "read_parquet", ".pq": "read_parquet",
    ".json": "read_json_auto", ".jsonl": "read_json_auto", ".ndjson": "read_json_auto",
}
EXCEL = {".xlsx", ".xlsm", ".xls"}
_NON_IDENT = re.compile(r"[^a-z0-9]+")
_INPUTS_LITERAL = re.compile(r"'(?:\./)?inputs/")


class SqlRefused(Exception):
    """The query is not a single read-only statement."""


def view_name(relative: str, taken: set[str]) -> str:
    """`sales.csv` -> `sales`; `2024/Q1 sales.csv` -> `t2024_q1_sales`; duplicates get `_2`, `_3`..."""
    stem = relative.rsplit(".", 1)[0] if "." in relative.rsplit("/", 1)[-1] else relative
    name = _NON_IDENT.sub("_", stem.lower()).strip("_") or "input"
    if name[0].isdigit():
        name = "t" + name
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate


class InputDatabase:
    """A locked-down DuckDB connection with one view per input file (built on first use)."""

    def __init__(self, workspace: Workspace, *, memory_mb: int = 1024) -> None:
        self.workspace = workspace
        self.memory_mb = memory_mb
        self.views: dict[str, str] = {}        # view name -> inputs/relative path
        self.skipped: dict[str, str] = {}      # inputs/relative path -> why it has no view
        self._con: duckdb.DuckDBPyConnection | None = None
        self._running: duckdb.DuckDBPyConnection | None = None   # the cursor of the query in progress
        self._lock = threading.Lock()

    def connection(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            self._con = self._build()
        return self._con

    def _build(self) -> duckdb.DuckDBPyConnection:
        con = duckdb.connect(":memory:")
        inputs = self.workspace.inputs.resolve()
        allowed: list[str] = []
        taken: set[str] = set()
        profiled = profiled_inputs(self.workspace)
        for path in self.workspace.input_files():
            rel = path.relative_to(self.workspace.inputs).as_posix()
            if path.is_symlink() or inputs not in path.resolve().parents:
                self.skipped[f"inputs/{rel}"] = "a symlink: not readable by sql_query"
                continue
            suffix = path.suffix.lower()
            if suffix not in READERS and suffix not in EXCEL:
                self.skipped[f"inputs/{rel}"] = f"no SQL reader for {suffix or 'files without extension'}"
                continue
            try:
                if suffix in EXCEL:
                    self._register_excel(con, path, rel, taken)
                    continue
                profile = profiled.get(f"inputs/{rel}")
                encoding = _duckdb_encoding(profile.encoding if profile else None)
                if encoding is None:
                    self.skipped[f"inputs/{rel}"] = _unreadable_encoding(profile)
                    continue
                name, reader = view_name(rel, taken), f"{READERS[suffix]}({_quote(str(path))}{encoding})"
                con.execute(f'CREATE VIEW "{name}" AS SELECT * FROM {reader}')
                _use_profiled_names(con, name, reader, profile)
                self.views[name] = f"inputs/{rel}"
                allowed.append(str(path))
            except Exception as exc:  # noqa: BLE001 - a file DuckDB cannot read gets no view, with the reason
                self.skipped[f"inputs/{rel}"] = str(exc).splitlines()[0][:200]
        allowed_list = ", ".join(_quote(p) for p in allowed)
        for statement in (
            f"SET allowed_paths = [{allowed_list}]",
            "SET enable_external_access = false",
            "SET autoinstall_known_extensions = false",
            "SET autoload_known_extensions = false",
            "SET python_enable_replacements = false",
            f"SET memory_limit = '{self.memory_mb}MB'",
            "SET lock_configuration = true",
        ):
            con.execute(statement)
        return con

    def _register_excel(self, con: duckdb.DuckDBPyConnection, path: Path, rel: str, taken: set[str]) -> None:
        import pandas as pd

        sheets = pd.read_excel(path, sheet_name=None)
        for sheet, frame in sheets.items():
            label = rel if len(sheets) == 1 else f"{rel.rsplit('.', 1)[0]}_{sheet}.x"
            name = view_name(label, taken)
            con.register(name, frame)
            self.views[name] = f"inputs/{rel}" + ("" if len(sheets) == 1 else f" (sheet {sheet})")

    def query(self, sql: str, *, max_rows: int = MAX_ROWS) -> tuple[list[str], list[tuple[Any, ...]], bool]:
        """Run one checked statement; returns (columns, rows, more_rows_exist)."""
        statements = duckdb.extract_statements(sql)
        if len(statements) != 1:
            raise SqlRefused(f"expected exactly one statement, got {len(statements)}")
        kind = statements[0].type
        if kind != duckdb.StatementType.SELECT:
            raise SqlRefused(f"only SELECT queries are allowed, not {kind.name}")
        # 'inputs/x.csv' means the run's inputs, whatever this process's working directory is.
        prefix = "'" + str(self.workspace.inputs).replace("'", "''") + "/"
        rewritten = _INPUTS_LITERAL.sub(lambda _m: prefix, sql)
        with self._lock:
            cursor = self.connection().cursor()
            self._running = cursor
            try:
                cursor.execute(rewritten)
                columns = [d[0] for d in cursor.description or []]
                rows = cursor.fetchmany(max_rows + 1)
            finally:
                self._running = None
                cursor.close()
        return columns, rows[:max_rows], len(rows) > max_rows

    def interrupt(self) -> None:
        """Stop the query in progress. A cursor has its own client context, so interrupting the
        parent connection would leave the query running (and holding the lock)."""
        running = self._running
        if running is not None:
            with contextlib.suppress(duckdb.ConnectionException):   # it finished and closed meanwhile
                running.interrupt()

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


def profiled_inputs(workspace: Workspace) -> dict[str, Any]:
    """The run's `FileProfile` per `inputs/...` path, from data_profile.json ({} before it exists)."""
    from agentic_ds.profiling.model import DataProfile

    try:
        data = json.loads(workspace.file("data_profile.json").read_text(encoding="utf-8"))
        return {profile.path: profile for profile in DataProfile.from_json(data).files}
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return {}


def _duckdb_encoding(codec: str | None) -> str | None:
    """The `read_csv` option for a profiled encoding; None when DuckDB cannot read it (no extension downloads)."""
    if codec in (None, "utf-8", "utf-8-sig", "ascii"):
        return ""
    return {"latin-1": ", encoding='latin-1'", "utf-16": ", encoding='utf-16'", "utf-16-le": ", encoding='utf-16'"}.get(
        codec
    )


def _unreadable_encoding(profile: Any) -> str:
    return (f"encoded in {profile.encoding}, which DuckDB cannot read: use run_python with "
            f"pandas.read_csv(path, encoding={profile.encoding!r})")


def _use_profiled_names(con: duckdb.DuckDBPyConnection, view: str, reader: str, profile: Any) -> None:
    """Name the view's columns as the profile (and pandas) do: `Unnamed: 1`, not DuckDB's `column1`."""
    names = [column.name for column in profile.columns] + profile.columns_not_profiled if profile else []
    ours = [row[0] for row in con.execute(f'DESCRIBE "{view}"').fetchall()]
    if len(names) != len(ours) or names == ours:
        return
    aliased = ", ".join(f"{_identifier(old)} AS {_identifier(new)}" for old, new in zip(ours, names, strict=True))
    con.execute(f'CREATE OR REPLACE VIEW "{view}" AS SELECT {aliased} FROM {reader}')


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def render_table(columns: list[str], rows: list[tuple[Any, ...]]) -> str:
    """A small pipe table; long cell values are shortened."""

    def cell(value: Any) -> str:
        text = "NULL" if value is None else str(value).replace("\n", " ").replace("|", "\\|")
        return text if len(text) <= MAX_CELL_CHARS else text[: MAX_CELL_CHARS - 1] + "…"

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def make_sql_tool(database: InputDatabase, *, output_cap: int, timeout_s: float) -> Callable[..., Any]:
    async def sql_query(query: str) -> dict[str, Any]:
        """Run one read-only SQL query (DuckDB dialect) over the input files; at most 200 rows come back.

        Each file under inputs/ is a view named after its path without the extension, lowercased,
        with other characters turned into '_' (inputs/sales.csv -> sales, inputs/2024/Q1.csv ->
        t2024_q1; an Excel workbook with several sheets gives one view per sheet: book_sheet1).
        Files can also be read directly: SELECT * FROM read_csv_auto('inputs/sales.csv').
        Only one SELECT/WITH statement is accepted (DESCRIBE and SUMMARIZE work too); nothing can be
        written, attached, installed or loaded, and no other file can be read.

        Args:
            query: e.g. "SELECT region, avg(price) FROM sales GROUP BY region ORDER BY 2 DESC".

        Returns:
            {"columns", "rows_shown", "more_rows", "table"} or {"error", "hint"}.
        """
        try:
            task = asyncio.to_thread(database.query, query)
            columns, rows, more = await asyncio.wait_for(task, timeout=timeout_s)
        except TimeoutError:
            database.interrupt()
            return {"error": f"query ran longer than {timeout_s:g} s and was stopped", "hint": "aggregate or add LIMIT"}
        except SqlRefused as exc:
            return {
                "error": str(exc),
                "hint": "send a single SELECT (or WITH ... SELECT) query; use run_python to write files",
            }
        except duckdb.Error as exc:
            views = ", ".join(f"{k} ({v})" for k, v in database.views.items()) or "none"
            return {"error": str(exc).strip()[:1500], "hint": f"available views: {views}"}
        table = render_table(columns, rows)
        if len(table) > output_cap:
            table = table[:output_cap] + "\n… [table cut; select fewer columns or rows]"
        return {"columns": columns, "rows_shown": len(rows), "more_rows": more, "table": table}

    return sql_query
