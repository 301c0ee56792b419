"""The probe7 set's questions: registered with the held-out set's registrar (same Question, answer normalisation and
split rule) and the fresh set's kinds, into a registry of their own (`tests.fresh.registry.BlindSet`).

A question is registered with `@q(kind, table, task)`; its id is the function's name. The split is the held-out
set's: within each kind, ids ordered by a hash, the first 60% go to dev.
"""

from __future__ import annotations

from tests.fresh.registry import KIND_TEXT, KINDS, BlindSet, rejected

__all__ = ["KINDS", "KIND_TEXT", "QUESTIONS", "all_answers", "manifests", "q", "rejected"]

_SET = BlindSet("tests.probe7")
QUESTIONS, q, all_answers, manifests = _SET.questions, _SET.q, _SET.all_answers, _SET.manifests
