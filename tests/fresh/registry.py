"""The fresh set's questions: registered as in tests/heldout (same Question, answer normalisation and split rule),
with kinds of their own (derived columns, counts and shares, top-k lists, harder two-step questions).

A question is registered with `@q(kind, table, task)`; its id is the function's name. The split is the held-out
set's: within each kind, ids ordered by a hash, the first 60% go to dev.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from tests.heldout.registry import Data, Question, answer_for, registrar, split_manifests

KINDS = ("stat", "stat_filter", "multi_stat", "correlation", "test", "outlier", "group", "argmax", "regression",
         "derived", "count_share", "topk", "hard")
KIND_TEXT = {
    "stat": "one statistic of a column",
    "stat_filter": "one statistic over rows that pass a filter (ranges, exclusions, year windows, combined)",
    "multi_stat": "several statistics at once",
    "correlation": "Pearson, Spearman or Kendall correlation",
    "test": "t-tests (Welch, Student, paired), chi-square, ANOVA, Mann-Whitney, Shapiro-Wilk, Levene",
    "outlier": "outlier counts by the 1.5 IQR rule or by a z-score threshold",
    "group": "per-group statistics",
    "argmax": "which group, year or entry has the largest or smallest value",
    "regression": "simple and multiple regression coefficients and R-squared",
    "derived": "a statistic of a derived column (ratio, difference, per-capita, log)",
    "count_share": "counts, shares and percentages",
    "topk": "top-k lists",
    "hard": "two-step or unusual: ranks, rolling/cumulative figures, medians of group means, year-over-year",
}

def rejected(p: float, alpha: float) -> str:
    """'yes' when the p-value is below the level, asserting it is not within 10% of the level (a decision that a
    different but right method, e.g. exact instead of asymptotic, could flip is not a closed-form answer)."""
    assert abs(p - alpha) > 0.1 * alpha, f"p = {p} is too close to the level {alpha}"
    return "yes" if p < alpha else "no"


class BlindSet:
    """The questions of one blind set (a package under tests/), registered with the held-out set's registrar into a
    registry of their own, and the manifests they make; the fresh set and the probe sets differ only in the package."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.questions: dict[str, Question] = {}
        self.q = registrar(self.questions, KINDS)

    def all_answers(self, data_dir: Path) -> dict[str, dict[str, Any]]:
        data = Data(data_dir)
        return {qid: answer_for(question, data) for qid, question in self.questions.items()}

    def manifests(self, data_dir: Path) -> dict[str, list[dict[str, Any]]]:
        """The lines of each split's manifest, in registration order, answers computed from `data_dir`."""
        importlib.import_module(f"{self.package}.questions")      # registers every question
        return split_manifests(self.questions, self.all_answers(data_dir), KINDS)


FRESH = BlindSet("tests.fresh")
QUESTIONS, q, all_answers, manifests = FRESH.questions, FRESH.q, FRESH.all_answers, FRESH.manifests
