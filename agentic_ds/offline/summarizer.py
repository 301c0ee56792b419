"""summary_agent: the report, written only from the result files of this run.

It first reads every `outputs/*.json` the run produced (and the data profile, for the caveats on how
the question's words were mapped to columns), then writes: the answer first, key findings, methods,
stage results, caveats and the run status. Every number it prints is a sentence from a result file.
"""

from __future__ import annotations

import re

from agentic_ds.offline.columns import words
from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.planner import bind_direct, direct_spec
from agentic_ds.offline.question import data_for_task
from agentic_ds.offline.reply import Reply, result_paths, results_and_profile_or_fetch
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.offline.spec import build_spec
from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import RunStatus

_MAX_FINDINGS_PER_FILE = 3
_BACKGROUND = ("audit", "describe", "overview")


def summary_turn(req: ParsedRequest) -> Reply:
    files = result_paths(req.section("Files")) + result_paths(req.section("Stage results"))
    paths = sorted(set(files))
    fetched = results_and_profile_or_fetch(req, paths)
    if isinstance(fetched, Reply):
        return fetched
    documents, profile = fetched
    results = {p: d for p, d in documents.items() if isinstance(d, dict) and d.get("summary")}
    caveats = _interpretation_caveats(req.task, profile)
    if "simple" in req.section("Mode").lower():
        return Reply.say(_simple_report(req, results, caveats))
    return Reply.say(_full_report(req, results, caveats))


def answers_directly(task: str, results: dict[str, dict]) -> bool:
    """A direct question, or one a `compute_answers` result answers (it read the question whole)."""
    return parse_intent(task).is_direct or any(d.get("answer_text") for d in results.values())


def _answer_path(task: str, results: dict[str, dict]) -> str | None:
    if not results:
        return None
    with_value = [p for p, d in results.items() if "answer_value" in d]
    if answers_directly(task, results) and with_value:
        return with_value[-1]
    return analysis_paths(results)[-1]


def is_background(document: dict) -> bool:
    template = str(document.get("template", "")).lower()
    return any(word in template for word in _BACKGROUND)


def analysis_paths(results: dict[str, dict]) -> list[str]:
    """The results that answer the task (not audits or overviews), in `results` order; all of them if none does."""
    return [p for p in results if not is_background(results[p])] or list(results)


_TELLING = re.compile(
    r"\b(strong\w*|significant\w*|highest|lowest|trend|differ\w*|outlier\w*|skew\w*|r = |p [<=])", re.I
)
_INVENTORY = re.compile(r"^(Correlations among|Described|Audited|Loaded|\S+ has \d)", re.I)


def headline(document: dict, task: str) -> str:
    """The most telling sentence of a result: names a finding (strong, significant, highest...), not an inventory."""
    if document.get("headline"):
        return str(document["headline"])
    task_words = set(words(task))
    scored = []
    for order, sentence in enumerate(_sentences(document)):
        telling = {m.lower() for m in _TELLING.findall(sentence)}
        score = 2 * len(task_words & set(words(sentence))) + 2 * len(telling)
        score -= 5 * bool(_INVENTORY.search(sentence))
        scored.append((-score, order, sentence))
    return min(scored)[2] if scored else ""


def _sentences(document: dict, limit: int | None = None) -> list[str]:
    sentences = [str(s) for s in document.get("summary") or []]
    return sentences[:limit] if limit else sentences


