"""The profile records: one `ColumnProfile` per column, one `FileProfile` per file, one `DataProfile` per run.

Plain dataclasses; `DataProfile.to_json()` / `from_json()` are the `data_profile.json` contract. Every
value is JSON-safe (numbers, strings, booleans, None): dates and timestamps are ISO strings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Kind = Literal["numeric", "categorical", "datetime", "boolean", "text", "id"]
Scalar = str | int | float | bool | None

SCHEMA_VERSION = 1


@dataclass
class ColumnProfile:
    """What one column holds. `kind` is the analyst's view of it; the rules are in `kinds.py`."""

    name: str
    dtype: str
    """DuckDB type as read, e.g. `BIGINT`, `VARCHAR`, `TIMESTAMP`."""
    kind: Kind
    nulls: int
    null_pct: float
    """Share of rows that are null, in percent (0..100), rounded to 2 decimals."""
    distinct: int | None
    """Distinct non-null values; approximate (HyperLogLog, a few percent) when `distinct_approx`."""
    distinct_approx: bool = False
    min: Scalar = None
    max: Scalar = None
    mean: float | None = None
    """Numeric columns only."""
    top_values: list[tuple[Scalar, int]] = field(default_factory=list)
    """Up to 5 (value, count) pairs, most frequent first, for columns with few distinct values."""
    notes: list[str] = field(default_factory=list)
    """Things an analyst should know: date strings, inconsistent spellings, unparseable values."""


@dataclass
class FileProfile:
    """One input file. `error` is set when the file could not be profiled (or holds no rows)."""

    path: str
    """As the analysis code sees it, relative to the run directory, e.g. `inputs/sales.csv`."""
    format: str
    """`csv`, `tsv`, `parquet`, `json`, `excel` or `unknown`."""
    size_bytes: int
    rows: int | None = None
    columns: list[ColumnProfile] = field(default_factory=list)
    sample: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    duplicate_rows: int | None = None
    """Rows that exactly repeat an earlier row; None when not counted (files too large to do it cheaply)."""
    notes: list[str] = field(default_factory=list)
    """How the file was read (delimiter, sheet, fallbacks) and anything else worth knowing."""
    encoding: str | None = None
    """Text files: the Python codec that reads it (`utf-8`, `utf-8-sig`, `utf-16`, `cp1252`, `latin-1`...),
    as `pandas.read_csv(path, encoding=...)` takes it; None for Parquet and Excel."""
    columns_not_profiled: list[str] = field(default_factory=list)
    """Names of the columns past the profiler's bound (`ProfilerSettings.max_columns`), in file order."""

    def column(self, name: str) -> ColumnProfile:
        """The column called `name`; `KeyError` when there is none."""
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.path} has no column {name!r}")


@dataclass
class DataProfile:
    """Every input of a run, plus the problems found (one sentence each: what is wrong, what to do)."""

    files: list[FileProfile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    not_profiled: list[str] = field(default_factory=list)
    """Readable inputs past the bound on files profiled per run (`ProfilerSettings.max_files`), by path."""

    def file(self, path: str) -> FileProfile:
        """The profile whose `path` is `path`; `KeyError` when there is none."""
        for profile in self.files:
            if profile.path == path:
                return profile
        raise KeyError(f"no profiled file {path!r}")

    def skipped(self) -> list[dict[str, str]]:
        """Every input that could not be used, as `{"path", "reason"}` (run.json's `skipped_inputs`)."""
        return [{"path": profile.path, "reason": profile.error} for profile in self.files if profile.error]

    def to_json(self) -> dict[str, Any]:
        return {"version": SCHEMA_VERSION, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DataProfile:
        return cls(
            files=[_file_from_json(item) for item in data.get("files", [])],
            problems=list(data.get("problems", [])),
            not_profiled=list(data.get("not_profiled", [])),
        )


def _file_from_json(data: dict[str, Any]) -> FileProfile:
    values = dict(data)
    values["columns"] = [_column_from_json(item) for item in data.get("columns", [])]
    return FileProfile(**values)


def _column_from_json(data: dict[str, Any]) -> ColumnProfile:
    values = dict(data)
    values["top_values"] = [(value, int(count)) for value, count in data.get("top_values", [])]
    return ColumnProfile(**values)
