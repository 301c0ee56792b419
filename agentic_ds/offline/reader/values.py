"""Which rows a question names by their values: a category ("the Engineering department", "sensor B", "in Asia"),
a yes/no column said as a quality ("remote employees"), a value the profile does not list ("customers from Norway"),
or a time period ("in 2021", "in March 2023", "since 2020", "before June 2022"):

    "customers who signed up in 2021"            -> signup_year == 2021           (a numeric year column)
    "orders placed in March 2023"                -> order_date in [2023-03-01, 2023-04-01)
    "revenue since 2022"                         -> order_date >= 2022-01-01

A period's column is the year or date column named next to it, else the one of the file whose noun comes just
before it ("orders placed in 2023": the date of orders.csv, not customers' signup_year), else the only one in the
files holding the columns the question names, else the only one there is. A month needs a date column.

Each finder walks the tokens once with bounded look-ahead (linear in the task) and records the tokens it used.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from agentic_ds.offline.reader.filters import CODE_NAME, MAX_VALUE_TOKENS, VALUE_KINDS, Filter, excluded_from
from agentic_ds.offline.reader.mentions import SENTENCE_END, Mention, Token, leading, tokenize
from agentic_ds.offline.reader.sources import file_nouns
from agentic_ds.offline.reader.vocabulary import (
    DOUBT_WORDS,
    DROP_WORDS,
    GENERIC_VALUES,
    MONTHS,
    OPEN_ENDS,
    PERIOD_WORDS,
    UNSEEN_LEADS,
)
from agentic_ds.profiling.model import ColumnProfile, FileProfile


def named_values(tokens: Sequence[Token], mentions: Sequence[Mention], columns: dict[str, ColumnProfile],
                 taken: set[int], samples: Sequence[dict[str, Any]] = ()) -> list[Filter]:
    """A category named in the question ("the Engineering department", "sensor B", "in Asia", "male students")
    selects its rows.

    A value counts when its column is named right next to it, or when it is written as in the data away from
    the start of a sentence; one- and two-letter values and generic words (yes, other, high...) need their
    column next to them. Values come from the profile's most frequent values and its sample rows.
    """
    index = _value_index(columns, samples)
    near: dict[tuple[int, str], Mention] = {}
    mentioned: set[int] = set()
    for mention in mentions:
        mentioned |= set(range(mention.start, mention.end))
        for position in range(mention.start - 2, mention.end + 2):
            near.setdefault((position, mention.column), mention)
    picked: dict[str, list[tuple[Any, int, int, bool]]] = {}
    last: dict[str, tuple[int, bool]] = {}
    i = 0
    while i < len(tokens):
        match = None if i in taken else _value_at(tokens, i, index)
        if match is None:
            i += 1
            continue
        width, options = match
        for column, value in options:
            beside = near.get((i - 1, column)) or near.get((i + width, column))
            if beside and "," in {t.text for t in tokens[min(beside.end, i + width): max(beside.start, i)]}:
                beside = None          # "Other than Engineering, which department ...": the group is the ask's
            if beside is None and not _stands_alone(tokens, i, width, value, mentioned) or last.get(
                    column, (0,))[0] == i - 1 and tokens[i - 1].low in _RANGE_JOINERS - {"and"}:    # "Fri thru Sun"
                continue
            end = max(i + width, beside.end) if beside else i + width
            excluded = excluded_from(tokens, i, end)
            joined = i - 1 - (tokens[i - 2].text == ",") if i >= 2 and tokens[i - 1].low in ("and", "or", ",") else -2
            negated = excluded is not None or last.get(column) == (joined, True)    # "excluding Oslo, and Ghent"
            start = min(excluded[0] if excluded is not None else i, beside.start if beside else i)
            if excluded is not None and excluded[1] > end:   # "Oslo and Ghent left out": said after the whole list
                start, end = _negate_listed(picked.get(column, []), tokens, start), excluded[1]
            typed = value.casefold() == "true" if columns[column].kind == "boolean" and value.casefold() in (
                "true", "false") else value
            picked.setdefault(column, []).append((typed, start, end, negated))
            last[column] = (end, negated)
            break
        i += width
    found = []
    for column, values in picked.items():
        start, end = min(v[1] for v in values), max(v[2] for v in values)
        kept = list(dict.fromkeys(v[0] for v in values if not v[3]))
        dropped = list(dict.fromkeys(v[0] for v in values if v[3]))
        if len(kept) == 1:
            found.append(Filter(column, "==", kept[0], start, end))
        elif kept:
            found.append(Filter(column, "in", kept, start, end))
        found += [Filter(column, "!=", value, start, end) for value in dropped]
    return found


def _negate_listed(values: list[tuple[Any, int, int, bool]], tokens: Sequence[Token], start: int) -> int:
    """Marks left out the values listed right before an exclusion said after the list ("Oslo and Ghent left out",
    "Oslo, Ghent and Krakow excluded"); returns where the list starts."""
    for k in range(len(values) - 1, -1, -1):
        value, first, last, _ = values[k]
        if last > start or any(t.low not in ("and", "or", ",") for t in tokens[last:start]):
            break
        values[k] = (value, first, last, True)
        start = first
    return start


def _stands_alone(tokens: Sequence[Token], i: int, width: int, value: str, mentioned: set[int]) -> bool:
    """A value named without its column: spelled as in the data (or, after "at", "for"..., in lower case: "at
    lunch"), not a generic word, not a column's name."""
    if len(value) < 3 or value.casefold() in GENERIC_VALUES or _sentence_start(tokens, i) and value[:1].islower():
        return False
    if any(p in mentioned for p in range(i, i + width)):
        return False
    written = " ".join(t.text for t in tokens[i: i + width])
    if written.casefold() != value.casefold():
        return False
    placed = i > 0 and tokens[i - 1].low in _PLACES and len(value) >= MIN_LOWER_VALUE
    return written == value or value == value.lower() or placed


_PLACES = frozenset({"at", "for", "in", "during", "on", "among", "within"})
MIN_LOWER_VALUE = 4


def boolean_flags(tokens: Sequence[Token], mentions: Sequence[Mention], columns: dict[str, ColumnProfile],
                  taken: set[int], used: set[str]) -> list[Filter]:
    """"remote employees", "employees who work remotely": a yes/no column named as a quality selects the yes
    rows ("non-remote", "not remote": the no rows), unless the question uses the column otherwise."""
    found = []
    for mention in mentions:
        column = columns.get(mention.column)
        if column is None or column.kind != "boolean" or mention.column in used or mention.start in taken:
            continue
        before = tokens[mention.start - 1].low if mention.start else ""
        negated = before in ("not", "non") or tokens[mention.start].low.startswith("non")
        found.append(Filter(mention.column, "==", not negated, mention.start, mention.end))
        used.add(mention.column)
    return found


def unseen_values(tokens: Sequence[Token], mentions: Sequence[Mention], columns: dict[str, ColumnProfile],
                  taken: set[int], preferred: set[str]) -> list[Filter]:
    """"customers from Norway", "between Atlantic Refining and Union Oil" when those values are not among the ones
    the profile lists: capitalised words after "from", "in", "between", "and"... that are no column go to the one
    categorical column with unlisted values (those of a file the question names first); the template checks that
    some row has them."""
    open_columns = [c.name for c in columns.values() if c.kind in ("categorical", "text")
                    and (c.distinct or 0) > len(c.top_values) and not CODE_NAME.search(c.name)]
    choices = [c for c in open_columns if c in preferred] or open_columns
    if len(choices) != 1:
        return []
    mentioned = {p for m in mentions for p in range(m.start, m.end)}
    found = []
    i = 0
    while i < len(tokens):
        lead = i - 2 if i >= 2 and tokens[i - 1].low == "the" else i - 1
        if not _capitalised(tokens, i, taken | mentioned) or lead < 0 or tokens[lead].low not in UNSEEN_LEADS \
                or excluded_from(tokens, i) is not None:           # "apart from Norway": not read as kept
            i += 1
            continue
        end = i + 1
        while end < len(tokens) and end - i < MAX_VALUE_TOKENS and _capitalised(tokens, end, taken | mentioned):
            end += 1
        found.append(Filter(choices[0], "==", " ".join(t.text for t in tokens[i:end]), i, end))
        i = end
    return found


def _capitalised(tokens: Sequence[Token], i: int, skip: set[int]) -> bool:
    token = tokens[i]
    return (i not in skip and token.is_word and token.text[:1].isupper() and not token.text.isupper()
            and not _sentence_start(tokens, i) and token.low not in GENERIC_VALUES and token.low not in DOUBT_WORDS)


def _value_index(columns: dict[str, ColumnProfile], samples: Sequence[dict[str, Any]]
                 ) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    """Each value of the profile's top values (not of a many-valued id) and of the sample rows' text, by its tokens."""
    pairs = [(c.name, value) for c in columns.values() if c.kind in VALUE_KINDS
             and not (c.kind == "id" and (c.distinct or 0) > 50) for value, _count in c.top_values]
    pairs += [(name, value) for row in samples for name, value in row.items()
              if name in columns and columns[name].kind in ("categorical", "text") and isinstance(value, str)]
    index: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for name, raw in pairs:
        text = str(raw).strip()
        key = tuple(t.low for t in tokenize(text))     # one key per text: a pair is listed under it once
        if key and len(key) <= MAX_VALUE_TOKENS and (name, text) not in index.get(key, []):
            index.setdefault(key, []).append((name, text))
    return index


def _value_at(tokens: Sequence[Token], i: int, index: dict) -> tuple[int, list[tuple[str, str]]] | None:
    for width in range(MAX_VALUE_TOKENS, 0, -1):
        key = tuple(t.low for t in tokens[i: i + width])
        if len(key) == width and key in index:
            return width, index[key]
    return None


def _sentence_start(tokens: Sequence[Token], i: int) -> bool:
    return i == 0 or tokens[i - 1].text in SENTENCE_END


_LOOK = 5               # tokens either side where a column named is the period's column
_NOUN_BACK = 6          # tokens before the period where a file's noun picks that file's column


def periods(tokens: Sequence[Token], mentions: Sequence[Mention], files: Sequence[FileProfile],
            taken: set[int]) -> list[Filter]:
    """A filter per period the question names, on a year or date column it can be read from."""
    places = _Places(files, mentions)
    found: list[Filter] = []
    for i in range(1, len(tokens)):
        year = _year(tokens[i])
        if i in taken or year is None or i + 1 < len(tokens) and tokens[i + 1].low == "s":      # "the 1800s"
            continue
        month = MONTHS.get(tokens[i - 1].low)
        word_at = i - 2 if month else i - 1
        op = PERIOD_WORDS.get(tokens[word_at].low) if word_at >= 0 and word_at not in taken else None
        dropped = _dropped(tokens, word_at, taken)          # "ignoring anything before 1900": the rows from 1900
        op = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}.get(op or "") if dropped is not None else op   # kept
        if op is None:
            continue
        column = places.column(tokens, word_at, i, dates_only=month is not None)
        start = word_at if dropped is None else dropped
        if column in places.years:
            found.append(Filter(column, op, year, start, i + 1))
        elif column:
            found.append(Filter(column, "period", _bounds(op, year, month), start, i + 1))
    return found


