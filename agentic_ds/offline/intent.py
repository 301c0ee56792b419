"""What the user asked: a direct question (one number, one test, one trend) or an open task.

Parsing works on words, not on columns: it finds the statistic and splits the question into the
text naming the measured column, the grouping column, the compared groups. `question.py` binds
those texts to real columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

STATISTICS = ("mean", "median", "sum", "min", "max", "std", "count", "nunique", "missing", "percentile")

# Checked in order; the first pattern found wins (more specific phrases first).
_STAT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("missing", r"\b(missing|null|nan|empty|blank)\b"),
    ("nunique", r"\b(distinct|unique|different)\b"),
    (
        "percentile",
        r"\b(\d{1,2}(?:\.\d+)?)\s*(?:st|nd|rd|th)?\s*(?:percentile|pctl|centile)|\bp(\d{1,2})\b|\bquartile\b|\bpercentile\b",
    ),
    ("std", r"\b(standard deviation|std|stdev|std dev|variance|variability|spread)\b"),
    ("median", r"\bmedian\b"),
    ("mean", r"\b(average|mean|avg|typical)\b"),
    ("sum", r"\b(total|sum|overall amount|combined)\b"),
    ("max", r"\b(maximum|max|highest|largest|biggest|most expensive|longest|peak)\b"),
    ("min", r"\b(minimum|min|lowest|smallest|cheapest|shortest)\b"),
    ("count", r"\bhow many\b|\bnumber of\b|\bcount\b"),
)

_GROUP_SPLIT = re.compile(
    r"\s+(?:broken down by|grouped by|split by|for each|for every|in each|within each|per|by|across|among)\s+"
)
_WHICH = re.compile(
    r"\bwhich\s+([a-z0-9_\- ]+?)\s+(?:has|have|had|is|are|was|were|shows?|sees?|gets?|makes?|brings?)\b"
)
_EXTREME = (("max", r"\b(highest|most|largest|biggest|top|best|greatest|max|maximum)\b"),
            ("min", r"\b(lowest|least|smallest|fewest|worst|bottom|min|minimum)\b"))
_ADDITIVE = re.compile(r"\b(sales|revenue|units|quantity|amount|profit|orders|volume|turnover|income|spend)\b")

_CORRELATION = re.compile(
    r"\b(?:correlat\w*|relationship|association|associated|related|relate)\b.*?\bbetween\s+(.+?)\s+and\s+(.+?)(?:[?.!]|$)"
    r"|\b(?:correlation|relationship|association)\s+of\s+(.+?)\s+(?:and|with)\s+(.+?)(?:[?.!]|$)"
    r"|\bdoes\s+(.+?)\s+correlate\s+with\s+(.+?)(?:[?.!]|$)"
    r"|\bis\s+(.+?)\s+(?:correlated|associated|related)\s+(?:with|to)\s+(.+?)(?:[?.!]|$)"
)
_TOP_VALUES = re.compile(
    r"\b(?:most|least)\s+(?:common|frequent|popular|typical)\s+(.+?)(?:[?.!]|$)"
    r"|\btop\s+(\d+)?\s*(.+?)(?:\s+by\s+(?:count|frequency))?(?:[?.!]|$)"
    r"|\bwhich\s+(.+?)\s+(?:appears?|occurs?|shows?\s+up)\s+(?:the\s+)?most\b"
    r"|\bwhich\s+(.+?)\s+(?:is|are|was|were)\s+(?:the\s+)?most\s+(?:common|frequent|popular)\b"
)
_COMPARISON = re.compile(
    r"\b(?:is|are|does|do)\s+(?:the\s+)?(.+?)\s+(?:different|differ|higher|lower|bigger|smaller|better|worse)"
    r"(?:\s+\w+)?\s+(?:between|for|in|across|among)\s+(.+?)(?:[?.!]|$)"
    r"|\bcompare\s+(?:the\s+)?(.+?)\s+(?:between|across|among|for|by)\s+(.+?)(?:[?.!]|$)"
    r"|\bdifference\s+in\s+(.+?)\s+(?:between|across|among)\s+(.+?)(?:[?.!]|$)"
)
# "Do remote employees earn more than non-remote ones?", "Do senior staff have higher ratings than juniors?"
_MORE_THAN = re.compile(
    r"\b(?:do|does|did|are|is|were|was)\s+(?:the\s+)?(.+?)\s+(earn|make|get\s+paid|paid|get|have|receive|score|spend|sell)"
    r"\s+(?:a\s+|an\s+)?(?:more|less|higher|lower|bigger|smaller|larger|better|worse)\b\s*(.*?)\s+than\s+(.+?)(?:[?.!]|$)"
)
_MONEY_VERBS = {"earn": "earn", "make": "earn", "get paid": "paid", "paid": "paid"}
# "non-remote", "not remote", "other ones": the other level of the column the first group names.
_NEGATED = re.compile(r"^(?:non[\s-]?|not\s+|(?:the\s+)?others?\b|everyone\s+else\b|(?:the\s+)?rest\b)")

_TREND = re.compile(
    r"\b(?:how\s+(?:has|have|did|does)\s+(.+?)\s+(?:trend\w*|chang\w*|evolv\w*|develop\w*|grow\w*|mov\w*)"
    r"|trend\s+(?:of|in)\s+(.+?)(?:\s+over\s+time)?(?:[?.!]|$)"
    r"|(.+?)\s+(?:over\s+time|trend|by\s+(?:month|year|week|day|quarter)))"
)

_TREND_OF = re.compile(r"()\btrend\s+(?:of|in)\s+(.+?)(?:\s+over\s+time)?(?:[?.!]|$)")

GOALS = ("audit", "descriptive", "relationships", "group_comparisons", "trends", "distributions", "predictive")
_GOAL_WORDS: dict[str, str] = {
    "relationships": r"\bwhy\b|relationship|correlat|associat|driver|drive|affect|influenc|impact|factor|depend|relate",
    "group_comparisons": r"\bwhich\b|compar|differ|segment|between|versus|\bvs\b|by region|by group|which group|which "
                         r"segment",
    "trends": r"trend|over time|growth|grow|season|monthly|yearly|weekly|evolv|change over|time series",
    "distributions": r"distribut|outlier|skew|spread|anomal|histogram",
    "predictive": r"predict|forecast|model|classif|regress|estimate future|machine learning",
}
# "What drives revenue?": a careful analyst looks at every kind of driver - numeric relationships, differences
# between groups, and a model that weighs them together.
_DRIVERS = re.compile(r"\bdriv\w*|\bfactors?\b|affect|influenc|impact|explain|determin|\brelate")
_EXPLORE = re.compile(
    r"\b(explore|exploratory|eda|analy[sz]e|insights?|overview|understand|investigate|look at|report on)\b"
)

# Words that make a task open even when it mentions a statistic ("explore what drives total sales").
_OPEN_SIGNAL = re.compile(
    _EXPLORE.pattern
    + r"|\b(what (?:else )?drives|drives|driving|drivers?|factors?|predict\w*|forecast\w*|build a model|"
    r"insights?|what explains|what affects|what determines)\b"
)


@dataclass(frozen=True)
class Intent:
    kind: str                                  # statistic | correlation | top_values | comparison | trend | open
    task: str
    statistic: str = ""                        # one of STATISTICS for kind == statistic
    percentile: float | None = None            # 0..100 for statistic == percentile
    target_text: str = ""                      # words naming the measured column
    second_text: str = ""                      # the other column of a correlation
    group_text: str = ""                       # words naming the grouping column
    group_values: tuple[str, ...] = ()         # groups named in a comparison ("online", "in-store")
    extreme: str = ""                          # "max"/"min": which group ranks first (a "which X has ..." question)
    top_n: int = 5
    goals: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_direct(self) -> bool:
        return self.kind != "open"


HEAD_CHARS, TAIL_CHARS = 4000, 2000
MAX_SENTENCE_CHARS = 300
_SENTENCE_BREAK = re.compile(r"(?<=[.?!;])\s+")


def question_focus(text: str) -> str:
    """The part of a task a question is read from: all of it, or for a long paste its first 4,000 and last 2,000
    characters (where people put the question). Bounding it keeps every reading linear in the task's length."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return text
    return f"{text[:HEAD_CHARS]} … {text[-TAIL_CHARS:]}"


