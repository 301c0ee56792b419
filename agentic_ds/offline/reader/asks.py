"""What a direct question asks for: one `Ask` per statistic, test or count it names.

"What are the mean and standard deviation of salary?" holds two asks on one column; "Which department has the
highest median salary?" one arg-max ask (median of salary per department, the top group); "How many
employees earn more than 90000?" a row count (the filter is read by `filters.py`). Each statistic takes the first
suitable column named after it in its sentence, else the nearest before it. Words already used by filters, derived
columns or constraints are not read again, and every word an ask uses is recorded (`used`), so a word no reader
used can be told apart. The statistic words themselves are found first, in one pass (`stat_hits`: each a `Hit`).

Tests, correlations, outlier rules and regressions are read with a rule of their own (`special_asks`):

    "Pearson correlation between petal_length and petal_width"   -> pearson(petal_length, petal_width)
    "Shapiro-Wilk test on 'mean smoothness'"                      -> shapiro(mean smoothness)
    "outliers in foodexp using the 1.5 IQR rule"                  -> outliers_iqr(foodexp, factor 1.5)
    "Welch's t-test of progression between the sexes"             -> ttest(progression by sex)
    "paired t-test of MAR against APR"                            -> paired(MAR, APR)
    "regress petal_width on petal_length", "y = a + b * x"        -> linreg(y on x)
    "chi-square test of independence between smoker and day"      -> chi2(smoker, day)
    "one-way ANOVA of bill_length_mm across species", "Levene"    -> anova / levene(column by group)

Each takes the columns it needs from the mentions of its sentence (then of the question) and records the tokens
it read; one that cannot find them gives no ask, and its words stay unread.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.reader.constraints import Constraints
from agentic_ds.offline.reader.filters import MAX_LEVELS, VALUE_KINDS
from agentic_ds.offline.reader.mentions import Mention, Token, number, pick
from agentic_ds.offline.reader.vocabulary import (
    ADDITIVE,
    CALENDAR_UNITS,
    CORRELATIONS,
    DIFFERENCES,
    EXTREMES,
    GROUP_PHRASES,
    MANY_REGRESSORS,
    METHOD_WORDS,
    NORMALITY_TESTS,
    NUMERIC_STATS,
    ONE_WORD_STATS,
    PHRASE_STATS,
    RATE_WORDS,
    RECORDED,
    SPECIAL,
    SUPERLATIVES,
    TEST_TALK,
    TRANSFORMS,
    WITH_WORDS,
    Z_MARKS,
    Z_TALK,
    Z_WORDS,
)

FEW_LEVELS = 20            # ... and "by" it (a quarter, a 1-5 rating), where "by" also reads "regressed by"
MEASURED = frozenset("value values readings reading measurements observations records entries".split())
_BEFORE_MISSING = frozenset({"have", "has", "had", "with", "a", "an", "no", "missing", "of", "values", "value"})
_COUNT_WORDS = (("how", "many"), ("number", "of"), ("no", ".", "of"), ("count", "the"), ("all",), ("over", "all"),
                ("across", "all"))
UNRECORDED_REACH = 8       # tokens from the counted rows to the "no" of "have no sex recorded"
MAX_HITS = 24              # statistics read per question: a question never asks for more
LOOKAHEAD = 16             # tokens after a "which X" searched for "highest"/"lowest"


@dataclass(frozen=True)
class Hit:
    stat: str
    position: int
    width: int
    p: float | None = None


def stat_hits(tokens: Sequence[Token], taken: set[int]) -> list[Hit]:
    """The statistic words of a question in one pass: "standard deviation" is one hit of two words, "max minus min"
    one range, "the 10th and 90th percentiles" two hits (one per rank), "total number of" no sum (a count); a
    `taken` word is not read."""
    hits: list[Hit] = []
    i = 0
    while i < len(tokens):
        if i in taken:
            i += 1
            continue
        said = [t.low for t in tokens[i: i + 3]] + ["", ""]
        width, stat = next(((n, PHRASE_STATS[key]) for n in (3, 2) if (key := tuple(said[:n])) in PHRASE_STATS),
                           (1, _one(said[0])))
        if (stat, said[1], _one(said[2])) in (("max", "minus", "min"), ("max", "-", "min")):
            width, stat = 3, "range"              # "(max minus min)": the range, said by its definition
        if stat is None and tokens[i].low[:1] == "p" and tokens[i].low[1:].isdigit() and len(tokens[i].low) <= 3:
            hits.append(Hit("percentile", i, 1, float(tokens[i].low[1:])))
        elif stat == "percentile":
            hits += [Hit(stat, at, 1, p) for at, p in _percentiles(tokens, i)]
        elif stat == "sum" and i + 1 < len(tokens) and tokens[i + 1].low in ("number", "count"):
            pass                                   # "total number of orders" is a count
        elif stat is not None:
            hits.append(Hit(stat, i, width))
        i += width if stat else 1
    return hits


def _one(word: str) -> str | None:
    return ONE_WORD_STATS.get(word) or SUPERLATIVES.get(word)


def _percentiles(tokens: Sequence[Token], i: int) -> list[tuple[int, float]]:
    """(position, p) of each percentile "the 10th and 90th percentiles" names; the word itself for a quartile or
    a bare "percentile" (the median)."""
    before = tokens[i - 1].low if i else ""
    if tokens[i].low == "quartile":
        return [(i, 25.0 if before in ("lower", "first", "1st", "bottom") else 75.0)]
    start = next((j + 1 for j in range(i - 1, -1, -1)
                  if tokens[j].low not in ("and", ",", "the") and _ordinal(tokens[j]) is None), 0)
    return [(j, p) for j in range(start, i) if (p := _ordinal(tokens[j])) is not None] or [(i, 50.0)]


def _ordinal(token: Token) -> float | None:
    """90 of "90th" (or of "90"): a percentile's rank."""
    digits = token.low.rstrip("stndrh")
    value = number(digits) if digits and digits[:1].isdigit() else None
    return value if value is not None and 0 < value < 100 else None


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
        param |= {key: getattr(self, key) for key in ("second", "group", "extreme") if getattr(self, key)}
        param.update({k: v for k, v in self.params.items() if v is not None})
        if self.slots:
            param["slots"] = dict(self.slots)
        return param


