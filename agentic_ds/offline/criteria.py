"""criteria_checker: each criterion is met only when a result file of this run shows it.

A criterion that names a result file (`outputs/02-answer.json states ...`) is met when that file exists
and carries summary sentences; the evidence quotes the first one. A criterion naming no file is matched
to the result whose summary shares the most content words with it (at least two).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentic_ds.offline.columns import words
from agentic_ds.offline.reply import Reply, json_files_or_fetch, result_paths
from agentic_ds.offline.request import ParsedRequest

_CRITERION = re.compile(r"^\s*[-*]\s*\[([^\]]+)\]\s*(.*?)(?:\s*\(met:\s*(?:yes|no)\))?\s*$", re.I)
_COMMON = frozenset(
    "the a an of and or in is are with its by for to on each every per states lists holds file data".split()
)


@dataclass(frozen=True)
class Criterion:
    id: str
    text: str


def parse_criteria(block: str) -> list[Criterion]:
    found = [Criterion(m.group(1).strip(), m.group(2).strip()) for m in map(_CRITERION.match, block.splitlines()) if m]
    if found:
        return found
    bullets = [re.sub(r"^\s*[-*\d.)]+\s*", "", line).strip() for line in block.splitlines() if line.strip()]
    return [Criterion(f"c{i}", text) for i, text in enumerate(bullets, start=1)]


def criteria_turn(req: ParsedRequest) -> Reply:
    criteria = parse_criteria(req.section("Success criteria", "Criteria"))
    named = [p for c in criteria for p in result_paths(c.text)]
    listed = result_paths(req.section("Files")) + result_paths(req.section("Stage results"))
    documents = json_files_or_fetch(req, sorted(set(named) | set(listed)))
    if isinstance(documents, Reply):
        return documents
    return Reply.json({"criteria": [judge(c, documents) for c in criteria]})


def judge(criterion: Criterion, documents: dict[str, object]) -> dict[str, object]:
    paths = result_paths(criterion.text)
    if paths:
        missing = [p for p in paths if not _summary(documents.get(p))]
        if missing:
            return _verdict(criterion, False, f"{', '.join(missing)} does not exist yet or has no result.")
        return _verdict(criterion, True, "; ".join(f"{p}: {_summary(documents[p])[0]}" for p in paths))
    wanted = {w for w in words(criterion.text) if w not in _COMMON and len(w) > 2}
    best: tuple[int, str, str] = (0, "", "")
    for path in sorted(documents):
        for sentence in _summary(documents[path]):
            overlap = len(wanted & set(words(sentence)))
            if overlap > best[0]:
                best = (overlap, path, sentence)
    if best[0] >= 2:
        return _verdict(criterion, True, f"{best[1]}: {best[2]}")
    return _verdict(criterion, False, "no result file of this run shows this yet.")


def _summary(document: object) -> list[str]:
    if isinstance(document, dict) and isinstance(document.get("summary"), list):
        return [str(s) for s in document["summary"] if str(s).strip()]
    return []


def _verdict(criterion: Criterion, met: bool, evidence: str) -> dict[str, object]:
    return {"id": criterion.id, "met": met, "evidence": evidence[:600]}
