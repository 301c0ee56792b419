"""Which rows a question is about: comparisons, named values, and missing values to ignore (periods: `periods.py`).

    "employees with years_experience greater than 10"   -> years_experience > 10
    "humidity above 60 and temperature below 20"        -> humidity > 60, temperature < 20
    "in the Engineering department", "for sensor B only" -> department == Engineering, sensor == B
    "ignoring rows with missing values"                 -> drop rows with any missing value

Every finder walks the tokens once with bounded look-ahead, so reading is linear in the task's length. Each
filter records the tokens it used (`start`, `end`) so no other part of the question reads them again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_ds.offline.reader.mentions import Mention, Token, number, tokenize
from agentic_ds.offline.reader.vocabulary import CLAUSE_WORDS as _CLAUSE_WORDS
from agentic_ds.offline.reader.vocabulary import COMPARATORS as _COMPARATORS
from agentic_ds.offline.reader.vocabulary import DROP_WORDS as _DROP_WORDS
from agentic_ds.offline.reader.vocabulary import GENERIC_VALUES as _GENERIC
from agentic_ds.offline.reader.vocabulary import LINK_WORDS as _LINK
from agentic_ds.offline.reader.vocabulary import MISSING_WORDS as _MISSING_WORDS
from agentic_ds.offline.reader.vocabulary import NEGATION as _NEGATION
from agentic_ds.offline.reader.vocabulary import OR_MORE as _OR_MORE
from agentic_ds.offline.reader.vocabulary import OUTLIER_WORDS as _OUTLIER_WORDS
from agentic_ds.offline.reader.vocabulary import SIGNS
from agentic_ds.profiling.model import ColumnProfile

NUMERIC_KINDS = ("numeric",)
VALUE_KINDS = ("categorical", "boolean", "text", "id")
MAX_VALUE_TOKENS = 4
_CODE_NAME = re.compile(r"(^|_)(id|key|code|uuid)$|[a-z]Id$|ID$", re.I)


@dataclass(frozen=True)
class Filter:
    column: str
    op: str                 # == != > >= < <= in, "period" ({"from", "to"}: ISO dates, half-open)
    value: Any
    start: int
    end: int
    guessed: bool = False   # no column was named: the only one whose values span the number

    def as_param(self) -> dict[str, Any]:
        return {"column": self.column, "op": self.op, "value": self.value}

    def text(self) -> str:
        if self.op == "period":
            low, high = self.value.get("from"), self.value.get("to")
            return f"{self.column} " + " and ".join(
                ([f">= {low}"] if low else []) + ([f"< {high}"] if high else []))
        shown = ", ".join(map(str, self.value)) if isinstance(self.value, list) else self.value
        return f"{self.column} {self.op} {shown}"


def comparisons(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
                taken: set[int], columns: Mapping[str, ColumnProfile] | None = None) -> list[Filter]:
    """`<column> <comparator> <number>` (or `<comparator> <number> <column>`), and `between A and B`; with no
    column named ("earn more than 80000"), the only numeric column whose values span the number."""
    numeric = [m for m in mentions if kinds.get(m.column) in NUMERIC_KINDS]
    ends = {m.end: m for m in numeric}
    starts = {m.start: m for m in numeric}
    found: list[Filter] = []
    i = 0
    while i < len(tokens):
        if i in taken:
            i += 1
            continue
        op, width = _comparator(tokens, i)
        if tokens[i].low == "between":
            op, width = "between", 1
        j = i + width
        value = number(tokens[j].text) if op and j < len(tokens) and tokens[j].is_number else None
        if not op or value is None:
            i += 1
            continue
        column = _before(ends, tokens, i) or _after(starts, j + 1) or _age_column(tokens[i].low, kinds, i)
        guessed = column is None and op != "between" and _ends_clause(tokens, j + 1)
        column = column or (_spanning(value, columns or {}, i) if guessed else None)
        if column is None:
            i += 1
            continue
        start, end = min(column.start, i), max(column.end, j + 1)
        if op == "between":
            upper = number(tokens[j + 2].text) if j + 2 < len(tokens) and tokens[j + 1].low == "and" else None
            if upper is None:
                i += 1
                continue
            end = max(end, j + 3)
            found += [Filter(column.column, ">=", value, start, end), Filter(column.column, "<=", upper, start, end)]
        else:
            found.append(Filter(column.column, op, value, start, end, guessed))
        i = end
    return found + _or_more(tokens, numeric, taken)


def _age_column(word: str, kinds: Mapping[str, str], at: int) -> Mention | None:
    """"older than 50" compares the age, even when the question never says "age"."""
    if word not in ("older", "younger"):
        return None
    ages = [name for name, kind in kinds.items() if kind in NUMERIC_KINDS and "age" in name.lower().split("_")]
    return Mention(at, at, ages[0], False) if len(ages) == 1 else None


def _ends_clause(tokens: Sequence[Token], at: int) -> bool:
    """Nothing qualifies the number at `at - 1` ("earn more than 80000?"), unlike "more than 1.5 IQR": only then
    may a column be guessed for it."""
    return at >= len(tokens) or not tokens[at].word or tokens[at].low in _CLAUSE_WORDS


def _spanning(value: float, columns: Mapping[str, ColumnProfile], at: int) -> Mention | None:
    """The one numeric column (not an id) whose range holds `value` inside it; None when none or several do."""
    holding = []
    for name, column in columns.items():
        try:
            low, high = float(column.min), float(column.max)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if column.kind in NUMERIC_KINDS and not _CODE_NAME.search(name) and low < value < high:
            holding.append(name)
    return Mention(at, at, holding[0], False) if len(holding) == 1 else None


def _comparator(tokens: Sequence[Token], i: int) -> tuple[str | None, int]:
    for words, op in _COMPARATORS:
        if tuple(t.low for t in tokens[i: i + len(words)]) == words:
            return op, len(words)
    return None, 0


def _before(ends: dict[int, Mention], tokens: Sequence[Token], i: int) -> Mention | None:
    """The numeric column named just before position `i` (linking words like "is", "of" may sit between)."""
    j = i
    for _ in range(3):
        if j in ends:
            return ends[j]
        if j - 1 < 0 or tokens[j - 1].low not in _LINK:
            return None
        j -= 1
    return ends.get(j)


def _after(starts: dict[int, Mention], j: int) -> Mention | None:
    return starts.get(j) or starts.get(j + 1)


def _or_more(tokens: Sequence[Token], numeric: Sequence[Mention], taken: set[int]) -> list[Filter]:
    """`10 or more years_experience` / `5 or fewer units`."""
    starts = {m.start: m for m in numeric}
    ends = {m.end: m for m in numeric}
    found = []
    for i in range(len(tokens) - 2):
        key = (tokens[i + 1].low, tokens[i + 2].low)
        if i in taken or not tokens[i].is_number or key not in _OR_MORE:
            continue
        column = _after(starts, i + 3) or ends.get(i)
        if column is not None:
            found.append(Filter(column.column, _OR_MORE[key], number(tokens[i].text), min(i, column.start),
                                max(i + 3, column.end)))
    return found


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
    i = 0
    while i < len(tokens):
        match = None if i in taken else _value_at(tokens, i, index)
        if match is None:
            i += 1
            continue
        width, options = match
        for column, value in options:
            beside = near.get((i - 1, column)) or near.get((i + width, column))
            if beside is None and not _stands_alone(tokens, i, width, value, mentioned):
                continue
            negated = i > 0 and tokens[i - 1].low in _NEGATION
            start = min(i, beside.start) if beside else i
            end = max(i + width, beside.end) if beside else i + width
            picked.setdefault(column, []).append((_typed_value(columns[column], value), start, end, negated))
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


def _stands_alone(tokens: Sequence[Token], i: int, width: int, value: str, mentioned: set[int]) -> bool:
    """A value named without its column: spelled as in the data, not a generic word, not a column's name."""
    if len(value) < 3 or value.casefold() in _GENERIC or _sentence_start(tokens, i) and value[:1].islower():
        return False
    if any(p in mentioned for p in range(i, i + width)):
        return False
    written = " ".join(t.text for t in tokens[i: i + width])
    return written == value or written.casefold() == value.casefold() and value == value.lower()


