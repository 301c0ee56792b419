"""The evidence corpus (tests/evidence_corpus/, labelled by someone who had not read the checks) through the code
gates and a scripted judge: every status right with a careful judge, no fabrication completed whatever the judge
says, no correct answer marked down. BENCHMARKS.md records the same figures (`bench/evidence_corpus.py`)."""

from __future__ import annotations

import pytest

from tests.evidence_corpus.build import evaluate, fabricated
from tests.evidence_corpus.cases import COINCIDENCES, all_cases

CASES = all_cases()


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    return evaluate(CASES, root, "reviewer", "agreeing", "silent")


def test_with_a_careful_judge_every_status_and_every_ask_is_the_reviewers(judged):
    wrong = [(case.id, case.status, out.status.value, out.reason[:200]) for case, out in judged["reviewer"]
             if out.status.value != case.status]
    asks = [(case.id, out.answered, case.answered) for case, out in judged["reviewer"]
            if out.answered != {a.id: case.answered[a.id] for a in case.asks}]
    assert wrong == [] and asks == []


def test_no_fabricated_answer_completes_even_when_the_judge_agrees_with_everything(judged):
    coincidences = set(COINCIDENCES)
    through = [(case.id, out.reason[:200]) for case, out in judged["agreeing"]
               if fabricated(case) and case.id not in coincidences and out.status.answered]
    assert through == []
    assert sum(fabricated(case) for case in CASES) >= 50


def test_a_figure_a_dump_holds_by_coincidence_is_caught_by_a_judge_shown_where_it_was_found(judged):
    """Code finds 2,979.02 in a printed frame of 20,000 orders; only a reader of the line it is on (one order's
    revenue, not a mean) can tell. The judge is shown that line; a careful one says no."""
    coincidences = set(COINCIDENCES)
    assert coincidences
    caught = {case.id: out.status.answered for case, out in judged["reviewer"] if case.id in coincidences}
    assert caught and not any(caught.values())


def test_a_judge_that_gives_no_verdict_completes_nothing(judged):
    assert not any(out.status.answered for _case, out in judged["silent"])


def test_no_correct_answer_is_marked_down_by_the_code_gates(judged):
    """With a judge that agrees, a correct answer stands on the code gates alone: they never refuse one."""
    down = [(case.id, out.reason[:200]) for case, out in judged["agreeing"]
            if case.status == "completed" and not out.status.answered]
    assert down == []