def _counts_rows(tokens: Sequence[Token], start: int) -> bool:
    """The mention at `start` follows "how many", "number of", "count the" or "all" (a number may sit between):
    it names the rows counted or spanned."""
    at = start - 1 if start and tokens[start - 1].is_number else start
    return any(tuple(t.low for t in tokens[at - len(w): at]) == w for w in _COUNT_WORDS if at >= len(w))


class AskReader:
    """Builds the asks of a question from its tokens, mentions and constraints; `used` holds the tokens it read."""

    def __init__(self, tokens: Sequence[Token], mentions: Sequence[Mention], kinds: Mapping[str, str],
                 sentences: list[int], constraints: Constraints, taken: set[int], plural_nouns: frozenset[str],
                 levels: Mapping[str, int | None] | None = None, inside: set[int] | None = None,
                 filtered: bool = False) -> None:
        self.tokens, self.kinds, self.sentences = tokens, kinds, sentences
        self.filtered = filtered               # some rows are kept by a condition the filters read
        self.inside = inside or set()          # words of a column's name ("'mean radius'"): never statistics
        self.constraints, self.taken, self.plural_nouns = constraints, taken, plural_nouns
        self.levels = levels or {}
        self.used: set[int] = set()
        self.mentions = [m for m in mentions if not any(p in taken for p in range(m.start, m.end))]
        # The rows a question counts or spans ("how many quarters", "over all years", "all 150 flowers") are not
        # what it measures: no statistic but a count takes its column from them.
        self.nouns = {m.start for m in self.mentions if _counts_rows(tokens, m.start) and not (
            m.end < len(tokens) and (tokens[m.end].low in MEASURED or tokens[m.end].low in ONE_WORD_STATS))}
        self.by_sentence: dict[int, list[Mention]] = {}
        for mention in self.mentions:
            self.by_sentence.setdefault(sentences[mention.start], []).append(mention)
        self.starting = {m.start: m for m in self.mentions}
        self.ending = {m.end: m for m in self.mentions}
        self.ranges: dict[int, tuple[int, int]] = {}
        for i, sentence in enumerate(sentences):        # (first, one past the last) token of each sentence
            self.ranges[sentence] = (self.ranges.get(sentence, (i, i))[0], i + 1)

    def use(self, start: int, end: int) -> None:
        self.used |= set(range(start, end))

    def near(self, start: int, end: int) -> list[Mention]:
        """Mentions starting at positions start..end (inclusive)."""
        return [self.starting[p] for p in range(start, end + 1) if p in self.starting]

    # -- column choice ------------------------------------------------------------------------------
    def numeric(self, name: str) -> bool:
        return self.kinds.get(name) == "numeric"

    def groupable(self, name: str) -> bool:
        """Columns whose values name groups: categories, and numbers with few values (a year, a 1-5 rating)."""
        if self.kinds.get(name) in VALUE_KINDS:
            return True
        distinct = self.levels.get(name)
        return self.numeric(name) and (distinct is not None and distinct <= MAX_LEVELS or "year" in name.lower())

    def _few_levels(self, name: str) -> bool:
        """A column "by" groups rows by: a category, or a number with a handful of values (a quarter, a rating)."""
        distinct = self.levels.get(name)
        return self.kinds.get(name) in ("categorical", "boolean") or self.numeric(name) and distinct is not None \
            and distinct <= FEW_LEVELS

    def suits(self, stat: str) -> Callable[[str], bool]:
        if stat in NUMERIC_STATS or stat in SPECIAL or stat in ("min", "max"):
            return self.numeric
        if stat == "percent":         # the share of yes/1 values: a yes/no column, not any number
            return lambda name: self.kinds.get(name) in ("boolean", "categorical") or self.numeric(name) and (
                self.levels.get(name) or 99) <= 2
        return lambda name: self.kinds.get(name) in ("numeric", "categorical", "boolean", "text", "id", "datetime")

    def column_for(self, position: int, sentence: int, suits: Callable[[str], bool],
                   exclude: tuple[str, ...] = (), nouns: bool = False) -> str:
        fits = lambda name: suits(name) and name not in exclude  # noqa: E731
        here = [m for m in self.by_sentence.get(sentence, []) if nouns or m.start not in self.nouns]
        chosen = (pick([m for m in here if m.start > position], fits)
                  or next((m for m in reversed([m for m in here if m.end <= position]) if fits(m.column)), None)
                  or pick([m for m in self.mentions if nouns or m.start not in self.nouns], fits))
        if chosen is None:
            return ""
        self.use(chosen.start, chosen.end)
        return chosen.column

    def columns_for(self, position: int, sentence: int, suits: Callable[[str], bool] | None = None) -> list[str]:
        """Up to two distinct columns named in the sentence (after `position` first), then anywhere."""
        suits = suits or self.numeric
        here = [m for m in self.by_sentence.get(sentence, []) if suits(m.column)]
        ordered = [m for m in here if m.start > position] + [m for m in here if m.start <= position]
        chosen: dict[str, Mention] = {}
        for mention in ordered + [m for m in self.mentions if suits(m.column) and m not in here]:
            chosen.setdefault(mention.column, mention)
        for mention in list(chosen.values())[:2]:
            self.use(mention.start, mention.end)
        return list(chosen)[:2]

    # -- groups --------------------------------------------------------------------------------------
    def which_group(self, sentence: int) -> tuple[str, str, int]:
        """(group column, extreme, position) of "which X has the highest ...", or ("", "", -1)."""
        first, last = self.ranges.get(sentence, (0, 0))
        for i in range(first, last):
            if self.tokens[i].low not in ("which", "what") or i in self.taken:
                continue
            group = pick(self.near(i + 1, i + 3), self.groupable)
            if group is None:
                continue
            for j in range(group.end, min(last, group.end + LOOKAHEAD)):
                if self.tokens[j].low in EXTREMES and j not in self.taken:
                    self.used |= {i, j, *range(group.start, group.end)}
                    return group.column, EXTREMES[self.tokens[j].low], j
        for j in range(first + 2, last):                 # "the country with the highest life expectancy"
            word = self.tokens[j].low
            if word in SUPERLATIVES and self.tokens[j - 1].low == "the" and self.tokens[j - 2].low in WITH_WORDS:
                owner = [m for m in self.by_sentence.get(sentence, []) if j - 5 <= m.end <= j - 2]
                group = pick(owner[-1:], self.groupable)
                if group is not None:
                    self.used |= {*range(group.start, group.end), *range(j - 2, j + 1)}
                    return group.column, SUPERLATIVES[word], j
        return "", "", -1

    def group_phrase(self, sentence: int) -> str:
        first, last = self.ranges.get(sentence, (0, 0))
        for i in range(first, last):
            if i in self.taken:
                continue
            for phrase in GROUP_PHRASES:
                if tuple(t.low for t in self.tokens[i: i + len(phrase)]) != phrase:
                    continue
                end = i + len(phrase)
                if end < len(self.tokens) and self.tokens[end].low in ("all", "the"):
                    continue                     # "across all quarters" is every row, not each quarter
                fits = self.groupable if phrase != ("by",) else self._few_levels
                group = pick(self.near(end, end + 2), fits)
                if group is not None:
                    self.used |= {*range(i, end), *range(group.start, group.end)}
                    return group.column
        return ""

    # -- asks ----------------------------------------------------------------------------------------
    def read(self) -> list[Ask]:
        hits = stat_hits(self.tokens, self.taken | self.inside)[:MAX_HITS] + method_hits(self)
        if self.constraints.z_threshold is not None:     # "Standardise income (z = (x - mean) / std)": the rule's
            use_z_definition(self)
            hits = [h for h in hits if h.position not in self.used]
        hits = self._counts_of_columns(sorted(hits, key=lambda h: h.position))
        asks: list[Ask] = []
        which = sorted({self.sentences[i] for i, t in enumerate(self.tokens) if t.low in ("which", "what")
                        and i not in self.taken})[:MAX_HITS]          # sentences that may ask "which X ..."
        for sentence in sorted({self.sentences[h.position] for h in hits} | set(which)):
            asks += self._sentence_asks(sentence, [h for h in hits if self.sentences[h.position] == sentence])
        unique: dict[tuple[Any, ...], Ask] = {}
        for ask in asks:        # each once: by statistic, columns, grouping and rank
            if ask.stat and (ask.column or ask.stat in ("count", "percent_rows")):
                unique.setdefault((ask.stat, ask.column, ask.second, ask.group, ask.extreme, ask.params.get("p")), ask)
        return _missing_shares(list(unique.values()))

    def _counts_of_columns(self, hits: list[Hit]) -> list[Hit]:
        """"the mean number of children" is the mean of the column children, and "the monthly passenger count" a
        column's name: neither is a row count."""
        kept: list[Hit] = []
        for hit in hits:
            word = self.tokens[hit.position].low
            after = self.starting.get(hit.position + 2) if word == "number" else None
            before = self.ending.get(hit.position)
            if after is not None and kept and kept[-1].position + kept[-1].width == hit.position and self.numeric(
                    after.column) and kept[-1].stat in NUMERIC_STATS | {"min", "max"}:
                self.nouns.discard(after.start)
                self.use(hit.position, hit.position + hit.width)
            elif word == "count" and before is not None and self.numeric(before.column) and len(hits) > 1:
                self.use(hit.position, hit.position + 1)
            else:
                kept.append(hit)
        return kept

    def _sentence_asks(self, sentence: int, hits: list[Hit]) -> list[Ask]:
        group, extreme, at = self.which_group(sentence)
        if group:
            for hit in hits:     # "the narrowest sepals (lowest mean sepal_width)": a word repeating the direction
                if EXTREMES.get(self.tokens[hit.position].low) == extreme:
                    self.use(hit.position, hit.position + hit.width)
            hits = [h for h in hits if h.position != at and self.tokens[h.position].low not in EXTREMES]
        special = special_asks(self, sentence, hits)
        if special:
            return special
        plain = [a for a in (self._plain(h, sentence) for h in hits if h.stat not in SPECIAL) if a is not None]
        if group:
            # "the smallest share of urban": a measure. A share of the kept rows per group ("which occupation has
            # the highest proportion of women with affairs > 0") is not computed: its word stays unread, in doubt
            if self.filtered:
                self.used -= {a.position for a in plain if a.stat == "percent_rows"}
            plain = [a for a in plain if a.stat != "percent_rows"] or [self._default_extreme(at, sentence, group)]
            for ask in plain:
                ask.group, ask.extreme = group, extreme
                if ask.column == group:
                    ask.column = self.column_for(at, sentence, self.suits(ask.stat), (group,))
            return plain
        per = self.group_phrase(sentence) if plain else ""
        for ask in plain:
            if per and (ask.stat != "count" and per != ask.column or ask.stat == "count" and not ask.column):
                ask.group = per
        return plain

    def _plain(self, hit: Hit, sentence: int) -> Ask | None:
        if hit.stat == "count":
            return self._count(hit, sentence)
        if hit.stat == "nunique" and self.tokens[hit.position - 1].low in ("many", "of") if hit.position else False:
            return None                                            # read by the count ("how many distinct")
        params: dict[str, Any] = {"p": hit.p} if hit.stat == "percentile" else {}
        if hit.stat in ("std", "var") and self.constraints.ddof is not None:
            params["ddof"] = self.constraints.ddof
        column = self.column_for(hit.position, sentence, self.suits(hit.stat))
        self.use(hit.position, hit.position + hit.width)
        if hit.stat == "percent" and self._fraction(hit.position):
            params["scale"] = "fraction"
        if hit.stat == "percent" and not column:
            # "the share of employees whose salary exceeds 80000": the rows the filters keep, out of all rows
            return Ask("percent_rows", "", params=params, position=hit.position, sentence=sentence)
        if hit.stat == "percentile":     # the word "percentiles" after the ranks
            end = next((j for j in range(hit.position, min(len(self.tokens), hit.position + 6))
                        if ONE_WORD_STATS.get(self.tokens[j].low) == "percentile"), hit.position)
            self.use(hit.position, end + 1)
        return Ask(hit.stat, column, params=params, position=hit.position, sentence=sentence)

    def _fraction(self, at: int) -> bool:
        """"What proportion ...", "as a number between 0 and 1": a share out of 1, not a percentage."""
        said = [t.low for t in self.tokens]
        if any(w in ("percent", "percentage", "%") for w in said):
            return False
        for i in range(len(said) - 3):
            if said[i: i + 4] in (["between", "0", "and", "1"], ["from", "0", "to", "1"]):
                self.use(i, i + 4)
                return True
        return said[at] in ("proportion", "fraction") or "fraction" in said     # "what share ...? As a fraction"

    def _count(self, hit: Hit, sentence: int) -> Ask:
        """Count rows unless the question says otherwise.

        "how many distinct X" -> nunique, "how many missing" -> missing, "how many departments" -> levels.
        """
        self.use(hit.position, hit.position + hit.width)
        after = hit.position + hit.width
        word = self.tokens[after].low if after < len(self.tokens) else ""
        if word in ("distinct", "unique", "different"):
            self.use(after, after + 1)
            column = self.column_for(after, sentence, self.suits("nunique"), nouns=True)
            return Ask("nunique", column, position=hit.position, sentence=sentence)
        missing = next((j for j in range(after, min(len(self.tokens), after + 5))
                        if self.tokens[j].low in ("missing", "null", "empty", "blank")), None)
        if missing is not None and all(self.tokens[j].low in _BEFORE_MISSING or j == after
                                       for j in range(after, missing)):
            self.use(after, missing + 1)       # "how many missing", "how many penguins have a missing sex"
            column = self.column_for(missing, sentence, self.suits("missing"), nouns=True)
            return Ask("missing", column, position=hit.position, sentence=sentence)
        unrecorded = self._unrecorded(after)
        if unrecorded is not None:          # "how many penguins have no sex recorded", "have no recorded tip"
            return Ask("missing", unrecorded, position=hit.position, sentence=sentence)
        head = next((m for m in self.by_sentence.get(sentence, []) if m.start == after), None)
        if head is not None and hit.position and self.tokens[hit.position - 1].low == "total" and self.numeric(
                head.column):                   # "the total number of passengers": their sum
            self.use(hit.position - 1, head.end)
            return Ask("sum", head.column, position=hit.position, sentence=sentence)
        if head is not None and self.kinds.get(head.column) in ("categorical", "text") and (
                self.tokens[after].low != self.tokens[after].word and self.tokens[after].low not in self.plural_nouns
        ) and head.column.lower() not in CALENDAR_UNITS:   # "how many months" of a series: rows, not month names
            self.use(head.start, head.end)
            return Ask("nunique", head.column, position=hit.position, sentence=sentence)
        return Ask("count", "", position=hit.position, sentence=sentence)

    def _unrecorded(self, after: int) -> str | None:
        """The column of "have no <column> recorded" / "have no recorded <column>" right after the counted rows:
        a count of the missing values of that column. Its words are used."""
        reach = self.tokens[after: after + UNRECORDED_REACH]
        at = next((after + j for j, t in enumerate(reach) if t.low == "no" or t.text in ("?", "!", ";")), None)
        if at is None or self.tokens[at].low != "no":         # none before the sentence ends
            return None
        skip = 1 if at + 1 < len(self.tokens) and self.tokens[at + 1].low in RECORDED else 0
        named = self.starting.get(at + 1 + skip)
        if named is None:
            return None
        end = named.end + (not skip and named.end < len(self.tokens) and self.tokens[named.end].low in RECORDED)
        self.use(at, end)
        return named.column

    def _default_extreme(self, at: int, sentence: int, group: str) -> Ask:
        """"Which X has the most orders": count rows; "the highest revenue": sum of an amount, else the mean."""
        column = self.column_for(at, sentence, self.suits("mean"), (group,))
        named_after = any(m.start > at and self.numeric(m.column) for m in self.by_sentence.get(sentence, []))
        if not column or not named_after and self.tokens[at].low in ("most", "fewest", "least"):
            return Ask("count", "", position=at, sentence=sentence)
        low = column.lower()
        additive = any(word in low for word in ADDITIVE) and not any(word in low for word in RATE_WORDS)
        return Ask("sum" if additive else "mean", column, position=at, sentence=sentence)


