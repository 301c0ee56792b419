"""task_reader and judge, offline: the offline model's own reading of a question, and of an answer's words.

The task reader lists the asks its question reader finds (`task_parts.task_asks`, the same reading the offline
planner and validator use, so the ids agree) and a title made of the first ask. The judge reads each part it is
shown against its ask, re-reading the ask from its own words: a part addresses the ask when it names what the ask
names (`addressing.addresses`). Both read the values of their prompt (`req.context`), never its text.
"""

from __future__ import annotations

import re
from typing import Any

from agentic_ds.offline.addressing import addresses
from agentic_ds.offline.reply import Reply
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.offline.task_parts import Ask, extract_asks, task_asks

_ESTIMATE = re.compile(r"regress|\bmodel|\bfit(?:ted)?\b|predict|forecast|coefficient|r²|\br2\b|r-squared|"
                       r"estimat|\bdriver|importance", re.I)
TITLE_WORDS = 8


def task_reader_turn(req: ParsedRequest) -> Reply:
    task = str(req.context.get("task") or req.task)
    asks = task_asks(task)
    first = asks[0].text if asks else task
    title = " ".join(first.replace("(answer as", " ").split()[:TITLE_WORDS]).rstrip(",;:")
    return Reply.json({"title": title[:1].upper() + title[1:],
                       "asks": [{"id": a.id, "text": a.text, "slot": a.slot} for a in asks]})


def judge_turn(req: ParsedRequest) -> Reply:
    task = str(req.context.get("task") or req.task)
    by_id = {a.id: a for a in task_asks(task)}
    asks = [_judged(part, by_id) for part in req.context.get("parts") or []]
    criteria = [_criterion(c) for c in req.context.get("criteria") or []]
    return Reply.json({"asks": asks, "criteria": criteria})


def _judged(part: dict[str, Any], by_id: dict[str, Ask]) -> dict[str, Any]:
    ask = _ask_of(str(part.get("ask") or ""), by_id.get(str(part.get("id"))))
    answer = str(part.get("answer") or "")
    addressed = ask is None or addresses(ask, answer)
    reason = (f"the answer speaks of {ask.text}" if addressed and ask is not None
              else "the offline reader could not read the ask; its figures were traced by code" if ask is None
              else f"the answer does not speak of {ask.text}")
    estimate = bool(_ESTIMATE.search(answer)) or (ask is not None and ask.kind == "drivers")
    return {"id": part.get("id"), "addressed": addressed, "estimate": estimate, "reason": reason}


def _ask_of(text: str, known: Ask | None) -> Ask | None:
    """The ask as the offline reader reads it: from its own words when they read as one ask, else as the task's
    reading gave it."""
    own = extract_asks(text) if text else []
    if len(own) == 1 and own[0].kind != "question":
        return own[0]
    return known


def _criterion(criterion: dict[str, Any]) -> dict[str, Any]:
    evidence = str(criterion.get("evidence") or "")
    shown = bool(re.search(r"\d", evidence))
    reason = "its evidence quotes figures from the files it cites" if shown else "its evidence quotes no figure"
    return {"id": criterion.get("id"), "shown": shown, "reason": reason}