def _sentences(low: str) -> list[str]:
    """The sentences the patterns below read, each cut to MAX_SENTENCE_CHARS: their lazy groups then backtrack
    over a bounded span, never over the whole task."""
    return [s[:MAX_SENTENCE_CHARS].strip() for s in _SENTENCE_BREAK.split(low) if s.strip()]


def parse_intent(task: str) -> Intent:
    """Classify `task`; direct questions win over an open reading when their pattern is clear."""
    text = " ".join(task.strip().split())
    low = question_focus(text).lower().rstrip()
    sentences = _sentences(low)
    for sentence in sentences:
        correlation = _correlation(text, sentence)
        if correlation is not None:
            return correlation
    if _OPEN_SIGNAL.search(low):
        return Intent(kind="open", task=text, goals=open_goals(low))
    for parser in (_comparison, _top_values, _trend, _statistic):
        for sentence in sentences:
            intent = parser(text, sentence)
            if intent is not None:
                return intent
    return Intent(kind="open", task=text, goals=open_goals(low))


def asks_for_drivers(task: str) -> bool:
    """"What drives / explains / affects X": a question about the causes of one quantity."""
    return bool(_DRIVERS.search(" ".join(question_focus(task).lower().split())))


def has_open_signal(task: str) -> bool:
    """Words that make a task an open analysis ("what drives", "explore", "predict"), whatever else it asks."""
    return bool(_OPEN_SIGNAL.search(" ".join(question_focus(task).lower().split())))


