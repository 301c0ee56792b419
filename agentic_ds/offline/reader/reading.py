"""The offline model's one reading of a task: a direct question read with confidence, an open analysis, or a
question it could not read (and says so).

    read_question("What is the mean of unemp?", profile)        -> direct: the spec to compute
    read_question("What drives revenue?", profile)              -> open: goals (drivers, relationships, ...)
    read_question("By how much did CO2 rise from 1960 to 2000?") -> unread: the doubts, never a guessed answer

The asks a run holds itself to come from the same reading (`asks`), so the task reader, planner, coder, validator
and judge of the offline model all speak of the same things.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from agentic_ds.offline.reader.mentions import tokenize
from agentic_ds.offline.reader.spec import QuestionSpec, build_spec, describe_ask, question_focus
from agentic_ds.offline.reader.vocabulary import ASKING_WORDS, DRIVER_WORDS, GOAL_WORDS, GOALS, OPEN_WORDS
from agentic_ds.profiling.model import DataProfile

MAX_ASK_CHARS = 300


@dataclass(frozen=True)
class ReadAsk:
    """One ask as the run records it: its words, and the `@name[...]` it fills, if any."""

    text: str
    slot: str = ""
    name: str = ""          # the spec ask it comes from (its result's name); "" for an open or unread task


@dataclass(eq=False)
class Reading:
    """One reading, shared by identity (cached per task and profile)."""

    task: str
    kind: str                                   # direct | open | unread
    spec: QuestionSpec
    profile: DataProfile
    goals: tuple[str, ...] = ()                 # open tasks: what to look at
    drivers: bool = False                       # open tasks: "what drives X"
    asks: list[ReadAsk] = field(default_factory=list)

    @property
    def direct(self) -> bool:
        return self.kind == "direct"

    def why_unread(self) -> str:
        """Why the question is not answered, for the plan, the validator and the report."""
        reasons = [*([self.spec.problem] if self.spec.problem else []), *self.spec.doubts]
        return "; ".join(reasons) or "it is not a question the offline model can compute"


def read_question(task: str, profile: DataProfile) -> Reading:
    """`task` read against `profile` (cached: every role of a run reads the same question)."""
    return _read(task, _Key(profile))


class _Key:
    """A profile as a cache key: by identity (a run's roles share one profile object)."""

    def __init__(self, profile: DataProfile) -> None:
        self.profile = profile

    def __hash__(self) -> int:
        return id(self.profile)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and other.profile is self.profile


@lru_cache(maxsize=32)
def _read(task: str, key: _Key) -> Reading:
    spec = build_spec(task, key.profile)
    words = {t.low for t in tokenize(question_focus(task))}
    closed = bool(spec.slots) or spec.digits is not None
    if spec.confident and (closed or not words & OPEN_WORDS):
        return Reading(task, "direct", spec, key.profile, asks=_asks(spec))
    # "median tip, 2dp" is closed; "middle flipper length for each species" holds words that ask for something
    # (worded as a question or an order to compute)
    if words & OPEN_WORDS or not spec.asks and not words & ASKING_WORDS and not closed and not spec.doubts:
        drivers = bool(words & DRIVER_WORDS)
        return Reading(task, "open", spec, key.profile, goals=open_goals(words, drivers), drivers=drivers,
                       asks=[ReadAsk(_clip(task))])
    return Reading(task, "unread", spec, key.profile, asks=[ReadAsk(_clip(task))])


def open_goals(words: set[str], drivers: bool) -> tuple[str, ...]:
    """Analysis goals of an open task: audit and descriptive always, the rest when the words call for them; a
    generic "explore/analyse" task gets every goal (the planner keeps those the column types allow)."""
    asked = {goal for goal, vocabulary in GOAL_WORDS.items() if words & vocabulary}
    if not asked or len(asked) <= 1 and "predictive" not in asked:
        asked |= {"relationships", "group_comparisons", "trends", "distributions"}
    if drivers:
        asked |= {"relationships", "group_comparisons", "predictive"}
    return ("audit", "descriptive", *[g for g in GOALS if g in asked])


def _asks(spec: QuestionSpec) -> list[ReadAsk]:
    """One ask per thing the answer states: each `@name[...]` it fills, or the ask itself."""
    out: list[ReadAsk] = []
    for ask in spec.asks:
        said = describe_ask(ask)
        if not ask.slots:
            out.append(ReadAsk(said, "", ask.name))
        for part, slot in ask.slots.items():
            what = said if part in ("value",) or part.startswith("group:") else f"the {part} of {said[4:]}"
            out.append(ReadAsk(f"{what} (answer as @{slot}[...])", slot, ask.name))
    return out


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ASK_CHARS else text[: MAX_ASK_CHARS - 1] + "…"
