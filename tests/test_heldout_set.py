"""The held-out question set (tests/heldout): the committed manifests say what answers.py computes, and load.

The data is materialized afresh from the installed packages (and the seeded generators) into a temporary folder,
every answer is recomputed, and each committed manifest line must equal the line the build would write now.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from agentic_ds.evaluation.grading import grade
from agentic_ds.evaluation.manifest import load_manifest
from tests.heldout.answers import QUESTIONS
from tests.heldout.build import SPLITS, manifests
from tests.heldout.materialize import TABLES, materialize
from tests.heldout.registry import DEV_SHARE, KINDS

HELDOUT = Path(__file__).parent / "heldout"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heldout") / "data"
    materialize(folder)
    return folder


def committed(name: str) -> list[dict]:
    text = (HELDOUT / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_materialize_writes_every_table_the_questions_use(data_dir: Path) -> None:
    written = {p.name for p in data_dir.glob("*.csv")}
    assert written == {f"{name}.csv" for name in TABLES}
    used = {f for question in QUESTIONS.values() for f in question.files}
    assert used <= {f"data/{name}" for name in written}


def test_materialize_is_deterministic(data_dir: Path, tmp_path: Path) -> None:
    materialize(tmp_path)
    for path in data_dir.glob("*.csv"):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_committed_answers_are_the_recomputed_ones(data_dir: Path) -> None:
    rebuilt = manifests(data_dir)
    for name in SPLITS:
        want = {line["id"]: line for line in rebuilt[name]}
        have = {line["id"]: line for line in committed(name)}
        assert set(have) == set(want), f"{name}.jsonl: ids differ from the build; run tests/heldout/build.py"
        wrong = {qid: (have[qid]["answer"], want[qid]["answer"]) for qid in want
                 if have[qid]["answer"] != want[qid]["answer"]}
        assert not wrong, f"{name}.jsonl: committed answer != recomputed answer: {wrong}"
        stale = [qid for qid in want if have[qid] != want[qid]]
        assert not stale, f"{name}.jsonl: task, files or checker differ from answers.py for {stale}"


def test_ids_are_unique_across_both_splits() -> None:
    ids = [line["id"] for name in SPLITS for line in committed(name)]
    assert len(ids) == len(set(ids)) == len(QUESTIONS)
    assert len(ids) >= 180


def test_the_split_is_about_sixty_forty_within_every_kind() -> None:
    kind_of = {qid: question.kind for qid, question in QUESTIONS.items()}
    per_split = {name: Counter(kind_of[line["id"]] for line in committed(name)) for name in SPLITS}
    total = sum(per_split["dev"].values()) + sum(per_split["holdout"].values())
    assert 0.55 <= sum(per_split["dev"].values()) / total <= 0.65
    for kind in KINDS:
        dev, holdout = per_split["dev"][kind], per_split["holdout"][kind]
        assert dev >= 1 and holdout >= 1, f"kind {kind} must be in both splits"
        assert abs(dev / (dev + holdout) - DEV_SHARE) <= 0.1, kind


def test_answer_keys_name_the_slots_asked_for() -> None:
    formatted = 0
    for question in QUESTIONS.values():
        line = next(line for name in SPLITS for line in committed(name) if line["id"] == question.id)
        keys = list(line["answer"])
        if question.slots:
            formatted += 1
            assert sorted(keys) == sorted(set(question.slots)), question.id
        else:
            assert "@" not in question.task, question.id
        if question.checker in ("exact", "contains"):
            assert all(isinstance(v, str) for v in line["answer"].values()), question.id
    assert 0.35 <= formatted / len(QUESTIONS) <= 0.45


def test_no_task_gives_its_answer_away() -> None:
    """A final answer that only restates the task (a number or a name it mentions) must not grade as correct."""
    given_away = [line["id"] for name in SPLITS for line in committed(name)
                  if grade(line["task"], line["checker"], line["answer"], {"answer": line["task"]}).correct]
    assert not given_away


def test_every_manifest_line_loads(data_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(data_dir, tmp_path / "data")
    for name in SPLITS:
        shutil.copy(HELDOUT / f"{name}.jsonl", tmp_path / f"{name}.jsonl")
        manifest = load_manifest(tmp_path / f"{name}.jsonl")
        assert [t.id for t in manifest.tasks] == [line["id"] for line in committed(name)]
        assert all(t.checker in {"numeric", "exact", "contains"} and t.answer for t in manifest.tasks)
        assert all(p.exists() for t in manifest.tasks for p in manifest.input_paths(t))
