"""Whether a question was read with confidence: what of it no reader used, and groups named by their values.

A question is read with confidence when every number in it and every word that changes what it asks
(`vocabulary.DOUBT_WORDS`: a statistic, a sign, a grouping, an exclusion) was used by some reader, every answer
slot is tied to something computed, and every filter names its column. The reading is also checked against facts
of the profile: a value of the data that the question names must be used, rows are not counted per a column that
is unique per row, and values named together ("Finance, and Support") are pooled only when the question says so.
Otherwise the offline model says what it could not read and does not answer: a wrong answer stated with
confidence is worse than none.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.filters import Filter
from agentic_ds.offline.reader.mentions import Mention, Token
from agentic_ds.offline.reader.mentions import words as split_words
from agentic_ds.offline.reader.vocabulary import (
    BACK_REFERENCES,
    DECADES,
    DOUBT_PHRASES,
    DOUBT_WORDS,
    GROUP_TESTS,
    NEGATIONS,
    NUMBER_WORDS,
    NUMERIC_STATS,
    ONE_WORD_STATS,
    ORDINALS,
    PER_GROUP_STATS,
    STOP_WORDS,
)

if TYPE_CHECKING:
    from agentic_ds.offline.reader.spec import QuestionSpec
    from agentic_ds.profiling.model import ColumnProfile, FileProfile

P_VALUED = frozenset({*GROUP_TESTS, "chi2", "paired", "shapiro", "dagostino", "ks"})    # tests whose value is a p
DENIALS = frozenset({"nobody", "never", "none", "neither", "nor", "nothing"})
COMPARING = frozenset({"above", "below", "exceed", "exceeds", "exceeding", "exceeded"})
COMPARED = frozenset({"more", "less", "greater", "fewer", "larger", "smaller", "higher", "lower", "bigger", "other"})
ARITHMETIC = frozenset({"/", "*", "×", "**"})      # an expression no reader used: the question derives something
CONTRAST_WORDS = frozenset({"versus", "vs", "compare", "compared", "against", "each", "minus"})
POOLING_WORDS = frozenset({"or", "either", "combined", "together", "pooled", "any"})
POOLING_REACH = 3         # words after the values that may still pool them ("Oslo and Krakow staff combined")
MAX_LISTED = 5
NAMED_REACH = 3           # tokens from a statistic's first word to the column it names ("standard deviation of x")
COUNTED = frozenset({"count", "nunique", "missing", "percent_rows", "percent", "mode"})   # fine of a numbering column
DESCRIBED = 4             # words from "total" to the bracketed column name it describes


def named_groups(asks: list[Ask], filters: list[Filter], tokens: Sequence[Token], used: set[int]) -> list[Filter]:
    """Groups named by their values: "between malignant and benign tumours", "(GRADE = 1) and (GRADE = 0)".

    The filters read those values as rows to keep; for a test of two or more groups, and for a statistic asked of
    each ("malignant versus benign", two `==` on one column), they are the groups: the ask is grouped by the
    column, with those levels, and the rows kept are theirs (one `in` filter). Returns the filters."""
    by_column: dict[str, list[Filter]] = {}
    for found in filters:
        if found.op in ("==", "in"):
            by_column.setdefault(found.column, []).append(found)
    contrast = [i for i, t in enumerate(tokens) if t.low in CONTRAST_WORDS]
    for column, group_filters in by_column.items():
        levels = [v for f in group_filters for v in (f.value if isinstance(f.value, list) else [f.value])]
        if len(levels) < 2:
            continue
        several = sum(f.op == "==" for f in group_filters) >= 2
        # a test whose groups were not named by value takes these, in the order the question names them
        takers = [a for a in asks if not a.group and (a.stat in GROUP_TESTS
                                                       or a.stat in PER_GROUP_STATS and (several or contrast))
                  or a.group and a.stat in GROUP_TESTS and not a.params.get("levels")]
        if not takers:
            continue
        for ask in takers:
            ask.group = column
            ask.params["levels"] = [str(v) for v in levels]
        used.update(contrast)
        start, end = min(f.start for f in group_filters), max(f.end for f in group_filters)
        filters = [f for f in filters if f not in group_filters] + [Filter(column, "in", levels, start, end)]
    return filters


def _named_after(ask: Ask, mentions: Sequence[Mention]) -> bool:
    """Whether the statistic's own words name its column by its name ("the mean of Unnamed: 1", "mean amount"):
    then it is asked for, whatever its values; "each year's mean" or "average yearly activity" only point at it."""
    following = next((m for m in mentions if ask.position < m.start <= ask.position + NAMED_REACH), None)
    return following is not None and following.exact and following.column == ask.column


def restated(tokens: Sequence[Token], filters: Sequence[Filter], per_row: frozenset[str] | set[str]) -> set[int]:
    """Words that say again what a filter already reads ("married for 10 years or more (yrs_married >= 10)"), or say
    which rows there are ("all 150 flowers", "each household's")."""
    values = {f.value for f in filters if isinstance(f.value, (int, float))}
    decades = {f.value for f in filters if f.op == ">=" and f.value + 9 in values}      # "the sixties ... 1960-69"
    said = {i for i, token in enumerate(tokens) if DECADES.get(token.low) in decades}
    for i, token in enumerate(tokens):
        value = token.value
        if value is not None and value in values:
            tail = [j for j in range(i + 1, min(len(tokens), i + 4)) if tokens[j].low in ("or", "more", "less",
                                                                                          "fewer", "above", "below")]
            said |= {i, *tail}
        if value is not None and i and tokens[i - 1].low == "all":               # "all 150 flowers": the rows, counted
            said.add(i)
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.low in ("each", "every") and following is not None and (following.possessive or following.word
                                                                          in per_row):
            said |= {i - 1, i} if i and tokens[i - 1].low == "for" else {i}   # "for each order": per row
    return said


def doubts_of(tokens: Sequence[Token], mentions: Sequence[Mention], consumed: set[int],
              spec: QuestionSpec, measures: set[str], files: Sequence[FileProfile]) -> list[str]:
    """What keeps the reading of `spec` from confidence, one phrase each; [] when it was read whole. `measures`
    are the numeric columns that name no groups: one the question names must be used. `files` are the profiles
    the reading is checked against: a value of a column that the question names and no reader used is a doubt."""
    columns = [c for data in files for c in data.columns]
    distinct = {c.name: c.distinct for c in columns if c.distinct}
    exact = {p for m in mentions if m.exact for p in range(m.start, m.end)}
    # "the mean for the first quarter as @infl_q1[...]": an ordinal before a column whose groups the slots name
    slotted = {a.group for a in spec.asks if a.group and any(p.startswith("group:") for p in a.slots)}
    consumed = consumed | {m.start - 1 for m in mentions if m.column in slotted and m.start
                           and tokens[m.start - 1].low in ORDINALS}
    # "total employment (TOTEMP)": "total" describes the column named in brackets, which an ask measures
    used = {c for a in spec.asks for c in (a.column, a.second) if c}
    bracketed = {m.start - 1 for m in mentions if m.column in used and m.start and tokens[m.start - 1].text == "("}
    consumed = consumed | {i for i, t in enumerate(tokens) if t.low == "total" and
                           any(i < b <= i + DESCRIBED for b in bracketed)}
    named = {p for m in mentions for p in range(m.start, m.end)}       # "Unnamed: 1" is a column, not a number
    named |= {m.end for m in mentions if m.end < len(tokens) and m.column.endswith(tokens[m.end].text)}
    # a number word that says again a number the reading uses: "three standard deviations", "the two groups"
    said = {float(a.params[k]) for a in spec.asks for k in ("threshold", "factor")
            if isinstance(a.params.get(k), (int, float))}
    said |= {float(len(a.params.get("levels") or ()) or distinct.get(a.group, 0)) for a in spec.asks}
    numbers = [t.text for i, t in enumerate(tokens) if (t.is_number or t.low in NUMBER_WORDS and t.low != "one"
                                                        and NUMBER_WORDS[t.low] not in said)
               and i not in consumed and i not in named]
    operand = named | {i for i, t in enumerate(tokens) if t.is_number}
    words = [t.low for i, t in enumerate(tokens) if i not in consumed and i not in exact and (
        t.low in DOUBT_WORDS or t.text in ARITHMETIC and (i - 1 in operand or i + 1 in operand))]
    doubts = doubt_of(numbers, "the number(s) {} could not be tied to a column, a period or a rule")
    doubts += doubt_of(words, "the word(s) {} could not be read into the computation")
    bound = {slot for ask in spec.asks for slot in ask.slots.values()}
    doubts += doubt_of(["@" + s for s in spec.slots if s not in bound], "the answer slot(s) {} match nothing computed")
    for ask in spec.asks:
        if ask.stat in GROUP_TESTS and not ask.group:
            doubts.append(f"the groups of the {ask.stat} of {ask.column} are not named")
        if ask.stat in ("pearson", "spearman", "kendall", "linreg", "chi2", "paired") and not ask.second:
            doubts.append(f"the {ask.stat} needs two columns")
    fixed = {f.column for f in spec.filters if f.op == "=="}
    if any(a.stat == "percent_rows" for a in spec.asks) and len({f.column for f in spec.filters}) > 1:
        doubts.append("the share's rows and the rows it is taken of are not told apart")   # "among X, what share Y"
    for ask in spec.asks:
        if ask.stat == "chi2" and any(f.column in (ask.column, ask.second) for f in spec.filters):
            doubts.append(f"{ask.column} or {ask.second} is both tested and filtered (a derived indicator?)")
        if ask.stat in P_VALUED and "value" in ask.slots:   # "@U[value]": the slot names no part of the test
            doubts.append(f"the slot @{ask.slots['value']} names no output of the {ask.stat} test")
        if ask.column in fixed and not ask.group and ask.stat != "chi2":    # "what share has GRADE = 1": a filter?
            doubts.append(f"the {ask.stat} of {ask.column} is asked of rows where {ask.column} has one value")
    phrases = [" ".join(p) for p in DOUBT_PHRASES if _has_phrase(tokens, p, consumed)]
    doubts += doubt_of(phrases, "the phrase(s) {} ask for what the offline model does not compute")
    touched = set(spec.columns) | {c for d in spec.derived for c in d.columns} | {d.name for d in spec.derived}
    touched |= set(spec.dropna) if isinstance(spec.dropna, list) else set()     # "birds with no mass skipped"
    idle = [m.column for m in mentions if (m.exact or m.end - m.start > 1) and m.column in measures
            and m.column not in touched]        # named whole, or by two words of it ("body mass" for body_mass_g)
    # "regress y on x1 and x2" read as y on x1: a measure the question names went unused
    doubts += doubt_of(idle, "the column(s) {} are named but not used")
    taken_values = {str(v).lower() for f in spec.filters for v in (f.value if isinstance(f.value, list) else [f.value])}
    taken_values |= {str(v).lower() for a in spec.asks for v in a.params.get("levels") or ()}
    values = {str(v).lower() for c in columns if c.kind != "numeric" for v, _ in c.top_values
              if isinstance(v, str) and v.isalpha() and len(v) > 2} - STOP_WORDS - taken_values
    unused = [t.text for i, t in enumerate(tokens) if i not in consumed and i not in named and {t.low, t.word} & values]
    # "Chinstraps" (plural); "for IBM and for Goodyear" read as Goodyear alone; "among Saturday dinner parties"
    doubts += doubt_of(unused, "the value(s) {} of the data are named but not used")
    # "the mean salary of Finance staff, and of Support staff": one figure over both, or one each? Said with "or"
    # ("in Finance or Support") the rows are pooled; otherwise a statistic not grouped by that column is a guess.
    grouped = {a.group for a in spec.asks}
    doubts += [f"{_listed([str(v) for v in f.value])}: one figure over all, or one for each?" for f in spec.filters
               if f.op == "in" and f.column not in grouped
               and not any(t.low in POOLING_WORDS for t in tokens[f.start:f.end + POOLING_REACH])]
    unique = {c.name for data in files for c in data.columns if data.rows and c.distinct == data.rows}
    numbering = {c.name for data in files for c in data.columns if c.name in unique and _sequence(c, data.rows or 0)}
    doubts += [f"every {a.group} has one row, so counting rows per {a.group} tells nothing" for a in spec.asks
               if a.group in unique and a.stat in ("count", "percent_rows") and not spec.joins]
    spelled = {m.column for m in mentions if m.exact}
    # "average yearly sunspot activity" read as the mean of YEAR, or tested for normality
    doubts += [f"{a.column} numbers the rows (each value once, in sequence): its {a.stat} measures nothing"
               for a in spec.asks if a.column in numbering and not _named_after(a, mentions)
               and (a.stat in NUMERIC_STATS or a.stat not in COUNTED and a.column not in spelled)]
    if any(a.stat == "percent_rows" for a in spec.asks) and not spec.filters and not spec.dropna:
        doubts.append("a share of the rows is asked, but no condition was read that chooses them")
    # "bill strictly above that median", "other than the District of Columbia"
    compared = [t.text for i, t in enumerate(tokens) if i not in consumed and not outlier_rule_applied(spec) and (
        t.low in COMPARING or t.low == "than" and i and tokens[i - 1].low in COMPARED)]
    doubts += doubt_of(compared, "the comparison(s) {} select no rows a filter read")
    counted_missing = any(a.stat == "missing" for a in spec.asks)      # "weeks that have no measurement"
    denied = [t.text for i, t in enumerate(tokens) if i not in consumed and (t.low in NEGATIONS | DENIALS or t.low[
        :4] == "non-" and i not in named)                         # "non-Engineering" (not "non-smokers": a column)
              and not (counted_missing and t.low == "no")]
    # "nobody recorded whether they are male or female" read as the rows that are
    doubts += doubt_of(denied, "the negation(s) {} are not read")
    doubts += _idle_or_empty(spec, columns)
    back = [t.text for i, t in enumerate(tokens) if i not in consumed and (
        t.low == "their" and i + 1 < len(tokens) and tokens[i + 1].low in ONE_WORD_STATS
        or t.low in BACK_REFERENCES and i and tokens[i - 1].low in ("of", "among"))]
    chosen = spec.filters or spec.dropna or any(a.group for a in spec.asks)     # "...the lowest rating. Their mean"
    doubts += doubt_of(back if not chosen else [], "{} refers to rows no condition read selects")
    return doubts + doubt_of([f.text() for f in spec.filters if f.guessed], "no column was named for {}")


def _idle_or_empty(spec: QuestionSpec, columns: Sequence[ColumnProfile]) -> list[str]:
    """Conditions the data contradicts, by the profile's range of each column: one bound that every row meets
    selects nothing ("income > 3" where incomes run from 377 up: the number belongs to something else, here a
    z-score), and one that no row meets ("quarter < 0" for "quarters with a negative rate") was tied to the wrong
    column, or leaves nothing to answer from. A one-sided bound is monotone, so the two ends decide it."""
    ranges = {c.name: (c.min, c.max) for c in columns if _number(c.min) and _number(c.max)}
    bounds: dict[str, list[Filter]] = {}
    for found in spec.filters:
        if found.column in ranges and found.op in (*_BOUNDS, "==") and _number(found.value):
            bounds.setdefault(found.column, []).append(found)
    doubts = []
    for column, said in bounds.items():
        low, high = ranges[column]
        ends = [{_BOUNDS[f.op](end, f.value) for end in (low, high)} if f.op in _BOUNDS
                else {False, low <= f.value <= high} for f in said]       # {True}: every row, {False}: none
        shown = f"{column} runs from {low:g} to {high:g}"
        if len(said) == 1 and ends[0] == {True} and split_words(column)[-1:] != ["year"]:
            doubts.append(f"`{said[0].text()}` keeps every row ({shown}): the number is not a bound of {column}")
        elif {False} in ends:
            doubts.append(f"no row meets `{' and '.join(f.text() for f in said)}` ({shown})")
    return doubts


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_BOUNDS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


def outlier_rule_applied(spec: QuestionSpec) -> bool:
    """An ask counts outliers or a filter drops them: the rule's words ("above Q3 + 1.5 IQR") are read with it."""
    return any(a.stat.startswith("outliers") for a in spec.asks) or any(f.op == "not_outlier" for f in spec.filters)


def _sequence(column: ColumnProfile, rows: int) -> bool:
    """Whole numbers from min to max, each once: a row number or a year per row, not a measurement."""
    low, high = column.min, column.max
    return isinstance(low, (int, float)) and isinstance(high, (int, float)) and low == int(low) and \
        high - low + 1 == rows


def _has_phrase(tokens: Sequence[Token], phrase: tuple[str, ...], consumed: set[int]) -> bool:
    return any(tuple(t.low for t in tokens[i: i + len(phrase)]) == phrase and not set(range(i, i + len(phrase))) <=
               consumed for i in range(len(tokens) - len(phrase) + 1) if tokens[i].low == phrase[0])


def doubt_of(items: Sequence[str], sentence: str) -> list[str]:
    """`sentence` naming `items` at its `{}`, or nothing when there are none."""
    return [sentence.format(_listed(items))] if items else []


def _listed(items: Sequence[str]) -> str:
    shown = list(dict.fromkeys(f"'{i}'" if not i.startswith(("'", "@")) else i for i in items))
    return ", ".join(shown[:MAX_LISTED]) + (" ..." if len(shown) > MAX_LISTED else "")
