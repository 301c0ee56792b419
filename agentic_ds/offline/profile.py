"""The questions the offline model asks of the run's data profile (the profiler's own `DataProfile` records, which
every role gets in its prompt's context): which files are readable, which columns group rows, which is a key."""

from __future__ import annotations

import re

from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile

GROUP_KINDS = ("categorical", "boolean")
MAX_GROUPS = 50
ID_NAME = re.compile(r"(^|_)(id|uuid|key|code)$|^id_", re.I)       # a column that names rows rather than measures


def readable_files(profile: DataProfile) -> list[FileProfile]:
    return [f for f in profile.files if not f.error and f.columns]


def find_column(data: FileProfile, name: str) -> ColumnProfile | None:
    return next((c for c in data.columns if c.name == name), None)


def of_kind(data: FileProfile, *kinds: str) -> list[ColumnProfile]:
    return [c for c in data.columns if c.kind in kinds]


def is_groupable(column: ColumnProfile) -> bool:
    """Few enough distinct values to compare groups by."""
    return column.kind in GROUP_KINDS and (column.distinct is None or 2 <= column.distinct <= MAX_GROUPS)


def is_unique_key(data: FileProfile, column: ColumnProfile) -> bool:
    """One row per value: the column identifies the rows of its file (a join key on that side)."""
    return bool(data.rows and column.distinct is not None and column.distinct >= data.rows and column.null_pct == 0)


def primary_file(profile: DataProfile, wanted: list[str] | None = None) -> FileProfile | None:
    """The readable file holding most of `wanted` columns, then the one with the most rows."""
    def rank(f: FileProfile) -> tuple[int, int, str]:
        names = {c.name for c in f.columns}
        return (-sum(1 for w in wanted or [] if w in names), -(f.rows or 0), f.path)

    return min(readable_files(profile), key=rank, default=None)


def text_encoding(data: FileProfile | None) -> str:
    """The codec pandas must be told to read `data` with: its profiled encoding, "" for UTF-8, ASCII or unknown."""
    codec = (data.encoding or "") if data is not None else ""
    return "" if codec.replace("_", "-").lower() in ("utf-8", "utf8", "ascii") else codec


def encoding_of(profile: DataProfile, path: str) -> str:
    """`text_encoding` of the profiled file at `path`; "" for a file the profiler never saw (a cleaned copy a
    stage wrote, which pandas wrote in UTF-8)."""
    return text_encoding(next((f for f in profile.files if f.path == path), None))
