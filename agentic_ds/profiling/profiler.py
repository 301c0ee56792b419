"""Profile one input file with DuckDB, streaming, so a file larger than memory is fine.

`profile_file` never raises for a bad file: it returns a `FileProfile` with `error` set, saying what
is wrong and what to do. It sniffs first (`sniff.py`: the same check `agentic-ds run` makes before a
run starts), reads other encodings and Excel through a UTF-8 copy (`source.py`), and names columns
as pandas will (`names.py`). A wide file is profiled up to `ProfilerSettings.max_columns` columns;
the others are listed by name.
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from agentic_ds.profiling import formats, kinds
from agentic_ds.profiling.errors import UnreadableFile
from agentic_ds.profiling.formats import CsvDialect, CsvShape, quote_identifier
from agentic_ds.profiling.model import ColumnProfile, FileProfile
from agentic_ds.profiling.names import csv_header, pandas_names
from agentic_ds.profiling.scan import (
    TOP_VALUES_KEPT,
    TOP_VALUES_MAX_DISTINCT,
    ColumnStats,
    HeadFacts,
    fetch_one,
    json_safe,
    look_at_head,
    scan_table,
)
from agentic_ds.profiling.sniff import detect_format, sniff_file
from agentic_ds.profiling.source import TableSource, encoding_after_head, open_source, transcoded

CSV_ATTEMPTS = 3


@dataclass(frozen=True)
class ProfilerSettings:
    """DuckDB resources, the size above which distinct counts become estimates, and the bounds on work.

    Measured on 2 cores (see csv-profiling-notes.md): one scan with approximate distinct counts runs at
    ~400 MB/s in ~260 MB whatever the file size; exact distinct counts need memory that grows with
    the data, so they are kept to small files. `max_columns` and `max_files` bound a wide file and a
    big folder (figures in BENCHMARKS.md, `## profiling`).
    """

    threads: int = field(default_factory=lambda: max(1, min(os.cpu_count() or 1, 4)))
    memory_limit: str = "1GB"
    temp_directory: str = field(default_factory=lambda: str(Path(tempfile.gettempdir()) / "agentic-ds-duckdb"))
    exact_distinct_max_bytes: int = 64 * 1024 * 1024
    head_rows: int = 10_000
    max_columns: int = 500
    """Columns profiled per file; the rest are named in `FileProfile.columns_not_profiled`."""
    max_files: int = 100
    """Files profiled per run; the rest are named in `DataProfile.not_profiled`."""


def connect(settings: ProfilerSettings) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with explicit resources and no extension downloads (no network)."""
    return duckdb.connect(
        ":memory:",
        config={
            "threads": settings.threads,
            "memory_limit": settings.memory_limit,
            "temp_directory": settings.temp_directory,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        },
    )


def profile_file(
    path: Path,
    *,
    display_name: str | None = None,
    sample_rows: int = 5,
    settings: ProfilerSettings | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
) -> FileProfile:
    """Profile one file: rows, columns with type/kind/nulls/distinct/min/max/mean/top values, sample rows.

    `con` reuses a connection from `connect` (a folder of small files: opening one costs ~12 ms).
    """
    started = time.perf_counter()
    path = Path(path)
    settings = settings or ProfilerSettings()
    file_format = detect_format(path)
    profile = FileProfile(path=display_name or path.name, format=file_format, size_bytes=_size(path))
    try:
        _profile_into(profile, path, sample_rows, settings, con)
    except UnreadableFile as exc:
        profile.error = str(exc)
    except duckdb.Error as exc:
        profile.error = f"could not be read as {file_format}: {_first_line(exc)}; check the file's format and encoding"
    except OSError as exc:
        profile.error = f"could not be opened ({exc.strerror or exc}); check that it exists and is readable"
    if profile.error:
        profile.columns, profile.sample, profile.rows = [], [], None
    profile.seconds = round(time.perf_counter() - started, 3)
    return profile


