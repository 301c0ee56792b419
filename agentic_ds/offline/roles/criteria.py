"""The roles that check results against the files of this run: code_reviewer judges a stage by its execution record
and result files; criteria_checker meets each criterion only when a result file of this run shows it;
stage_reflector usually keeps the plan, and adds one follow-up stage for an unmet criterion nobody will meet.

A stage is approved when its code ran, each result file it was to write (its expected outputs, else the files the
execution wrote) exists with summary sentences, and every sentence the coder quotes as a result is in that file.

A criterion that names a result file (`outputs/02-answer.json states ...`) is met when that file exists and
carries summary sentences; the evidence cites the file and quotes its first sentence as the file writes it. A
criterion naming no file is matched to the result sentence sharing the most content words with it (at least
two). A criterion added for an ask of a question the offline reader could not read stays unmet, saying why.

The reflector never touches finished stages. A follow-up is appended only when every stage has run, a criterion is
still unmet, there is room for a stage, and no follow-up for it exists yet; its description carries the criterion
(with the result file it names), so the coder infers a method from it, a different one than the failed stage's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentic_ds.offline.reader.addressing import content
from agentic_ds.offline.request import ParsedRequest, Reply, json_files_or_fetch, result_files, results_or_fetch
from agentic_ds.schema import CriterionRecord, StageStatus

_RESULT_PATH = re.compile(r"outputs/[\w./\-]{1,200}")
MIN_SHARED_WORDS = 2
EVIDENCE_CHARS = 600
FOLLOW_UP = "Follow-up for "
QUOTE_CHARS = 120


def code_reviewer_turn(req: ParsedRequest) -> Reply:
    stage, execution, summary = req.stage(), req.execution(), req.text_of("summary")
    paths = result_files(list(stage.expected_outputs) if stage is not None else []) or result_files(
        [str(f) for f in execution.get("files") or []])
    documents = json_files_or_fetch(req, paths)
    if isinstance(documents, Reply):
        return documents
    problems: list[str] = []
    if not execution.get("ok"):
        problems.append(f"The code did not run successfully: {execution.get('error') or 'no run is recorded'}")
    if "FAILED" in summary:
        problems.append("The coder reports that no attempt produced a result.")
    if not paths:
        problems.append("No result file (outputs/*.json) is named by the stage or written by its code.")
    for path, document in documents.items():
        if not isinstance(document, dict):
            problems.append(f"`{path}` is missing or is not valid JSON.")
        elif not document.get("summary"):
            problems.append(f"`{path}` has no summary sentences.")
        else:
            problems += _unsupported_claims(summary, document, path)
    if problems:
        return Reply.changes_requested(problems)
    found = "; ".join(f"`{p}`: {str((d or {}).get('summary', [''])[0])}" for p, d in documents.items())
    return Reply.say(f"APPROVED. The code ran without errors and the expected outputs exist. {found}")


def _unsupported_claims(summary: str, document: dict[str, Any], path: str) -> list[str]:
    """Sentences the coder quotes as results (its `- ` lines) must appear in the result file."""
    known = json.dumps(document, ensure_ascii=False)
    sentences = [s[2:].strip() for s in summary.splitlines() if s.startswith("- ")]
    return [f'The summary claims "{s[:QUOTE_CHARS]}", which `{path}` does not contain.' for s in sentences
            if s not in known and json.dumps(s, ensure_ascii=False)[1:-1] not in known]


def named_results(text: str) -> list[str]:
    """The `outputs/....json` paths a criterion's words name, in order."""
    found = [m.group(0) for m in _RESULT_PATH.finditer(text)]
    return result_files([p[: p.find(".json") + 5] for p in found if ".json" in p])


def criteria_turn(req: ParsedRequest) -> Reply:
    criteria = req.criteria()
    documents = results_or_fetch(req, [p for c in criteria for p in named_results(c.text)] + req.produced())
    if isinstance(documents, Reply):
        return documents
    reading = req.reading()
    unread = reading.why_unread() if reading.kind == "unread" else ""
    return Reply.json({"criteria": [judge(c, documents, unread) for c in criteria]})


def judge(criterion: CriterionRecord, documents: dict[str, dict], unread: str = "") -> dict[str, object]:
    if unread and criterion.origin == "asks":
        return _verdict(criterion, False, f"the offline model could not read the question with confidence: {unread}")
    paths = named_results(criterion.text)
    if paths:
        missing = [p for p in paths if not _summary(documents.get(p))]
        if missing:
            return _verdict(criterion, False, f"{', '.join(missing)} does not exist yet or has no result.")
        return _verdict(criterion, True, "; ".join(f"{p}: {_best(criterion, {p: documents[p]})[2]}" for p in paths))
    shared, path, sentence = _best(criterion, documents)
    met = shared >= MIN_SHARED_WORDS
    return _verdict(criterion, met, f"{path}: {sentence}" if met else "no result file of this run shows this yet.")


def _best(criterion: CriterionRecord, documents: dict[str, dict]) -> tuple[int, str, str]:
    """(shared words, path, sentence) of the result sentence closest to the criterion's words (the first one of
    the first file when none shares a word)."""
    wanted = {w for w in content(criterion.text) if len(w) > 2}
    scored = ((len(wanted & set(content(s))), p, s) for p in sorted(documents) for s in _summary(documents[p]))
    return max(scored, key=lambda found: found[0], default=(-1, "", ""))     # the first of the best


def _summary(document: object) -> list[str]:
    if isinstance(document, dict) and isinstance(document.get("summary"), list):
        return [str(s) for s in document["summary"] if str(s).strip()]
    return []


def _verdict(criterion: CriterionRecord, met: bool, evidence: str) -> dict[str, object]:
    return {"id": criterion.id, "met": met, "evidence": evidence[:EVIDENCE_CHARS]}


def reflector_turn(req: ParsedRequest) -> Reply:
    stages, criteria = req.stages(), req.criteria()
    pending = [s for s in stages if s.status in (StageStatus.PENDING, StageStatus.RUNNING)]
    unread = req.reading().kind == "unread"
    # A question the offline reader could not read gets no answer from another method either.
    unmet = [c for c in criteria if c.met is False and not (unread and c.origin == "asks")]
    room = int(req.context.get("stages_left") or 0)
    if pending or not unmet or room <= 0:
        why = "pending stages remain." if pending else "no criterion is left unmet." if not unmet else \
            "no room for new stages."
        return _change(f"The plan still fits: {why}")
    titles = {s.title for s in stages}
    criterion = next((c for c in unmet if f"{FOLLOW_UP}{c.id}" not in titles), None)
    if criterion is None:
        return _change("follow-ups for the unmet criteria already ran; no further change")
    new_id = f"s{len(stages) + 1}"
    return _change(f"criterion {criterion.id} is unmet after every stage ran", {
        "id": new_id, "title": f"{FOLLOW_UP}{criterion.id}",
        "description": f"Produce the evidence for this criterion with a different method: {criterion.text}",
        "expected_outputs": named_results(criterion.text) or [f"outputs/{new_id}-follow-up.json"]})


def _change(note: str, *new_stages: dict[str, object]) -> Reply:
    return Reply.json({"edits": [], "new_stages": list(new_stages), "note": note})