def _missing_shares(asks: list[Ask]) -> list[Ask]:
    """"What share of the weeks have no reading?": a share of the rows, asked in the sentence that counts a column's
    missing values, is the share of those values (a percentage unless a fraction was asked)."""
    kept = list(asks)
    for share in [a for a in asks if a.stat == "percent_rows"]:
        missing = next((a for a in kept if a.stat == "missing" and a.sentence == share.sentence
                        and "scale" not in a.params), None)
        if missing is not None:
            missing.params["scale"] = share.params.get("scale", "percent")
            kept.remove(share)
    return kept


MAX_TEST_GROUPS = 20       # a test compares a few groups; a column with more values (an id) is not its grouping
_REGRESSION_STARTS = frozenset({"regress", "regressing", "regressed", "regression", "ols"})
_EFFECT = frozenset({"effect", "effects", "impact", "influence"})
_FIT_LEADS = frozenset({",", ":", ";", "(", ".", "fit", "fitting", "fitted", "model"})  # what may come before y on x
_METHOD_ASKS = {**dict.fromkeys(NORMALITY_TESTS, "normality"), **dict.fromkeys(CORRELATIONS, "corr"),
                **dict.fromkeys(("welch", "student", "mannwhitney", "paired"), "ttest")}


def method_hits(reader: AskReader) -> list[Hit]:
    """A named test ("Shapiro-Wilk", "KS", "Welch", "paired") is itself an ask, even with no other word for it."""
    return [Hit(_METHOD_ASKS[method], i, 1) for i in sorted(reader.constraints.positions)[:MAX_HITS]
            if (method := METHOD_WORDS.get(reader.tokens[i].low, "")) in _METHOD_ASKS]


