"""answer_validator (both modes): re-read the result files and restate the answer they support, ask by ask.

The answer is valid only when the execution succeeded and a result file of this run carries the
answer's sentences; the answer text is copied from that file, never composed from the coder's words.
"""

from __future__ import annotations

import re
from typing import Any

from agentic_ds.offline.ask_answers import ask_entries, with_asks
from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.profile import readable_files
from agentic_ds.offline.reply import Reply, result_paths, results_and_profile_or_fetch
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.offline.sources import file_nouns
from agentic_ds.offline.summarizer import UNANSWERED, analysis_paths, answers_directly, headline, question_caveats


def validator_turn(req: ParsedRequest) -> Reply:
    summary = req.section("Coder summary")
    paths = result_paths(summary) or result_paths(req.section("Files"))
    fetched = results_and_profile_or_fetch(req, paths)
    if isinstance(fetched, Reply):
        return fetched
    documents, profile = fetched
    results = {p: d for p, d in documents.items() if isinstance(d, dict) and d.get("summary")}
    intent = parse_intent(req.task)
    caveats = question_caveats(req.task, profile)
    execution_ok = bool(re.search(r"status:\s*ok\b", req.section("Execution"), re.I))
    if not results or not execution_ok:
        reason = "the execution failed" if not execution_ok else "no result file with a summary was written"
        checked = f"Checked the execution and {', '.join(paths) or 'no result files'}: {reason}."
        return Reply.json(_answer(False, f"No validated answer: {reason}.", "low", caveats, [checked], "text"))
    direct = answers_directly(req.task, results)
    path, document = _answer_document(results, direct)
    sentences = [str(s) for s in document.get("summary") or []]
    answer = str(document.get("answer_text") or " ".join(sentences[:2]))
    if not direct:
        answer = " ".join(headline(results[p], req.task) for p in sorted(analysis_paths(results))[:3])
    fallback = document.get("skill") == "fallback"
    notes = [str(n) for n in document.get("notes") or []]
    if fallback:
        caveats.append("The skill templates failed; this answer comes from a plain fallback summary.")
    caveats += notes
    confidence = "low" if fallback else "medium" if caveats else "high"
    trace = [
        f"Read the task as a direct question ({intent.kind} reading)."
        if direct
        else "Read the task as an open analysis.",
        f"Ran {document.get('skill', '?')}/{document.get('template', '?')} on the data.",
        f"Re-read {path}: {sentences[0] if sentences else 'no summary'}",
    ]
    valid = not (direct and "answer_value" in document and document.get("answer_value") is None)
    row_nouns = [noun for data in readable_files(profile) for noun in file_nouns(data)]
    asks = ask_entries(req.task, req.section("Asks"), results, path, row_nouns)
    why_not = next((c for c in caveats if c.startswith(UNANSWERED)), "")
    if direct and document.get("rows_used") == 0 and document.get("answer_value") is None:
        valid, why_not = True, answer       # "No row is left to answer from: ..." is true, and no answer
    elif not why_not and intent.kind == "statistic" and all(_describes(d) for d in results.values()):
        # A statistic is answered by a template that computes it; a description of the data written by a later
        # attempt only shares the question's words.
        valid, why_not = False, (f"No result computes the statistic asked: the analysis that ran "
                                f"({document.get('skill', '?')}/{document.get('template', '?')}) describes the data.")
    if why_not:     # the question was not read whole, or no result computes it: its asks are not answered
        asks = [{**entry, "answered": False, "answer": why_not, "files": []} for entry in asks]
    reply = _answer(valid, with_asks(answer, asks), confidence, caveats, trace, _output_type(document))
    return Reply.json({**reply, "asks": asks})


def _describes(document: dict[str, Any]) -> bool:
    """A description of the data (what a retry falls back to), not a computation of an asked statistic. Read by
    name: a long result arrives cut, without the keys after its tables."""
    return document.get("template") == "describe" or document.get("skill") == "fallback"


def _answer_document(results: dict[str, dict], direct: bool) -> tuple[str, dict]:
    ordered = sorted(results)
    with_value = [p for p in ordered if "answer_value" in results[p]]
    path = with_value[-1] if direct and with_value else ordered[-1]
    return path, results[path]


def _output_type(document: dict[str, Any]) -> str:
    value = document.get("answer_value")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not document.get("by_group"):
        return "number"
    if document.get("by_group") or document.get("tables"):
        return "table"
    if document.get("figures"):
        return "figure"
    return "text"


def _answer(valid: bool, answer: str, confidence: str, caveats: list[str], trace: list[str], output_type: str) -> dict:
    return {
        "valid": valid,
        "answer": answer,
        "confidence": confidence,
        "caveats": list(dict.fromkeys(caveats)),
        "reasoning_trace": trace,
        "output_type": output_type,
    }
