"""The queries behind a profile: a look at the first rows, then ONE scan of the whole table.

1. `look_at_head` copies the first rows into a temp table and learns, cheaply, what the full scan
   should compute: which text columns hold dates (and in which format), which columns have few
   distinct values (and which values), spelling variants, numbers stored as text.
2. `scan_table` reads the whole table once: row count, per column count / distinct / min / max / mean,
   except that a few-valued column is counted value by value (`count_if(column = value)`), which
   gives its top values and, exactly, its distinct count, min and max. Other distinct counts are
   exact for small files and HyperLogLog estimates for large ones.
3. Only when the first rows missed some values of a few-valued column: a narrower scan of those
   columns, then (if they still have few values) one `GROUPING SETS` pass to count them.

Each query covers at most `QUERY_COLUMNS` columns: DuckDB plans a query of N `count(DISTINCT ...)`
in time that grows faster than N (0.17 s at 100 columns, 4.8 s at 400) and crashed past ~2,000, so
a wide table is scanned once per batch of columns instead (see `bench/profiling.py`).
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import duckdb

from agentic_ds.profiling.formats import quote_identifier
from agentic_ds.profiling.kinds import TEXT_TYPES, is_numeric, is_scalar

QUERY_COLUMNS = 100
TOP_VALUES_MAX_DISTINCT = 20
TOP_VALUES_KEPT = 20
MAX_VALUE_CHARS = 60
MAX_NESTED_ITEMS = 10
DATE_FORMATS = (
    "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%Y/%m/%d", "%d-%m-%Y", "%m-%d-%Y", "%d %b %Y", "%b %d, %Y", "%Y-%m",
)
MOSTLY_NUMERIC_SHARE = 0.9
# Text that may be a date in a non-ISO format: 03/15/2024, 15.03.2024, 15 Mar 2024, Mar 15, 2024, 2024-03.
DATE_SHAPE = (
    r"[0-9]{1,4}[/.\- ][0-9A-Za-z]{1,9}[/.\- ,]+[0-9]{2,4}|[A-Za-z]{3,9} [0-9]{1,2}, [0-9]{4}|[0-9]{4}-[0-9]{2}"
)


@dataclass
class HeadFacts:
    """What the first rows say about one column."""

    date_expression: str | None = None
    """SQL that parses a date-like text column, e.g. `try_strptime("d", '%d/%m/%Y')`."""
    single_tokens: bool = False
    values: list[Any] | None = None
    """All distinct non-null values seen, when there are at most `TOP_VALUES_MAX_DISTINCT`."""
    notes: list[str] = field(default_factory=list)


@dataclass
class ColumnStats:
    non_null: int
    distinct: int | None
    min: Any = None
    max: Any = None
    mean: float | None = None
    parsed_dates: int | None = None
    value_counts: dict[Any, int] | None = None
    distinct_exact: bool = False
    """Set when `distinct` was counted value by value, whatever the file size."""


_Item = TypeVar("_Item")


def batches(items: list[_Item], size: int = QUERY_COLUMNS) -> Iterator[list[_Item]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def look_at_head(con: duckdb.DuckDBPyConnection, schema: list[tuple[str, str]], head_rows: int) -> dict[str, HeadFacts]:
    """Facts per column from the first `head_rows` rows (kept in the temp table `head`)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE head AS SELECT * FROM src LIMIT {int(head_rows)}")
    facts: dict[str, HeadFacts] = {}
    for part in batches(schema):
        facts.update(_look_at_columns(con, part))
    return facts


def _look_at_columns(con: duckdb.DuckDBPyConnection, schema: list[tuple[str, str]]) -> dict[str, HeadFacts]:
    facts = {name: HeadFacts() for name, _ in schema}
    scalar = [name for name, dtype in schema if is_scalar(dtype)]
    text = [name for name, dtype in schema if dtype in TEXT_TYPES]
    if not scalar:
        return facts
    probes = [f"count(DISTINCT {quote_identifier(name)})" for name in scalar]
    for name in text:
        column = quote_identifier(name)
        probes += [
            f"count({column})",
            f"count(try_cast({column} AS TIMESTAMP))",
            f"count_if(regexp_full_match({column}, '{DATE_SHAPE}'))",
            f"count_if(length({column}) <= 64 AND NOT regexp_matches({column}, '\\s'))",
            f"count(try_cast(replace({column}, ',', '') AS DOUBLE))",
            f"list(DISTINCT {column}) FILTER (WHERE try_cast(replace({column}, ',', '') AS DOUBLE) IS NULL)[1:3]",
        ]
    row = fetch_one(con, f"SELECT {', '.join(probes)} FROM head")
    distinct_in_head = dict(zip(scalar, row[: len(scalar)], strict=True))
    date_shaped: list[str] = []
    for index, name in enumerate(text):
        non_null, iso, shaped, tokens, numeric, non_numeric = row[
            len(scalar) + 6 * index : len(scalar) + 6 * (index + 1)
        ]
        if non_null == 0:
            continue
        facts[name].single_tokens = tokens == non_null
        if iso == non_null:
            facts[name].date_expression = f"try_cast({quote_identifier(name)} AS TIMESTAMP)"
        elif shaped == non_null:
            date_shaped.append(name)
        elif MOSTLY_NUMERIC_SHARE * non_null <= numeric < non_null:
            examples = ", ".join(repr(value) for value in non_numeric)
            facts[name].notes.append(f"numbers stored as text: non-numeric entries such as {examples}")
    _find_date_formats(con, date_shaped, facts)
    few_valued = [name for name, count in distinct_in_head.items() if 0 < count <= TOP_VALUES_MAX_DISTINCT]
    _collect_values(con, few_valued, facts)
    return facts


