"""Which rows a question names by their values: a category ("the Engineering department", "sensor B", "in Asia"),
a yes/no column said as a quality ("remote employees"), a value the profile does not list ("customers from Norway").

Each finder walks the tokens once with bounded look-ahead (linear in the task) and records the tokens it used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_ds.offline.reader.filters import CODE_NAME, MAX_VALUE_TOKENS, VALUE_KINDS, Filter
from agentic_ds.offline.reader.mentions import Mention, Token, tokenize
from agentic_ds.offline.reader.vocabulary import DOUBT_WORDS, GENERIC_VALUES, NEGATION, UNSEEN_LEADS
from agentic_ds.profiling.model import ColumnProfile


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
            lead = i - 2 if i >= 2 and tokens[i - 1].low == "the" else i - 1
            negated = lead >= 0 and tokens[lead].low in NEGATION
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
        if not _capitalised(tokens, i, taken | mentioned) or lead < 0 or tokens[lead].low not in UNSEEN_LEADS:
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