def open_goals(low: str) -> tuple[str, ...]:
    """Analysis goals of an open task: audit and descriptive always, the rest when the words call for them.

    A generic "explore/analyse" task with no specific ask gets every goal; the planner then keeps only
    those the column types allow.
    """
    asked = [goal for goal, pattern in _GOAL_WORDS.items() if re.search(pattern, low)]
    if not asked or _EXPLORE.search(low) and len(asked) <= 1 and not re.search(_GOAL_WORDS["predictive"], low):
        asked = sorted(set(asked) | {"relationships", "group_comparisons", "trends", "distributions"}, key=GOALS.index)
    if _DRIVERS.search(low):
        asked = sorted(set(asked) | {"relationships", "group_comparisons", "predictive"}, key=GOALS.index)
    return ("audit", "descriptive", *[g for g in GOALS if g in asked])


def _clean(fragment: str | None) -> str:
    if not fragment:
        return ""
    fragment = re.sub(r"^(?:the|a|an|our|my|their)\s+", "", fragment.strip(" ?.!,'\""))
    fragment = re.sub(r"\s+(?:is|are|was|were|has|have|in the data(?:set)?|there|overall|values?)$", "", fragment)
    return fragment.strip()


def _first(match: re.Match[str], *indexes: int) -> str:
    for index in indexes:
        if match.group(index):
            return match.group(index)
    return ""


def _correlation(text: str, low: str) -> Intent | None:
    m = _CORRELATION.search(low)
    if not m:
        return None
    pairs = [(m.group(i), m.group(i + 1)) for i in (1, 3, 5, 7) if m.group(i)]
    first, second = pairs[0]
    return Intent(kind="correlation", task=text, target_text=_clean(first), second_text=_clean(second))


def _comparison(text: str, low: str) -> Intent | None:
    more = _MORE_THAN.search(low)
    if more:
        subject, verb, measured, other = more.groups()
        target = _clean(measured) or _MONEY_VERBS.get(" ".join(verb.split()), verb)
        return _compared(text, target, [subject, other])
    m = _COMPARISON.search(low)
    if not m:
        return None
    target, groups = [(m.group(i), m.group(i + 1)) for i in (1, 3, 5) if m.group(i)][0]
    groups = _clean(groups)
    values = [
        v
        for v in re.split(
            r"\s*,\s*|\s+and\s+|\s+or\s+|\s+vs\.?\s+|\s+versus\s+|\s+than\s+(?:for\s+|in\s+|among\s+)?", groups
        )
    ]
    # "compare revenue across regions": the groups text names a column, not values.
    if len([v for v in values if _clean(v)]) < 2:
        return Intent(kind="comparison", task=text, target_text=_clean(target), group_text=groups)
    return _compared(text, _clean(target), values)


