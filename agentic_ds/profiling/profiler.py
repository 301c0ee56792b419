"""Profile input files with DuckDB, streaming, so a file larger than memory is fine.

`profile_file` never raises for a bad file: it returns a `FileProfile` with `error` set, saying what
is wrong and what to do. `profile_inputs` profiles many files (directories are walked) and collects
those errors as `problems`.
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
from agentic_ds.profiling.formats import CsvDialect, UnreadableFile
from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile
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

CSV_ATTEMPTS = 3


@dataclass(frozen=True)
class ProfilerSettings:
    """DuckDB resources and the size above which distinct counts become estimates.

    Measured on 2 cores (see csv-profiling-notes.md): one scan with approximate distinct counts runs at
    ~400 MB/s in ~260 MB whatever the file size; exact distinct counts need memory that grows with
    the data, so they are kept to small files.
    """

    threads: int = field(default_factory=lambda: max(1, min(os.cpu_count() or 1, 4)))
    memory_limit: str = "1GB"
    temp_directory: str = field(default_factory=lambda: str(Path(tempfile.gettempdir()) / "agentic-ds-duckdb"))
    exact_distinct_max_bytes: int = 64 * 1024 * 1024
    head_rows: int = 10_000


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
    path: Path, *, display_name: str | None = None, sample_rows: int = 5, settings: ProfilerSettings | None = None
) -> FileProfile:
    """Profile one file: rows, columns with type/kind/nulls/distinct/min/max/mean/top values, sample rows."""
    started = time.perf_counter()
    path = Path(path)
    settings = settings or ProfilerSettings()
    file_format = formats.detect_format(path)
    profile = FileProfile(path=display_name or path.name, format=file_format, size_bytes=_size(path))
    try:
        _profile_into(profile, path, file_format, sample_rows, settings)
    except UnreadableFile as exc:
        profile.error = str(exc)
    except duckdb.Error as exc:
        profile.error = f"could not be read as {file_format}: {_first_line(exc)}; check the file's format and encoding"
    except OSError as exc:
        profile.error = f"could not be opened ({exc.strerror or exc}); check that it exists and is readable"
    profile.seconds = round(time.perf_counter() - started, 3)
    return profile


def profile_inputs(paths: list[Path], *, base: Path, settings: ProfilerSettings | None = None) -> DataProfile:
    """Profile every file in `paths` (directories walked, hidden files skipped), named relative to `base`.

    Never raises for a bad file: each one becomes a `FileProfile` with `error` and a `problems` line.
    """
    result = DataProfile()
    for path in _expand(paths):
        name = _relative_name(path, base)
        profile = profile_file(path, display_name=name, settings=settings)
        result.files.append(profile)
        if profile.error:
            result.problems.append(f"{name}: {profile.error}")
    return result


def _profile_into(profile: FileProfile, path: Path, file_format: str, sample_rows: int, settings: ProfilerSettings) -> None:
    if file_format == "unknown":
        raise UnreadableFile(
            f"unsupported file type {path.suffix or '(no extension)'!r}; "
            "convert it to CSV, TSV, Parquet, JSON or Excel (.xlsx), or leave it out of the inputs"
        )
    formats.check_readable(path, file_format)
    with ExitStack() as stack:
        con = stack.enter_context(connect(settings))
        table_path, read_as = path, file_format
        if file_format == "excel":
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="agentic-ds-excel-")))
            table_path, read_as = folder / "sheet.csv", "csv"
            profile.notes += formats.excel_to_csv(path, table_path)
        exact = table_path.stat().st_size <= settings.exact_distinct_max_bytes
        is_csv = read_as in ("csv", "tsv")
        dialect = formats.starting_dialect(con, table_path, read_as) if is_csv else CsvDialect()
        for attempt in range(1, CSV_ATTEMPTS + 1):
            try:
                _profile_table(con, profile, formats.table_expression(table_path, read_as, dialect), exact, sample_rows, settings)
                break
            except duckdb.Error as exc:
                fallback = formats.csv_fallbacks(str(exc)) if is_csv else None
                if fallback is None or attempt == CSV_ATTEMPTS:
                    raise
                dialect = CsvDialect({**dialect.options, **fallback.options}, dialect.notes + fallback.notes)
        if is_csv:
            profile.notes.append(formats.describe_dialect(con, table_path, read_as, dialect))
        profile.notes += dialect.notes
    if profile.rows == 0:
        what = f"only a header with {len(profile.columns)} columns" if is_csv else f"{len(profile.columns)} columns, 0 rows"
        raise UnreadableFile(f"no data rows ({what}); supply the data or remove the file")


def _profile_table(
    con: duckdb.DuckDBPyConnection, profile: FileProfile, table: str, exact: bool, sample_rows: int, settings: ProfilerSettings
) -> None:
    con.execute(f"CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM {table}")
    schema = [(str(row[0]), str(row[1])) for row in con.execute("DESCRIBE SELECT * FROM src").fetchall()]
    head = look_at_head(con, schema, settings.head_rows)
    rows, stats = scan_table(con, schema, head, exact_distinct=exact)
    profile.rows = rows
    profile.columns = [_column_profile(name, dtype, rows, stats[name], head[name], exact) for name, dtype in schema]
    cursor = con.execute(f"SELECT * FROM head LIMIT {int(sample_rows)}")
    names = [description[0] for description in cursor.description or []]
    profile.sample = [{key: json_safe(value) for key, value in zip(names, row)} for row in cursor.fetchall()]
    if exact:
        try:
            profile.duplicate_rows = rows - int(fetch_one(con, "SELECT count(*) FROM (SELECT DISTINCT * FROM src)")[0])
        except duckdb.Error:  # some nested types cannot be compared; duplicates stay uncounted
            profile.duplicate_rows = None


def _column_profile(name: str, dtype: str, rows: int, stats: ColumnStats, head: HeadFacts, exact: bool) -> ColumnProfile:
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


def _expand(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found += sorted(
                child for child in path.rglob("*") if child.is_file() and not _hidden(child.relative_to(path))
            )
        else:
            found.append(path)
    return found


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def _relative_name(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(Path(base).resolve()).as_posix()
    except ValueError:
        return path.name


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " ".join(lines[:2])[:300] if lines else type(exc).__name__