def _profile_into(
    profile: FileProfile,
    path: Path,
    sample_rows: int,
    settings: ProfilerSettings,
    con: duckdb.DuckDBPyConnection | None,
) -> None:
    sniffed = sniff_file(path)
    with ExitStack() as stack:
        con = con or stack.enter_context(connect(settings))
        source = open_source(stack, path, sniffed)
        try:
            _profile_source(con, profile, source, sample_rows, settings)
        except duckdb.Error as exc:
            if not (source.native_utf8 and formats.is_invalid_utf8(str(exc))):
                raise
            # The first 64 KB were UTF-8, a later byte is not: read a UTF-8 copy in the right encoding.
            source = transcoded(stack, path, sniffed.format, encoding_after_head(path))
            _profile_source(con, profile, source, sample_rows, settings)
    if profile.rows == 0:
        raise UnreadableFile(
            f"no data rows ({len(profile.columns) + len(profile.columns_not_profiled)} columns, 0 rows); "
            "supply the data or remove the file"
        )


def _profile_source(
    con: duckdb.DuckDBPyConnection,
    profile: FileProfile,
    source: TableSource,
    sample_rows: int,
    settings: ProfilerSettings,
) -> None:
    exact = source.path.stat().st_size <= settings.exact_distinct_max_bytes
    is_csv = source.read_as in ("csv", "tsv")
    dialect = formats.starting_dialect(con, source.path, source.read_as) if is_csv else CsvDialect()
    for attempt in range(1, CSV_ATTEMPTS + 1):
        try:
            table = formats.table_expression(source.path, source.read_as, dialect)
            _profile_table(con, profile, table, exact, sample_rows, settings)
            break
        except duckdb.Error as exc:
            fallback = None if formats.is_invalid_utf8(str(exc)) or not is_csv else formats.csv_fallbacks(str(exc))
            if fallback is None or attempt == CSV_ATTEMPTS:
                raise
            dialect = CsvDialect({**dialect.options, **fallback.options}, dialect.notes + fallback.notes)
    profile.encoding = source.encoding.codec if source.encoding else None
    profile.notes = list(source.notes)
    if is_csv:
        shape = _shape(con, source, dialect)
        profile.notes.append(formats.describe_dialect(shape))
        _use_pandas_names(profile, source, shape)
    profile.notes += dialect.notes
    if profile.columns_not_profiled:
        total = len(profile.columns) + len(profile.columns_not_profiled)
        profile.notes.append(
            f"{total:,} columns: profiled the first {len(profile.columns):,} (the profiler's bound); "
            "the others are listed by name only"
        )


def _shape(con: duckdb.DuckDBPyConnection, source: TableSource, dialect: CsvDialect) -> CsvShape | None:
    if dialect.shape is not None:
        return dialect.shape
    try:
        return formats.sniff(con, source.path, source.read_as, dialect)
    except (duckdb.Error, UnreadableFile):
        return None


def _use_pandas_names(profile: FileProfile, source: TableSource, shape: CsvShape | None) -> None:
    """Rename columns to what `pandas.read_csv` (or `read_excel`) calls them, matched by position."""
    if shape is None or not shape.has_header:
        return
    fields = csv_header(source.path, shape.delimiter, shape.quote, shape.skip_rows)
    ours = [column.name for column in profile.columns] + profile.columns_not_profiled
    if fields is not None and len(fields) < len(ours):
        ours = _drop_fields_past_header(profile, ours, len(fields))
    if fields is None or len(fields) != len(ours):
        return
    theirs = pandas_names(fields)
    renamed = dict(zip(ours, theirs, strict=True))
    for column in profile.columns:
        column.name = renamed[column.name]
    profile.columns_not_profiled = theirs[len(profile.columns) :]
    profile.sample = [{renamed.get(key, key): value for key, value in row.items()} for row in profile.sample]


def _drop_fields_past_header(profile: FileProfile, ours: list[str], width: int) -> list[str]:
    """Rows with more fields than the header: DuckDB pads the header with `columnN`; the templates' loader (and
    pandas with `on_bad_lines`) drops the extra fields, so the profile drops those columns too and says so."""
    extra = ours[width:]
    if not all(name == f"column{index}" for index, name in enumerate(extra, start=width)):
        return ours
    gone = set(extra)
    longest = max(((profile.rows or 0) - c.nulls for c in profile.columns if c.name in gone), default=0)
    profile.columns = [c for c in profile.columns if c.name not in gone]
    profile.columns_not_profiled = [n for n in profile.columns_not_profiled if n not in gone]
    profile.sample = [{k: v for k, v in row.items() if k not in gone} for row in profile.sample]
    profile.duplicate_rows = None   # counted over the dropped fields too
    rows = f"{longest:,} row(s)" if longest else "some rows"
    profile.notes.append(
        f"{rows} had more fields than the header's {width}; the extra fields are not columns (pandas.read_csv "
        "fails on such rows unless given on_bad_lines; the skill templates drop the extra fields)"
    )
    return ours[:width]


