"""The checks on a run directory: executed code's outputs, a criterion's cited evidence, the answer ask by ask, the
status and the confidence. Run directories are built as the sandbox's recorder writes them."""

from __future__ import annotations

import os

import pytest

from agentic_ds.evidence import status as evidence_status
from agentic_ds.evidence.answers import judge_answer
from agentic_ds.evidence.asks import extract_asks
from agentic_ds.evidence.citations import CitationCheck
from agentic_ds.evidence.sources import collect
from agentic_ds.schema import CriterionRecord, RunStatus, StageRecord, StageStatus
from tests.evidence_support import assert_linear, new_workspace, record_cells

MACRO = "How did unemployment relate to inflation and real GDP growth over 1959-2009?"
CORR = ('{"summary": ["Pearson r between unemployment and inflation = -0.214 (p = 0.131, n = 51)", '
        '"Pearson r between unemployment and real_gdp_growth = -0.615 (p < 0.001, n = 51)"], '
        '"years": [1959, 2009]}')


@pytest.fixture
def macro_run(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "loaded 51 rows", "files": {"outputs/corr.json": CORR}}])
    return workspace


def claim(answer: str, *, valid: bool = True, asks: list | None = None) -> dict:
    return {"valid": valid, "answer": answer, "confidence": "high", "caveats": [], "reasoning_trace": [],
            "output_type": "text", "asks": asks or []}


# -- what executed code left ------------------------------------------------------------------------------
def test_only_cells_that_ran_and_files_they_wrote_count(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "mean 10.25"}, {"out": "mean 99.5", "ok": False}])
    (workspace.outputs / "typed_by_the_model.json").write_text('{"mean": 77.7}')   # written with write_file, not code
    evidence = collect(workspace)
    assert evidence.code_ran and evidence.cells_ok == 1 and evidence.written == []
    traces = evidence.index.traces
    from agentic_ds.evidence.numbers import extract
    assert traces(extract("10.25")[0]) and not traces(extract("99.5")[0]) and not traces(extract("77.7")[0])


def test_no_notebook_means_no_code_ran(tmp_path):
    assert not collect(new_workspace(tmp_path)).code_ran


