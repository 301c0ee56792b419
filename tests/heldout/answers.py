"""Every held-out question, keyed by id: `ANSWERS[id](data)` computes that question's answer.

The questions live in one module per group of datasets (q_*.py); importing them registers them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.heldout import q_lab, q_macro, q_medical, q_panel, q_seaborn, q_series, q_social  # noqa: F401  (registers)
from tests.heldout.registry import QUESTIONS, Compute, Data, Question, answer_for

ANSWERS: dict[str, Compute] = {qid: question.compute for qid, question in QUESTIONS.items()}


def all_answers(data_dir: Path) -> dict[str, dict[str, Any]]:
    """The normalised answer of every question, computed from the CSVs in `data_dir`."""
    data = Data(data_dir)
    return {qid: answer_for(question, data) for qid, question in QUESTIONS.items()}


__all__ = ["ANSWERS", "QUESTIONS", "Question", "all_answers"]