def _find_date_formats(con: duckdb.DuckDBPyConnection, columns: list[str], facts: dict[str, HeadFacts]) -> None:
    """For text columns shaped like dates, the first format that parses every value in the head."""
    if not columns:
        return
    width = 1 + len(DATE_FORMATS)
    probes = [
        probe
        for name in columns
        for probe in (
            f"count({quote_identifier(name)})",
            *(f"count(try_strptime({quote_identifier(name)}, '{fmt}'))" for fmt in DATE_FORMATS),
        )
    ]
    row = fetch_one(con, f"SELECT {', '.join(probes)} FROM head")
    for index, name in enumerate(columns):
        non_null, *parsed = row[index * width : (index + 1) * width]
        for fmt, count in zip(DATE_FORMATS, parsed, strict=True):
            if count == non_null:
                facts[name].date_expression = f"try_strptime({quote_identifier(name)}, '{fmt}')"
                facts[name].notes.append(f"dates stored as text ({fmt}); parse with that format")
                break


def _collect_values(con: duckdb.DuckDBPyConnection, columns: list[str], facts: dict[str, HeadFacts]) -> None:
    """Every distinct non-null value of the few-valued columns, and spelling variants among them."""
    if not columns:
        return
    lists = ", ".join(
        f"list(DISTINCT {quote_identifier(name)}) FILTER (WHERE {quote_identifier(name)} IS NOT NULL)"
        for name in columns
    )
    row = fetch_one(con, f"SELECT {lists} FROM head")
    for name, values in zip(columns, row, strict=True):
        ordered = sorted(values, key=repr)  # sorted: DuckDB's DISTINCT order is not stable
        facts[name].values = ordered
        spelling = _spelling_variants(ordered)
        if spelling:
            facts[name].notes.append(spelling)


def _spelling_variants(values: list[Any]) -> str | None:
    groups: dict[str, list[str]] = {}
    for value in values:
        if isinstance(value, str):
            groups.setdefault(" ".join(value.split()).casefold(), []).append(value)
    messy = [sorted(group) for group in groups.values() if len(group) > 1]
    if not messy:
        return None
    shown = "; ".join(", ".join(repr(value) for value in group) for group in messy[:3])
    return f"same value spelled differently (case/spaces): {shown}; normalise with strip() and a common case"


def scan_table(
    con: duckdb.DuckDBPyConnection, schema: list[tuple[str, str]], head: dict[str, HeadFacts], *, exact_distinct: bool
) -> tuple[int, dict[str, ColumnStats]]:
    """Row count and statistics per column, from one scan of `src` in the usual case.

    A few-valued column is only counted value by value (`count_if`): when those counts cover every
    non-null row, its distinct count, min and max follow from them, and the scan skips the costlier
    aggregates. When the first rows missed some of its values, the column gets a second, narrower
    scan, and exact value counts if it still has few values. Wide tables take one scan per batch of columns.
    """
    if not schema:
        return int(fetch_one(con, "SELECT count(*) FROM src")[0]), {}
    rows, stats = 0, {}
    for part in batches(schema):
        rows, found = _scan_columns(con, part, head, exact_distinct)
        stats.update(found)
    return rows, stats


def _scan_columns(
    con: duckdb.DuckDBPyConnection, schema: list[tuple[str, str]], head: dict[str, HeadFacts], exact_distinct: bool
) -> tuple[int, dict[str, ColumnStats]]:
    counted = [name for name, dtype in schema if head[name].values is not None and not head[name].date_expression]
    statistics = _Statistics()
    for name, dtype in schema:
        column = quote_identifier(name)
        statistics.add(name, "non_null", f"count({column})")
        if is_numeric(dtype):
            statistics.add(name, "mean", f"avg({column})")
        if name in counted:
            for value in head[name].values or []:
                statistics.add(name, "value", f"count_if({column} = CAST(? AS {dtype}))", value)
        elif is_scalar(dtype):
            _add_range_and_distinct(statistics, name, head[name], exact_distinct)
    rows, stats = statistics.run(con, [name for name, _ in schema])
    unresolved = [name for name in counted if not _resolve_from_counts(stats[name])]
    if unresolved:
        narrow = _Statistics()
        for name in unresolved:
            _add_range_and_distinct(narrow, name, head[name], exact_distinct)
        _, extra = narrow.run(con, unresolved)
        for name in unresolved:
            extra[name].non_null, extra[name].mean = stats[name].non_null, stats[name].mean
            stats[name] = extra[name]
        few = [name for name in unresolved if (stats[name].distinct or 0) <= TOP_VALUES_MAX_DISTINCT]
        for name, counts in count_leftover_values(con, few).items():
            stats[name].value_counts = counts
    return rows, stats