_RANGE_JOINERS = frozenset({"-", "–", "—", "to", "through", "thru", "until", "till", "and"})
_RANGE_LEADS = frozenset({"from", "between", "years", "year", "over", "in", "during", "the", "of", "for"})


def year_ranges(tokens: Sequence[Token], mentions: Sequence[Mention], files: Sequence[FileProfile],
                taken: set[int]) -> list[Filter]:
    """The rows of a span of years: "1935-1954", "1970 through 1979 inclusive", "between 1960 and 1969", "the
    1970s": two bounds on a year column, or a half-open period on a date column."""
    places = _Places(files, mentions)
    found: list[Filter] = []
    i = 0
    while i < len(tokens):
        first = _year(tokens[i]) if i not in taken else None
        span = _span_at(tokens, i, first) if first is not None else None
        if span is None:
            i += 1
            continue
        low, high, end = span
        start = leading(tokens, i, _RANGE_LEADS, taken)
        if end < len(tokens) and tokens[end].low == "inclusive":
            end += 1
        dropped = _dropped(tokens, start, taken)    # "ignore 2000 and later": the rows before; "excluding 1960-69"
        column = places.column(tokens, start, end - 1, dates_only=False) if dropped is None or high is None else ""
        start = start if dropped is None else dropped
        bounds = [(op, year) for op, year in ((">=", low), ("<=", high), ("<", low))
                  if year is not None and (op == "<") == (dropped is not None)]
        if column in places.years:
            found += [Filter(column, op, year, start, end) for op, year in bounds]
        elif column:          # each bound's own side of its year, as dates
            period = {side: day for op, year in bounds for side, day in _bounds(op, year, None).items() if day}
            found.append(Filter(column, "period", {"from": None, "to": None} | period, start, end))
        i = end
    return found