def _typed_value(column: ColumnProfile, value: str) -> Any:
    if column.kind == "boolean" and value.casefold() in ("true", "false"):
        return value.casefold() == "true"
    return value


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
    """"customers from Norway" when Norway is not among the values the profile lists: a capitalised word that
    is no column goes to the one categorical column with unlisted values (those of a file the question names
    first); the template checks that some row has it."""
    open_columns = [c.name for c in columns.values() if c.kind in ("categorical", "text")
                    and (c.distinct or 0) > len(c.top_values) and not _CODE_NAME.search(c.name)]
    mentioned = {p for m in mentions for p in range(m.start, m.end)}
    found = []
    for i, token in enumerate(tokens):
        if (i in taken or i in mentioned or not token.is_word or not token.text[:1].isupper() or token.text.isupper()
                or _sentence_start(tokens, i) or token.low in _GENERIC):
            continue
        choices = [c for c in open_columns if c in preferred] or open_columns
        if len(choices) == 1:
            found.append(Filter(choices[0], "==", token.text, i, i + 1))
    return found


def _value_index(columns: dict[str, ColumnProfile], samples: Sequence[dict[str, Any]]
                 ) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    index: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    seen: set[tuple[str, str]] = set()

    def add(name: str, raw: Any) -> None:
        text = str(raw).strip()
        key = tuple(t.low for t in tokenize(text))
        if key and len(key) <= MAX_VALUE_TOKENS and (name, text) not in seen:
            seen.add((name, text))
            index.setdefault(key, []).append((name, text))

    for column in columns.values():
        if column.kind not in VALUE_KINDS or column.kind == "id" and (column.distinct or 0) > 50:
            continue
        for value, _count in column.top_values:
            add(column.name, value)
    for row in samples:
        for name, value in row.items():
            profiled = columns.get(name)
            if profiled is not None and profiled.kind in ("categorical", "text") and isinstance(value, str):
                add(name, value)
    return index


