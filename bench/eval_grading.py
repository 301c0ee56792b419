"""Grade one answer text against a manifest line: the grader of `agentic-ds eval` (`agentic_ds/evaluation/grading.py`,
where the checkers are described) applied to a bare answer, for the in-process harness `bench/offline_eval.py` and
the eval-set tests. One grader, so the harness and the command cannot disagree on what is right."""

from __future__ import annotations

from typing import Any

from agentic_ds.evaluation.grading import SLOT
from agentic_ds.evaluation.grading import grade as grade_final_answer


def answer_slots(text: str) -> dict[str, str]:
    """`@name[value]` pairs of a text (the last one wins when a name repeats)."""
    return {m.group(1).lower(): m.group(2).strip() for m in SLOT.finditer(text)}


def grade(question: dict[str, Any], answer: str) -> bool | None:
    """True/False for a graded question, None for `checker: none`."""
    verdict = grade_final_answer(str(question.get("task") or ""), str(question.get("checker") or ""),
                                 question.get("answer"), {"answer": answer or ""})
    return verdict.correct
