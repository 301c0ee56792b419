"""Bind a parsed `Intent` to the real columns of one data file.

The result says which columns the analysis uses and, in `caveats`, every interpretation made on the
way (a paraphrase taken for a column, an ambiguous match, a column that could not be found).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from agentic_ds.offline.columns import ColumnMatch, match_column, mentioned_columns, normalise, words
from agentic_ds.offline.intent import Intent, question_focus
from agentic_ds.offline.profile import find_column, is_groupable, of_kind, readable_files, top_names
from agentic_ds.offline.sources import file_nouns
from agentic_ds.profiling.model import ColumnProfile as Column
from agentic_ds.profiling.model import DataProfile, FileProfile

_NUMERIC = ("numeric",)
_GROUPING = ("categorical", "boolean", "id", "text")
MAX_PHRASE_WORDS = 12
_ROW_WORDS = frozenset("row record entry observation line order transaction sale".split())


@dataclass
class Question:
    intent: Intent
    data_path: str
    target: str = ""                       # measured column ("" = rows, for a plain count)
    second: str = ""                       # correlation partner
    group: str = ""                        # grouping column
    time: str = ""                         # time column of a trend
    group_values: tuple[str, ...] = ()     # the compared groups, as spelled in the data
    caveats: list[str] = field(default_factory=list)
    problem: str = ""                      # why the question cannot be answered from this file

    @property
    def answerable(self) -> bool:
        return not self.problem

    @property
    def columns(self) -> list[str]:
        return [c for c in (self.target, self.second, self.group, self.time) if c]


def data_for_task(profile: DataProfile, task: str) -> FileProfile | None:
    """The readable file the task is about: the one naming most of the task's columns, then the one whose file
    name the task says ("orders"), then the largest; never just the alphabetically first."""
    focus = question_focus(task)
    files = readable_files(profile)
    if not files:
        return None
    said = set(words(focus))

    def rank(data: FileProfile) -> tuple[int, int, int, str]:
        return (
            -len(mentioned_columns(focus, data.columns)),
            -len(file_nouns(data) & said),
            -(data.rows or 0),
            data.path,
        )

    return min(files, key=rank)


def bind_question(intent: Intent, data: FileProfile) -> Question:
    question = Question(intent=intent, data_path=data.path)
    kind = intent.kind
    if kind == "statistic":
        _bind_statistic(question, data)
    elif kind == "correlation":
        question.target = _need(question, data.columns, intent.target_text, _NUMERIC)
        rest = [c for c in data.columns if c.name != question.target]
        question.second = _need(question, rest, intent.second_text, _NUMERIC)
    elif kind == "top_values":
        question.target = _need(
            question, data.columns, intent.target_text, ("categorical", "text", "boolean", "id", "numeric")
        )
    elif kind == "comparison":
        question.target = _need(question, data.columns, intent.target_text, _NUMERIC)
        _bind_groups(question, data)
    elif kind == "trend":
        question.target = _need(question, data.columns, intent.target_text, _NUMERIC)
        question.time = _time_column(question, data)
    return question


def _bind_statistic(question: Question, data: FileProfile) -> None:
    intent = question.intent
    stat = intent.statistic
    target_words = set(words(intent.target_text))
    if stat == "count" and (not target_words or target_words <= _ROW_WORDS):
        question.target = ""                                # number of rows
    elif stat in ("count", "nunique", "missing"):
        question.target = _need(question, data.columns, intent.target_text, ())
        if stat == "count" and _counts_kinds(intent.target_text, find_column(data, question.target)):
            # "How many departments are there?" asks for the departments, not for the rows that have one.
            question.intent = replace(intent, statistic="nunique")
    else:
        question.target = _need(question, data.columns, intent.target_text, _NUMERIC)
    if intent.group_text:
        others = [c for c in data.columns if c.name != question.target]
        question.group = _need(question, others, intent.group_text, _GROUPING)


def _counts_kinds(text: str, column: Column | None) -> bool:
    """True when a categorical column is named by a plural noun ("departments"): its levels are counted."""
    if column is None or column.kind not in ("categorical", "text"):
        return False
    name_words = set(words(column.name))
    return any(raw != words(raw)[0] and words(raw)[0] in name_words for raw in re.findall(r"[a-z0-9]+", text.lower()))


def _need(question: Question, columns: list[Column], text: str, kinds: tuple[str, ...]) -> str:
    """The best column for `text` (recording caveats), or "" with `question.problem` set."""
    if question.problem:
        return ""
    found = best_match(text, columns, kinds)
    if found is None:
        wanted = " or ".join(kinds) if kinds else "any"
        question.problem = f'no {wanted} column matches "{text}" in {question.data_path}'
        return ""
    phrase, match = found
    if note := match.caveat(phrase):
        question.caveats.append(note)
    return match.name


def best_match(text: str, columns: list[Column], kinds: tuple[str, ...]) -> tuple[str, ColumnMatch] | None:
    """Try the whole phrase, then every 1-3 word window of it; the highest score wins (earliest on ties).
    A column is named in a few words: only the first MAX_PHRASE_WORDS are read."""
    tokens = text.split()[:MAX_PHRASE_WORDS]
    text = " ".join(tokens)
    phrases = [text] + [" ".join(tokens[i : i + n]) for n in (3, 2, 1) for i in range(len(tokens) - n + 1)]
    best: tuple[float, int, str, ColumnMatch] | None = None
    for order, phrase in enumerate(phrases):
        match = match_column(phrase, columns, kinds=kinds)
        if match is None or (kinds and match.column.kind not in kinds and match.how != "exact"):
            continue
        if best is None or match.score > best[0]:
            best = (match.score, order, phrase, match)
    return (best[2], best[3]) if best else None


def _bind_groups(question: Question, data: FileProfile) -> None:
    intent = question.intent
    if intent.group_text:
        others = [c for c in data.columns if c.name != question.target]
        question.group = _need(question, others, intent.group_text, _GROUPING)
        return
    wanted = [normalise(v) for v in intent.group_values]
    for column in sorted(of_kind(data, *_GROUPING), key=lambda c: c.name):
        spelled = {normalise(v): v for v in top_names(column)}
        if all(w in spelled for w in wanted):
            question.group = column.name
            question.group_values = tuple(spelled[w] for w in wanted)
            return
    groupable = [c for c in data.columns if is_groupable(c) and c.name != question.target]
    if not groupable:
        question.problem = f"no column holds the groups {', '.join(intent.group_values)}"
        return
    question.group = sorted(groupable, key=lambda c: (c.distinct or 99, c.name))[0].name
    question.caveats.append(
        f"The groups {', '.join(intent.group_values)} were not found among the profiled values; "
        f"compared the groups of `{question.group}` instead."
    )


def _time_column(question: Question, data: FileProfile) -> str:
    if question.problem:
        return ""
    dated = of_kind(data, "datetime")
    if not dated:
        dated = [c for c in data.columns if re.search(r"date|time|month|year|week|day|period", c.name, re.I)]
    if not dated:
        question.problem = f"no date or time column in {data.path} to follow a trend over"
        return ""
    named = [c for c in dated if c.name.lower() in question.intent.task.lower()]
    chosen = (named or dated)[0].name
    if len(dated) > 1 and not named:
        question.caveats.append(
            f"Used `{chosen}` as the time axis (also possible: {', '.join(c.name for c in dated[1:])})."
        )
    return chosen