def _dropped(tokens: Sequence[Token], at: int, taken: set[int]) -> int | None:
    """Where a word leaving out the rows of the period at `at` is, up to three words before it; else None."""
    return next((k for k in range(at - 1, max(-1, at - 4), -1) if tokens[k].low in DROP_WORDS and k not in taken), None)


def _span_at(tokens: Sequence[Token], i: int, first: int) -> tuple[int, int | None, int] | None:
    """(first year, last year or None for "and later", end) of a span starting with the year at `i`."""
    if i + 2 < len(tokens) and tokens[i + 1].low in ("and", "or") and tokens[i + 2].low in OPEN_ENDS:
        return first, None, i + 3
    if i + 2 < len(tokens) and tokens[i + 1].low in _RANGE_JOINERS:
        said, last = tokens[i + 2], _year(tokens[i + 2])
        if last is None and said.text.isdigit() and len(said.text) == 2 and first % 10 == 0 and said.text[1] == "9":
            last = first - first % 100 + int(said.text)          # "1960-69"; "2018-19" may be a season
        if last is not None and last >= first and (tokens[i + 1].low != "and" or tokens[i - 1].low == "between"):
            return first, last, i + 3
    if i + 1 < len(tokens) and tokens[i + 1].low == "s" and first % 10 == 0 and first % 100:   # "1800s": a century?
        return first, first + 9, i + 2
    return None