def special_asks(reader: AskReader, sentence: int, hits: list[Hit]) -> list[Ask]:
    """The special asks of one sentence (one per kind), and the outlier count a z-score rule implies."""
    kinds: dict[str, Hit] = {}
    for hit in hits:
        if hit.stat in _READERS:
            kinds.setdefault(hit.stat, hit)
    if "linreg" in kinds:
        kinds.pop("corr", None)          # "R-squared", "correlation" inside a regression are its parts
    found: list[Ask] = []
    for stat, hit in kinds.items():
        ask = _READERS[stat](reader, hit, sentence)
        if ask is not None and ask.column:
            reader.used |= {p for other in hits if other.stat == stat for p in range(other.position,
                                                                                     other.position + other.width)}
            found.append(ask)
    if reader.constraints.z_threshold is not None and not any(a.stat.startswith("outliers") for a in found):
        counting = [h for h in hits if h.stat == "count"]
        if counting:
            reader.use(counting[0].position, counting[0].position + counting[0].width)
            found.append(_outliers(reader, counting[0], sentence))
    if found:
        _use_test_talk(reader, hits, found)
    return found


def _use_test_talk(reader: AskReader, hits: list[Hit], found: list[Ask]) -> None:
    """The words a test is asked with ("a significant difference", "is the variance equal", "centred on the
    median") are the test's, not asks of their own. An outlier count tests no difference: "the month-to-month
    differences" of its column are a quantity it would have to derive."""
    talk = TEST_TALK if any(not a.stat.startswith("outliers") for a in found) else TEST_TALK - DIFFERENCES
    reader.used |= {i for i, token in enumerate(reader.tokens) if token.low in talk}
    stats = {a.stat for a in found}
    for hit in hits:
        outlier_words = hit.stat == "count" or hit.stat == "iqr" and "outliers_iqr" in stats
        if outlier_words and stats & {"outliers_iqr", "outliers_z"}:
            reader.use(hit.position, hit.position + hit.width)     # "count the outliers", "the IQR rule"
    if "outliers_z" in stats:
        use_z_definition(reader)
    if "ks" in stats:               # "against a normal with the sample mean and standard deviation": its parameters
        reader.used |= {p for h in hits if h.stat in ("mean", "std") for p in range(h.position, h.position + h.width)}
    levene = next((a for a in found if a.stat == "levene"), None)
    for hit in hits if levene is not None else []:
        before = {t.low[:4] for t in reader.tokens[max(0, hit.position - 3): hit.position]}
        if hit.stat == "var":
            reader.use(hit.position, hit.position + hit.width)
        elif hit.stat in ("mean", "median") and before & {"cent"} and levene is not None:
            levene.params["center"] = hit.stat
            reader.use(hit.position - 3, hit.position + hit.width)


