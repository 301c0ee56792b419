"""The held-out questions: each is a small function that computes its answer from the materialized CSVs.

A question is registered with `@q(kind, table, task)`; its id is the function's name. `answer_for` runs it and
normalises the result (numpy scalars to plain numbers, floats to 6 significant digits) so that a recomputed
answer equals the one written in a manifest. The dev/holdout split is stratified by kind: within a kind the ids
are ordered by a hash and the first 60% go to dev, so the split depends on nothing but the set of ids.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

KINDS = ("stat", "stat_filter", "multi_stat", "correlation", "test", "outlier", "group", "argmax", "regression")
CHECKERS = ("numeric", "exact", "contains")
DEV_SHARE = 0.6
SLOT = re.compile(r"@([A-Za-z_]\w{0,60})\[([^\]\n]{0,200})\]")   # as agentic_ds.evaluation.grading reads a slot


class Data:
    """The materialized tables, read once each from `<root>/<name>.csv`; every access gets a fresh copy."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._frames: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._frames:
            self._frames[name] = pd.read_csv(self.root / f"{name}.csv")
        return self._frames[name].copy()


Compute = Callable[[Data], dict[str, Any]]


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    tables: tuple[str, ...]
    task: str
    checker: str
    compute: Compute

    @property
    def files(self) -> list[str]:
        return [f"data/{t}.csv" for t in self.tables]

    @property
    def slots(self) -> list[str]:
        """The `@name[...]` answer slots the task asks for (none: the answer is asked in plain words)."""
        return [m.group(1) for m in SLOT.finditer(self.task)]


QUESTIONS: dict[str, Question] = {}


def registrar(questions: dict[str, Question], kinds: tuple[str, ...]
              ) -> Callable[..., Callable[[Compute], Compute]]:
    """The `@q(kind, table, task, checker)` decorator of a question set that registers into `questions`."""

    def q(kind: str, table: str | tuple[str, ...], task: str, checker: str = "numeric") -> Callable[[Compute], Compute]:
        """Registers the decorated function as a question whose id is the function's name."""
        assert kind in kinds, kind
        assert checker in CHECKERS, checker
        tables = (table,) if isinstance(table, str) else tuple(table)

        def register(fn: Compute) -> Compute:
            assert fn.__name__ not in questions, f"duplicate question id {fn.__name__}"
            questions[fn.__name__] = Question(fn.__name__, kind, tables, " ".join(task.split()), checker, fn)
            return fn

        return register

    return q


q = registrar(QUESTIONS, KINDS)


def normalise(value: Any) -> Any:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        assert math.isfinite(number), "an answer must be a finite number"
        return float(f"{number:.6g}")
    if isinstance(value, str):
        return value
    raise TypeError(f"unexpected answer value {value!r} ({type(value).__name__})")


def answer_for(question: Question, data: Data) -> dict[str, Any]:
    return {str(k): normalise(v) for k, v in question.compute(data).items()}


def split_of(questions: dict[str, Question], kinds: tuple[str, ...] = KINDS) -> dict[str, str]:
    """'dev' or 'holdout' for each id: within each kind, ordered by a hash of the id, the first 60% are dev."""
    result: dict[str, str] = {}
    for kind in kinds:
        ids = sorted((i for i, qn in questions.items() if qn.kind == kind),
                     key=lambda i: hashlib.sha256(i.encode()).hexdigest())
        cut = round(DEV_SHARE * len(ids))
        for position, qid in enumerate(ids):
            result[qid] = "dev" if position < cut else "holdout"
    return result


def manifest_line(question: Question, answer: dict[str, Any]) -> dict[str, Any]:
    return {"id": question.id, "task": question.task, "files": question.files, "answer": answer,
            "checker": question.checker}


def split_manifests(questions: dict[str, Question], answers: dict[str, dict[str, Any]],
                    kinds: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """The lines of each split's manifest (dev, holdout), in registration order."""
    split = split_of(questions, kinds)
    lines: dict[str, list[dict[str, Any]]] = {"dev": [], "holdout": []}
    for qid, question in questions.items():
        lines[split[qid]].append(manifest_line(question, answers[qid]))
    return lines
