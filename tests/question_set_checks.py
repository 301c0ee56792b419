"""Checks shared by the tests of the closed-form question sets (tests/heldout, tests/fresh).

A set is a folder holding `dev.jsonl` and `holdout.jsonl`, the registered questions behind them and the build
that writes them. Each check recomputes or rereads what a user of the set relies on: the committed answers are
the ones the questions compute now, ids are unique, the split is ~60/40 within each kind, slots and answer keys
agree, no task grades as its own answer, every line loads as `agentic-ds eval` loads it, and a README's table of
kinds counts the committed manifests.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentic_ds.evaluation.grading import grade
from agentic_ds.evaluation.manifest import load_manifest
from tests.heldout.materialize import TABLES
from tests.heldout.registry import DEV_SHARE, Question

SPLITS = ("dev", "holdout")


@dataclass(frozen=True)
class QuestionSet:
    folder: Path
    questions: dict[str, Question]
    kinds: tuple[str, ...]
    manifests: Callable[[Path], dict[str, list[dict[str, Any]]]]
    min_questions: int
    build_hint: str

    def committed(self, name: str) -> list[dict[str, Any]]:
        text = (self.folder / f"{name}.jsonl").read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def lines(self) -> list[dict[str, Any]]:
        return [line for name in SPLITS for line in self.committed(name)]


def check_questions_use_materialized_tables(qs: QuestionSet, data_dir: Path) -> None:
    written = {p.name for p in data_dir.glob("*.csv")}
    assert written == {f"{name}.csv" for name in TABLES}
    used = {f for question in qs.questions.values() for f in question.files}
    assert used <= {f"data/{name}" for name in written}


def check_committed_answers_are_recomputed(qs: QuestionSet, data_dir: Path) -> None:
    rebuilt = qs.manifests(data_dir)
    for name in SPLITS:
        want = {line["id"]: line for line in rebuilt[name]}
        have = {line["id"]: line for line in qs.committed(name)}
        assert set(have) == set(want), f"{name}.jsonl: ids differ from the build; run {qs.build_hint}"
        wrong = {qid: (have[qid]["answer"], want[qid]["answer"]) for qid in want
                 if have[qid]["answer"] != want[qid]["answer"]}
        assert not wrong, f"{name}.jsonl: committed answer != recomputed answer: {wrong}"
        stale = [qid for qid in want if have[qid] != want[qid]]
        assert not stale, f"{name}.jsonl: task, files or checker differ from the questions for {stale}"


def check_ids_unique(qs: QuestionSet) -> None:
    ids = [line["id"] for line in qs.lines()]
    assert len(ids) == len(set(ids)) == len(qs.questions)
    assert len(ids) >= qs.min_questions


def check_split_sixty_forty(qs: QuestionSet) -> None:
    kind_of = {qid: question.kind for qid, question in qs.questions.items()}
    per_split = {name: Counter(kind_of[line["id"]] for line in qs.committed(name)) for name in SPLITS}
    total = sum(per_split["dev"].values()) + sum(per_split["holdout"].values())
    assert 0.55 <= sum(per_split["dev"].values()) / total <= 0.65
    for kind in qs.kinds:
        dev, holdout = per_split["dev"][kind], per_split["holdout"][kind]
        assert dev >= 1 and holdout >= 1, f"kind {kind} must be in both splits"
        assert abs(dev / (dev + holdout) - DEV_SHARE) <= 0.1, kind


def check_answer_keys_name_the_slots(qs: QuestionSet) -> None:
    by_id = {line["id"]: line for line in qs.lines()}
    formatted = 0
    for question in qs.questions.values():
        keys = list(by_id[question.id]["answer"])
        if question.slots:
            formatted += 1
            assert sorted(keys) == sorted(set(question.slots)), question.id
        else:
            assert "@" not in question.task, question.id
        if question.checker in ("exact", "contains"):
            assert all(isinstance(v, str) for v in by_id[question.id]["answer"].values()), question.id
    assert 0.35 <= formatted / len(qs.questions) <= 0.45


def check_no_task_gives_its_answer_away(qs: QuestionSet) -> None:
    """A final answer that only restates the task (a number or a name it mentions) must not grade as correct."""
    given_away = [line["id"] for line in qs.lines()
                  if grade(line["task"], line["checker"], line["answer"], {"answer": line["task"]}).correct]
    assert not given_away, f"these tasks grade as their own answer: {given_away}"


def check_every_line_loads(qs: QuestionSet, data_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(data_dir, tmp_path / "data")
    for name in SPLITS:
        shutil.copy(qs.folder / f"{name}.jsonl", tmp_path / f"{name}.jsonl")
        manifest = load_manifest(tmp_path / f"{name}.jsonl")
        assert [t.id for t in manifest.tasks] == [line["id"] for line in qs.committed(name)]
        assert all(t.checker in {"numeric", "exact", "contains"} and t.answer for t in manifest.tasks)
        assert all(p.exists() for t in manifest.tasks for p in manifest.input_paths(t))


def check_readme_table_counts(qs: QuestionSet) -> None:
    """The README's kinds table is what a reader trusts; it must match the manifests (rows `| kind | dev | ...`)."""
    kind_of = {qid: question.kind for qid, question in qs.questions.items()}
    counts = {name: Counter(kind_of[line["id"]] for line in qs.committed(name)) for name in SPLITS}
    readme = (qs.folder / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].split(":")[0] in (*qs.kinds, "all"):
            rows[cells[0].split(":")[0]] = [int(c) for c in cells[1:]]
    slots = Counter(q.kind for q in qs.questions.values() if q.slots)
    for kind in qs.kinds:
        dev, holdout = counts["dev"][kind], counts["holdout"][kind]
        assert rows.get(kind) == [dev, holdout, dev + holdout, slots[kind]], kind
    dev, holdout = sum(counts["dev"].values()), sum(counts["holdout"].values())
    assert rows.get("all") == [dev, holdout, dev + holdout, sum(slots.values())]
