"""Small previews of CSV outputs for the HTML report: capped rows, columns and cell width."""

from __future__ import annotations

import csv
import io
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

from agentic_ds.runs import safe_files

MAX_ROWS = 20
MAX_COLUMNS = 12
MAX_CELL_CHARS = 80
_COUNT_ROWS_UP_TO_BYTES = 20 * 1024 * 1024  # beyond this, the total row count is not worth a full read


@dataclass
class TableView:
    path: str                              # relative to the run directory
    columns: list[str]
    rows: list[list[str]]
    total_rows: int | None                 # None: not counted (file too large) or unknown
    hidden_columns: int = 0
    numeric: list[bool] = field(default_factory=list)  # per shown column: right-align it

    @property
    def truncated(self) -> bool:
        return self.total_rows is None or self.total_rows > len(self.rows)


def _open(file: Path, root: Path) -> io.TextIOWrapper:
    return io.TextIOWrapper(safe_files.open_read(file, root=root), newline="", encoding="utf-8", errors="replace")


def read_csv_preview(file: Path, rel: str, *, root: Path) -> TableView | None:
    """The first `MAX_ROWS` rows of a CSV; None when the file is empty, a link, or not readable as CSV."""
    try:
        with _open(file, root) as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            if not header:
                return None
            rows = [row for row in itertools.islice(reader, MAX_ROWS)]
    except (OSError, ValueError, csv.Error):
        return None
    shown = min(len(header), MAX_COLUMNS)
    columns = [_clip(h) for h in header[:shown]]
    body = [[_clip(cell) for cell in (row + [""] * shown)[:shown]] for row in rows]
    return TableView(
        path=rel,
        columns=columns,
        rows=body,
        total_rows=_count_rows(file, root),
        hidden_columns=len(header) - shown,
        numeric=[_is_numeric_column(body, i) for i in range(shown)],
    )


def _count_rows(file: Path, root: Path) -> int | None:
    try:
        with _open(file, root) as handle:
            if os.fstat(handle.fileno()).st_size > _COUNT_ROWS_UP_TO_BYTES:
                return None
            return max(0, sum(1 for _ in csv.reader(handle)) - 1)
    except (OSError, ValueError, csv.Error):
        return None


def _is_numeric_column(rows: list[list[str]], index: int) -> bool:
    values = [row[index] for row in rows if row[index].strip()]
    if not values:
        return False
    for value in values:
        try:
            float(value.replace(",", ""))
        except ValueError:
            return False
    return True


def _clip(text: str) -> str:
    text = text.replace("\n", " ").strip()
    return text if len(text) <= MAX_CELL_CHARS else text[: MAX_CELL_CHARS - 1] + "…"