def _profile_table(
    con: duckdb.DuckDBPyConnection,
    profile: FileProfile,
    table: str,
    exact: bool,
    sample_rows: int,
    settings: ProfilerSettings,
) -> None:
    # A small file is parsed once into a table that every query then reads; a large one is streamed per scan.
    _replace(con, "raw", f"SELECT * FROM {table}", materialize=exact)
    everything = [(str(row[0]), str(row[1])) for row in con.execute("DESCRIBE SELECT * FROM raw").fetchall()]
    schema, rest = everything[: settings.max_columns], everything[settings.max_columns :]
    columns = ", ".join(quote_identifier(name) for name, _ in schema) or "*"
    _replace(con, "src", f"SELECT {columns} FROM raw", materialize=False)
    head = look_at_head(con, schema, settings.head_rows)
    rows, stats = scan_table(con, schema, head, exact_distinct=exact)
    profile.rows = rows
    profile.columns = [_column_profile(name, dtype, rows, stats[name], head[name], exact) for name, dtype in schema]
    profile.columns_not_profiled = [name for name, _ in rest]
    cursor = con.execute(f"SELECT * FROM head LIMIT {int(sample_rows)}")
    names = [description[0] for description in cursor.description or []]
    profile.sample = [
        {key: json_safe(value) for key, value in zip(names, row, strict=True)} for row in cursor.fetchall()
    ]
    profile.duplicate_rows = None
    if exact and not rest:
        try:
            profile.duplicate_rows = rows - int(fetch_one(con, "SELECT count(*) FROM (SELECT DISTINCT * FROM src)")[0])
        except duckdb.Error:  # some nested types cannot be compared; duplicates stay uncounted
            pass


def _replace(con: duckdb.DuckDBPyConnection, name: str, query: str, *, materialize: bool) -> None:
    """(Re)create the temp view or table `name` (an earlier file or attempt may have left either)."""
    for kind in ("VIEW", "TABLE"):
        try:
            con.execute(f"DROP {kind} IF EXISTS {name}")
        except duckdb.Error:  # DuckDB refuses to drop a view as a table and the reverse
            pass
    con.execute(f"CREATE TEMP {'TABLE' if materialize else 'VIEW'} {name} AS {query}")


def _column_profile(
    name: str, dtype: str, rows: int, stats: ColumnStats, head: HeadFacts, exact: bool
) -> ColumnProfile:
    nulls = rows - stats.non_null
    approx = not exact and not stats.distinct_exact and stats.distinct is not None
    kind = kinds.classify(
        kinds.ColumnFacts(
            name=name,
            dtype=dtype,
            non_null=stats.non_null,
            distinct=stats.distinct,
            distinct_approx=approx,
            min=stats.min,
            max=stats.max,
            date_like=head.date_expression is not None,
            single_tokens=head.single_tokens,
        )
    )
    notes = list(head.notes)
    if stats.parsed_dates is not None and stats.parsed_dates < stats.non_null:
        notes.append(f"{stats.non_null - stats.parsed_dates} values are not dates in the detected format")
    return ColumnProfile(
        name=name,
        dtype=dtype,
        kind=kind,
        nulls=nulls,
        null_pct=round(100 * nulls / rows, 2) if rows else 0.0,
        distinct=stats.distinct,
        distinct_approx=approx,
        min=json_safe(stats.min),
        max=json_safe(stats.max),
        mean=float(stats.mean) if stats.mean is not None and kind == "numeric" else None,
        top_values=_top_values(stats, kind),
        notes=notes,
    )


def _top_values(stats: ColumnStats, kind: str) -> list[tuple[Any, int]]:
    if kind in ("id", "datetime", "text") or not stats.value_counts:
        return []
    if stats.distinct is None or stats.distinct > TOP_VALUES_MAX_DISTINCT:
        return []
    ranked = sorted(stats.value_counts.items(), key=lambda item: (-item[1], repr(item[0])))
    if ranked[0][1] <= 1:  # every value appears once: a frequency table says nothing
        return []
    return [(json_safe(value), int(count)) for value, count in ranked[:TOP_VALUES_KEPT] if count > 0]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(lines[:2])[:300] if lines else type(exc).__name__
