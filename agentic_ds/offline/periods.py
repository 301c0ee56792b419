"""Which rows a time period selects: "in 2021", "in March 2023", "since 2020", "before June 2022".

    "customers who signed up in 2021"            -> signup_year == 2021           (a numeric year column)
    "orders placed in March 2023"                -> order_date in [2023-03-01, 2023-04-01)
    "revenue since 2022"                         -> order_date >= 2022-01-01

The column is the year or date column named next to the period, else the one of the file whose noun comes just
before it ("orders placed in 2023": the date of orders.csv, not customers' signup_year), else the only one in the
files holding the columns the question names, else the only one there is. A month needs a date column. One pass
over the tokens with a bounded look-around: linear in the task.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from agentic_ds.offline.filters import Filter
from agentic_ds.offline.mentions import Mention, Token, number
from agentic_ds.offline.sources import file_nouns
from agentic_ds.profiling.model import ColumnProfile, FileProfile

_WORDS = {"in": "==", "during": "==", "since": ">=", "after": ">", "before": "<", "until": "<="}
_MONTHS = {name: index for index, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
_LOOK = 5               # tokens either side where a column named is the period's column
_NOUN_BACK = 6          # tokens before the period where a file's noun picks that file's column


def periods(tokens: Sequence[Token], mentions: Sequence[Mention], files: Sequence[FileProfile],
            taken: set[int]) -> list[Filter]:
    """A filter per period the question names, on a year or date column it can be read from."""
    years = {c.name for f in files for c in f.columns if _is_year_column(c)}
    dates = {c.name for f in files for c in f.columns if _is_date_column(c)}
    at = {m.start: m.column for m in mentions if m.column in years | dates}
    found: list[Filter] = []
    for i in range(1, len(tokens)):
        year = _year(tokens[i])
        if i in taken or year is None:
            continue
        month = _MONTHS.get(tokens[i - 1].low)
        word_at = i - 2 if month else i - 1
        op = _WORDS.get(tokens[word_at].low) if word_at >= 0 and word_at not in taken else None
        if op is None:
            continue
        usable = dates if month else years | dates
        column = _column(tokens, word_at, i, at, usable, files, [m.column for m in mentions])
        if not column:
            continue
        if column in years:
            found.append(Filter(column, op, year, word_at, i + 1))
        else:
            found.append(Filter(column, "period", _bounds(op, year, month), word_at, i + 1))
    return found


def _column(tokens: Sequence[Token], first: int, last: int, at: dict[int, str], usable: set[str],
            files: Sequence[FileProfile], mentioned: Sequence[str]) -> str:
    near = [at[p] for p in range(first - _LOOK, last + _LOOK + 1) if p in at and at[p] in usable]
    if near:
        return near[0]
    for back in range(first - 1, max(-1, first - 1 - _NOUN_BACK), -1):
        owners = [f for f in files if tokens[back].word and tokens[back].word in file_nouns(f)]
        own = [c.name for f in owners for c in f.columns if c.name in usable]
        if len(own) == 1:
            return own[0]
    # Else the files holding the columns the question names, then every file; in each, a year column is
    # meant before a date column ("signed up in 2021" -> signup_year).
    said = set(mentioned)
    for scope in ([f for f in files if said & {c.name for c in f.columns}], files):
        for kind in (_is_year_column, _is_date_column):
            named = {c.name for f in scope for c in f.columns if c.name in usable and kind(c)}
            if len(named) == 1:
                return named.pop()
    return ""


def _bounds(op: str, year: int, month: int | None) -> dict[str, str | None]:
    """The half-open date range [from, to) a period word selects."""
    start = dt.date(year, month or 1, 1)
    end = dt.date(year + (month == 12 or not month), (month % 12) + 1 if month else 1, 1)
    low, high = start.isoformat(), end.isoformat()
    ranges: dict[str, tuple[str | None, str | None]] = {
        "==": (low, high), ">=": (low, None), ">": (high, None), "<": (None, low), "<=": (None, high)}
    return dict(zip(("from", "to"), ranges[op], strict=True))


def _year(token: Token) -> int | None:
    value = number(token.text) if token.is_number else None
    return int(value) if value is not None and value == int(value) and 1900 <= value <= 2100 else None


def _is_date_column(column: ColumnProfile) -> bool:
    return column.kind == "datetime"


def _is_year_column(column: ColumnProfile) -> bool:
    if column.kind != "numeric" or "year" not in column.name.lower():
        return False
    try:
        return 1900 <= float(column.min) and float(column.max) <= 2100  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
