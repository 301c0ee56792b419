"""Which rows a question is about: comparisons, signs, outliers and missing values to leave out (named values:
`values.py`, which also reads periods).

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

from agentic_ds.offline.reader.constraints import deviations_at
from agentic_ds.offline.reader.mentions import SENTENCE_END, Mention, Token, number, value_of
from agentic_ds.offline.reader.vocabulary import CLAUSE_WORDS as _CLAUSE_WORDS
from agentic_ds.offline.reader.vocabulary import COMPARATORS as _COMPARATORS
from agentic_ds.offline.reader.vocabulary import DROP_WORDS as _DROP_WORDS
from agentic_ds.offline.reader.vocabulary import EXCLUSIONS, EXCLUSIONS_AFTER, LEAVING, RECORDED, ROW_NOUNS, SIGNS
from agentic_ds.offline.reader.vocabulary import LINK_WORDS as _LINK
from agentic_ds.offline.reader.vocabulary import MISSING_WORDS as _MISSING_WORDS
from agentic_ds.offline.reader.vocabulary import OR_MORE as _OR_MORE
from agentic_ds.offline.reader.vocabulary import OUTLIER_WORDS as _OUTLIER_WORDS
from agentic_ds.profiling.model import ColumnProfile

VALUE_KINDS = ("categorical", "boolean", "text", "id")
MAX_VALUE_TOKENS = 4
DROP_REACH = 8            # words between a missing-value word and the word leaving its rows out
MAX_LEVELS = 60           # a numeric column with this few values has levels ("cultivar 3") and groups rows
# Two words saying rows are left out ("don't count", "left out"; "count" also as "counted", "counting").
_LEFT_OUT = frozenset({*((no, "count") for no in ("not", "don't", "dont", "doesn't", "doesnt", "never")),
                       ("left", "out")})
_UNITS_AFTER = frozenset({"decimal", "decimals", "percent", "%", "times", "or", "and"})
CODE_NAME = re.compile(r"(^|_)(id|key|code|uuid)$|[a-z]Id$|ID$", re.I)


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
            return f"{self.column} " + " and ".join(f"{op} {self.value[side]}" for side, op in (("from", ">="), (
                "to", "<")) if self.value.get(side))
        shown = ", ".join(map(str, self.value)) if isinstance(self.value, list) else self.value
        return f"{self.column} {self.op} {shown}"


def comparisons(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
                taken: set[int], columns: Mapping[str, ColumnProfile] | None = None) -> list[Filter]:
    """`<column> <comparator> <number>` (or `<comparator> <number> <column>`), and `between A and B`; with no
    column named ("earn more than 80000"), the only numeric column whose values span the number."""
    numeric = [m for m in mentions if kinds.get(m.column) == "numeric"]
    ends, starts = {m.end: m for m in numeric}, {m.start: m for m in numeric}
    found: list[Filter] = []
    i = 0
    while i < len(tokens):
        op, width = next(((op, len(said)) for said, op in _COMPARATORS
                          if tuple(t.low for t in tokens[i: i + len(said)]) == said), (None, 0))
        if tokens[i].low == "between":
            op, width = "between", 1
        j = i + width
        value = value_of(tokens[j]) if op and j < len(tokens) else None
        upper = number(tokens[j + 2].text) if j + 2 < len(tokens) and tokens[j + 1].low == "and" else None
        if i in taken or not op or value is None or op == "between" and upper is None or j + 1 < len(
                tokens) and deviations_at(tokens, j + 1):       # "less than 2 SD"
            i += 1
            continue
        column = (_age_column(tokens, i, i, kinds) or _before(ends, tokens, i) or starts.get(j + 1)
                  or starts.get(j + 2) or next((Mention(i, i, f.column, False) for f in found
                                                               if (f.op, f.value) == (op, value)), None))
        guessed = column is None and op != "between" and _ends_clause(tokens, j + 1)
        column = column or (_spanning(value, columns or {}, i) if guessed else None)
        if column is None:
            i += 1
            continue
        start, end = min(column.start, i), max(column.end, j + 1)
        if op == "between":
            end = max(end, j + 3)
            found += [Filter(column.column, ">=", value, start, end), Filter(column.column, "<=", upper, start, end)]
        elif op == "==" and _listed(tokens, j + 1):       # "religious = 1, 2, 3, 4"
            values, end = [value], j + 1
            while _listed(tokens, end) and (listed := number(tokens[end + 1].text)) is not None:
                values.append(listed)
                end += 2
            found.append(Filter(column.column, "in", values, start, end))
        else:
            found.append(Filter(column.column, op, value, start, end, guessed))
        i = end
    return found + _or_more(tokens, starts, ends, taken | {p for f in found for p in range(f.start, f.end)}, kinds)


def _listed(tokens: Sequence[Token], at: int) -> bool:
    """", 2" (or ", and 2") continues a list of values at `at`."""
    return at + 1 < len(tokens) and tokens[at].text == "," and tokens[at + 1].is_number


def level_numbers(tokens: Sequence[Token], mentions: Sequence[Mention], columns: Mapping[str, ColumnProfile],
                  taken: set[int]) -> list[Filter]:
    """"For cultivar 3", "rating 5": a number right after a column of few values is one of its values (kept,
    or left out: "excluding occupation 1")."""
    found = []
    for mention in mentions:
        column = columns.get(mention.column)
        at = mention.end
        if (column is None or column.kind != "numeric" or (column.distinct or 99) > MAX_LEVELS or at >= len(tokens)
                or at in taken or mention.start in taken or not tokens[at].is_number
                or at + 1 < len(tokens) and tokens[at + 1].low in _UNITS_AFTER):
            continue
        excluded = excluded_from(tokens, mention.start, at + 1)       # "excluding occupation 1"
        start, end = excluded or (mention.start, at + 1)
        found.append(Filter(mention.column, "!=" if excluded else "==", tokens[at].value, start, end))
    return found


def excluded_from(tokens: Sequence[Token], i: int, end: int | None = None) -> tuple[int, int] | None:
    """The span of the words leaving out the value at `i` (its words, with a column named beside them, end at `end`)
    with it, else None: said before it ("other than", "apart from the", "leaving out"), after it ("with setosa
    excluded", "GM aside"), or around it ("leaving the Marketing department aside", "setosa left out")."""
    lead = i - 1 if i >= 1 and tokens[i - 1].low == "the" else i
    before = next((lead - len(said) for said in EXCLUSIONS if lead >= len(said) and tuple(
        t.low for t in tokens[lead - len(said): lead]) == said), None)
    end = i + 1 if end is None else end
    after = next((len(said) for said in EXCLUSIONS_AFTER if tuple(t.low for t in tokens[end: end + len(said)]) == said
                  and (said != ("out",) or lead and tokens[lead - 1].low in LEAVING)), None)
    if after is not None:
        return (before if before is not None else lead - (lead > 0 and tokens[lead - 1].low in LEAVING), end + after)
    return None if before is None else (before, end)


def _age_column(tokens: Sequence[Token], said: int, at: int, kinds: Mapping[str, str]) -> Mention | None:
    """"older than 50", "aged over 50", "aged 30 or younger" (the comparison word at `said`, the bound or its
    comparison at `at`) compare the age, even when the question never says "age"."""
    aged = at > 0 and tokens[at - 1].low == "aged"
    if tokens[said].low not in ("older", "younger") and not aged:
        return None
    ages = [name for name, kind in kinds.items() if kind == "numeric" and "age" in name.lower().split("_")]
    return Mention(at - aged, at, ages[0], False) if len(ages) == 1 else None


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
        if column.kind == "numeric" and not CODE_NAME.search(name) and low < value < high:
            holding.append(name)
    return Mention(at, at, holding[0], False) if len(holding) == 1 else None


def _before(ends: dict[int, Mention], tokens: Sequence[Token], i: int) -> Mention | None:
    """The numeric column named just before position `i` (linking words like "is", "of" may sit between)."""
    return next(ends.get(j) for j in range(i, i - 4, -1)          # up to three words back
                if j in ends or j == i - 3 or j - 1 < 0 or tokens[j - 1].low not in _LINK)


def _or_more(tokens: Sequence[Token], starts: dict[int, Mention], ends: dict[int, Mention],
             taken: set[int], kinds: Mapping[str, str]) -> list[Filter]:
    """`10 or more years_experience` / `5 or fewer units` / "aged 65 and over"."""
    found = []
    for i in range(len(tokens) - 2):
        key = (tokens[i + 1].low, tokens[i + 2].low)
        if i in taken or value_of(tokens[i]) is None or key not in _OR_MORE or i + 3 < len(tokens) and value_of(
                tokens[i + 3]) is not None:                     # "30 and under 40": the bound of the next number
            continue
        column = (_age_column(tokens, i + 2, i, kinds) or starts.get(i + 3) or starts.get(i + 4)
                  or _before(ends, tokens, i))
        if column is not None:
            found.append(Filter(column.column, _OR_MORE[key], value_of(tokens[i]), min(i, column.start),
                                max(i + 3, column.end)))
    return found


def outlier_removal(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str], taken: set[int],
                    rule: str, threshold: float, side: str = "", ddof: int | None = None) -> list[Filter]:
    """"remove the outliers of bonus (z-score above 3), then ...": rows whose value is an outlier by the stated
    rule are dropped before the statistics. The outlier words are consumed, so they are not also counted."""
    found = []
    for i, token in enumerate(tokens):
        if token.low not in _DROP_WORDS and token.low not in ("filter", "filtering"):
            continue
        at = next((j for j in range(max(0, i - 4), min(len(tokens), i + 5)) if tokens[j].low in _OUTLIER_WORDS), None)
        if at is None or i in taken:
            continue
        near = [m for m in mentions
                if kinds.get(m.column) == "numeric" and abs(m.start - at) <= 6 and m.start not in taken]
        if not near:
            continue
        column = min(near, key=lambda m: abs(m.start - at)).column
        value = {"rule": rule, "threshold": threshold, **({"side": side} if side and rule == "z" else {}),
                 **({"ddof": ddof} if ddof is not None and rule == "z" else {})}
        found.append(Filter(column, "not_outlier", value, min(i, at), max(i, at) + 1))
    return found


