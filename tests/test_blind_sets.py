"""The blind question sets written after the held-out one (tests/fresh, tests/probe, tests/probe2, tests/probe3,
tests/probe4, tests/probe5, tests/probe6, tests/probe7): the committed manifests say what their questions compute,
and load.

The data is materialized afresh (tests/heldout/materialize.py) into a temporary folder once, every answer of each
set is recomputed, and each committed manifest line must equal the line tests/fresh/build.py would write now.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

import pytest

from tests import question_set_checks as checks
from tests.heldout.materialize import materialize

HERE = Path(__file__).parent
# Each set's folder, and how many questions it must have at least. Its modules are imported by the tests that use
# them, not at collection: their answers import statsmodels and scipy, a CPU-second in every test worker.
MINIMUM = {"fresh": 120, "probe": 80, "probe2": 80, "probe3": 60, "probe4": 60, "probe5": 60, "probe6": 100,
           "probe7": 100}


@functools.cache
def load_set(name: str) -> checks.QuestionSet:
    questions = importlib.import_module(f"tests.{name}.questions")
    registry = importlib.import_module(f"tests.{name}.registry")
    hint = "tests/fresh/build.py" + ("" if name == "fresh" else f" {name}")
    return checks.QuestionSet(folder=HERE / name, questions=questions.QUESTIONS, kinds=registry.KINDS,
                              manifests=registry.manifests, min_questions=MINIMUM[name], build_hint=hint)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("blind") / "data"
    materialize(folder)
    return folder


@pytest.fixture(params=list(MINIMUM))
def question_set(request: pytest.FixtureRequest) -> checks.QuestionSet:
    return load_set(request.param)


def test_the_questions_read_only_materialized_tables(question_set: checks.QuestionSet, data_dir: Path) -> None:
    checks.check_questions_use_materialized_tables(question_set, data_dir)


def test_committed_answers_are_the_recomputed_ones(question_set: checks.QuestionSet, data_dir: Path) -> None:
    checks.check_committed_answers_are_recomputed(question_set, data_dir)


def test_ids_are_unique_across_both_splits(question_set: checks.QuestionSet) -> None:
    checks.check_ids_unique(question_set)


def test_the_split_is_about_sixty_forty_within_every_kind(question_set: checks.QuestionSet) -> None:
    checks.check_split_sixty_forty(question_set)


def test_answer_keys_name_the_slots_asked_for(question_set: checks.QuestionSet) -> None:
    checks.check_answer_keys_name_the_slots(question_set)


def test_no_task_gives_its_answer_away(question_set: checks.QuestionSet) -> None:
    checks.check_no_task_gives_its_answer_away(question_set)


def test_every_manifest_line_loads(question_set: checks.QuestionSet, data_dir: Path, tmp_path: Path) -> None:
    checks.check_every_line_loads(question_set, data_dir, tmp_path)


def test_the_readme_table_counts_the_committed_manifests(question_set: checks.QuestionSet) -> None:
    checks.check_readme_table_counts(question_set)


def test_about_one_question_in_seven_of_the_fresh_set_is_a_harder_one() -> None:
    fresh = load_set("fresh")
    share = sum(q.kind == "hard" for q in fresh.questions.values()) / len(fresh.questions)
    assert 0.12 <= share <= 0.2
