"""What a direct question asks for: one `Ask` per statistic, test or count it names.

"What are the mean and standard deviation of salary?" holds two asks on one column; "Which department has the
highest median salary?" one arg-max ask (median of salary per department, the top group); "How many
employees earn more than 90000?" a row count (the filter is read by `filters.py`). Each statistic takes the
first suitable column named after it in its sentence (numeric for a mean, any for a count), else the nearest
before it. Words already used by filters, derived columns or constraints are not read again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.constraints import METHOD_WORDS, Constraints
from agentic_ds.offline.mentions import Mention, Token, number, pick

_ONE_WORD_STATS = {
    "mean": "mean", "average": "mean", "avg": "mean", "median": "median", "std": "std", "stdev": "std", "sd": "std",
    "variance": "var", "minimum": "min", "min": "min", "maximum": "max", "max": "max", "sum": "sum", "total": "sum",
    "skewness": "skew", "skew": "skew", "kurtosis": "kurtosis", "range": "range", "mode": "mode",
    "percentage": "percent", "percent": "percent", "proportion": "percent", "share": "percent", "fraction": "percent",
    "percentile": "percentile", "percentiles": "percentile", "centile": "percentile", "quartile": "percentile",
    "count": "count", "distinct": "nunique", "unique": "nunique", "missing": "missing", "null": "missing",
    "nulls": "missing", "outlier": "outliers", "outliers": "outliers", "correlation": "corr", "correlations": "corr",
    "correlate": "corr", "correlated": "corr", "correlates": "corr", "related": "corr", "relationship": "corr",
    "association": "corr", "associated": "corr", "normality": "normality", "t-test": "ttest", "ttest": "ttest",
}
_TWO_WORD_STATS = {("standard", "deviation"): "std", ("how", "many"): "count", ("number", "of"): "count",
                   ("interquartile", "range"): "iqr", ("normally", "distributed"): "normality",
                   ("normal", "distribution"): "normality", ("t", "test"): "ttest"}
_EXTREMES = {"highest": "max", "largest": "max", "biggest": "max", "greatest": "max", "most": "max", "maximum": "max",
             "max": "max", "top": "max", "best": "max", "higher": "max", "larger": "max", "bigger": "max",
             "greater": "max", "more": "max", "lowest": "min", "smallest": "min", "least": "min", "fewest": "min",
             "minimum": "min", "min": "min", "worst": "min", "bottom": "min", "lower": "min", "smaller": "min",
             "fewer": "min", "less": "min"}
# Without a "which X", "the highest salary" is the maximum of salary.
_SUPERLATIVES = {"highest": "max", "largest": "max", "biggest": "max", "greatest": "max", "lowest": "min",
                 "smallest": "min"}
_GROUP_PHRASES = (("for", "each"), ("for", "every"), ("in", "each"), ("within", "each"), ("grouped", "by"),
                  ("broken", "down", "by"), ("split", "by"), ("per",), ("by",), ("across",), ("each",))
_ADDITIVE = ("revenue", "sales", "amount", "quantity", "units", "profit", "cost", "spend", "orders", "volume",
             "income", "population", "gdp")
NUMERIC_STATS = frozenset({"mean", "median", "std", "var", "sum", "skew", "kurtosis", "range", "iqr", "percentile"})
TESTS = frozenset({"shapiro", "dagostino", "ks"})
SPECIAL = frozenset({"corr", "normality", "outliers", "ttest"})
GROUP_KINDS = ("categorical", "boolean", "text", "id")
_WITH = frozenset({"with", "has", "having", "had", "shows", "showing"})
MAX_HITS = 24              # statistics read per question: a question never asks for more
LOOKAHEAD = 12             # tokens after a "which X" searched for "highest"/"lowest"


@dataclass
class Ask:
    stat: str
    column: str = ""
    second: str = ""
    group: str = ""
    extreme: str = ""
    params: dict[str, Any] = field(default_factory=dict)     # p, factor, threshold, alpha, method, levels, event
    position: int = 0
    sentence: int = 0
    name: str = ""
    slots: dict[str, str] = field(default_factory=dict)

    def as_param(self) -> dict[str, Any]:
        param: dict[str, Any] = {"name": self.name, "stat": self.stat, "column": self.column}
        for key in ("second", "group", "extreme"):
            if getattr(self, key):
                param[key] = getattr(self, key)
        param.update({k: v for k, v in self.params.items() if v is not None})
        if self.slots:
            param["slots"] = dict(self.slots)
        return param

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.stat, self.column, self.second, self.group, self.extreme, self.params.get("p"))


@dataclass(frozen=True)
class Hit:
    stat: str
    position: int
    width: int
    p: float | None = None


def stat_hits(tokens: Sequence[Token], taken: set[int]) -> list[Hit]:
    hits: list[Hit] = []
    i = 0
    while i < len(tokens):
        if i in taken:
            i += 1
            continue
        pair = (tokens[i].low, tokens[i + 1].low) if i + 1 < len(tokens) else ("", "")
        stat = _TWO_WORD_STATS.get(pair)
        width = 2
        if stat is None:
            stat, width = _ONE_WORD_STATS.get(tokens[i].low), 1
        if stat is None and tokens[i].low in _SUPERLATIVES:
            stat = _SUPERLATIVES[tokens[i].low]
        if stat is None and tokens[i].low[:1] == "p" and tokens[i].low[1:].isdigit() and len(tokens[i].low) <= 3:
            hits.append(Hit("percentile", i, 1, float(tokens[i].low[1:])))
        elif stat == "percentile":
            hits.append(Hit(stat, i, 1, _percentile(tokens, i)))
        elif stat == "sum" and i + 1 < len(tokens) and tokens[i + 1].low in ("number", "count"):
            pass                                   # "total number of orders" is a count
        elif stat is not None:
            hits.append(Hit(stat, i, width))
        i += width if stat else 1
    return hits


def _percentile(tokens: Sequence[Token], i: int) -> float:
    before = tokens[i - 1].low if i else ""
    if tokens[i].low == "quartile":
        return 25.0 if before in ("lower", "first", "1st", "bottom") else 75.0
    digits = before.rstrip("stndrh")
    value = number(digits) if digits else None
    return value if value is not None and 0 < value < 100 else 50.0


class AskReader:
    """Builds the asks of a question from its tokens, mentions and constraints."""

    def __init__(self, tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
                 sentences: list[int], constraints: Constraints, taken: set[int], plural_nouns: frozenset[str]) -> None:
        self.tokens, self.kinds, self.sentences = tokens, kinds, sentences
        self.constraints, self.taken, self.plural_nouns = constraints, taken, plural_nouns
        self.mentions = [m for m in mentions if not any(p in taken for p in range(m.start, m.end))]
        self.by_sentence: dict[int, list[Mention]] = {}
        self.starting: dict[int, Mention] = {}
        for mention in self.mentions:
            self.by_sentence.setdefault(sentences[mention.start], []).append(mention)
            self.starting[mention.start] = mention
        self.ranges: dict[int, tuple[int, int]] = {}
        for i, number_of_sentence in enumerate(sentences):
            start, _ = self.ranges.get(number_of_sentence, (i, i))
            self.ranges[number_of_sentence] = (start, i + 1)

    def _near(self, start: int, end: int) -> list[Mention]:
        """Mentions starting at positions start..end (inclusive)."""
        return [self.starting[p] for p in range(start, end + 1) if p in self.starting]

    # -- column choice ------------------------------------------------------------------------------
    def suits(self, stat: str) -> Any:
        if stat in NUMERIC_STATS or stat in SPECIAL or stat in TESTS:
            return lambda name: self.kinds.get(name) == "numeric"
        if stat == "percent":
            return lambda name: self.kinds.get(name) in ("numeric", "boolean", "categorical")
        return lambda name: self.kinds.get(name) in ("numeric", "categorical", "boolean", "text", "id", "datetime")

    def column_for(self, position: int, sentence: int, suits: Any, exclude: tuple[str, ...] = ()) -> str:
        fits = lambda name: suits(name) and name not in exclude  # noqa: E731
        here = self.by_sentence.get(sentence, [])
        after = pick([m for m in here if m.start > position], fits)
        if after:
            return after.column
        before = [m for m in here if m.end <= position]
        for mention in reversed(before):
            if fits(mention.column):
                return mention.column
        anywhere = pick(self.mentions, fits)
        return anywhere.column if anywhere else ""

    def columns_for(self, position: int, sentence: int, count: int, exclude: tuple[str, ...] = ()) -> list[str]:
        here = [
            m
            for m in self.by_sentence.get(sentence, [])
            if m.column not in exclude and self.kinds.get(m.column) == "numeric"
        ]
        ordered = [m for m in here if m.start > position] + [m for m in here if m.start <= position]
        names = list(dict.fromkeys(m.column for m in ordered))
        if len(names) < count:
            names += [m.column for m in self.mentions if self.kinds.get(m.column) == "numeric" and m.column not in names
                      and m.column not in exclude]
        return list(dict.fromkeys(names))[:count]

    # -- groups --------------------------------------------------------------------------------------
    def which_group(self, sentence: int) -> tuple[str, str, int]:
        """(group column, extreme, position) of "which X has the highest ...", or ("", "", -1)."""
        first, last = self.ranges.get(sentence, (0, 0))
        for i in range(first, last):
            if self.tokens[i].low not in ("which", "what") or i in self.taken:
                continue
            group = pick(self._near(i + 1, i + 3), lambda n: self.kinds.get(n) in GROUP_KINDS)
            if group is None:
                continue
            for j in range(group.end, min(last, group.end + LOOKAHEAD)):
                if self.tokens[j].low in _EXTREMES and j not in self.taken:
                    return group.column, _EXTREMES[self.tokens[j].low], j
        for j in range(first + 2, last):                 # "the country with the highest life expectancy"
            word = self.tokens[j].low
            if word in _SUPERLATIVES and self.tokens[j - 1].low == "the" and self.tokens[j - 2].low in _WITH:
                owner = [m for m in self.by_sentence.get(sentence, []) if j - 5 <= m.end <= j - 2]
                group = pick(owner[-1:], lambda n: self.kinds.get(n) in GROUP_KINDS)
                if group is not None:
                    return group.column, _EXTREMES[word], j
        return "", "", -1

    def group_phrase(self, sentence: int) -> str:
        first, last = self.ranges.get(sentence, (0, 0))
        for i in range(first, last):
            if i in self.taken:
                continue
            for phrase in _GROUP_PHRASES:
                if tuple(t.low for t in self.tokens[i: i + len(phrase)]) != phrase:
                    continue
                end = i + len(phrase)
                loose = phrase != ("by",)
                kinds = GROUP_KINDS if loose else ("categorical", "boolean")
                group = pick(self._near(end, end + 2), self._of_kind(kinds))
                if group is not None:
                    return group.column
        return ""

    def _of_kind(self, kinds: Sequence[str]) -> Callable[[str], bool]:
        return lambda name: self.kinds.get(name) in kinds

    # -- asks ----------------------------------------------------------------------------------------
    def read(self) -> list[Ask]:
        hits = sorted(stat_hits(self.tokens, self.taken)[:MAX_HITS] + self._method_hits(), key=lambda h: h.position)
        asks: list[Ask] = []
        for sentence in sorted({self.sentences[h.position] for h in hits} | self._which_sentences()):
            asks += self._sentence_asks(sentence, [h for h in hits if self.sentences[h.position] == sentence])
        unique: dict[tuple[Any, ...], Ask] = {}
        for ask in asks:
            if ask.stat and (ask.column or ask.stat in ("count", "percent_rows")) and ask.key not in unique:
                unique[ask.key] = ask
        return list(unique.values())

    def _method_hits(self) -> list[Hit]:
        """A named test ("Shapiro-Wilk", "KS", "Welch") is itself an ask, even with no other word for it."""
        hits = []
        for i in sorted(self.constraints.positions)[:MAX_HITS]:
            method = METHOD_WORDS.get(self.tokens[i].low, "")
            if method in TESTS:
                hits.append(Hit("normality", i, 1))
            elif method in ("welch", "student", "mannwhitney"):
                hits.append(Hit("ttest", i, 1))
        return hits

    def _which_sentences(self) -> set[int]:
        found = {
            self.sentences[i] for i, t in enumerate(self.tokens) if t.low in ("which", "what") and i not in self.taken
        }
        return set(sorted(found)[:MAX_HITS])

    def _sentence_asks(self, sentence: int, hits: list[Hit]) -> list[Ask]:
        group, extreme, at = self.which_group(sentence)
        if group:
            hits = [h for h in hits if h.position != at and self.tokens[h.position].low not in _EXTREMES]
        found = [self._special(h, sentence) for h in hits if h.stat in SPECIAL]
        special = list({(a.stat, a.column, a.second, a.group): a for a in found if a is not None}.values())
        if self.constraints.z_threshold is not None and not any(a.stat.startswith("outliers") for a in special):
            counting = [h for h in hits if h.stat == "count"]
            if counting:
                special.append(self._outliers(counting[0], sentence))
        if special:
            return special
        plain = [a for a in (self._plain(h, sentence) for h in hits if h.stat not in SPECIAL) if a is not None]
        if group:
            if not plain:
                plain = [self._default_extreme(at, sentence, group)]
            for ask in plain:
                ask.group, ask.extreme = group, extreme
                if ask.column == group:
                    ask.column = self.column_for(at, sentence, self.suits(ask.stat), (group,))
            return plain
        per = self.group_phrase(sentence)
        for ask in plain:
            if per and (ask.stat != "count" and per != ask.column or ask.stat == "count" and not ask.column):
                ask.group = per
        return plain

    def _plain(self, hit: Hit, sentence: int) -> Ask | None:
        if hit.stat == "count":
            return self._count(hit, sentence)
        if hit.stat == "nunique" and self.tokens[hit.position - 1].low in ("many", "of") if hit.position else False:
            return None                                            # read by the count ("how many distinct")
        params = {"p": hit.p} if hit.stat == "percentile" else {}
        column = self.column_for(hit.position, sentence, self.suits(hit.stat))
        if hit.stat == "percent" and not column:
            # "the share of employees whose salary exceeds 80000": the rows the filters keep, out of all rows
            return Ask("percent_rows", "", position=hit.position, sentence=sentence)
        return Ask(hit.stat, column, params=params, position=hit.position, sentence=sentence)

    def _count(self, hit: Hit, sentence: int) -> Ask:
        """Count rows unless the question says otherwise.

        "how many distinct X" -> nunique, "how many missing" -> missing, "how many departments" -> levels.
        """
        after = hit.position + 2 if self.tokens[hit.position].low in ("how", "number") else hit.position + 1
        word = self.tokens[after].low if after < len(self.tokens) else ""
        if word in ("distinct", "unique", "different"):
            column = self.column_for(after, sentence, self.suits("nunique"))
            return Ask("nunique", column, position=hit.position, sentence=sentence)
        if word in ("missing", "null", "empty", "blank"):
            column = self.column_for(after, sentence, self.suits("missing"))
            return Ask("missing", column, position=hit.position, sentence=sentence)
        head = next((m for m in self.by_sentence.get(sentence, []) if m.start == after), None)
        if (
            head is not None
            and self.kinds.get(head.column) in ("categorical", "text")
            and self.tokens[after].low != self.tokens[after].word
            and self.tokens[after].low not in self.plural_nouns
        ):
            return Ask("nunique", head.column, position=hit.position, sentence=sentence)
        return Ask("count", "", position=hit.position, sentence=sentence)

    def _special(self, hit: Hit, sentence: int) -> Ask | None:
        c = self.constraints
        if hit.stat == "corr":
            method = c.method("spearman", "kendall", "pearson") or "pearson"
            columns = self.columns_for(hit.position, sentence, 2)
            if len(columns) < 2:
                return None
            return Ask(
                method, columns[0], columns[1], params={"alpha": c.alpha}, position=hit.position, sentence=sentence
            )
        if hit.stat == "normality":
            test = c.method(*TESTS) or "shapiro"
            return Ask(test, self.column_for(hit.position, sentence, self.suits(test)), params={"alpha": c.alpha},
                       position=hit.position, sentence=sentence)
        if hit.stat == "outliers":
            return self._outliers(hit, sentence)
        test = "mannwhitney" if c.method("mannwhitney") else "ttest"
        column = self.column_for(hit.position, sentence, self.suits("ttest"))
        categorical = lambda n: self.kinds.get(n) in ("categorical", "boolean")  # noqa: E731
        group = pick(self.by_sentence.get(sentence, []), categorical) or pick(self.mentions, categorical)
        if not group:
            return None
        variant = "student" if c.method("student") and not c.method("welch") else None
        params = {"method": variant, "alpha": c.alpha}
        return Ask(test, column, group=group.column, params=params, position=hit.position, sentence=sentence)

    def _outliers(self, hit: Hit, sentence: int) -> Ask:
        c = self.constraints
        column = self.column_for(hit.position, sentence, self.suits("outliers"))
        if c.z_threshold is not None and c.iqr_factor is None:
            return Ask(
                "outliers_z", column, params={"threshold": c.z_threshold}, position=hit.position, sentence=sentence
            )
        return Ask(
            "outliers_iqr", column, params={"factor": c.iqr_factor or 1.5}, position=hit.position, sentence=sentence
        )

    def _default_extreme(self, at: int, sentence: int, group: str) -> Ask:
        """"Which X has the most orders": count rows; "the highest revenue": sum of an amount, else the mean."""
        column = self.column_for(at, sentence, self.suits("mean"), (group,))
        named_after = any(
            m.start > at and self.kinds.get(m.column) == "numeric" for m in self.by_sentence.get(sentence, [])
        )
        if not column or not named_after and self.tokens[at].low in ("most", "fewest", "least"):
            return Ask("count", "", position=at, sentence=sentence)
        additive = any(word in column.lower() for word in _ADDITIVE) and not any(
            word in column.lower() for word in ("per", "rate", "ratio", "avg", "mean", "pct", "share"))
        return Ask("sum" if additive else "mean", column, position=at, sentence=sentence)
