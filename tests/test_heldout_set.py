"""The held-out question set (tests/heldout): the committed manifests say what answers.py computes, and load.

The data is materialized afresh from the installed packages (and the seeded generators) into a temporary folder,
every answer is recomputed, and each committed manifest line must equal the line the build would write now.
The checks are shared with the fresh set's test (tests/question_set_checks.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import question_set_checks as checks
from tests.heldout.answers import QUESTIONS
from tests.heldout.build import manifests
from tests.heldout.materialize import materialize
from tests.heldout.registry import KINDS

HELDOUT = checks.QuestionSet(folder=Path(__file__).parent / "heldout", questions=QUESTIONS, kinds=KINDS,
                             manifests=manifests, min_questions=180, build_hint="tests/heldout/build.py")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heldout") / "data"
    materialize(folder)
    return folder


def test_materialize_writes_every_table_the_questions_use(data_dir: Path) -> None:
    checks.check_questions_use_materialized_tables(HELDOUT, data_dir)


def test_materialize_is_deterministic(data_dir: Path, tmp_path: Path) -> None:
    materialize(tmp_path)
    for path in data_dir.glob("*.csv"):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_committed_answers_are_the_recomputed_ones(data_dir: Path) -> None:
    checks.check_committed_answers_are_recomputed(HELDOUT, data_dir)


def test_ids_are_unique_across_both_splits() -> None:
    checks.check_ids_unique(HELDOUT)


def test_the_split_is_about_sixty_forty_within_every_kind() -> None:
    checks.check_split_sixty_forty(HELDOUT)


def test_answer_keys_name_the_slots_asked_for() -> None:
    checks.check_answer_keys_name_the_slots(HELDOUT)


def test_no_task_gives_its_answer_away() -> None:
    checks.check_no_task_gives_its_answer_away(HELDOUT)


def test_every_manifest_line_loads(data_dir: Path, tmp_path: Path) -> None:
    checks.check_every_line_loads(HELDOUT, data_dir, tmp_path)
