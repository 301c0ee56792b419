"""What the task asks, as the run holds itself to it: the task reader's asks, with `@name[...]` slots as a floor.

Reading a question into its parts is language, so a model does it (`task_reader`, at the start of a run); code keeps
only what is a format: every `@name[...]` the task writes is an ask, added when the reading left it out, and a
task no model could read is one ask as a whole. The plan's criteria say which asks each settles; an ask none
settles gets a criterion of its own (`cover`), decided on ids alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from agentic_ds import state as S
from agentic_ds.schema import AskRecord, CriterionRecord, read_records
from agentic_ds.state import TaskReading

MAX_ASKS = 24
MAX_ASK_CHARS = 400
SLOT = re.compile(r"@([A-Za-z_]\w{0,60})\[([^\]\n]{0,200})\]")


def slots(task: str) -> list[str]:
    """The names of the values the task asks for as `@name[...]`, in order, each once."""
    return list(dict.fromkeys(m.group(1) for m in SLOT.finditer(task)))[:MAX_ASKS]


def read_asks(reading: TaskReading | None, task: str) -> list[AskRecord]:
    """The asks of `task`: the reader's, renumbered a1, a2..., plus every `@name[...]` slot it left out; the whole
    task as one ask when there is no reading."""
    named = slots(task)
    asks: list[AskRecord] = []
    for item in (reading.asks if reading is not None else [])[:MAX_ASKS]:
        text = " ".join(item.text.split())[:MAX_ASK_CHARS]
        slot = next((name for name in named if name.lower() == item.slot.strip().lstrip("@").lower()), "")
        if text or slot:
            asks.append(AskRecord(id="", text=text or f"the value of {slot}", slot=slot))
    taken = {ask.slot.lower() for ask in asks if ask.slot}
    asks += [AskRecord(id="", text=f"the value of {name} (answer as @{name}[...])", slot=name)
             for name in named if name.lower() not in taken]
    if not asks:
        asks = [AskRecord(id="", text=" ".join(task.split())[:MAX_ASK_CHARS] or "the task")]
    return [ask.model_copy(update={"id": f"a{i}"}) for i, ask in enumerate(asks[:MAX_ASKS], 1)]


def asks_in(state: Mapping[str, Any]) -> list[AskRecord]:
    """The run's asks as state keeps them (the whole task as one ask before the reader spoke)."""
    kept = read_records(AskRecord, state.get(S.ASKS))
    return kept or read_asks(None, str(state.get(S.TASK) or ""))


def typed_asks(state: Mapping[str, Any]) -> list[dict[str, str]]:
    """The asks as prompt contexts hold them (templates list them with `asks_section`)."""
    return [ask.model_dump(mode="json") for ask in asks_in(state)]


def render_asks(asks: list[AskRecord]) -> str:
    """The asks as prompts list them: `- [a1] how unemployment relates to inflation`."""
    return "\n".join(f"- [{ask.id}] {ask.text}" for ask in asks)


def criterion_for(ask: AskRecord) -> str:
    """The success criterion an ask needs, checkable from files."""
    if ask.slot:
        return (f"A file under outputs/, written by executed code, gives the value of {ask.slot} "
                f"(the answer states it as @{ask.slot}[...]).")
    return f"A file under outputs/, written by executed code, holds the figure(s) that answer: {ask.text}"


def cover(asks: list[AskRecord], criteria: list[CriterionRecord]) -> list[CriterionRecord]:
    """`criteria` (each naming the asks it settles), plus one new criterion for each ask none of them settles."""
    known = {ask.id for ask in asks}
    out = [c.model_copy(update={"asks": [a for a in dict.fromkeys(c.asks) if a in known]}) for c in criteria]
    covered = {a for c in out for a in c.asks}
    taken = {c.id for c in out}
    number = len(out)
    for ask in asks:
        if ask.id in covered:
            continue
        number += 1
        while f"c{number}" in taken:
            number += 1
        taken.add(f"c{number}")
        out.append(CriterionRecord(id=f"c{number}", text=criterion_for(ask), asks=[ask.id], origin="asks"))
    return out
