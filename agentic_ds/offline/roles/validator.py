"""answer_validator (both modes): restate the answer the result files support, ask by ask, citing them; and
task_reader and judge, offline: the offline reader's asks of a task, and its reading of an answer's words.

Each ask's answer is a sentence of a result file this run's code wrote, copied as the file gives it, with that
file cited; nothing is composed. A direct question's asks are answered by the `compute_answers` result, one
sentence per ask of the reading (with its `@name[value]`); an open task's by the most telling sentence of each
analysis. A question the offline reader could not read is not answered, and the validator says why.

The task reader lists the asks of the one reading of the task (`reader.read_question`: one per statistic asked,
or per `@name[...]` it fills; a task it cannot read, or an open one, is one ask) and a title of the task's first
words. The judge reads each answer part it is shown against its ask: a part addresses the ask when it speaks of
what the ask names (`reader.addressing`); a criterion's evidence shows it when it quotes a figure. Both read the
values of their prompt (the task, the profile, the parts), never its text.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.offline.reader import ReadAsk, Reading
from agentic_ds.offline.reader.addressing import addresses, content
from agentic_ds.offline.reader.vocabulary import ESTIMATE_WORDS
from agentic_ds.offline.request import ParsedRequest, Reply, results_or_fetch
from agentic_ds.offline.roles.summarizer import analysis_paths, headline
from agentic_ds.schema import StageStatus

ANSWERS_TEMPLATE = "compute_answers"
UNREAD = "The offline model could not read this question with confidence"
TITLE_WORDS = 8


def validator_turn(req: ParsedRequest) -> Reply:
    reading = req.reading()
    execution, stages = req.execution(), req.stages()
    simple = req.context.get("mode") == "simple"
    documents = results_or_fetch(req, [str(f) for f in execution.get("files") or []] + req.produced())
    if isinstance(documents, Reply):
        return documents
    ran = bool(execution.get("ok")) if simple else any(s.status is StageStatus.APPROVED for s in stages)
    asks = req.asks()
    if not ran or not documents:
        return _refused(asks, "the execution failed" if not ran else "no result file with a summary was written")
    if reading.kind == "unread":
        why = f"{UNREAD}: {reading.why_unread()}"
        return _refused(asks, why, f"{why}. It did not answer it.")
    if reading.direct:
        return _direct(reading, asks, documents)
    return _open(reading, asks, documents)


def _direct(reading: Reading, asks: list[dict[str, str]], documents: dict[str, dict[str, Any]]) -> Reply:
    found = [p for p in sorted(documents) if documents[p].get("template") == ANSWERS_TEMPLATE]
    if not found:
        return _refused(asks, "no result of this run computes the asks (the analysis that ran describes the data)")
    path, document = found[-1], documents[found[-1]]
    sentences = [str(s) for s in document.get("summary") or []]
    by_name = {ask.name: sentences[i] for i, ask in enumerate(reading.spec.asks) if i < len(sentences)}
    parts = [_part(ask, _read_ask(ask, reading.asks), by_name, path) for ask in asks]
    answered = [p["answer"] for p in parts if p["answered"]]
    answer = " ".join(dict.fromkeys(answered)) or "No ask could be answered from the result."
    caveats = list(reading.spec.caveats) + [str(n) for n in document.get("notes") or []]
    kind = "table" if document.get("by_group") else "number" if len(reading.spec.asks) == 1 else "text"
    return _reply(bool(answered), answer, parts, caveats, kind,
                  trace=[f"Read the task as a direct question of {len(reading.spec.asks)} ask(s).",
                         f"Re-read {path}, which {document.get('skill', '?')}/{ANSWERS_TEMPLATE} wrote."])


def _read_ask(ask: dict[str, str], read: list[ReadAsk]) -> ReadAsk | None:
    """The reading's ask a run's ask is: the one filling its slot, worded as it, or the one its words speak of."""
    return (next((r for r in read if ask["slot"] and r.slot == ask["slot"]), None)
            or next((r for r in read if r.text == ask["text"]), None)
            or next((r for r in read if r.name and addresses(ask["text"], r.text)), None))


def _part(ask: dict[str, str], read: ReadAsk | None, by_name: dict[str, str], path: str) -> dict[str, Any]:
    sentence = by_name.get(read.name, "") if read is not None else ""
    if not sentence:
        return _unanswered(ask, "no sentence of the result states it")
    missing = ask["slot"] and (f"@{ask['slot']}[" not in sentence or f"@{ask['slot']}[n/a]" in sentence)
    answered = not (missing or not any(ch.isdigit() for ch in sentence) and not ask["slot"])
    return {"id": ask["id"], "answered": answered, "answer": sentence, "files": [path]}


def _open(reading: Reading, asks: list[dict[str, str]], documents: dict[str, dict[str, Any]]) -> Reply:
    paths = analysis_paths(documents)
    lines = [headline(documents[p], reading.task) for p in paths]
    answer = "\n".join(f"- {line}" for line in lines if line)     # one finding per analysis result, in order
    parts = [{"id": a["id"], "answered": bool(answer), "answer": answer, "files": paths} for a in asks]
    caveats = [str(n) for p in paths for n in documents[p].get("notes") or []]
    return _reply(bool(answer), answer or "No analysis result was written.", parts, caveats, "text",
                  trace=["Read the task as an open analysis.", f"Re-read {', '.join(paths)}."])


def _unanswered(ask: dict[str, str], why: str) -> dict[str, Any]:
    return {"id": ask["id"], "answered": False, "answer": why, "files": []}


def _refused(asks: list[dict[str, str]], why: str, answer: str = "") -> Reply:
    return _reply(False, answer or f"No validated answer: {why}.", [_unanswered(a, why) for a in asks], [why], "text")


def _reply(valid: bool, answer: str, parts: list[dict[str, Any]], caveats: list[str], output_type: str,
           trace: list[str] | None = None) -> Reply:
    confidence = "low" if not valid else "medium" if caveats else "high"
    return Reply.json({"valid": valid, "answer": answer, "confidence": confidence,
                       "caveats": list(dict.fromkeys(caveats)), "reasoning_trace": trace or [],
                       "output_type": output_type, "asks": parts})


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
