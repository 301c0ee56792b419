"""The probe3 set's questions: registered with the held-out set's registrar (same Question, answer normalisation and
split rule) and the fresh set's kinds, into a registry of their own.

A question is registered with `@q(kind, table, task)`; its id is the function's name. The split is the held-out
set's: within each kind, ids ordered by a hash, the first 60% go to dev.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.fresh.registry import KIND_TEXT, KINDS, rejected
from tests.heldout.registry import Data, Question, answer_for, registrar, split_manifests

__all__ = ["KINDS", "KIND_TEXT", "QUESTIONS", "all_answers", "manifests", "q", "rejected"]

QUESTIONS: dict[str, Question] = {}

q = registrar(QUESTIONS, KINDS)


def all_answers(data_dir: Path) -> dict[str, dict[str, Any]]:
    data = Data(data_dir)
    return {qid: answer_for(question, data) for qid, question in QUESTIONS.items()}


def manifests(data_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """The lines of each split's manifest, in registration order, answers computed from `data_dir`."""
    from tests.probe3 import questions  # noqa: F401  (registers every question)

    return split_manifests(QUESTIONS, all_answers(data_dir), KINDS)
