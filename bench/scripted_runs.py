"""Long scripted orchestrated runs for benchmarks: K stages, T tool calls per coder turn, no real model.

The runs are truthful: the checker marks a criterion met only by citing a result file of the run and the
figures it holds (the citation check reads it), and the answer validator answers every ask of the task from
that file. Whether the run is `completed` is then decided by the evidence, as in a real run: a run whose coder
only wrote a file with `write_file` executed no code, so it ends `incomplete`.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from google.adk.models import LlmRequest, LlmResponse

from agentic_ds.testing.scripted import as_json, call, request_text, text

DAYS = 200
ROWS = [(day, "ab"[day % 2], (day * 37) % 101) for day in range(DAYS)]
# The criteria and asks as the checker's and the validator's prompts list them: `- [c2] ...`, `- [a1] ...`.
_LISTED = re.compile(r"^- \[([ca]\d+)\]", re.M)


def write_data(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "metrics.csv"
    lines = ["day,group,value"] + [f"{d},{g},{v}" for d, g, v in ROWS]
    path.write_text("\n".join(lines) + "\n")
    return path


def group_means() -> dict[str, float]:
    """The mean value per group of the data `write_data` writes, rounded as pandas' `.round(2)` does."""
    return {g: round(statistics.fmean(v for _, group, v in ROWS if group == g), 2) for g in "ab"}


@dataclass(frozen=True)
class Finding:
    """A result file the run writes and what the checker and the validator quote from it."""

    path: str      # outputs/...
    quote: str     # its figures, as the file writes them
    answer: str    # the final answer those figures give


def data_summary_finding() -> tuple[Finding, str]:
    """(the finding, the file's content) of a coder that writes the data's summary with `write_file`."""
    means = group_means()
    content = json.dumps({"rows": DAYS, "mean_value": means})
    quote = f"rows {DAYS}, mean_value a {means['a']}, b {means['b']}"
    answer = f"The data has {DAYS} rows; the mean value is {means['a']} in group a and {means['b']} in group b."
    return Finding("outputs/data_summary.json", quote, answer), content


def listed(request: LlmRequest, prefix: str) -> list[str]:
    """The ids (`c1`, `a1`...) the request lists, in order; the checker and validator answer each one."""
    return [i for i in dict.fromkeys(_LISTED.findall(request_text(request))) if i.startswith(prefix)]


def criteria_check(finding: Finding | None, stage: int = 0) -> Callable[[LlmRequest], LlmResponse]:
    """A checker step judging every criterion it was sent after `stage`: met, citing `finding`; unmet while the
    result file is not written (saying after which step, as a real checker would: the loop guard stops a
    checker that repeats itself word for word)."""

    def step(request: LlmRequest) -> LlmResponse:
        ids = listed(request, "c") or ["c1"]
        if finding is None:
            evidence = f"no result file under outputs/ yet after step {stage}"
            return as_json({"criteria": [{"id": i, "met": False, "evidence": evidence} for i in ids]})
        evidence = f"{finding.path}: {finding.quote}"
        return as_json({"criteria": [{"id": i, "met": True, "evidence": evidence} for i in ids]})

    return step


def validated(finding: Finding) -> Callable[[LlmRequest], LlmResponse]:
    """The answer validator's step: every ask it was sent answered from `finding`'s file."""

    def step(request: LlmRequest) -> LlmResponse:
        asks = [{"id": i, "answered": True, "answer": finding.answer, "files": [finding.path]}
                for i in listed(request, "a") or ["a1"]]
        return as_json({"valid": True, "answer": finding.answer, "confidence": "high", "caveats": [],
                        "reasoning_trace": [f"read {finding.path}"], "output_type": "text", "asks": asks})

    return step


LOOK_AROUND = [{"path": p} for p in (".", "inputs", "outputs", "figures")]


def long_run_scripts(
    stages: int, tool_calls: int, tool: str = "list_files", args: list[dict] | None = None,
    finding: Finding | None = None,
) -> dict[str, list]:
    """`args` cycles per call: a real coder does not repeat the identical call (the loop guard would stop it).

    Without `finding`, the last stage's last tool call writes the data's summary with `write_file` (a file tool,
    as cheap as the others: no kernel) and the run's finding is that file. A caller passing `finding` replaces
    the coder's script with one whose executed code writes it."""
    args = args or LOOK_AROUND
    content = None
    if finding is None:
        finding, content = data_summary_finding()
    plan = {
        "stages": [
            {"id": f"s{i + 1}", "title": f"Step {i + 1}", "description": f"Look at the data, part {i + 1}.",
             "expected_outputs": []}
            for i in range(stages)
        ],
        "success_criteria": ["every step looked at the data"],
    }
    coder = []
    for i in range(stages):
        calls = [call(tool, **args[j % len(args)]) for j in range(tool_calls)]
        if content is not None and i == stages - 1:
            calls = calls[:-1] + [call("write_file", path=finding.path, content=content)]
        coder += calls + [text(f"step {i + 1} done")]
    return {
        "plan_maker": [text("## Stages\n" + "\n".join(f"### Stage {i + 1}: Step {i + 1}" for i in range(stages)))],
        "plan_reviewer": [text("APPROVED")],
        "plan_parser": [text(json.dumps(plan))],
        "coding_agent": coder,
        "code_reviewer": [text("APPROVED")] * stages,
        "criteria_checker": [criteria_check(None, i + 1) for i in range(stages - 1)] + [criteria_check(finding)],
        "stage_reflector": [as_json({"edits": [], "new_stages": [], "note": ""})] * (stages - 1),
        "answer_validator": [validated(finding)],
        "summary_agent": [text("## Answer\n" + finding.answer)],
    }