class _Statistics:
    """Aggregate expressions collected for one `SELECT ... FROM src`, and where each result goes."""

    def __init__(self) -> None:
        self.expressions = ["count(*)"]
        self.parameters: list[Any] = []
        self.layout: list[tuple[str, str, Any]] = []  # (column, statistic, counted value)

    def add(self, column: str, statistic: str, sql: str, counted: Any = None) -> None:
        self.layout.append((column, statistic, counted))
        self.expressions.append(sql)
        if statistic == "value":
            self.parameters.append(counted)

    def run(self, con: duckdb.DuckDBPyConnection, columns: list[str]) -> tuple[int, dict[str, ColumnStats]]:
        row = fetch_one(con, f"SELECT {', '.join(self.expressions)} FROM src", self.parameters)
        stats = {name: ColumnStats(non_null=0, distinct=None) for name in columns}
        for (name, statistic, counted), value in zip(self.layout, row[1:], strict=True):
            if statistic == "value":
                if stats[name].value_counts is None:
                    stats[name].value_counts = {}
                stats[name].value_counts[counted] = value  # type: ignore[index]  # created just above
            else:
                setattr(stats[name], statistic, value)
        return int(row[0]), stats


def _add_range_and_distinct(statistics: _Statistics, name: str, facts: HeadFacts, exact_distinct: bool) -> None:
    column = quote_identifier(name)
    statistics.add(
        name, "distinct", f"count(DISTINCT {column})" if exact_distinct else f"approx_count_distinct({column})"
    )
    ordered = facts.date_expression or column
    statistics.add(name, "min", f"min({ordered})")
    statistics.add(name, "max", f"max({ordered})")
    if facts.date_expression:
        statistics.add(name, "parsed_dates", f"count({facts.date_expression})")


def _resolve_from_counts(stats: ColumnStats) -> bool:
    """Exact distinct/min/max from the value counts, when they cover every non-null row."""
    counts = stats.value_counts or {}
    if sum(counts.values()) != stats.non_null:
        return False
    present = [value for value, count in counts.items() if count]
    stats.distinct, stats.distinct_exact = len(present), True
    stats.min, stats.max = (min(present), max(present)) if present else (None, None)
    return True


def count_leftover_values(con: duckdb.DuckDBPyConnection, columns: list[str]) -> dict[str, dict[Any, int]]:
    """Exact value counts for `columns` (each known to have few distinct values) in one pass."""
    if not columns:
        return {}
    quoted = [quote_identifier(name) for name in columns]
    sets = ", ".join(f"({column})" for column in quoted)
    rows = con.execute(
        f"SELECT {', '.join(quoted)}, GROUPING_ID({', '.join(quoted)}), count(*) FROM src "
        f"GROUP BY GROUPING SETS ({sets})"
    ).fetchall()
    counts: dict[str, dict[Any, int]] = {name: {} for name in columns}
    everything = (1 << len(columns)) - 1
    for row in rows:
        grouping_id, count = row[-2], row[-1]
        for index, name in enumerate(columns):
            bit = 1 << (len(columns) - 1 - index)  # GROUPING_ID: a set bit means "not grouped by"
            if grouping_id == everything ^ bit and row[index] is not None:
                counts[name][row[index]] = count
    return counts


def fetch_one(con: duckdb.DuckDBPyConnection, sql: str, parameters: list[Any] | None = None) -> tuple[Any, ...]:
    """The single row of an aggregate query."""
    row = con.execute(sql, parameters or []).fetchone()
    if row is None:  # an aggregate without GROUP BY always returns one row; this is DuckDB misbehaving
        raise RuntimeError(f"no row from aggregate query: {sql[:200]}")
    return row


def json_safe(value: Any) -> Any:
    """A JSON-serialisable form of a DuckDB value: ISO strings for dates, floats for decimals."""
    if value is None or isinstance(value, (bool, int, str)):
        return _clip(value) if isinstance(value, str) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, (dt.timedelta, uuid.UUID)):
        return str(value)
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value[:MAX_NESTED_ITEMS]]
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in list(value.items())[:MAX_NESTED_ITEMS]}
    return _clip(str(value))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"