def missing_rows(tokens: Sequence[Token], mentions: Sequence[Mention], columns: Mapping[str, ColumnProfile]
                 ) -> tuple[Any, tuple[int, int]]:
    """("all" | "used" | [columns] | None, consumed span) for "ignoring rows with missing values" (in the columns
    used), "missing values dropped", "(rows with missing sex or mass excluded)", "rows where sex is blank don't
    count", "birds with no mass skipped", "complete rows", "with no missing value in any column"."""
    for i, token in enumerate(tokens):
        if token.low == "non-missing":
            return "used", (i, i + 1)
        if token.low == "complete" and i + 1 < len(tokens) and tokens[i + 1].low in ROW_NOUNS | {"cases", ","}:
            said = [j for j in range(i + 2, min(len(tokens), i + 5)) if tokens[j].low in _MISSING_WORDS
                    and tokens[j - 1].low == "no"]          # "complete, with no missing value"
            return "all", (i, _after_missing(tokens, said[0]) if said else i + 2)
        unrecorded = _unrecorded(tokens, i, mentions, columns)
        if token.low not in _MISSING_WORDS and unrecorded is None:
            continue
        if i and tokens[i - 1].low == "no":            # "with no missing value in any column": complete rows
            end = _after_missing(tokens, i)
            return "all", (max(0, i - 2 if tokens[i - 2].low == "with" else i - 1), end)
        drop = _drop_word_near(tokens, i, {p for m in mentions for p in range(m.start, m.end)})
        if drop is None:
            continue
        low, high = min(i, drop), max(i, drop)
        inside = [m.column for m in mentions if low < m.start and m.end <= high] or [      # or "sex is blank"
            m.column for m in mentions if m.end == i or m.end == i - 1 and tokens[i - 1].low in _LINK]
        end = max(high + 1, _after_missing(tokens, i) if unrecorded is None else unrecorded)
        if unrecorded is not None:           # "ignoring penguins with no body mass recorded": those columns
            inside = [m.column for m in mentions if i <= m.start and m.end <= max(unrecorded, high)]
            low = min(low, i - 1 if i and tokens[i - 1].low == "with" else i)
        anywhere = [j for j in range(max(0, low - 3), min(len(tokens), end + 3)) if tokens[j].low == "any"]
        if anywhere:                                 # "rows with a missing value in any column dropped"
            return "all", (min(low, *anywhere), max(end, anywhere[-1] + 1))
        # "missing values dropped": in the columns the analysis uses, not listwise over the whole table
        return (inside or "used"), (low, end)
    return None, (0, 0)