def _value_at(tokens: Sequence[Token], i: int, index: dict) -> tuple[int, list[tuple[str, str]]] | None:
    for width in range(MAX_VALUE_TOKENS, 0, -1):
        key = tuple(t.low for t in tokens[i: i + width])
        if len(key) == width and key in index:
            return width, index[key]
    return None


def _sentence_start(tokens: Sequence[Token], i: int) -> bool:
    return i == 0 or tokens[i - 1].text in (".", "?", "!", ";")




def outlier_removal(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str], taken: set[int],
                    rule: str, threshold: float) -> list[Filter]:
    """"remove the outliers of bonus (z-score above 3), then ...": rows whose value is an outlier by the stated
    rule are dropped before the statistics. The outlier words are consumed, so they are not also counted."""
    found = []
    for i, token in enumerate(tokens):
        if token.low not in _DROP_WORDS and token.low not in ("filter", "filtering", "removed", "excluded", "dropped"):
            continue
        window = [j for j in range(max(0, i - 4), min(len(tokens), i + 5)) if tokens[j].low in _OUTLIER_WORDS]
        if not window or i in taken:
            continue
        at = window[0]
        near = [
            m for m in mentions if kinds.get(m.column) == "numeric" and abs(m.start - at) <= 6 and m.start not in taken
        ]
        if not near:
            continue
        column = min(near, key=lambda m: abs(m.start - at)).column
        value = {"rule": rule, "threshold": threshold}
        found.append(Filter(column, "not_outlier", value, min(i, at), max(i, at) + 1))
    return found


def missing_rows(tokens: Sequence[Token], mentions: Sequence[Mention]) -> tuple[Any, tuple[int, int] | None]:
    """("all" | [columns] | None, consumed span) for "ignoring rows with missing values" and the like."""
    for i, token in enumerate(tokens):
        if token.low not in _DROP_WORDS and not (token.low in ("complete", "non-missing") and i + 1 < len(tokens)):
            continue
        if token.low == "non-missing":
            return "used", (i, i + 1)
        if token.low == "complete":
            if tokens[i + 1].low in ("rows", "row", "cases", "case", "records", "observations"):
                return "all", (i, i + 2)
            continue
        for j in range(i + 1, min(len(tokens), i + 7)):
            if tokens[j].text in (".", "?", "!", ";"):
                break
            if tokens[j].low in _MISSING_WORDS:
                end = (
                    j + 2
                    if j + 1 < len(tokens) and tokens[j + 1].low in ("values", "value", "data", "entries")
                    else j + 1
                )
                inside = [m.column for m in mentions if i < m.start and m.end <= j]
                return (inside or "all"), (i, end)
    return None, None


SIGN_REACH = 6          # tokens between a sign word and the column it qualifies


def signs(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
          taken: set[int]) -> list[Filter]:
    """"quarters in which realint was negative", "positive returns": the sign of the nearest numeric column."""
    numeric = [m for m in mentions if kinds.get(m.column) in NUMERIC_KINDS and m.start not in taken]
    found = []
    for i, token in enumerate(tokens):
        if token.low not in SIGNS or i in taken:
            continue
        near = [m for m in numeric if 0 < i - m.end + 1 <= SIGN_REACH or 0 <= m.start - i - 1 <= 1]
        if not near:
            continue
        column = min(near, key=lambda m: abs(m.start - i))
        op, value = SIGNS[token.low]
        found.append(Filter(column.column, op, value, min(i, column.start), max(i + 1, column.end)))
    return found
