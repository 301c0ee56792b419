"""The fresh question set (tests/fresh): the committed manifests say what its questions compute, and load.

The data is materialized afresh (tests/heldout/materialize.py) into a temporary folder, every answer is
recomputed, and each committed manifest line must equal the line tests/fresh/build.py would write now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import question_set_checks as checks
from tests.fresh.questions import QUESTIONS
from tests.fresh.registry import KINDS, manifests
from tests.heldout.materialize import materialize

FRESH = checks.QuestionSet(folder=Path(__file__).parent / "fresh", questions=QUESTIONS, kinds=KINDS,
                           manifests=manifests, min_questions=120, build_hint="tests/fresh/build.py")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fresh") / "data"
    materialize(folder)
    return folder


def test_the_questions_read_only_materialized_tables(data_dir: Path) -> None:
    checks.check_questions_use_materialized_tables(FRESH, data_dir)


def test_committed_answers_are_the_recomputed_ones(data_dir: Path) -> None:
    checks.check_committed_answers_are_recomputed(FRESH, data_dir)


def test_ids_are_unique_across_both_splits() -> None:
    checks.check_ids_unique(FRESH)


def test_the_split_is_about_sixty_forty_within_every_kind() -> None:
    checks.check_split_sixty_forty(FRESH)


def test_answer_keys_name_the_slots_asked_for() -> None:
    checks.check_answer_keys_name_the_slots(FRESH)


def test_no_task_gives_its_answer_away() -> None:
    checks.check_no_task_gives_its_answer_away(FRESH)


def test_every_manifest_line_loads(data_dir: Path, tmp_path: Path) -> None:
    checks.check_every_line_loads(FRESH, data_dir, tmp_path)


def test_about_one_question_in_seven_is_a_harder_one() -> None:
    share = sum(q.kind == "hard" for q in QUESTIONS.values()) / len(QUESTIONS)
    assert 0.12 <= share <= 0.2


def test_the_readme_table_counts_the_committed_manifests() -> None:
    checks.check_readme_table_counts(FRESH)
