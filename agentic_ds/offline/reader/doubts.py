"""Whether a question was read with confidence: what of it no reader used, and groups named by their values.

A question is read with confidence when every number in it and every word that changes what it asks
(`vocabulary.DOUBT_WORDS`: a statistic, a sign, a grouping, an exclusion) was used by some reader, every answer
slot is tied to something computed, and every filter names its column. Otherwise the offline model says what it
could not read and does not answer: a wrong answer stated with confidence is worse than none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.filters import Filter
from agentic_ds.offline.reader.mentions import Mention, Token
from agentic_ds.offline.reader.vocabulary import DOUBT_WORDS

if TYPE_CHECKING:
    from agentic_ds.offline.reader.spec import QuestionSpec

GROUP_TESTS = ("ttest", "mannwhitney", "anova", "levene")
PER_GROUP_STATS = frozenset({"mean", "median", "sum", "min", "max", "std", "var", "count", "percentile"})
CONTRAST_WORDS = frozenset({"versus", "vs", "compare", "compared", "against", "each"})
MAX_LISTED = 5


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
        takers = [a for a in asks if not a.group and (a.stat in GROUP_TESTS
                                                       or a.stat in PER_GROUP_STATS and (several or contrast))]
        if not takers:
            continue
        for ask in takers:
            ask.group = column
            ask.params["levels"] = [str(v) for v in levels]
        used.update(contrast)
        start, end = min(f.start for f in group_filters), max(f.end for f in group_filters)
        filters = [f for f in filters if f not in group_filters] + [Filter(column, "in", levels, start, end)]
    return filters


def doubts_of(tokens: Sequence[Token], mentions: Sequence[Mention], consumed: set[int],
              spec: QuestionSpec) -> list[str]:
    """What keeps the reading of `spec` from confidence, one phrase each; [] when it was read whole."""
    exact = {p for m in mentions if m.exact for p in range(m.start, m.end)}
    named = {p for m in mentions for p in range(m.start, m.end)}       # "Unnamed: 1" is a column, not a number
    named |= {m.end for m in mentions if m.end < len(tokens) and m.column.endswith(tokens[m.end].text)}
    numbers = [t.text for i, t in enumerate(tokens) if t.is_number and i not in consumed and i not in named]
    words = [t.low for i, t in enumerate(tokens)
             if t.low in DOUBT_WORDS and i not in consumed and i not in exact]
    doubts = []
    if numbers:
        doubts.append(f"the number(s) {_listed(numbers)} could not be tied to a column, a period or a rule")
    if words:
        doubts.append(f"the word(s) {_listed(words)} could not be read into the computation")
    bound = {slot for ask in spec.asks for slot in ask.slots.values()}
    unbound = [s for s in spec.slots if s not in bound]
    if unbound:
        doubts.append(f"the answer slot(s) {_listed(['@' + s for s in unbound])} match nothing computed")
    for ask in spec.asks:
        if ask.stat in GROUP_TESTS and not ask.group:
            doubts.append(f"the groups of the {ask.stat} of {ask.column} are not named")
        if ask.stat in ("pearson", "spearman", "kendall", "linreg", "chi2", "paired") and not ask.second:
            doubts.append(f"the {ask.stat} needs two columns")
    guessed = [f.text() for f in spec.filters if f.guessed]
    if guessed:
        doubts.append(f"no column was named for {_listed(guessed)}")
    return doubts


def _listed(items: Sequence[str]) -> str:
    shown = list(dict.fromkeys(f"'{i}'" if not i.startswith(("'", "@")) else i for i in items))
    return ", ".join(shown[:MAX_LISTED]) + (" ..." if len(shown) > MAX_LISTED else "")
