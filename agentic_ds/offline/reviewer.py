"""code_reviewer and the confirmation agents: judge by the execution result and the files on disk."""

from __future__ import annotations

import json
import re

from agentic_ds.offline.reply import Reply, json_files_or_fetch, result_paths
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.offline.steps import parse_stage


def code_reviewer_turn(req: ParsedRequest) -> Reply:
    stage = parse_stage(req.section("Current stage"))
    execution = req.section("Execution")
    summary = req.section("Coder summary")
    expected = [o for o in stage.expected_outputs if re.fullmatch(r"[\w./\-]+\.json", o)]
    paths = expected or result_paths(summary)
    documents = json_files_or_fetch(req, paths)
    if isinstance(documents, Reply):
        return documents
    problems: list[str] = []
    if not re.search(r"status:\s*ok\b", execution, re.I):
        error = re.search(r"error:\s*(.+)", execution)
        detail = error.group(1).strip() if error else "no successful execution is recorded"
        problems.append(f"The code did not run successfully: {detail}")
    if "FAILED" in summary:
        problems.append("The coder reports that no attempt produced a result.")
    if not paths:
        problems.append("No result file (outputs/*.json) is named by the stage or the coder summary.")
    for path, document in documents.items():
        if not isinstance(document, dict):
            problems.append(f"`{path}` is missing or is not valid JSON.")
        elif not document.get("summary"):
            problems.append(f"`{path}` has no summary sentences.")
        else:
            problems += _unsupported_claims(summary, document, path)
    if problems:
        return Reply.say("CHANGES REQUESTED\n" + "\n".join(f"{i}. {p}" for i, p in enumerate(problems, start=1)))
    found = "; ".join(f"`{p}`: {str((d or {}).get('summary', [''])[0])}" for p, d in documents.items())
    return Reply.say(f"APPROVED. The code ran without errors and the expected outputs exist. {found}")


def _unsupported_claims(summary: str, document: dict, path: str) -> list[str]:
    """Sentences the coder quotes as results must appear in the result file."""
    known = json.dumps(document, ensure_ascii=False)
    sentences = [s[2:].strip() for s in summary.splitlines() if s.startswith("- ")]
    return [f'The summary claims "{s[:120]}", which `{path}` does not contain.' for s in sentences
            if s not in known and json.dumps(s, ensure_ascii=False)[1:-1] not in known]


def confirmation_turn(req: ParsedRequest) -> Reply:
    review = req.section("Review").strip()
    first = review.splitlines()[0].strip() if review else ""
    approved = bool(re.match(r"[*#\s]*approved\b", first, re.I))
    reason = first[:300] if first else "no review was given"
    return Reply.json({"exit": approved, "reason": reason})
