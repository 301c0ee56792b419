"""The data profile as the offline model reads it: the profiler's own `DataProfile` records.

`data_profile.json` is `DataProfile.to_json()`; the offline model reads it with `DataProfile.from_json`, so
there is one schema. A profile the file tools cut short (read it in pages with `next_offset` first) keeps
every file and column object that arrived whole. The helpers below are the questions the offline model
asks of a profile (which files are readable, which columns group rows, ...).
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile

GROUP_KINDS = ("categorical", "boolean")
MAX_GROUPS = 50


def readable_files(profile: DataProfile) -> list[FileProfile]:
    return [f for f in profile.files if not f.error and f.columns]


def find_column(data: FileProfile, name: str) -> ColumnProfile | None:
    return next((c for c in data.columns if c.name == name), None)


def of_kind(data: FileProfile, *kinds: str) -> list[ColumnProfile]:
    return [c for c in data.columns if c.kind in kinds]


def is_numeric(column: ColumnProfile) -> bool:
    return column.kind == "numeric"


def is_groupable(column: ColumnProfile) -> bool:
    """Few enough distinct values to compare groups by."""
    return column.kind in GROUP_KINDS and (column.distinct is None or 2 <= column.distinct <= MAX_GROUPS)


def top_names(column: ColumnProfile) -> tuple[str, ...]:
    """The most frequent values as text, most frequent first."""
    return tuple(str(value) for value, _count in column.top_values)


def is_unique_key(data: FileProfile, column: ColumnProfile) -> bool:
    """One row per value: the column identifies the rows of its file (a join key on that side)."""
    if not data.rows or column.distinct is None:
        return False
    return column.distinct >= data.rows and column.null_pct == 0


def primary_file(profile: DataProfile, wanted: list[str] | None = None) -> FileProfile | None:
    """The readable file holding most of `wanted` columns, then the one with the most rows."""
    files = readable_files(profile)
    if not files:
        return None
    wanted = wanted or []

    def rank(f: FileProfile) -> tuple[int, int, str]:
        names = {c.name for c in f.columns}
        return (-sum(1 for w in wanted if w in names), -(f.rows or 0), f.path)

    return min(files, key=rank)


def text_encoding(data: FileProfile | None) -> str:
    """The codec pandas must be told to read `data` with: its profiled encoding, "" for UTF-8, ASCII or unknown."""
    codec = (data.encoding or "") if data is not None else ""
    return "" if codec.replace("_", "-").lower() in ("utf-8", "utf8", "ascii") else codec


def encoding_of(profile: DataProfile, path: str) -> str:
    """`text_encoding` of the profiled file at `path`; "" for a file the profiler never saw (a cleaned copy a
    stage wrote, which pandas wrote in UTF-8)."""
    return text_encoding(next((f for f in profile.files if f.path == path), None))


def profile_from_json(document: Any) -> DataProfile:
    """`DataProfile.from_json`, keeping only the fields this version knows (never raises on shape)."""
    if not isinstance(document, dict):
        return DataProfile()
    try:
        return DataProfile.from_json(document)
    except (TypeError, KeyError, ValueError, AttributeError):
        return DataProfile.from_json(_known(document))


def _known(document: dict[str, Any]) -> dict[str, Any]:
    file_fields = {f.name for f in dataclasses.fields(FileProfile)}
    column_fields = {f.name for f in dataclasses.fields(ColumnProfile)}
    files = []
    for raw in document.get("files") or []:
        if not isinstance(raw, dict) or "path" not in raw:
            continue
        item = {k: v for k, v in raw.items() if k in file_fields}
        item.setdefault("format", "unknown")
        item.setdefault("size_bytes", 0)
        item["columns"] = [_column(c, column_fields) for c in raw.get("columns") or [] if isinstance(c, dict)]
        item["columns"] = [c for c in item["columns"] if c is not None]
        files.append(item)
    problems = [p if isinstance(p, str) else json.dumps(p) for p in document.get("problems") or []]
    return {"files": files, "problems": problems}


def _column(raw: dict[str, Any], known: set[str]) -> dict[str, Any] | None:
    if not raw.get("name"):
        return None
    item = {k: v for k, v in raw.items() if k in known}
    item.setdefault("dtype", "")
    item.setdefault("kind", "categorical")
    item.setdefault("nulls", 0)
    item.setdefault("null_pct", 0.0)
    item.setdefault("distinct", None)
    item["top_values"] = [t for t in item.get("top_values") or [] if isinstance(t, (list, tuple)) and len(t) == 2]
    return item


_FILE_MARK = re.compile(r'"path"\s*:\s*("(?:[^"\\\n]|\\.){0,2000}")')
_COLUMN_MARK = re.compile(r'\{\s*"name"\s*:')
_ROWS_MARK = re.compile(r'"rows"\s*:\s*(\d{1,15})')


def salvage_profile(text: str) -> DataProfile:
    """What a cut-off `data_profile.json` still tells: every file path and every column object that arrived whole."""
    decoder = json.JSONDecoder()
    marks = sorted([(m.start(), "file", m) for m in _FILE_MARK.finditer(text)]
                   + [(m.start(), "column", m) for m in _COLUMN_MARK.finditer(text)]
                   + [(m.start(), "rows", m) for m in _ROWS_MARK.finditer(text)], key=lambda item: item[0])
    files: list[dict[str, Any]] = []
    parsed_to = 0                   # marks inside an object already read (a value quoting `{"name":`) are skipped
    for position, kind, match in marks:
        if position < parsed_to:
            continue
        if kind == "file":
            try:
                files.append({"path": json.loads(match.group(1)), "columns": []})
            except ValueError:
                continue
        elif kind == "rows" and files and "rows" not in files[-1]:
            files[-1]["rows"] = int(match.group(1))
        elif kind == "column" and files:
            try:
                value, parsed_to = decoder.raw_decode(text, position)
            except ValueError:
                break               # the cut: nothing after it arrived whole
            if isinstance(value, dict) and value.get("name"):
                files[-1]["columns"].append(value)
    return DataProfile.from_json(_known({"files": files}))
