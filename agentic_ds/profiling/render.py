"""A compact text rendering of a `DataProfile` for planner and coder prompts, within a character budget.

One line per column. When the full rendering does not fit, detail is shed in steps: sample rows; then
top values beyond 3 and long notes; then ranges, top values and notes; then column lines become one
`name:kind` list per file; then runs of 3+ files with the same columns (a partitioned data set)
become one entry. The last resort cuts the text and says so. Problems always come first (at
most `PROBLEM_LINES` of them). A text file's header line says its encoding when it is not UTF-8, at
every level, since code that reads the file needs it; columns and files past the profiler's bounds
are named after the profiled ones.
"""

from __future__ import annotations

from collections.abc import Callable

from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile

SHORT_NOTE_CHARS = 70
PROBLEM_LINES = 10
GROUPED_RUN = 3  # files in a row with the same columns shown as one entry at the last level
UNPROFILED_NAMES = 30
UTF8_CODECS = (None, "utf-8", "utf-8-sig", "ascii")
TRUNCATION_MARK = "\n… (profile cut to fit; the full profile is in data_profile.json)"


def render_profile(profile: DataProfile, max_chars: int = 4000) -> str:
    """The profile as text of at most `max_chars` characters, with as much detail as fits."""
    for level in (_full, _without_rows, _medium, _compact, _names_only, None):
        text = _render(profile, level or _names_only, grouped=level is None)
        if len(text) <= max_chars:
            return text
    keep = max(0, max_chars - len(TRUNCATION_MARK))
    return (text[:keep] + TRUNCATION_MARK)[:max_chars]


def _render(profile: DataProfile, file_renderer: Callable[[FileProfile], list[str]], grouped: bool = False) -> str:
    lines: list[str] = []
    if profile.problems:
        lines.append("PROBLEMS:")
        lines += [f"! {problem}" for problem in profile.problems[:PROBLEM_LINES]]
        if len(profile.problems) > PROBLEM_LINES:
            lines.append(
                f"! ... and {len(profile.problems) - PROBLEM_LINES} more problems (data_profile.json lists them)"
            )
    usable = [file for file in profile.files if not file.error]
    if not usable and not profile.not_profiled:
        lines.append("No usable input files.")
    for run in _runs_of_same_columns(usable) if grouped else [[file] for file in usable]:
        if len(run) >= GROUPED_RUN:
            lines += _group(run)
            continue
        for file in run:
            lines += file_renderer(file)
            if file.columns_not_profiled:
                lines.append(_unprofiled_columns(file))
    if profile.not_profiled:
        lines.append(f"Not profiled (past the bound on files): {_names(profile.not_profiled)}")
    return "\n".join(lines)


def _runs_of_same_columns(files: list[FileProfile]) -> list[list[FileProfile]]:
    runs: list[list[FileProfile]] = []
    for file in files:
        if runs and _signature(runs[-1][0]) == _signature(file):
            runs[-1].append(file)
        else:
            runs.append([file])
    return runs


def _signature(file: FileProfile) -> tuple[object, ...]:
    return (file.format, file.encoding, tuple((c.name, c.kind) for c in file.columns), tuple(file.columns_not_profiled))


def _group(run: list[FileProfile]) -> list[str]:
    rows = sum(file.rows or 0 for file in run)
    first = run[0]
    return [
        f"{first.path} ... {run[-1].path}: {len(run)} {first.format} files with the same {len(first.columns)} columns, "
        f"{rows:,} rows in all",
        *_names_only(first)[1:],
    ]


def _unprofiled_columns(file: FileProfile) -> str:
    return f"  + {len(file.columns_not_profiled):,} more columns, not profiled: {_names(file.columns_not_profiled)}"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:UNPROFILED_NAMES])
    return shown + (f", ... and {len(names) - UNPROFILED_NAMES:,} more" if len(names) > UNPROFILED_NAMES else "")


def _header(file: FileProfile) -> str:
    rows = f"{file.rows:,}" if file.rows is not None else "?"
    duplicates = f", {file.duplicate_rows} duplicate rows" if file.duplicate_rows else ""
    columns = len(file.columns) + len(file.columns_not_profiled)
    encoding = (
        "" if file.encoding in UTF8_CODECS else f", encoding {file.encoding}: read it with encoding={file.encoding!r}"
    )
    return (
        f"{file.path} ({file.format}, {_size(file.size_bytes)}, {rows} rows x {columns} columns{duplicates}{encoding})"
    )


def _full(file: FileProfile) -> list[str]:
    lines = [_header(file)]
    if file.notes:
        lines.append("  read: " + "; ".join(file.notes))
    lines += [_column_line(column, top=5, ranges=True, notes=True) for column in file.columns]
    lines += [f"  row: {_row(row)}" for row in file.sample[:2]]
    return lines


def _without_rows(file: FileProfile) -> list[str]:
    return [_header(file)] + [_column_line(column, top=5, ranges=True, notes=True) for column in file.columns]


def _medium(file: FileProfile) -> list[str]:
    return [_header(file)] + [
        _column_line(column, top=3, ranges=True, notes=True, note_chars=SHORT_NOTE_CHARS) for column in file.columns
    ]


def _compact(file: FileProfile) -> list[str]:
    return [_header(file)] + [_column_line(column, top=0, ranges=False, notes=False) for column in file.columns]


def _names_only(file: FileProfile) -> list[str]:
    return [_header(file), "  " + ", ".join(f"{column.name}:{column.kind}" for column in file.columns)]


def _column_line(column: ColumnProfile, *, top: int, ranges: bool, notes: bool, note_chars: int | None = None) -> str:
    parts = [f"  - {column.name} {column.dtype} {column.kind}"]
    if column.nulls:
        parts.append(f"nulls {column.nulls:,} ({column.null_pct:g}%)")
    if column.distinct is not None:
        parts.append(f"distinct {'~' if column.distinct_approx else ''}{column.distinct:,}")
    if ranges and column.kind in ("numeric", "datetime") and column.min is not None:
        parts.append(f"{_value(column.min)}..{_value(column.max)}")
    if ranges and column.mean is not None:
        parts.append(f"mean {_number(column.mean)}")
    if top and column.top_values:
        parts.append("top " + ", ".join(f"{_value(value)} ({count:,})" for value, count in column.top_values[:top]))
    if notes and column.notes:
        note = "; ".join(column.notes)
        if note_chars is not None and len(note) > note_chars:
            note = note[: note_chars - 1] + "…"
        parts.append("note: " + note)
    return " | ".join(parts)


def _row(row: dict[str, object]) -> str:
    return ", ".join(f"{key}={_value(value)}" for key, value in row.items())


def _value(value: object) -> str:
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        return repr(value) if value != value.strip() or not value else value
    return str(value)


def _number(value: float) -> str:
    if abs(value) < 1000:
        return f"{value:.4g}"
    return f"{value:.6g}" if abs(value) < 1e6 else f"{value:,.0f}"


def _size(size_bytes: int) -> str:
    if size_bytes < 1024:
        return f"{size_bytes} B"
    size = size_bytes / 1024
    for unit in ("KB", "MB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"