def use_z_definition(reader: AskReader) -> None:
    """"Standardise income (z = (x - mean) / std)": the definition of the z-score the rule uses, in the sentences
    that speak of z or state the rule (another sentence's "mean" is an ask of its own)."""
    said = {reader.sentences[i] for i, t in enumerate(reader.tokens) if t.low in Z_WORDS or t.low in Z_MARKS}
    if reader.constraints.z_at >= 0:                # "more than three SD from the malignant mean"
        said.add(reader.sentences[reader.constraints.z_at])
    depth = 0
    for i, token in enumerate(reader.tokens):
        depth += token.text == "("
        defining = token.low in Z_TALK or depth and token.low in ("x", "=", "-", "/", "(", ")")
        if defining and reader.sentences[i] in said:
            reader.use(i, i + 1)
        depth -= token.text == ")" and depth > 0


def _pair(reader: AskReader, hit: Hit, sentence: int, stat: str, params: dict[str, Any],
          suits: Callable[[str], bool] | None = None) -> Ask | None:
    """An ask of two columns named for it (numeric unless `suits` says otherwise); None when fewer are named."""
    columns = reader.columns_for(hit.position, sentence, suits)
    if len(columns) < 2:
        return None
    return Ask(stat, columns[0], columns[1], params=params, position=hit.position, sentence=sentence)


