"""Read the compact `## Data profile` text (profiling/render.py) back into a `Profile`.

Used when `data_profile.json` cannot be read whole (the file tools cut long files): the prompt's
rendering always lists every file and column with its kind, and with its distinct count and top
values when they fit.
"""

from __future__ import annotations

import re

from agentic_ds.offline.profile import KINDS, Column, DataFile, Profile

_FILE = re.compile(r"^(\S.*?) \((\w+), [^,]+, ([\d,?]+) rows x (\d+) columns")
_COLUMN = re.compile(r"^\s+- (.+)$")
_NAMES_ONLY = re.compile(r"^\s{2}(\S.*:(?:" + "|".join(KINDS) + r").*)$")
_TOP = re.compile(r"(.+?) \(([\d,]+)\)(?:, |$)")
_MULTIWORD_DTYPES = ("TIMESTAMP WITH TIME ZONE", "TIME WITH TIME ZONE", "DOUBLE PRECISION")


def parse_profile_text(text: str) -> Profile:
    files: list[DataFile] = []
    problems: list[str] = []
    current: dict | None = None
    for line in text.splitlines():
        if line.startswith("! "):
            problems.append(line[2:].strip())
            continue
        file_match = _FILE.match(line)
        if file_match:
            current = {"path": file_match.group(1), "rows": _int(file_match.group(3)), "columns": []}
            files.append(current)  # type: ignore[arg-type]
            continue
        if current is None:
            continue
        column_match = _COLUMN.match(line)
        if column_match:
            column = _column(column_match.group(1))
            if column is not None:
                current["columns"].append(column)
            continue
        names = _NAMES_ONLY.match(line)
        if names and not line.strip().startswith(("row:", "read:")):
            for item in names.group(1).split(", "):
                name, _, kind = item.rpartition(":")
                if name and kind in KINDS:
                    current["columns"].append(Column(name=name, kind=kind))
    built = tuple(
        DataFile(path=f["path"], rows=f["rows"], columns=tuple(f["columns"])) for f in files  # type: ignore[index]
    )
    return Profile(files=built, problems=tuple(problems))


def _column(body: str) -> Column | None:
    head, *details = body.split(" | ")
    dtype = ""
    for multi in _MULTIWORD_DTYPES:
        if head.upper().endswith(" " + multi) or f" {multi} " in head.upper():
            idx = head.upper().rfind(" " + multi)
            name, rest = head[:idx], head[idx + 1 :]
            dtype, _, kind = rest.rpartition(" ")
            break
    else:
        parts = head.rsplit(" ", 2)
        if len(parts) < 3:
            return None
        name, dtype, kind = parts
    if kind not in KINDS:
        return None
    distinct = None
    null_pct = 0.0
    top: tuple[str, ...] = ()
    for detail in details:
        if detail.startswith("distinct "):
            distinct = _int(detail.removeprefix("distinct ").lstrip("~"))
        elif detail.startswith("nulls "):
            pct = re.search(r"\(([\d.]+)%\)", detail)
            null_pct = float(pct.group(1)) if pct else 0.0
        elif detail.startswith("top "):
            top = tuple(m.group(1).strip("'") for m in _TOP.finditer(detail.removeprefix("top ")))
    return Column(name=name, kind=kind, dtype=dtype, distinct=distinct, null_pct=null_pct, top_values=top)


def _int(text: str) -> int | None:
    digits = text.replace(",", "").strip()
    return int(digits) if digits.isdigit() else None
