"""What a direct question asks for: one `Ask` per statistic, test or count it names.

"What are the mean and standard deviation of salary?" holds two asks on one column; "Which department has the
highest median salary?" one arg-max ask (median of salary per department, the top group); "How many
employees earn more than 90000?" a row count (the filter is read by `filters.py`); tests, correlations, outlier
rules and regressions are read by `tests.py`. Each statistic takes the first suitable column named after it in
its sentence, else the nearest before it. Words already used by filters, derived columns or constraints are not
read again, and every word an ask uses is recorded (`used`), so a word no reader used can be told apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.reader.constraints import Constraints
from agentic_ds.offline.reader.filters import MAX_LEVELS, VALUE_KINDS
from agentic_ds.offline.reader.hits import Hit, stat_hits
from agentic_ds.offline.reader.mentions import Mention, Token, pick
from agentic_ds.offline.reader.vocabulary import (
    ADDITIVE,
    CALENDAR_UNITS,
    EXTREMES,
    GROUP_PHRASES,
    MISSING_WORDS,
    NUMERIC_STATS,
    ONE_WORD_STATS,
    PER_GROUP_STATS,
    RATE_WORDS,
    RECORDED,
    SPECIAL,
    SUPERLATIVES,
    WITH_WORDS,
)

FEW_LEVELS = 20            # ... and "by" it (a quarter, a 1-5 rating), where "by" also reads "regressed by"
MEASURED = frozenset("value values readings reading measurements observations records entries".split())
_WHICH = ("which", "what")    # "which X has the highest ...": the question asks for a group's name
_BEFORE_MISSING = frozenset({"have", "has", "had", "with", "a", "an", "no", "missing", "of", "values", "value"})
_COUNT_WORDS = (("how", "many"), ("number", "of"), ("no", ".", "of"), ("count", "the"), ("all",), ("over", "all"),
                ("across", "all"))
UNRECORDED_REACH = 8       # tokens from the counted rows to the "no" of "have no sex recorded"
MAX_HITS = 24              # statistics read per question: a question never asks for more
LOOKAHEAD = 16             # tokens after a "which X" searched for "highest"/"lowest"


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
        self.filtering = {m.start: m for m in mentions if m.start not in self.starting}   # a filter's columns
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
            if self.tokens[i].low not in _WHICH or i in self.taken:
                continue
            group = pick(self.near(i + 1, i + 3), self.groupable) or pick(   # "which year from 1800 to 1850 had"
                [self.filtering[p] for p in range(i + 1, i + 4) if p in self.filtering], self.groupable)
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
                if group is not None:     # "among the firms, which one has the smallest ...": "which" asks for it
                    which = {k for k in range(group.end, j - 2) if self.tokens[k].low in _WHICH}
                    self.used |= {*range(group.start, group.end), *range(j - 2, j + 1), *which}
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
        from agentic_ds.offline.reader.tests import method_hits, use_z_definition

        hits = stat_hits(self.tokens, self.taken | self.inside)[:MAX_HITS] + method_hits(self)
        if self.constraints.z_threshold is not None:     # "Standardise income (z = (x - mean) / std)": the rule's
            use_z_definition(self)
            hits = [h for h in hits if h.position not in self.used]
        hits = self._counts_of_columns(sorted(hits, key=lambda h: h.position))
        asks: list[Ask] = []
        which = sorted({self.sentences[i] for i, t in enumerate(self.tokens) if t.low in _WHICH
                        and i not in self.taken})[:MAX_HITS]          # sentences that may ask "which X ..."
        for sentence in sorted({self.sentences[h.position] for h in hits} | set(which)):
            asks += self._sentence_asks(sentence, [h for h in hits if self.sentences[h.position] == sentence], asks)
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

    def _sentence_asks(self, sentence: int, hits: list[Hit], earlier: Sequence[Ask] = ()) -> list[Ask]:
        from agentic_ds.offline.reader.tests import special_asks

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
            plain = [a for a in plain if a.stat != "percent_rows"] or [
                self._default_extreme(at, sentence, group, earlier)]
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
                        if self.tokens[j].low in MISSING_WORDS), None)
        if missing is not None and all(self.tokens[j].low in _BEFORE_MISSING or j == after
                                       for j in range(after, missing)):
            self.use(after, missing + 1)       # "how many missing", "how many penguins have a missing (unrecorded) sex"
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

    def _default_extreme(self, at: int, sentence: int, group: str, earlier: Sequence[Ask] = ()) -> Ask:
        """"Which X has the most orders": count rows; "the highest revenue": sum of an amount, else the mean; "the
        median price for each category; which category is highest?": the statistic an earlier sentence named for
        the same column (and group), not a default of its own."""
        column = self.column_for(at, sentence, self.suits("mean"), (group,))
        named_after = any(m.start > at and self.numeric(m.column) for m in self.by_sentence.get(sentence, []))
        if not column or not named_after and self.tokens[at].low in ("most", "fewest", "least"):
            return Ask("count", "", position=at, sentence=sentence)
        said = (a for a in reversed(earlier) if a.column == column and not a.second and a.stat in PER_GROUP_STATS)
        named = max(said, key=lambda a: a.group == group, default=None)     # the latest, of this group first
        if named is not None:
            return Ask(named.stat, column, params=dict(named.params), position=at, sentence=sentence)
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
