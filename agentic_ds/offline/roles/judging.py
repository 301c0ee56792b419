"""task_reader and judge, offline: the offline reader's asks of a task, and its reading of an answer's words.

The task reader lists the asks of the one reading of the task (`reader.read_question`: one per statistic asked,
or per `@name[...]` it fills; a task it cannot read, or an open one, is one ask) and a title of the task's first
words. The judge reads each answer part it is shown against its ask: a part addresses the ask when it speaks of
what the ask names (`reader.addressing`); a criterion's evidence shows it when it quotes a figure. Both read the
values of their prompt (the task, the profile, the parts), never its text.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.offline.reader.addressing import addresses, content
from agentic_ds.offline.reader.vocabulary import ESTIMATE_WORDS
from agentic_ds.offline.request import ParsedRequest, Reply

TITLE_WORDS = 8


def task_reader_turn(req: ParsedRequest) -> Reply:
    title = " ".join(req.task().split()[:TITLE_WORDS]).rstrip(",;:?")
    asks = [{"id": f"a{i}", "text": a.text, "slot": a.slot} for i, a in enumerate(req.reading().asks, 1)]
    return Reply.json({"title": title[:1].upper() + title[1:], "asks": asks})


def judge_turn(req: ParsedRequest) -> Reply:
    slots = {a["id"]: a["slot"] for a in req.asks()}
    task = " ".join(req.task().split())
    asks = [_judged(part, slots.get(str(part.get("id")), ""), task) for part in req.context.get("parts") or []
            if isinstance(part, dict)]
    criteria = [_criterion(c) for c in req.context.get("criteria") or [] if isinstance(c, dict)]
    return Reply.json({"asks": asks, "criteria": criteria})


def _judged(part: dict[str, Any], slot: str, task: str) -> dict[str, Any]:
    ask, answer = str(part.get("ask") or ""), str(part.get("answer") or "")
    # An open question is one ask worded as the whole task: its answer need speak of only some of its words.
    addressed = addresses(ask, answer, slot, whole=bool(task) and " ".join(ask.split()) == task)
    reason = f"the answer speaks of {ask}" if addressed else f"the answer does not speak of {ask}"
    estimate = bool(set(content(f"{ask} {answer}")) & ESTIMATE_WORDS)
    return {"id": part.get("id"), "addressed": addressed, "estimate": estimate, "reason": reason}


def _criterion(criterion: dict[str, Any]) -> dict[str, Any]:
    evidence = str(criterion.get("evidence") or "")
    shown = any(ch.isdigit() for ch in evidence)
    reason = "its evidence quotes figures from the files it cites" if shown else "its evidence quotes no figure"
    return {"id": criterion.get("id"), "shown": shown, "reason": reason}
