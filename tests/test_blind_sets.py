"""The blind question sets written after the held-out one (tests/fresh, tests/probe, tests/probe2, tests/probe3,
tests/probe4, tests/probe5, tests/probe6, tests/probe7): the committed manifests say what their questions compute,
and load.

The data is materialized afresh (tests/heldout/materialize.py) into a temporary folder once, every answer of each
set is recomputed, and each committed manifest line must equal the line tests/fresh/build.py would write now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import question_set_checks as checks
from tests.fresh import questions as fresh_questions
from tests.fresh import registry as fresh_registry
from tests.heldout.materialize import materialize
from tests.probe import questions as probe_questions
from tests.probe import registry as probe_registry
from tests.probe2 import questions as probe2_questions
from tests.probe2 import registry as probe2_registry
from tests.probe3 import questions as probe3_questions
from tests.probe3 import registry as probe3_registry
from tests.probe4 import questions as probe4_questions
from tests.probe4 import registry as probe4_registry
from tests.probe5 import questions as probe5_questions
from tests.probe5 import registry as probe5_registry
from tests.probe6 import questions as probe6_questions
from tests.probe6 import registry as probe6_registry
from tests.probe7 import questions as probe7_questions
from tests.probe7 import registry as probe7_registry

HERE = Path(__file__).parent
FRESH = checks.QuestionSet(folder=HERE / "fresh", questions=fresh_questions.QUESTIONS, kinds=fresh_registry.KINDS,
                           manifests=fresh_registry.manifests, min_questions=120, build_hint="tests/fresh/build.py")
PROBE = checks.QuestionSet(folder=HERE / "probe", questions=probe_questions.QUESTIONS, kinds=probe_registry.KINDS,
                           manifests=probe_registry.manifests, min_questions=80,
                           build_hint="tests/fresh/build.py probe")
PROBE2 = checks.QuestionSet(folder=HERE / "probe2", questions=probe2_questions.QUESTIONS, kinds=probe2_registry.KINDS,
                            manifests=probe2_registry.manifests, min_questions=80,
                            build_hint="tests/fresh/build.py probe2")
PROBE3 = checks.QuestionSet(folder=HERE / "probe3", questions=probe3_questions.QUESTIONS, kinds=probe3_registry.KINDS,
                            manifests=probe3_registry.manifests, min_questions=60,
                            build_hint="tests/fresh/build.py probe3")
PROBE4 = checks.QuestionSet(folder=HERE / "probe4", questions=probe4_questions.QUESTIONS, kinds=probe4_registry.KINDS,
                            manifests=probe4_registry.manifests, min_questions=60,
                            build_hint="tests/fresh/build.py probe4")
PROBE5 = checks.QuestionSet(folder=HERE / "probe5", questions=probe5_questions.QUESTIONS, kinds=probe5_registry.KINDS,
                            manifests=probe5_registry.manifests, min_questions=60,
                            build_hint="tests/fresh/build.py probe5")
PROBE6 = checks.QuestionSet(folder=HERE / "probe6", questions=probe6_questions.QUESTIONS, kinds=probe6_registry.KINDS,
                            manifests=probe6_registry.manifests, min_questions=100,
                            build_hint="tests/fresh/build.py probe6")
PROBE7 = checks.QuestionSet(folder=HERE / "probe7", questions=probe7_questions.QUESTIONS, kinds=probe7_registry.KINDS,
                            manifests=probe7_registry.manifests, min_questions=100,
                            build_hint="tests/fresh/build.py probe7")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("blind") / "data"
    materialize(folder)
    return folder


@pytest.fixture(params=[FRESH, PROBE, PROBE2, PROBE3, PROBE4, PROBE5, PROBE6, PROBE7],
                ids=["fresh", "probe", "probe2", "probe3", "probe4", "probe5", "probe6", "probe7"])
def question_set(request: pytest.FixtureRequest) -> checks.QuestionSet:
    chosen: checks.QuestionSet = request.param
    return chosen


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
    share = sum(q.kind == "hard" for q in FRESH.questions.values()) / len(FRESH.questions)
    assert 0.12 <= share <= 0.2