def _full_report(req: ParsedRequest, results: dict[str, dict], caveats: list[str]) -> str:
    status, status_line = _run_status(req)
    direct = answers_directly(req.task, results)
    lines = ["## Answer"]
    answer = _answer_path(req.task, results)
    if answer is None:
        lines.append("No result file was produced, so the question cannot be answered from this run.")
    elif direct:
        document = results[answer]
        lines += ([str(document["answer_text"])] + _sentences(document)[1:3] if document.get("answer_text")
                  else _sentences(document, 3)) + [f"(from `{answer}`)"]
    else:
        lines.append(f"The analysis produced {len(results)} result file(s). The main results:")
        lines += [f"- {headline(results[p], req.task)} (`{p}`)" for p in analysis_paths(results)]
    lines += ["", "## Key findings"]
    for path, document in results.items():
        lines += [f"- {s} (`{path}`)" for s in _sentences(document, _MAX_FINDINGS_PER_FILE)]
    if not results:
        lines.append("- none: no stage wrote a result.")
    lines += ["", "## Methods"]
    for path, document in results.items():
        lines.append(f"- `{document.get('skill', '?')}/{document.get('template', '?')}` -> `{path}`")
    lines += ["", "## Stage results", _stage_lines(req.section("Stage results")) or "No stage finished."]
    lines += ["", "## Caveats"]
    notes = caveats + [str(n) for d in results.values() for n in d.get("notes") or []]
    notes += [f"Criterion not met: {c}" for c in _unmet(req.section("Criteria"))]
    if status != RunStatus.COMPLETED:
        notes.append(f"The run did not complete cleanly ({status_line}).")
    lines += [f"- {n}" for n in dict.fromkeys(notes)] or ["- None found."]
    lines += ["", _status_footer(status, status_line)]
    return "\n".join(lines) + "\n"


def _simple_report(req: ParsedRequest, results: dict[str, dict], caveats: list[str]) -> str:
    validated = req.section("Validated answer")
    answer = re.search(r"^answer:\s*(.+)$", validated, re.M)
    status, status_line = _run_status(req)
    lines = ["## Answer", answer.group(1).strip() if answer else "No validated answer was produced."]
    lines += ["", "## How it was computed"]
    for path, document in results.items():
        lines.append(
            f"- `{document.get('skill', '?')}/{document.get('template', '?')}` wrote `{path}`: "
            f"{_sentences(document, 1)[0]}"
        )
    if not results:
        lines.append("- No result file was written.")
    lines += ["", "## Caveats"]
    notes = caveats + re.findall(r"^caveat:\s*(.+)$", validated, re.M)
    notes += [str(n) for d in results.values() for n in d.get("notes") or []]
    lines += [f"- {n}" for n in dict.fromkeys(notes)] or ["- None found."]
    lines += ["", _status_footer(status, status_line)]
    return "\n".join(lines) + "\n"


def _run_status(req: ParsedRequest) -> tuple[str, str]:
    """(status word, whole line) of the prompt's `## Run status` section, e.g. ("failed", "failed - stage s2 ...")."""
    status_line = req.section("Run status") or "unknown"
    return status_line.split(" - ")[0].strip(), status_line


def _status_footer(status: str, status_line: str) -> str:
    return f"**Run status:** `{status}` - {status_line.partition(' - ')[2] or status}"


def _stage_lines(block: str) -> str:
    """One line per finished stage: its heading (title and status) and its first result sentence."""
    out = []
    for chunk in re.split(r"^### ", block, flags=re.M):
        if not chunk.strip():
            continue
        head, _, body = chunk.partition("\n")
        first = next((line[2:] for line in body.splitlines() if line.startswith("- ")), "")
        if not first and "FAILED" in body:
            first = "no attempt produced a result"
        out.append(f"- {head.strip()}" + (f": {first}" if first else ""))
    return "\n".join(out)


def _unmet(block: str) -> list[str]:
    found = re.findall(r"^\s*-\s*\[[^\]]+\]\s*(.*?)\s*\(met:\s*no\)", block, re.M | re.I)
    return [f for f in found if f]


def _interpretation_caveats(task: str, profile: DataProfile) -> list[str]:
    return question_caveats(task, profile) + list(profile.problems)


UNANSWERED = "The question could not be answered as asked"


def question_caveats(task: str, profile: DataProfile) -> list[str]:
    """How a direct question's words were mapped to columns and files, and why it cannot be answered as asked."""
    intent = parse_intent(task)
    reading = build_spec(task, profile)
    spec = direct_spec(intent, profile, reading)
    if spec is not None:
        return list(spec.caveats)
    data = data_for_task(profile, task)
    if not intent.is_direct or data is None:
        return []
    question = bind_direct(intent, data, reading.unread)
    notes = list(question.caveats)
    if question.problem:
        notes.append(f"{UNANSWERED}: {question.problem}.")
    return notes
