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

from agentic_ds.offline.reader.filters import Filter
from agentic_ds.offline.reader.mentions import Mention, Token, number
from agentic_ds.offline.reader.sources import file_nouns
from agentic_ds.offline.reader.vocabulary import MONTHS, OPEN_ENDS, PERIOD_WORDS
from agentic_ds.profiling.model import ColumnProfile, FileProfile

_LOOK = 5               # tokens either side where a column named is the period's column
_NOUN_BACK = 6          # tokens before the period where a file's noun picks that file's column


def periods(tokens: Sequence[Token], mentions: Sequence[Mention], files: Sequence[FileProfile],
            taken: set[int]) -> list[Filter]:
    """A filter per period the question names, on a year or date column it can be read from."""
    places = _Places(files, {m.column for m in mentions})
    at = {m.start: m.column for m in mentions if m.column in places.years | places.dates}
    found: list[Filter] = []
    for i in range(1, len(tokens)):
        year = _year(tokens[i])
        if i in taken or year is None:
            continue
        month = MONTHS.get(tokens[i - 1].low)
        word_at = i - 2 if month else i - 1
        op = PERIOD_WORDS.get(tokens[word_at].low) if word_at >= 0 and word_at not in taken else None
        if op is None:
            continue
        column = places.column(tokens, word_at, i, at, dates_only=month is not None)
        if not column:
            continue
        if column in places.years:
            found.append(Filter(column, op, year, word_at, i + 1))
        else:
            found.append(Filter(column, "period", _bounds(op, year, month), word_at, i + 1))
    return found


_RANGE_JOINERS = frozenset({"-", "–", "—", "to", "through", "thru", "until", "till", "and"})
_RANGE_LEADS = frozenset({"from", "between", "years", "year", "over", "in", "during", "the", "of", "for"})


def year_ranges(tokens: Sequence[Token], mentions: Sequence[Mention], files: Sequence[FileProfile],
                taken: set[int]) -> list[Filter]:
    """The rows of a span of years: "1935-1954", "1970 through 1979 inclusive", "between 1960 and 1969", "the
    1970s": two bounds on a year column, or a half-open period on a date column."""
    places = _Places(files, {m.column for m in mentions})
    at = {m.start: m.column for m in mentions if m.column in places.years | places.dates}
    found: list[Filter] = []
    i = 0
    while i < len(tokens):
        first = _year(tokens[i]) if i not in taken else None
        span = _span_at(tokens, i, first) if first is not None else None
        if span is None:
            i += 1
            continue
        low, high, end = span
        start = i
        while start > 0 and tokens[start - 1].low in _RANGE_LEADS and start - 1 not in taken:
            start -= 1
        if end < len(tokens) and tokens[end].low == "inclusive":
            end += 1
        column = places.column(tokens, start, end - 1, at, dates_only=False)
        if column in places.years:
            found += [Filter(column, ">=", low, start, end)] + ([Filter(column, "<=", high, start, end)]
                                                                 if high is not None else [])
        elif column:
            period = {"from": f"{low}-01-01", "to": f"{high + 1}-01-01" if high is not None else None}
            found.append(Filter(column, "period", period, start, end))
        i = end
    return found


def _span_at(tokens: Sequence[Token], i: int, first: int) -> tuple[int, int | None, int] | None:
    """(first year, last year or None for "and later", end) of a span starting with the year at `i`."""
    if i + 2 < len(tokens) and tokens[i + 1].low in ("and", "or") and tokens[i + 2].low in OPEN_ENDS:
        return first, None, i + 3
    if i + 2 < len(tokens) and tokens[i + 1].low in _RANGE_JOINERS:
        last = _year(tokens[i + 2])
        if last is not None and last >= first and (tokens[i + 1].low != "and" or tokens[i - 1].low == "between"):
            return first, last, i + 3
    if i + 1 < len(tokens) and tokens[i + 1].low == "s" and first % 10 == 0:
        return first, first + 9, i + 2
    return None


class _Places:
    """Where a period can be read, worked out once per question so each period costs a bounded look-around."""

    def __init__(self, files: Sequence[FileProfile], mentioned: set[str]) -> None:
        self.years = {c.name for f in files for c in f.columns if _is_year_column(c)}
        self.dates = {c.name for f in files for c in f.columns if _is_date_column(c)}
        self.usable = {True: self.dates, False: self.years | self.dates}
        # For each file noun, the usable columns of the files it names ("orders" -> order_date).
        self.by_noun: dict[bool, dict[str, list[str]]] = {True: {}, False: {}}
        for only, usable in self.usable.items():
            for data in files:
                own = [c.name for c in data.columns if c.name in usable]
                for noun in file_nouns(data):
                    self.by_noun[only].setdefault(noun, []).extend(own)
        said = [f for f in files if mentioned & {c.name for c in f.columns}]
        # The files holding the columns the question names, then every file; in each, a year column is meant
        # before a date column ("signed up in 2021" -> signup_year).
        fallback = [{c.name for f in scope for c in f.columns if kind(c)}
                    for scope in (said, files) for kind in (_is_year_column, _is_date_column)]
        self.default = {only: next((next(iter(fits)) for fits in (named & usable for named in fallback)
                                    if len(fits) == 1), "")
                        for only, usable in self.usable.items()}

    def column(self, tokens: Sequence[Token], first: int, last: int, at: dict[int, str], dates_only: bool) -> str:
        usable = self.usable[dates_only]
        near = [at[p] for p in range(first - _LOOK, last + _LOOK + 1) if p in at and at[p] in usable]
        if near:
            return near[0]
        for back in range(first - 1, max(-1, first - 1 - _NOUN_BACK), -1):
            own = self.by_noun[dates_only].get(tokens[back].word, [])
            if len(own) == 1:
                return own[0]
        return self.default[dates_only]


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
    return int(value) if value is not None and value == int(value) and 1000 <= value <= 2200 else None


def _is_date_column(column: ColumnProfile) -> bool:
    return column.kind == "datetime"


def _is_year_column(column: ColumnProfile) -> bool:
    if column.kind != "numeric" or "year" not in column.name.lower():
        return False
    try:
        return 1000 <= float(column.min) and float(column.max) <= 2200  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