def _compared(text: str, target: str, groups: list[str]) -> Intent:
    """Two or more named groups; "X vs non-X" names one column by its level, so the column is the grouping."""
    values = [_clean(v) for v in groups if _clean(v)]
    if len(values) == 2 and _NEGATED.search(values[1]):
        return Intent(kind="comparison", task=text, target_text=target, group_text=values[0])
    # "remote employees" vs "office employees": the shared head noun is not part of the group's name.
    heads = {v.split()[-1] for v in values}
    if len(heads) == 1 and all(len(v.split()) > 1 for v in values):
        values = [v.rsplit(" ", 1)[0] for v in values]
    return Intent(kind="comparison", task=text, target_text=target, group_values=tuple(values))


def _top_values(text: str, low: str) -> Intent | None:
    m = _TOP_VALUES.search(low)
    if not m or (m.group(2) is None and m.group(3) and re.search(r"\b(by|per)\b", m.group(3))):
        return None
    target = _first(m, 1, 3, 4, 5)
    top_n = int(m.group(2)) if m.group(2) else 5
    return Intent(kind="top_values", task=text, target_text=_clean(target), top_n=top_n)


def _trend(text: str, low: str) -> Intent | None:
    m = _TREND_OF.search(low) or _TREND.search(low)
    if not m:
        return None
    target = _clean(_first(m, 1, 2, 3))
    target = re.sub(r"^(?:what is|what's|show|plot|describe|how is)\s+(?:the\s+)?", "", target)
    target = re.sub(r"\b(?:monthly|yearly|weekly|daily|quarterly)\s+", "", target)
    if not target:
        return None
    return Intent(kind="trend", task=text, target_text=target)


def _statistic(text: str, low: str) -> Intent | None:
    statistic, percentile = _find_statistic(low)
    which = _WHICH.search(low)
    if not statistic and not which:
        return None
    group_text = ""
    extreme = ""
    target_part = low
    if which:
        group_text = which.group(1)
        target_part = low[which.end():]
        extreme = next((name for name, pattern in _EXTREME if re.search(pattern, target_part)), "max")
        if statistic in ("", "max", "min"):
            statistic = "sum" if _ADDITIVE.search(target_part) else "mean"
    else:
        pieces = _GROUP_SPLIT.split(low, maxsplit=1)
        if len(pieces) == 2:
            target_part, group_text = pieces
    return Intent(
        kind="statistic",
        task=text,
        statistic=statistic,
        percentile=percentile,
        target_text=_clean(_strip_stat_words(target_part)),
        group_text=_clean(group_text),
        extreme=extreme,
    )


def _find_statistic(low: str) -> tuple[str, float | None]:
    for name, pattern in _STAT_PATTERNS:
        m = re.search(pattern, low)
        if not m:
            continue
        if name == "percentile":
            number = next((g for g in m.groups() if g), None)
            if number is not None:
                return name, float(number)
            if "quartile" in m.group(0):
                return name, 25.0 if re.search(r"\b(lower|first|1st)\s+quartile", low) else 75.0
            return name, 50.0
        return name, None
    return "", None


def _strip_stat_words(fragment: str) -> str:
    fragment = re.sub(
        r"(?<![a-z])(what's|whats|what|which|how|is|are|was|were|the|of|in|many|much|there|do|does|we|have|give|me|"
        r"tell|show|compute|calculate|find|value|values|number|count|rows?|records?|"
        r"average|mean|avg|typical|median|total|sum|combined|maximum|max|highest|largest|biggest|minimum|min|"
        r"lowest|smallest|standard|deviation|std|stdev|variance|variability|spread|distinct|unique|different|"
        r"missing|null|nan|empty|blank|percentile|pctl|centile|quartile|upper|lower|first|third|\d+(?:st|nd|rd|th)?|p\d+)\b",
        " ",
        fragment,
    )
    return " ".join(fragment.split())
