"""Column names as pandas gives them, so the profile names each column as the generated code sees it.

DuckDB renames blank header cells `column1` and duplicates `a_1` (case-insensitively, and it strips
spaces); `pandas.read_csv` and `read_excel` call them `Unnamed: 1` and `a.1`, and keep spaces and case.
The profiler queries DuckDB by its own names and shows pandas' names, matched by position.
"""

from __future__ import annotations

import csv
import gzip
from collections import Counter
from pathlib import Path


def pandas_names(fields: list[str]) -> list[str]:
    """The column names `pandas.read_csv` gives a header row of `fields` (its `mangle_dupe_names`).

    A blank field is `Unnamed: <position>`. A repeated name gets `.1`, `.2`... skipping suffixes that
    another column already has (`x, x, x.1` -> `x, x.2, x.1`); named columns are numbered before blank ones.
    """
    names = [field if field != "" else f"Unnamed: {index}" for index, field in enumerate(fields)]
    blank = [index for index, field in enumerate(fields) if field == ""]
    blank_set = set(blank)
    order = [index for index in range(len(names)) if index not in blank_set] + blank
    present = Counter(names)  # pandas asks `name in names` of the list as renamed so far
    counts: dict[str, int] = {}
    for index in order:
        name = original = names[index]
        count = counts.get(name, 0)
        while count > 0:
            counts[original] = count + 1
            name = f"{original}.{count}"
            count = count + 1 if present[name] else counts.get(name, 0)
        if name != original:
            present[original] -= 1
            present[name] += 1
            names[index] = name
        counts[name] = count + 1
    return names


def csv_header(path: Path, delimiter: str, quote: str, skip_lines: int) -> list[str] | None:
    """The raw fields of the header row of a UTF-8 CSV (after `skip_lines` lines), or None when unreadable."""
    name = path.name.lower()
    if name.endswith(".zst"):
        return None
    opener = gzip.open if name.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8-sig", errors="replace", newline="") as handle:
            for _ in range(skip_lines):
                handle.readline()
            reader = csv.reader(handle, delimiter=delimiter, quotechar=quote or '"')
            return next(reader, None)
    except (OSError, csv.Error, EOFError):
        return None