def test_a_link_planted_in_outputs_is_never_followed(tmp_path):
    workspace = new_workspace(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("42424.5")
    record_cells(workspace, [{"out": "done", "files": {"outputs/real.json": '{"x": 1.5}'}}])
    (workspace.outputs / "real.json").unlink()
    os.symlink(secret, workspace.outputs / "real.json")
    evidence = collect(workspace)
    from agentic_ds.evidence.numbers import extract
    assert not evidence.index.traces(extract("42424.5")[0])


# -- criteria's evidence ---------------------------------------------------------------------------------
def criterion(evidence: str, text: str = "outputs/corr.json states how unemployment relates to inflation"):
    return CriterionRecord(id="c1", text=text, met=True, evidence=evidence)


def test_evidence_citing_a_file_that_holds_its_figures_stands(macro_run):
    check = CitationCheck(macro_run, collect(macro_run), MACRO)
    kept = check.verify(criterion("outputs/corr.json: Pearson r = -0.214 (p = 0.131)"))
    assert kept.met is True and "not verified" not in kept.evidence


@pytest.mark.parametrize(("evidence", "why"), [
    ("outputs/missing.json: r = -0.214", "outputs/missing.json does not exist"),
    ("the correlation is -0.214", "cites no file"),
    ("outputs/corr.json: r = -0.52", "-0.52 is not in outputs/corr.json"),
    ("corr_results.csv shows r = -0.214", "corr_results.csv does not exist"),
])
def test_evidence_that_does_not_hold_unmeets_the_criterion(macro_run, evidence, why):
    checked = CitationCheck(macro_run, collect(macro_run), MACRO).verify(criterion(evidence))
    assert checked.met is False and why in checked.evidence and checked.evidence.startswith(evidence)


def test_a_criterion_asking_for_a_p_value_needs_one_quoted(macro_run):
    check = CitationCheck(macro_run, collect(macro_run), MACRO)
    text = "outputs/corr.json states the correlation of unemployment with inflation with its p-value"
    means_only = check.verify(criterion("outputs/corr.json: r = -0.214", text))
    assert means_only.met is False and "asks for a p-value" in means_only.evidence
    assert check.verify(criterion("outputs/corr.json: r = -0.214, p = 0.131", text)).met is True


def test_a_cited_name_is_found_under_outputs_and_a_link_is_refused(macro_run, tmp_path):
    check = CitationCheck(macro_run, collect(macro_run), MACRO)
    assert check.verify(criterion("corr.json: r = -0.214")).met is True
    os.symlink(tmp_path / "elsewhere.json", macro_run.outputs / "link.json")
    assert check.verify(criterion("outputs/link.json: r = -0.214")).met is False


def test_an_unmet_criterion_is_left_as_it_is(macro_run):
    unmet = CriterionRecord(id="c1", text="t", met=False, evidence="nothing yet")
    assert CitationCheck(macro_run, collect(macro_run)).verify(unmet) == unmet


# -- the answer, ask by ask ------------------------------------------------------------------------------
def test_an_answer_covering_every_ask_from_the_outputs_stands(macro_run):
    answer = ("Unemployment and inflation: r = -0.214 (p = 0.131). Unemployment and real GDP growth: r = -0.615 "
              "(p < 0.001). Both over 1959-2009.")
    final, check = judge_answer(MACRO, extract_asks(MACRO), claim(answer), collect(macro_run))
    assert check.exit and check.unanswered == [] and check.untraced == []
    assert [a.answered for a in final.asks] == [True, True, True]
    assert final.asks[1].answer.startswith("Unemployment and real GDP growth")


def test_an_answer_about_one_variable_leaves_the_other_asks_unanswered(macro_run):
    final, check = judge_answer(MACRO, extract_asks(MACRO), claim("Inflation rose by 0.0456 per year."),
                                collect(macro_run))
    assert not check.exit and [a.answered for a in final.asks] == [False, False, True]
    assert "does not address it" in final.asks[0].why
    assert check.untraced == ["0.0456"]


def test_invented_figures_answer_nothing(macro_run):
    answer = "Unemployment and inflation: r = -0.73. Unemployment and real GDP growth: r = -0.88 over 1959-2009."
    final, check = judge_answer(MACRO, extract_asks(MACRO), claim(answer), collect(macro_run))
    assert [a.answered for a in final.asks] == [False, False, True]
    assert "appear in no output of executed code" in final.asks[0].why and check.untraced == ["-0.73", "-0.88"]


def test_the_validators_own_entries_count_when_its_figures_hold(macro_run):
    entries = [{"id": "a1", "answered": True, "answer": "r = -0.214", "files": ["outputs/corr.json"]},
               {"id": "a2", "answered": False, "answer": "the data has no GDP column", "files": []}]
    final, _check = judge_answer(MACRO, extract_asks(MACRO), claim("See the asks.", asks=entries), collect(macro_run))
    assert final.asks[0].answered and final.asks[0].evidence == ["outputs/corr.json"]
    assert not final.asks[1].answered and "the data has no GDP column (the validator's words)" == final.asks[1].why


def test_a_requested_format_is_followed(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "mean 71374.39 std 17164.15"}])
    task = "What are the mean and std of salary? @mean_salary[value] @std_salary[value]"
    entries = [{"id": "a1", "answered": True, "answer": "71374.39"},
               {"id": "a2", "answered": True, "answer": "17164.15"}]
    final, check = judge_answer(task, extract_asks(task), claim("The mean salary is 71,374.39.", asks=entries),
                                collect(workspace))
    assert check.exit and "@mean_salary[71374.39]" in final.answer and "@std_salary[17164.15]" in final.answer


def test_a_named_answer_is_traced_by_its_words(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "department  median\nEngineering 80333.5\nSales 67758.5"}])
    task = "Which department has the highest median salary?"
    final, check = judge_answer(task, extract_asks(task), claim("The department with the highest median salary is "
                                                                "Engineering."), collect(workspace))
    assert check.exit and final.asks[0].why == "engineering found in the outputs of executed code"
    _, lie = judge_answer(task, extract_asks(task), claim("The department with the highest median salary is Legal."),
                          collect(workspace))
    assert not lie.exit