def _corr(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    return _pair(reader, hit, sentence, c.method("spearman", "kendall", "pearson") or "pearson", {"alpha": c.alpha})


def _normality(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    test = c.method(*NORMALITY_TESTS) or "shapiro"
    column = reader.column_for(hit.position, sentence, reader.numeric)
    return Ask(test, column, params={"alpha": c.alpha}, position=hit.position, sentence=sentence) if column else None


def _outliers(reader: AskReader, hit: Hit, sentence: int) -> Ask:
    c = reader.constraints
    column = reader.column_for(hit.position, sentence, reader.numeric)
    if c.z_threshold is not None and c.iqr_factor is None:
        params: dict[str, Any] = {"threshold": c.z_threshold, **({"side": c.z_side} if c.z_side else {}),
                                  **({"ddof": c.ddof} if c.ddof is not None else {})}
        return Ask("outliers_z", column, params=params, position=hit.position, sentence=sentence)
    return Ask("outliers_iqr", column, params={"factor": c.iqr_factor or 1.5}, position=hit.position,
               sentence=sentence)


def _by_group(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    """A test of a numeric column across the groups of another: one-way ANOVA, Levene's, a t-test (Welch unless
    Student's is named) or Mann-Whitney; or a paired t-test of two columns."""
    c = reader.constraints
    if hit.stat == "ttest" and c.method("paired"):
        return _pair(reader, hit, sentence, "paired", {"alpha": c.alpha})
    column, group = _column_and_group(reader, hit, sentence)
    if not column:
        return None
    student = "student" if c.method("student") and not c.method("welch") else None
    params = {"method": student, "alpha": c.alpha} if hit.stat == "ttest" else {"alpha": c.alpha}
    test = "mannwhitney" if hit.stat == "ttest" and c.method("mannwhitney") else hit.stat
    return Ask(test, column, group=group, params=params, position=hit.position, sentence=sentence)


def _column_and_group(reader: AskReader, hit: Hit, sentence: int) -> tuple[str, str]:
    """(measured column, grouping column) of a test across groups: the measure is a numeric column with many
    values, the group one with few; the group is "" when the groups are named by their values (the filters hold
    them, and `doubts.named_groups` makes them the test's groups)."""
    measured = lambda n: reader.numeric(n) and not reader.groupable(n)  # noqa: E731
    column = reader.column_for(hit.position, sentence, measured) or reader.column_for(hit.position, sentence,
                                                                                      reader.numeric)
    few = lambda n: (reader.levels.get(n) or 0) <= MAX_TEST_GROUPS  # noqa: E731 (an id groups nothing)
    fits = lambda n: reader.groupable(n) and n != column and few(n)  # noqa: E731
    return column, reader.column_for(hit.position, sentence, fits) if column else ""


def _chi2(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    c = reader.constraints
    params = {"alpha": c.alpha, "correction": False if c.method("no_correction") else None}
    return _pair(reader, hit, sentence, "chi2", params, reader.groupable)


def _linreg(reader: AskReader, hit: Hit, sentence: int) -> Ask | None:
    """The least-squares line of y on x: "regress y on x", "regression of y on x", "y = a + b * x"."""
    pair = _y_on_x(reader) or _equation(reader)
    if pair is None or any(t.low in MANY_REGRESSORS for t in reader.tokens):    # only a line of y on one x
        return None
    y, x, start, end = pair
    # "regress log(y) on x": the line of y, not of its log, is all it computes
    reader.used |= {i for i in range(start, end) if reader.tokens[i].low not in TRANSFORMS}
    return Ask("linreg", y, x, position=hit.position, sentence=sentence)


def _y_on_x(reader: AskReader) -> tuple[str, str, int, int] | None:
    tokens = reader.tokens
    for i, token in enumerate(tokens):
        on = next((j for j in range(i + 1, min(len(tokens), i + 12)) if tokens[j].low == "on"), None)
        if token.low not in _REGRESSION_STARTS or on is None:
            continue
        y = next((m for m in reader.mentions if i < m.start < on and reader.numeric(m.column)), None)
        x = next((m for m in reader.mentions if on < m.start <= on + 10 and reader.numeric(m.column)
                  and (y is None or m.column != y.column)), None)
        if y is not None and x is not None and _one_regressor(reader, x.end) and not (
                _EFFECT & {t.low for t in tokens[i:on]}):      # "regression of the effect of x on y": which is y?
            return y.column, x.column, i, x.end
    for on, token in enumerate(tokens):      # "salary on age, OLS slope": the columns either side of "on" ...
        y, x = reader.ending.get(on), reader.starting.get(on + 1)
        if token.low == "on" and y and x and reader.numeric(y.column) and reader.numeric(x.column) and y != x and (
                not y.start or tokens[y.start - 1].low in _FIT_LEADS):    # ... not "the effect of x on y"
            return (y.column, x.column, y.start, x.end) if _one_regressor(reader, x.end, strict=True) else None
    return None


def _one_regressor(reader: AskReader, end: int, strict: bool = False) -> bool:
    """Nothing in the clause after x adds a regressor: "y on a + b", "y on a, b and c" (a list, whatever its
    words) and "y on a and b" (b a column) are regressions on several columns; "regress y on a and give the slope"
    is not. `strict`: any "and" in the clause is taken for another regressor (a bare "y on x" has less to go by)."""
    after = [t.low for t in reader.tokens[end: end + 8]] + ["."]
    clause = after[: next(i for i, w in enumerate(after) if w in (".", ";", "(", ":") or i and w == ",")]
    ands = [end + i for i, w in enumerate(clause) if w == "and"]
    return not ({"+", "&"} & set(clause) or ands and (strict or clause[0] == ",") or any(
        reader.starting.get(j + 1) or reader.starting.get(j + 2) for j in ands))


def _equation(reader: AskReader) -> tuple[str, str, int, int] | None:
    """"foodexp = a + b * income": the column before `=`, the one after the `*`."""
    tokens = reader.tokens
    ending = {m.end: m for m in reader.mentions if reader.numeric(m.column)}
    for i, token in enumerate(tokens):
        if token.text != "=" or i not in ending:
            continue
        y = ending[i]
        star = next((j for j in range(i + 1, min(len(tokens), i + 7)) if tokens[j].text in ("*", "×", "x")), None)
        x = reader.starting.get(star + 1) if star is not None else None
        if x is not None and reader.numeric(x.column) and x.column != y.column:
            return y.column, x.column, y.start, x.end
    return None


_READERS = {"corr": _corr, "normality": _normality, "outliers": _outliers, "ttest": _by_group, "linreg": _linreg,
            "chi2": _chi2, "anova": _by_group, "levene": _by_group}
