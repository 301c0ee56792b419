"""A direct question read whole: its asks, the rows they are about, the files, rounding and answer format.

`build_spec(task, profile)` reads the task once into tokens and runs the readers in order, each marking the
tokens it used: derived columns, constraints (rounding, method, rules, format), missing-value handling,
filters, then the asks. The columns named decide the files (`sources.py`). What no reader used is weighed by
`doubts.py`: a question with a word or number left unread is not read with confidence. The result renders as
the params of the `direct-answers/compute_answers` template, so the analysis runs in code any model could run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.profile import readable_files
from agentic_ds.offline.reader.asks import Ask, AskReader
from agentic_ds.offline.reader.constraints import format_slots, read_constraints, without_slots
from agentic_ds.offline.reader.derived import Derived, find_derived
from agentic_ds.offline.reader.doubts import doubt_of, doubts_of, named_groups, outlier_rule_applied, restated
from agentic_ds.offline.reader.filters import (
    Filter,
    comparisons,
    level_numbers,
    missing_rows,
    outlier_removal,
    signs,
)
from agentic_ds.offline.reader.mentions import ColumnIndex, find_mentions, sentence_ids, tokenize
from agentic_ds.offline.reader.mentions import words as split_words
from agentic_ds.offline.reader.nested import of_group_statistics
from agentic_ds.offline.reader.slots import (
    asks_from_slots,
    bind_slots,
    counted_noun,
    name_asks,
    name_counted_rows,
    verdict_rules,
    verdict_slots,
)
from agentic_ds.offline.reader.sources import Join, choose_sources, file_name, file_nouns
from agentic_ds.offline.reader.tests import MAX_TEST_GROUPS
from agentic_ds.offline.reader.values import boolean_flags, named_values, periods, unseen_values, year_ranges
from agentic_ds.offline.reader.vocabulary import GROUP_TESTS, LABELS
from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile

HEAD_CHARS, TAIL_CHARS = 4000, 2000


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
    doubts: list[str] = field(default_factory=list)      # what of the question no reader could use

    @property
    def answerable(self) -> bool:
        return bool(self.asks) and self.data is not None and not self.problem

    @property
    def confident(self) -> bool:
        """Every ask bound, every file found, and no word or number of the question left unread."""
        return self.answerable and not self.doubts

    @property
    def columns(self) -> list[str]:
        named = [c for a in self.asks for c in (a.column, a.second, a.group, a.params.get("over")) if c]
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
        text = "Compute " + "; ".join(describe_ask(a) for a in self.asks)
        if self.derived:
            text += " with " + ", ".join(f"`{d.name}` = {d.expression}" for d in self.derived)
        if self.filters:
            text += " on the rows where " + " and ".join(f"`{f.text()}`" for f in self.filters)
        if self.dropna:
            where = {"all": " in any column", "used": " in the columns used"}.get(str(self.dropna),
                                                                                  f" in {self.dropna}")
            text += ", dropping rows with missing values" + where
        text += ", from " + ", ".join(f"`{p}`" for p in self.files)
        if self.joins:
            text += " (joined on " + ", ".join(f"`{j.key}`" for j in self.joins) + ")"
        if self.digits is not None:
            text += f"; round the answers to {self.digits} decimals"
        if self.slots:
            text += "; answer in the requested format " + " ".join(f"@{s}[...]" for s in self.slots)
        return text + "."


def describe_ask(ask: Ask) -> str:
    """The ask in words, as plans, criteria and the task reader state it."""
    label = LABELS.get(ask.stat, ask.stat)
    if ask.stat == "percentile":
        label = f"{ask.params.get('p', 50):g}th percentile"
    rows = str(ask.params.get("rows") or "")             # "orders": the answer speaks of the rows it counts
    if rows and ask.stat == "count" and not ask.column:
        label = f"number of {rows}"
    if ask.stat == "linreg":
        return f"the slope, intercept and R-squared of the least-squares line of `{ask.column}` on `{ask.second}`"
    if ask.second:
        subject = f"{label} of `{ask.column}` and `{ask.second}`"
    elif ask.stat in GROUP_TESTS:
        subject = f"{label} of `{ask.column}` between the `{ask.group}` groups"
    else:
        subject = f"{label} of `{ask.column}`" if ask.column else label
    if ask.params.get("over"):          # "the median of the per-firm means of invest"
        inner = LABELS.get(ask.params["of"], ask.params["of"])
        return f"the {label} of the per-`{ask.params['over']}` {inner}s of `{ask.column}`"
    if ask.group and ask.extreme:
        word = "highest" if ask.extreme == "max" else "lowest"
        return f"the `{ask.group}` with the {word} {subject}"
    if ask.group and ask.stat not in GROUP_TESTS:
        return f"the {subject} per `{ask.group}`"
    return f"the {subject}"


def question_focus(text: str) -> str:
    """The part of a task a question is read from: all of it, or for a long paste its first 4,000 and last 2,000
    characters (where people put the question). Bounding it keeps every reading linear in the task's length."""
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return text
    return f"{text[:HEAD_CHARS]} … {text[-TAIL_CHARS:]}"


