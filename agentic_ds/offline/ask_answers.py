"""The offline validator's answer ask by ask: for each ask listed in its prompt, the result sentence that answers it.

A sentence answers an ask when it speaks of it (`evidence.coverage.addresses`) and, unless the ask is a period,
carries a figure; for a requested value (`@name[...]`), the result's own `@name[value]`. Nothing is composed:
every answer is a sentence of a result file this run's code wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agentic_ds.offline.addressing import addresses
from agentic_ds.offline.task_parts import SLOT, Ask, task_asks
from agentic_ds.offline.wording import Mentions, sentences, words

_LISTED = re.compile(r"^\s*-\s*\[(a\d+)\]", re.M)
_FIGURE = re.compile(r"\d")


def ask_entries(
    task: str, asks_section: str, results: dict[str, dict[str, Any]], first: str | None,
    row_nouns: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """One `{id, answered, answer, files}` per ask listed in `asks_section`, from the sentences of `results`
    (the result at path `first` read first). `row_nouns`: what the data's rows are ("student" for students.csv),
    which a sentence about those rows need not say."""
    listed = set(_LISTED.findall(asks_section))
    order = ([first] if first in results else []) + [p for p in sorted(results) if p != first]
    implied = {w for noun in row_nouns for w in words(noun)}          # words() stems, as Mentions does
    candidates = [(path, Mentions(text, implied)) for path in order for text in _texts(results[path])]
    return [_entry(ask, candidates) for ask in task_asks(task) if ask.id in listed]


def _texts(document: dict[str, Any]) -> list[str]:
    texts = [str(document["answer_text"])] if document.get("answer_text") else []
    for sentence in document.get("summary") or []:
        texts += sentences(str(sentence))
    return texts


def _entry(ask: Ask, candidates: list[tuple[str, Mentions]]) -> dict[str, Any]:
    for path, mentions in candidates:
        text = mentions.text
        if ask.slot:
            value = next((m.group(0) for m in SLOT.finditer(text) if m.group(1).lower() == ask.slot.lower()), None)
            if value:
                return {"id": ask.id, "answered": True, "answer": value, "files": [path]}
        elif addresses(ask, mentions) and (ask.kind == "period" or _FIGURE.search(text)):
            return {"id": ask.id, "answered": True, "answer": text, "files": [path]}
    return {"id": ask.id, "answered": False, "answer": "No result file of this run answers it.", "files": []}


def with_asks(answer: str, entries: list[dict[str, Any]]) -> str:
    """`answer` followed by each answered ask's sentence it does not already hold."""
    extra = [e["answer"] for e in entries if e["answered"] and e["answer"] not in answer]
    return " ".join([answer, *dict.fromkeys(extra)]).strip()
