"""summary_agent: the report, written only from the final answer, the stage records and the run's result files.

It reads every `outputs/*.json` the run produced, then writes: the answer first, key findings, methods, stage
results, caveats and the run status. Every number it prints is a sentence of a result file or of the validated
answer, copied as written.

compact_turn answers a summarisation request (ADK's event compactor, or any unknown agent) with an extractive
summary: it keeps the lines that carry facts a later turn needs (file paths, numbers, errors, decisions) and the
names of the tools called. Nothing is paraphrased, so nothing can be invented.
"""

from __future__ import annotations

import re
from typing import Any

from agentic_ds.offline.reader.addressing import content
from agentic_ds.offline.reader.vocabulary import TELLING_WORDS
from agentic_ds.offline.request import ParsedRequest, Reply, results_or_fetch
from agentic_ds.schema import RunStatus

MAX_FINDINGS_PER_FILE = 3
_BACKGROUND = ("audit", "describe", "overview")
_INVENTORY = ("Correlations among", "Described", "Audited", "Loaded")
MAX_LINES = 60
MAX_LINE_CHARS = 300
_KEEP = re.compile(r"(outputs/|figures/|inputs/|stages/|\.json|\.csv|\.png|\d|error|exception|traceback|failed|"
                   r"approved|changes requested|decid|exit|criteri)", re.I)
_TOOL = re.compile(r"\b(run_python|read_file|write_file|list_files|sql_query|profile_data|list_skills|load_skill)\b")


def summary_turn(req: ParsedRequest) -> Reply:
    documents = results_or_fetch(req, req.produced())
    if isinstance(documents, Reply):
        return documents
    answer = req.context.get("answer") if isinstance(req.context.get("answer"), dict) else {}
    status = str(req.context.get("status") or "unknown")
    reason = str(req.context.get("status_reason") or status)
    reading = req.reading()
    caveats = [f"The question could not be answered as asked: {reading.why_unread()}."] \
        if reading.kind == "unread" else list(reading.spec.caveats) if reading.direct else []
    caveats += [str(c) for c in (answer or {}).get("caveats") or []] + list(req.profile().problems)
    caveats += [str(n) for d in documents.values() for n in d.get("notes") or []]
    return Reply.say(_report(req, answer or {}, documents, caveats, status, reason))


def analysis_paths(results: dict[str, dict[str, Any]]) -> list[str]:
    """The results that answer the task (not audits or overviews), in path order; all of them if none does."""
    ordered = sorted(results)
    background = {p for p in ordered if any(w in str(results[p].get("template", "")).lower() for w in _BACKGROUND)}
    return [p for p in ordered if p not in background] or ordered


def headline(document: dict[str, Any], task: str) -> str:
    """The most telling sentence of a result: one naming a finding (strong, significant, highest...) in the
    task's words, not an inventory."""
    if document.get("headline"):
        return str(document["headline"])
    task_words = set(content(task))
    scored = []
    for order, sentence in enumerate(str(s) for s in document.get("summary") or []):
        said = set(content(sentence))
        score = 2 * len(task_words & said) + 2 * len(said & TELLING_WORDS) - 5 * sentence.startswith(_INVENTORY)
        scored.append((-score, order, sentence))
    return min(scored)[2] if scored else ""


def _report(req: ParsedRequest, answer: dict[str, Any], results: dict[str, dict[str, Any]], caveats: list[str],
            status: str, reason: str) -> str:
    """The answer, then each result (in a simple run, how it was computed; otherwise its findings, the methods and
    the stages), then the caveats (each once) and the run status."""
    simple = req.context.get("mode") == "simple"
    text = str(answer.get("answer") or "").strip() or "No validated answer was produced."
    unanswered = [f"- Not answered: {ask.get('ask')} ({ask.get('why') or 'no reason recorded'})"
                  for ask in answer.get("asks") or [] if isinstance(ask, dict) and not ask.get("answered")]
    lines = ["## Answer", text, *unanswered, "", "## How it was computed" if simple else "## Key findings"]
    methods: list[str] = []
    for path, document in sorted(results.items()):
        summary, made = document.get("summary") or [], f"{document.get('skill', '?')}/{document.get('template', '?')}"
        if simple:
            lines.append(f"- `{made}` wrote `{path}`" + (f": {summary[0]}" if summary and summary[0] else ""))
        else:
            lines += [f"- {s} (`{path}`)" for s in summary[:MAX_FINDINGS_PER_FILE]]
            methods.append(f"- `{made}` -> `{path}`")
    if not results:
        lines.append("- No result file was written." if simple else "- none: no stage wrote a result.")
    notes = list(caveats)
    if not simple:
        lines += ["", "## Methods", *methods, "", "## Stage results"]
        stages = [s for s in req.stages() if s.status.finished]
        for stage in stages:
            first = next((ln[2:] for ln in stage.summary.splitlines() if ln.startswith("- ")), "")
            first = first or ("no attempt produced a result" if "FAILED" in stage.summary else "")
            lines.append(f"- {stage.title} ({stage.status.value})" + (f": {first}" if first else ""))
        if not stages:
            lines.append("No stage finished.")
        notes += [f"Criterion not met: {c.text}" for c in req.criteria() if c.met is False]
        if status != RunStatus.COMPLETED:
            notes.append(f"The run did not complete cleanly ({status}: {reason}).")
    lines += ["", "## Caveats", *([f"- {n}" for n in dict.fromkeys(notes)] or ["- None found."]), "",
              f"**Run status:** `{status}` - {reason}"]
    return "\n".join(lines) + "\n"


def compact_turn(req: ParsedRequest) -> str:
    text = "\n".join([*req.user_texts, req.instruction])
    tools = sorted(set(_TOOL.findall(text)) | {ex.name for ex in req.exchanges})
    clipped = (line.strip()[:MAX_LINE_CHARS] for line in text.splitlines())
    kept = dict.fromkeys(line for line in clipped if line and _KEEP.search(line))     # each once, in order: linear
    lines = ["Conversation Language: English", f"Tools used: {', '.join(tools) or 'none'}", "Key facts kept verbatim:"]
    lines += [f"- {line}" for line in list(kept)[-MAX_LINES:]]
    return "\n".join(lines)