def _unrecorded(tokens: Sequence[Token], at: int, mentions: Sequence[Mention], columns: Mapping[str, ColumnProfile]
                ) -> int | None:
    """Where "no <columns> recorded" ends when a "no" starts it, else None; also "no mass", "no-tip" for a numeric
    column that never holds zero ("no bonus" may be a bonus of 0, "no smokers" the non-smokers)."""
    low = tokens[at].low
    recorded = next((j + 1 for j in range(at + 2, min(len(tokens), at + UNRECORDED_WORDS)) if tokens[j].low in
                     RECORDED and not any(t.text in SENTENCE_END for t in tokens[at:j])), None) if low == "no" else None
    right = next((m for m in mentions if m.start == at + (low == "no") and (low == "no" or low[:3] == "no-")), None)
    column = columns.get(right.column) if right and recorded is None else None
    kept = column and column.kind == "numeric" and isinstance(column.min, (int, float)) and column.min > 0
    return right.end if right and kept else recorded


def _drop_word_near(tokens: Sequence[Token], at: int, named: set[int]) -> int | None:
    """A word saying rows are left out ("don't count", "left out"), within eight words of a missing-value word in
    its sentence, with no value or number between ("excluding Oslo staff with no bonus": not only no-bonus rows)."""
    for step in range(1, DROP_REACH + 1):
        for j in (at - step, at + step):
            if 0 <= j < len(tokens) and (tokens[j].low in _DROP_WORDS
                                         or (tokens[j - (j > 0)].low, tokens[j].low[:5]) in _LEFT_OUT):
                if not any(t.text in SENTENCE_END or k not in named and (t.text[:1].isupper() or t.is_number)
                           for k, t in enumerate(tokens[min(j, at) + 1: max(j, at)], min(j, at) + 1)):
                    return j - (j < at and tokens[j].low[:5] == "count")        # "not counting rows with no ..."
    return None


def _after_missing(tokens: Sequence[Token], at: int) -> int:
    """One past "missing values", "missing data": the noun after a missing-value word is part of it."""
    return at + 2 if at + 1 < len(tokens) and tokens[at + 1].low in ("values", "value", "data", "entries", "ones") \
        else at + 1


UNRECORDED_WORDS = 7    # "no <up to four words of columns> recorded"
SIGN_REACH = 6          # tokens between a sign word and the column it qualifies


def signs(tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
          taken: set[int]) -> list[Filter]:
    """"quarters in which realint was negative", "positive returns": the sign of the nearest numeric column."""
    numeric = [m for m in mentions if kinds.get(m.column) == "numeric" and m.start not in taken]
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