class _Places:
    """Where a period can be read, worked out once per question so each period costs a bounded look-around."""

    def __init__(self, files: Sequence[FileProfile], mentions: Sequence[Mention]) -> None:
        self.years = {c.name for f in files for c in f.columns if _is_year_column(c)}
        self.dates = {c.name for f in files for c in f.columns if c.kind == "datetime"}
        self.at = {m.start: m.column for m in mentions if m.column in self.years | self.dates}
        mentioned = {m.column for m in mentions}
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
                    for scope in (said, files) for kind in (_is_year_column, lambda c: c.kind == "datetime")]
        self.default = {only: next((next(iter(fits)) for fits in (named & usable for named in fallback)
                                    if len(fits) == 1), "")
                        for only, usable in self.usable.items()}

    def column(self, tokens: Sequence[Token], first: int, last: int, dates_only: bool) -> str:
        usable, at = self.usable[dates_only], self.at
        near = [at[p] for p in range(first - _LOOK, last + _LOOK + 1) if p in at and at[p] in usable]
        owners = (self.by_noun[dates_only].get(tokens[back].word, [])      # a file's noun just before the period
                  for back in range(first - 1, max(-1, first - 1 - _NOUN_BACK), -1))
        return near[0] if near else next((own[0] for own in owners if len(own) == 1), self.default[dates_only])


def _bounds(op: str, year: int, month: int | None) -> dict[str, str | None]:
    """The half-open date range [from, to) a period word selects."""
    low = dt.date(year, month or 1, 1).isoformat()
    high = dt.date(year + (month == 12 or not month), (month % 12) + 1 if month else 1, 1).isoformat()
    ranges: dict[str, tuple[str | None, str | None]] = {
        "==": (low, high), ">=": (low, None), ">": (high, None), "<": (None, low), "<=": (None, high)}
    return dict(zip(("from", "to"), ranges[op], strict=True))


def _year(token: Token) -> int | None:
    value = token.value
    return int(value) if value is not None and value == int(value) and 1000 <= value <= 2200 else None


def _is_year_column(column: ColumnProfile) -> bool:
    if column.kind != "numeric" or "year" not in column.name.lower():
        return False
    try:
        return 1000 <= float(column.min) and float(column.max) <= 2200  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