def test_no_answer_from_the_validator(macro_run):
    final, check = judge_answer(MACRO, extract_asks(MACRO), {"answer": 3}, collect(macro_run))
    assert not check.exit and len(check.unanswered) == 3 and final.answer == "" and not final.valid
    assert [a.answered for a in final.asks] == [False] * 3 and final.confidence == "low"


def test_caveats_never_quote_a_long_task_whole(macro_run):
    task = MACRO + " Use the annual series and report each relation with its sign and strength."
    final, _ = judge_answer(task, extract_asks(task), {**claim("x"), "caveats": [f"Could not answer: {task}"]},
                            collect(macro_run))
    assert final.caveats == ["Could not answer: (the task)"]


@pytest.mark.slow
def test_judging_a_megabyte_answer_is_linear(macro_run):
    evidence = collect(macro_run)
    asks = extract_asks(MACRO)
    shape = "Unemployment and inflation r = -0.214. "
    assert_linear(lambda text: judge_answer(MACRO, asks, claim(text), evidence), shape)


# -- status and confidence -------------------------------------------------------------------------------
def _check(macro_run, answer: str, **kw):
    return judge_answer(MACRO, extract_asks(MACRO), claim(answer, **kw), collect(macro_run))[1]


GOOD = "Unemployment and inflation: r = -0.214. Unemployment and real GDP growth: r = -0.615, over 1959-2009."


def test_completed_needs_everything_and_says_so(macro_run):
    verdict = evidence_status.decide((RunStatus.COMPLETED, ""), _check(macro_run, GOOD))
    assert verdict.status is RunStatus.COMPLETED and verdict.confidence == "high"
    assert "every ask answered" in verdict.reason


def test_an_unanswered_ask_is_incomplete_with_low_confidence(macro_run):
    verdict = evidence_status.decide((RunStatus.COMPLETED, ""), _check(macro_run, "Inflation rose."))
    assert verdict.status is RunStatus.INCOMPLETE and verdict.confidence == "low"
    assert "how unemployment relates to inflation" in verdict.reason


def test_stages_not_approved_and_untraced_figures_are_warnings(macro_run):
    stages = [StageRecord(id="s1", title="Load", status=StageStatus.APPROVED),
              StageRecord(id="s2", title="Plots", status=StageStatus.PENDING)]
    check = _check(macro_run, GOOD + " Also 12.345.")
    verdict = evidence_status.decide((RunStatus.COMPLETED, ""), check, stages=stages)
    assert verdict.status is RunStatus.COMPLETED_WITH_WARNINGS and verdict.confidence == "medium"
    assert "stage s2 (Plots) never ran" in verdict.reason and "12.345" in verdict.reason


def test_evidence_never_raises_the_workflows_own_status(macro_run):
    verdict = evidence_status.decide((RunStatus.INCOMPLETE, "budget reached: max LLM calls"), _check(macro_run, GOOD))
    assert verdict.status is RunStatus.INCOMPLETE and verdict.reason == "budget reached: max LLM calls"


def test_a_model_fit_answer_has_medium_confidence(macro_run):
    verdict = evidence_status.decide((RunStatus.COMPLETED, ""), _check(
        macro_run, "A regression of unemployment on inflation gives a coefficient of -0.214; on real GDP growth "
                   "-0.615 (unemployment model), 1959-2009."))
    assert verdict.status is RunStatus.COMPLETED and verdict.confidence == "medium"
    assert "model fit" in verdict.confidence_basis


def test_no_code_run_is_incomplete_whatever_the_validator_says(tmp_path):
    workspace = new_workspace(tmp_path)
    check = judge_answer(MACRO, extract_asks(MACRO), claim(GOOD), collect(workspace))[1]
    verdict = evidence_status.decide((RunStatus.COMPLETED, ""), check)
    assert verdict.status is RunStatus.INCOMPLETE and "no code ran" in verdict.reason and verdict.confidence == "low"
