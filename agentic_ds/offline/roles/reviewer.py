"""code_reviewer: judge a stage by its execution record and the result files on disk.

A stage is approved when its code ran, each result file it was to write (its expected outputs, else the files the
execution wrote) exists with summary sentences, and every sentence the coder quotes as a result is in that file.
"""

from __future__ import annotations

import json
from typing import Any

from agentic_ds.offline.request import ParsedRequest, Reply, json_files_or_fetch, result_files

QUOTE_CHARS = 120


def code_reviewer_turn(req: ParsedRequest) -> Reply:
    stage = req.stage()
    execution = req.execution()
    summary = req.text_of("summary")
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
