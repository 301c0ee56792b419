"""The parts of `data_profile.json` the offline model reasons with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("numeric", "categorical", "datetime", "boolean", "text", "id")


@dataclass(frozen=True)
class Column:
    name: str
    kind: str
    dtype: str = ""
    distinct: int | None = None
    null_pct: float = 0.0
    top_values: tuple[str, ...] = ()

    @property
    def is_numeric(self) -> bool:
        return self.kind == "numeric"

    @property
    def is_groupable(self) -> bool:
        """Few enough distinct values to compare groups by."""
        return self.kind in ("categorical", "boolean") and (self.distinct is None or 2 <= self.distinct <= 50)


@dataclass(frozen=True)
class DataFile:
    path: str
    rows: int | None
    columns: tuple[Column, ...] = ()
    error: str = ""
    encoding: str = ""  # the codec the profiler read a text file with ("" when not recorded)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    def of_kind(self, *kinds: str) -> list[Column]:
        return [c for c in self.columns if c.kind in kinds]


@dataclass(frozen=True)
class Profile:
    files: tuple[DataFile, ...] = ()
    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def readable(self) -> list[DataFile]:
        return [f for f in self.files if not f.error and f.columns]

    def primary(self, wanted: list[str] | None = None) -> DataFile | None:
        """The file to analyse: the readable one holding most of `wanted`, then the most rows."""
        files = self.readable
        if not files:
            return None
        wanted = wanted or []

        def rank(f: DataFile) -> tuple[int, int, str]:
            names = {c.name for c in f.columns}
            return (-sum(1 for w in wanted if w in names), -(f.rows or 0), f.path)

        return min(files, key=rank)


def parse_profile(document: Any) -> Profile:
    """Build a `Profile` from the parsed JSON; tolerant of missing keys (never raises on shape)."""
    if not isinstance(document, dict):
        return Profile()
    files = []
    for raw in document.get("files") or []:
        if not isinstance(raw, dict):
            continue
        columns = tuple(_column(c) for c in raw.get("columns") or [] if isinstance(c, dict) and c.get("name"))
        files.append(
            DataFile(
                path=str(raw.get("path", "")),
                rows=_int(raw.get("rows")),
                columns=columns,
                error=str(raw.get("error") or ""),
                encoding=str(raw.get("encoding") or ""),
            )
        )
    problems = tuple(str(p) if not isinstance(p, dict) else str(p.get("message") or p) for p in document.get("problems") or [])
    return Profile(files=tuple(files), problems=problems)


def _column(raw: dict[str, Any]) -> Column:
    kind = str(raw.get("kind") or "").lower()
    if kind not in KINDS:
        kind = _kind_from_dtype(str(raw.get("dtype") or ""))
    tops = raw.get("top_values") or []
    top_names = tuple(str(t.get("value") if isinstance(t, dict) else t[0] if isinstance(t, list) and t else t) for t in tops)
    return Column(
        name=str(raw["name"]),
        kind=kind,
        dtype=str(raw.get("dtype") or ""),
        distinct=_int(raw.get("distinct")),
        null_pct=float(raw.get("null_pct") or 0.0),
        top_values=top_names,
    )


def _kind_from_dtype(dtype: str) -> str:
    d = dtype.lower()
    if any(t in d for t in ("int", "float", "double", "decimal", "numeric", "real")):
        return "numeric"
    if any(t in d for t in ("date", "time")):
        return "datetime"
    if "bool" in d:
        return "boolean"
    return "categorical"


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def salvage_profile(text: str) -> Profile:
    """What a cut-off `data_profile.json` text still tells: every file path and every column object that arrived whole."""
    import json
    import re

    decoder = json.JSONDecoder()
    files: list[DataFile] = []
    marks = sorted([(m.start(), "file", m) for m in re.finditer(r'"path"\s*:\s*("(?:[^"\\]|\\.)*")', text)]
                   + [(m.start(), "column", m) for m in re.finditer(r'\{\s*"name"\s*:', text)])
    current: dict[str, Any] | None = None
    for _, kind, match in marks:
        try:
            if kind == "file":
                current = {"path": json.loads(match.group(1)), "columns": []}
                files.append(current)  # type: ignore[arg-type]
            elif current is not None:
                value, _ = decoder.raw_decode(text, match.start())
                if isinstance(value, dict) and value.get("name"):
                    current["columns"].append(_column(value))
        except ValueError:
            continue
    built = tuple(DataFile(path=f["path"], rows=None, columns=tuple(f["columns"])) for f in files)  # type: ignore[index]
    return Profile(files=built)