def build_spec(task: str, profile: DataProfile) -> QuestionSpec:
    focus = question_focus(" ".join(task.split()))
    spec = QuestionSpec(task=task, slots=format_slots(focus))
    files = readable_files(profile)
    if not files:
        spec.problem = "no readable input file"
        return spec
    columns: dict[str, ColumnProfile] = {}
    for data in files:
        for column in data.columns:
            columns.setdefault(column.name, column)
    tokens = tokenize(without_slots(focus))
    spec.derived = find_derived(tokens, ColumnIndex(columns))
    kinds = {name: column.kind for name, column in columns.items()} | {d.name: "numeric" for d in spec.derived}
    mentions = find_mentions(tokens, ColumnIndex(kinds))
    constraints = read_constraints(tokens)
    # "the slope (5 decimals) and the intercept (1 decimal)": one rounding serves all, the finest said
    spec.digits = max(constraints.roundings) if constraints.roundings else constraints.digits
    taken = constraints.taken | {p for derived in spec.derived for p in range(derived.start, derived.end)}
    for start, end, level in verdict_rules(tokens):         # "(yes if p < 0.01)": read with its yes/no slot
        taken |= set(range(start, end))
        if constraints.alpha is None and level is not None and 0 < level <= 0.5:
            constraints.alpha = level
    spec.dropna, span = missing_rows(tokens, mentions, columns)
    taken |= set(range(*span))
    rule = ("z", constraints.z_threshold) if constraints.z_threshold is not None and constraints.iqr_factor is None \
        else ("iqr", constraints.iqr_factor or 1.5)
    samples = [row for data in files for row in data.sample]
    said = {t.word for t in tokens if t.word}
    named_files = {c.name for data in files if file_nouns(data) & said for c in data.columns}
    finders = (lambda: outlier_removal(tokens, mentions, kinds, taken, *rule, side=constraints.z_side,
                                           ddof=constraints.ddof),
               lambda: year_ranges(tokens, mentions, files, taken),
               lambda: comparisons(tokens, mentions, kinds, taken, columns),
               lambda: signs(tokens, mentions, kinds, taken),
               lambda: level_numbers(tokens, mentions, columns, taken),
               lambda: periods(tokens, mentions, files, taken),
               lambda: named_values(tokens, mentions, columns, taken, samples),
               lambda: unseen_values(tokens, mentions, columns, taken, named_files))
    for finder in finders:
        for found in finder():
            spec.filters.append(found)
            taken |= set(range(found.start, found.end))
    # The words of a column name are not statistics ("'mean radius'", "total_phenols").
    derived_names = {d.name for d in spec.derived}
    inside = {p for m in mentions if m.exact and m.end - m.start > 1 or m.column in derived_names
              for p in range(m.start, m.end)}
    nouns = frozenset(n for data in files for n in file_nouns(data))
    levels = {name: column.distinct for name, column in columns.items()}
    reader = AskReader(tokens, mentions, kinds, sentence_ids(tokens), constraints, taken, nouns, levels, inside,
                       filtered=bool(spec.filters))
    index = ColumnIndex(kinds)

    def slot_column(slot: str) -> str:
        found = find_mentions(tokenize(slot.replace("_", " ")), index)
        named = [m.column for m in found if kinds[m.column] == "numeric"]
        return named[0] if named else reader.column_for(-1, -1, reader.suits("mean"))

    values = {name: [str(v) for v, _ in column.top_values] for name, column in columns.items()}
    asks, nested_unread = of_group_statistics(reader.read(), tokens, reader.used)
    spec.filters = named_groups(asks, spec.filters, tokens, reader.used)
    verdicts = verdict_slots(focus)
    guessed = asks_from_slots(spec.slots, asks, slot_column, verdicts)[len(asks):]
    spec.asks = bind_slots(spec.slots, asks + guessed, values, verdicts)
    # Asks the words hold that fill no slot are dropped ("the sample mean" of a test's method), but not when an ask
    # guessed from a slot's name takes their place ("What share of the weeks have no reading? @pct_missing[...]";
    # a count of rows may give way to a count of something, "@missing_weeks"), nor when they are per group ("the
    # mean for each number of children; the SD of those means? @sd_of_means[...]")
    slotted_guess = any(a in spec.asks for a in guessed)
    displaced = [describe_ask(a)[4:] for a in asks if a not in spec.asks and (
        a.group or slotted_guess and a.stat != "count")]
    used = {c for a in spec.asks for c in (a.column, a.second, a.group) if c} | {f.column for f in spec.filters}
    for found in boolean_flags(tokens, mentions, columns, taken, used):
        spec.filters.append(found)
        taken |= set(range(found.start, found.end))
    name_asks(spec.asks)
    counted = counted_noun(tokens, nouns)
    noun = counted or counted_noun(tokens, None)
    if noun is not None:
        name_counted_rows(spec.asks, noun.low)
    lowered = focus.lower()
    named = frozenset(file_name(f.path) for f in files if file_name(f.path) in lowered)
    _choose_files(spec, files, [t.word for t in tokens if t.word], counted.word if counted else "", named)
    unprofiled = [p for p in profile.not_profiled if file_name(p) in lowered]
    if unprofiled:
        spec.problem = (f"the question names {unprofiled[0]}, which was not profiled (a run profiles the first "
                        f"{len(profile.files)} files of its inputs)")
    keys = [c.name for f in files for c in f.columns if f.rows and c.distinct == f.rows]      # one value per row
    per_row = nouns | {"_".join(split_words(name)) for name in keys}
    said_again = restated(tokens, spec.filters, per_row)
    measures = {name for name in kinds if reader.numeric(name) and split_words(name)[-1:] != ["year"]
                and (levels.get(name) or 0) > MAX_TEST_GROUPS}      # not a year, a quarter, a rating or a firm
    spec.doubts = doubts_of(tokens, mentions, taken | reader.used | inside | said_again, spec, measures, files)
    spec.doubts += doubt_of(displaced, "the {} that the words ask for fill no answer slot")
    spec.doubts += doubt_of(nested_unread, "{}: no per-group statistic read gives these results")
    if constraints.rule_written and not outlier_rule_applied(spec):   # "apply the 1.5 x IQR rule. How many years"
        spec.doubts.append("an outlier rule is stated, but nothing read applies it")
    return spec


def _choose_files(spec: QuestionSpec, files: list[FileProfile], tokens_words: list[str], counted: str,
                  named: frozenset[str]) -> None:
    derived_names = {d.name for d in spec.derived}
    targets = [c for a in spec.asks for c in (a.column, a.second) if c and c not in derived_names]
    targets += [c for d in spec.derived for c in d.columns]
    others = [c for c in spec.columns if c not in targets and c not in derived_names]
    spec.data, spec.joins, spec.problem = choose_sources(files, targets, others, tokens_words, counted, named)
    if len(files) > 1:
        used = ", ".join(f"`{p}`" for p in spec.files)
        how = " joined on " + ", ".join(f"`{j.key}`" for j in spec.joins) if spec.joins else ""
        spec.caveats.append(f"Answered from {used}{how} (of {len(files)} input files).")
    if not spec.asks:
        spec.problem = spec.problem or "no statistic, count or test could be read from the question"
