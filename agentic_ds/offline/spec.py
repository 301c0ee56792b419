"""A direct question read whole: its asks, the rows they are about, the files, rounding and answer format.

`build_spec(task, profile)` reads the task once into tokens and runs the readers in order, each marking the
tokens it used: derived columns, constraints (rounding, method, rules, format), missing-value handling,
filters, then the asks. The columns named decide the files (`sources.py`). The result renders as the params
of the `direct-answers/compute_answers` template, so the analysis runs in code any model could also run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.asks import Ask, AskReader
from agentic_ds.offline.columns import words
from agentic_ds.offline.constraints import format_slots, read_constraints, without_slots
from agentic_ds.offline.derived import Derived, find_derived
from agentic_ds.offline.filters import (
    Filter,
    boolean_flags,
    comparisons,
    missing_rows,
    named_values,
    outlier_removal,
    unseen_values,
)
from agentic_ds.offline.intent import question_focus
from agentic_ds.offline.mentions import ColumnIndex, Token, find_mentions, sentence_ids, tokenize
from agentic_ds.offline.periods import periods
from agentic_ds.offline.profile import readable_files
from agentic_ds.offline.slots import asks_from_slots, bind_slots
from agentic_ds.offline.sources import Join, choose_sources, file_nouns
from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile

BASIC_STATS = frozenset({"mean", "median", "sum", "min", "max", "std", "count", "nunique", "missing", "percentile"})
_LABELS = {
    "mean": "mean", "median": "median", "sum": "total", "min": "minimum", "max": "maximum",
    "std": "standard deviation", "var": "variance", "count": "number of rows", "nunique": "number of distinct values",
    "missing": "number of missing values", "skew": "skewness", "kurtosis": "excess kurtosis",
    "percent": "percentage", "percent_rows": "percentage of rows meeting the conditions", "range": "range",
    "iqr": "interquartile range", "mode": "most common value",
    "pearson": "Pearson correlation", "spearman": "Spearman correlation", "kendall": "Kendall correlation",
    "shapiro": "Shapiro-Wilk test", "dagostino": "D'Agostino K-squared test", "ks": "Kolmogorov-Smirnov test",
    "outliers_iqr": "IQR outlier count", "outliers_z": "z-score outlier count", "ttest": "t-test",
    "mannwhitney": "Mann-Whitney test",
}


@dataclass
class QuestionSpec:
    task: str
    data: FileProfile | None = None
    asks: list[Ask] = field(default_factory=list)
    filters: list[Filter] = field(default_factory=list)
    derived: list[Derived] = field(default_factory=list)
    dropna: Any = None
    digits: int | None = None
    joins: list[Join] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    problem: str = ""
    unread: list[str] = field(default_factory=list)      # numbers of the question no reader used

    @property
    def answerable(self) -> bool:
        return bool(self.asks) and self.data is not None and not self.problem

    @property
    def shaped(self) -> bool:
        """The question fixes rows, files, rounding or format, or asks for several things."""
        return (len(self.asks) > 1 or bool(self.filters or self.derived or self.joins or self.slots or self.dropna)
                or self.digits is not None)

    @property
    def rich(self) -> bool:
        """More than one plain statistic of one column: the legacy single-statistic reading cannot answer it."""
        return self.shaped or any(a.stat not in BASIC_STATS or a.extreme for a in self.asks)

    @property
    def columns(self) -> list[str]:
        named = [c for a in self.asks for c in (a.column, a.second, a.group) if c]
        named += [f.column for f in self.filters]
        derived = {d.name for d in self.derived}
        return list(dict.fromkeys(c for c in named if c not in derived))

    @property
    def files(self) -> list[str]:
        return ([self.data.path] if self.data else []) + [j.path for j in self.joins]

    def params(self) -> dict[str, Any]:
        return {"asks": [a.as_param() for a in self.asks], "filters": [f.as_param() for f in self.filters],
                "derived": [{"name": d.name, "expression": d.expression} for d in self.derived],
                "dropna": self.dropna, "joins": [j.as_param() for j in self.joins], "digits": self.digits}

    def describe(self) -> str:
        """One sentence for the plan: what is computed, on which rows, from which files."""
        asks = "; ".join(describe_ask(a) for a in self.asks)
        text = f"Compute {asks}"
        if self.derived:
            text += " with " + ", ".join(f"`{d.name}` = {d.expression}" for d in self.derived)
        if self.filters:
            text += " on the rows where " + " and ".join(f"`{f.text()}`" for f in self.filters)
        if self.dropna:
            text += ", dropping rows with missing values" + ("" if self.dropna == "all" else f" in {self.dropna}")
        files = ", ".join(f"`{p}`" for p in self.files)
        text += f", from {files}"
        if self.joins:
            text += " (joined on " + ", ".join(f"`{j.key}`" for j in self.joins) + ")"
        if self.digits is not None:
            text += f"; round the answers to {self.digits} decimals"
        if self.slots:
            text += "; answer in the requested format " + " ".join(f"@{s}[...]" for s in self.slots)
        return text + "."


def describe_ask(ask: Ask) -> str:
    label = _LABELS.get(ask.stat, ask.stat)
    if ask.stat == "percentile":
        label = f"{ask.params.get('p', 50):g}th percentile"
    if ask.second:
        subject = f"{label} of `{ask.column}` and `{ask.second}`"
    elif ask.stat in ("ttest", "mannwhitney"):
        subject = f"{label} of `{ask.column}` between the `{ask.group}` groups"
    else:
        subject = f"{label} of `{ask.column}`" if ask.column else label
    if ask.group and ask.extreme:
        word = "highest" if ask.extreme == "max" else "lowest"
        return f"the `{ask.group}` with the {word} {subject}"
    if ask.group and ask.stat not in ("ttest", "mannwhitney"):
        return f"the {subject} per `{ask.group}`"
    return f"the {subject}"


def build_spec(task: str, profile: DataProfile) -> QuestionSpec:
    spec = QuestionSpec(task=task, slots=format_slots(question_focus(task)))
    files = readable_files(profile)
    if not files:
        spec.problem = "no readable input file"
        return spec
    columns: dict[str, ColumnProfile] = {}
    for data in files:
        for column in data.columns:
            columns.setdefault(column.name, column)
    tokens = tokenize(without_slots(question_focus(task)))
    spec.derived = find_derived(tokens, ColumnIndex(columns))
    kinds = {name: column.kind for name, column in columns.items()} | {d.name: "numeric" for d in spec.derived}
    mentions = find_mentions(tokens, ColumnIndex(kinds))
    constraints = read_constraints(tokens)
    spec.digits = constraints.digits
    taken = set(constraints.taken)
    for derived in spec.derived:
        taken |= set(range(derived.start, derived.end))
    spec.dropna, span = missing_rows(tokens, mentions)
    if span:
        taken |= set(range(*span))
    rule = ("z", constraints.z_threshold) if constraints.z_threshold is not None and constraints.iqr_factor is None \
        else ("iqr", constraints.iqr_factor or 1.5)
    for found in outlier_removal(tokens, mentions, kinds, taken, *rule):
        spec.filters.append(found)
        taken |= set(range(found.start, found.end))
    samples = [row for data in files for row in data.sample]
    said = {t.word for t in tokens if t.word}
    named_files = {c.name for data in files if file_nouns(data) & said for c in data.columns}
    finders = (lambda: comparisons(tokens, mentions, kinds, taken, columns),
               lambda: periods(tokens, mentions, files, taken),
               lambda: named_values(tokens, mentions, columns, taken, samples),
               lambda: unseen_values(tokens, mentions, columns, taken, named_files))
    for finder in finders:
        for found in finder():
            spec.filters.append(found)
            taken |= set(range(found.start, found.end))
    spec.caveats += [f"No column was named for `{f.op} {f.value:g}`: read as `{f.text()}`, the only numeric column "
                     f"whose values span {f.value:g}." for f in spec.filters if f.guessed]
    nouns = frozenset(n for data in files for n in file_nouns(data))
    reader = AskReader(tokens, mentions, kinds, sentence_ids(tokens), constraints, taken, nouns)
    index = ColumnIndex(kinds)

    def slot_column(slot: str) -> str:
        named = [
            m.column for m in find_mentions(tokenize(slot.replace("_", " ")), index) if kinds[m.column] == "numeric"
        ]
        return named[0] if named else reader.column_for(-1, -1, reader.suits("mean"))

    levels = {name: [str(v) for v, _ in column.top_values] for name, column in columns.items()}
    spec.asks = bind_slots(spec.slots, asks_from_slots(spec.slots, reader.read(), slot_column), levels)
    used = {c for a in spec.asks for c in (a.column, a.second, a.group) if c} | {f.column for f in spec.filters}
    spec.filters += boolean_flags(tokens, mentions, columns, taken, used)
    named = {p for m in mentions for p in range(m.start, m.end)}       # "Unnamed: 1" is a column, not a number
    named |= {m.end for m in mentions if m.end < len(tokens) and m.column.endswith(tokens[m.end].text)}
    spec.unread = [t.text for i, t in enumerate(tokens) if t.is_number and i not in taken and i not in named]
    _name_asks(spec.asks)
    counted = _counted_noun(tokens, nouns)
    noun = counted or _counted_noun(tokens, None)
    if noun is not None:
        _name_counted_rows(spec.asks, noun.low)
    _choose_files(spec, files, tokens_words=[t.word for t in tokens if t.word], counted=counted.word if counted else "")
    return spec


_DISTINCT = frozenset("distinct unique different separate".split())
_NOT_NOUNS = _DISTINCT | frozenset("of the a an total times".split())


def _name_asks(asks: list[Ask]) -> None:
    seen: set[str] = set()
    for ask in asks:
        base = "_".join(p for p in (ask.stat, ask.column or "rows", ask.group) if p)
        name, n = base, 2
        while name in seen:
            name, n = f"{base}_{n}", n + 1
        seen.add(name)
        ask.name = name


def _counted_noun(tokens: list, nouns: frozenset[str] | None) -> Token | None:
    """The token of the noun a row count is about ("how many customers" -> customers): one of `nouns` (the files'
    nouns), or with None any plain word ("how many readings")."""
    def counted(token: Token) -> bool:
        return token.word in nouns if nouns is not None else token.low.isalpha() and token.low not in _NOT_NOUNS

    for i in range(len(tokens) - 1):
        if (tokens[i].low, tokens[i + 1].low) in (("how", "many"), ("number", "of")):
            at = i + 2
            # Naming reads past "distinct" ("how many distinct customers" counts customers); choosing the file does
            # not: those customers may be counted in orders.csv.
            while nouns is None and at < len(tokens) - 1 and tokens[at].low in _DISTINCT:
                at += 1
            if at < len(tokens) and counted(tokens[at]):
                return tokens[at] if nouns is not None else _plural_in(tokens, at, counted)
        if tokens[i].low in ("most", "fewest") and counted(tokens[i + 1]):
            return tokens[i + 1]
    return None


def _plural_in(tokens: list, at: int, counted: Callable[[Token], bool]) -> Token:
    """The noun of "how many remote employees are": the first plural word of the next three, else the first."""
    window = [t for t in tokens[at: at + 3] if counted(t)]
    return next((t for t in window if t.low.endswith("s") and not t.low.endswith("ss")), tokens[at])


def _name_counted_rows(asks: list[Ask], noun: str) -> None:
    """A row count the question words as "orders" says "number of orders", and a count of distinct ids it words as
    "products" says "distinct products (product_id)", so the answer speaks of the ask."""
    for ask in asks:
        counts_rows = ask.stat == "count" and not ask.column
        counts_ids = ask.stat == "nunique" and set(words(noun)) <= set(words(ask.column))
        if (counts_rows or counts_ids) and noun.isalpha():
            ask.params.setdefault("rows", noun)


def _choose_files(spec: QuestionSpec, files: list[FileProfile], tokens_words: list[str], counted: str) -> None:
    derived_names = {d.name for d in spec.derived}
    targets = [c for a in spec.asks for c in (a.column, a.second) if c and c not in derived_names]
    targets += [c for d in spec.derived for c in d.columns]
    others = [c for c in spec.columns if c not in targets and c not in derived_names]
    sources = choose_sources(files, targets, others, tokens_words, counted)
    spec.data, spec.joins, spec.problem = sources.primary, sources.joins, sources.problem
    if len(files) > 1 and spec.data is not None:
        used = ", ".join(f"`{p}`" for p in spec.files)
        how = " joined on " + ", ".join(f"`{j.key}`" for j in spec.joins) if spec.joins else ""
        spec.caveats.append(f"Answered from {used}{how} (of {len(files)} input files).")
    if not spec.asks:
        spec.problem = spec.problem or "no statistic, count or test could be read from the question"
    for ask in spec.asks:
        if ask.stat in ("pearson", "spearman", "kendall") and not ask.second:
            spec.problem = f"the {ask.stat} correlation needs two numeric columns"
