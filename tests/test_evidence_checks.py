"""The code gates on a run directory: what executed code left, a criterion's quoted evidence, an answer's figures
ask by ask; then the judge's verdict and the one status rule. Run directories are built as the sandbox's recorder
writes them."""

from __future__ import annotations

import os
import random

import pytest

from agentic_ds.evidence import status as evidence_status
from agentic_ds.evidence.answers import check_answer, with_verdict
from agentic_ds.evidence.asks import read_asks
from agentic_ds.evidence.citations import CitationCheck
from agentic_ds.evidence.sources import collect
from agentic_ds.schema import AskRecord, CriterionRecord, RunStatus, StageRecord, StageStatus
from agentic_ds.state import JudgeVerdict
from tests.evidence_support import assert_linear, new_workspace, record_cells

MACRO = "How did unemployment relate to inflation and real GDP growth over 1959-2009?"
ASKS = [AskRecord(id="a1", text="how unemployment relates to inflation"),
        AskRecord(id="a2", text="how unemployment relates to real GDP growth")]
CORR = ('{"summary": ["Pearson r between unemployment and inflation = -0.214 (p = 0.131, n = 51)", '
        '"Pearson r between unemployment and real_gdp_growth = -0.615 (p < 0.001, n = 51)"], '
        '"r_inflation": -0.2143, "r_growth": -0.6152, "n": 51}')


@pytest.fixture
def macro_run(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "loaded 51 rows", "files": {"outputs/corr.json": CORR}}])
    return workspace


def claim(answer: str, *parts: tuple[str, str, list[str]], valid: bool = True) -> dict:
    return {"valid": valid, "answer": answer, "confidence": "high", "caveats": [], "reasoning_trace": [],
            "output_type": "text",
            "asks": [{"id": i, "answered": True, "answer": text, "files": files} for i, text, files in parts]}


def agreeing(*ids: str, estimate: bool = False) -> JudgeVerdict:
    return JudgeVerdict.model_validate({"asks": [{"id": i, "addressed": True, "estimate": estimate, "reason": "ok"}
                                                 for i in ids]})


GOOD = claim("Unemployment moved weakly against inflation (r = -0.214) and strongly against real GDP growth "
             "(r = -0.615).",
             ("a1", "r = -0.214 between unemployment and inflation (n = 51)", ["outputs/corr.json"]),
             ("a2", "r = -0.615 between unemployment and real GDP growth", ["outputs/corr.json"]))


# -- what executed code left ------------------------------------------------------------------------------
def test_only_cells_that_ran_and_files_they_wrote_can_be_cited(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "mean 10.25", "files": {"outputs/a.json": '{"mean": 10.25}'}},
                             {"out": "Traceback: KeyError", "ok": False, "files": {"outputs/b.json": '{"m": 99.5}'}}])
    (workspace.outputs / "typed_by_the_model.json").write_text('{"mean": 77.7}')   # write_file, not code
    evidence = collect(workspace)
    assert evidence.code_ran and evidence.cells_ok == 1
    assert evidence.citable("outputs/a.json") is None
    assert evidence.citable("stages/01-analysis/cell_001.out.txt") is None
    assert "not written by code that ran" in evidence.citable("outputs/b.json")
    assert "not written by code that ran" in evidence.citable("outputs/typed_by_the_model.json")
    assert "raised an error" in evidence.citable("stages/01-analysis/cell_002.out.txt")
    assert "does not exist" in evidence.citable("outputs/nothing.csv")
    assert "not a path inside" in evidence.citable("../../etc/passwd")


def test_no_notebook_means_no_code_ran(tmp_path):
    assert not collect(new_workspace(tmp_path)).code_ran


def test_a_link_planted_in_outputs_is_never_followed(tmp_path):
    workspace = new_workspace(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("the answer is 4242.42")
    record_cells(workspace, [{"out": "done", "files": {"outputs/ok.json": "{}"}}])
    os.symlink(secret, workspace.outputs / "leak.txt")
    evidence = collect(workspace)
    assert evidence.citable("outputs/leak.txt") is not None and evidence.text("outputs/leak.txt") is None


# -- a criterion's quoted evidence ----------------------------------------------------------------------------
def met(evidence: str, text: str = "outputs/corr.json holds both correlations") -> CriterionRecord:
    return CriterionRecord(id="c1", text=text, met=True, evidence=evidence)


def test_evidence_citing_a_file_that_holds_its_figures_and_names_stands(macro_run):
    check = CitationCheck(collect(macro_run), MACRO)
    quote = "outputs/corr.json: r_inflation -0.2143, `r_growth` -0.6152 (n = 51)"
    assert check.verify(met(quote)).met is True


@pytest.mark.parametrize(("quote", "why"), [
    ("outputs/corr.json: r = -0.333", "-0.333 is not in outputs/corr.json"),
    ("outputs/corr.json: largest_effect_pct -0.2143", "largest_effect_pct is named in none of outputs/corr.json"),
    ("outputs/missing.json: r = -0.214", "outputs/missing.json does not exist"),
    ("r = -0.214, trust me", "the evidence cites no file of this run"),
    ("see summary.json: r = -0.214", "summary.json is not a file that executed code wrote"),
])
def test_evidence_that_does_not_hold_unmeets_the_criterion(macro_run, quote, why):
    checked = CitationCheck(collect(macro_run), MACRO).verify(met(quote))
    assert checked.met is False and why in checked.evidence


def test_a_file_only_a_failing_cell_wrote_is_no_evidence(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "Traceback", "ok": False, "files": {"outputs/r.json": '{"r": 0.5}'}},
                             {"out": "rows 10"}])
    checked = CitationCheck(collect(workspace)).verify(met("outputs/r.json: r 0.5", "r is computed"))
    assert checked.met is False and "not written by code that ran" in checked.evidence


def test_a_cited_name_is_found_under_outputs(macro_run):
    assert CitationCheck(collect(macro_run), MACRO).verify(met("corr.json holds r = -0.214")).met is True


def test_an_unmet_criterion_is_left_as_it_is(macro_run):
    criterion = CriterionRecord(id="c1", text="x", met=False, evidence="not yet")
    assert CitationCheck(collect(macro_run)).verify(criterion) == criterion


def test_a_figure_found_by_chance_in_a_huge_output_proves_nothing(tmp_path):
    workspace = new_workspace(tmp_path)
    rng = random.Random(7)
    dump = "\n".join(f"{i} {rng.random():.4f} {rng.random() * 100:.2f}" for i in range(120_000))   # ~2.6 MB
    record_cells(workspace, [{"out": dump, "files": {"outputs/dump.txt": dump}}])
    check = CitationCheck(collect(workspace))
    assert check.verify(met("outputs/dump.txt: R2 = 0.81, slope 37.5", "the model fits")).met is False


# -- an answer's figures, ask by ask ---------------------------------------------------------------------------
def test_an_answer_whose_every_figure_is_in_the_files_it_cites_passes_to_the_judge(macro_run):
    facts = check_answer(MACRO, ASKS, GOOD, collect(macro_run))
    assert [a.id for a in facts.to_judge()] == ["a1", "a2"] and facts.untraced == []
    assert facts.asks[0].traced == ["-0.214", "51"]     # n = 51: a count the cited result file holds
    final, check = with_verdict(facts, agreeing("a1", "a2"))
    assert check.exit and final is not None and all(a.answered for a in final.asks)
    assert final.asks[0].basis == "computed" and "addresses it" in final.asks[0].judge


def test_the_judge_can_take_an_answer_away_never_give_one(macro_run):
    facts = check_answer(MACRO, ASKS, GOOD, collect(macro_run))
    verdict = JudgeVerdict.model_validate({"asks": [
        {"id": "a1", "addressed": True, "reason": "says how they relate"},
        {"id": "a2", "addressed": False, "reason": "gives a number but not how they relate"}]})
    final, check = with_verdict(facts, verdict)
    assert not check.exit and [a.answered for a in final.asks] == [True, False]
    assert "does not address it (gives a number but not how they relate)" in final.asks[1].why
    lied = check_answer(MACRO, ASKS, claim("r = -0.5", ("a1", "r = -0.5", ["outputs/corr.json"])), collect(macro_run))
    final, check = with_verdict(lied, agreeing("a1", "a2"))      # a judge agreeing with everything changes nothing
    assert not check.exit and not any(a.answered for a in final.asks)


def test_a_judge_that_says_nothing_leaves_the_asks_unanswered(macro_run):
    final, check = with_verdict(check_answer(MACRO, ASKS, GOOD, collect(macro_run)), None)
    assert not check.exit and not check.judged
    assert all("the judge gave no verdict" in a.why for a in final.asks)


@pytest.mark.parametrize(("part", "why"), [
    ("r = -0.33 between unemployment and inflation", "-0.33 are in none of the files it cites"),
    ("unemployment and inflation move 3 times less together", "states no figure that executed code produced"),
    ("significant (p < 0.05), yes", "states no figure that executed code produced"),
    ("in 1959-2009 they relate", "states no figure that executed code produced"),
    ("r = -0.214 is 2.87x weaker than -0.615", "2.87x are in none of the files it cites"),
])
def test_invented_derived_small_and_bare_figures_answer_nothing(macro_run, part, why):
    facts = check_answer(MACRO, ASKS[:1], claim(part, ("a1", part, ["outputs/corr.json"])), collect(macro_run))
    assert facts.to_judge() == [] and why in facts.asks[0].problem


def test_citing_a_file_no_code_wrote_answers_nothing(macro_run):
    (macro_run.outputs / "mine.json").write_text('{"r": -0.214}')
    facts = check_answer(MACRO, ASKS[:1], claim("r -0.214", ("a1", "r -0.214", ["outputs/mine.json"])),
                         collect(macro_run))
    assert "outputs/mine.json, which was not written by code that ran" in facts.asks[0].problem


def test_a_small_count_counts_where_the_cited_result_file_holds_it(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "\n".join(str(i) for i in range(2000)),
                              "files": {"outputs/outliers.json": '{"iqr_outliers": 3, "rows": 240}'}}])
    asks = [AskRecord(id="a1", text="how many outliers")]
    cited = check_answer("How many outliers?", asks, claim("3", ("a1", "3 outliers", ["outputs/outliers.json"])),
                         collect(workspace))
    uncited = check_answer("How many outliers?", asks, claim("3", ("a1", "3 outliers", [])), collect(workspace))
    assert cited.asks[0].passes and cited.asks[0].traced == ["3"]
    assert "states no figure" in uncited.asks[0].problem      # a 3 in a printed list of 2,000 numbers proves nothing


def test_percent_rounding_separators_and_scientific_notation_are_the_same_figure(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "share 0.4567\nmean 71374.39\np 1.234e-05"}])
    asks = [AskRecord(id="a1", text="the share, mean and p-value")]
    part = "45.7% of rows; mean about 71,374 (71.4 thousand); p = 1.2e-05"
    facts = check_answer("?", asks, claim(part, ("a1", part, [])), collect(workspace))
    assert facts.asks[0].passes and facts.asks[0].untraced == []


def test_the_figures_of_the_whole_answer_are_checked_too(macro_run):
    wrong = dict(GOOD, answer=GOOD["answer"] + " Together they explain 81% of the variation.")
    facts = check_answer(MACRO, ASKS, wrong, collect(macro_run))
    _final, check = with_verdict(facts, agreeing("a1", "a2"))
    assert facts.untraced == ["81%"] and not check.exit and "81%" in check.reason


def test_an_ask_with_no_part_is_judged_on_the_whole_answer(macro_run):
    whole = claim("r = -0.214 with inflation and -0.615 with real GDP growth (outputs/corr.json).")
    facts = check_answer(MACRO, ASKS, whole, collect(macro_run))
    assert [a.passes for a in facts.asks] == [True, True]     # figures hold; which ask it addresses is the judge's


def test_a_requested_value_is_written_as_asked(tmp_path):
    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "", "files": {"outputs/a.json": '{"mean_salary": 71374.39}'}}])
    task = "What is the mean salary? Answer as @mean_salary[value]."
    asks = read_asks(None, task)
    facts = check_answer(task, asks, claim("The mean salary is 71374.39.",
                                           (asks[0].id, "71374.39", ["outputs/a.json"])), collect(workspace))
    final, check = with_verdict(facts, agreeing(asks[0].id))
    assert check.exit and final is not None and "@mean_salary[71374.39]" in final.answer
    missing = check_answer(task, asks, claim("about seventy thousand", (asks[0].id, "seventy", [])),
                           collect(workspace))
    assert not missing.asks[0].passes


def test_no_answer_from_the_validator(macro_run):
    facts = check_answer(MACRO, ASKS, {"nonsense": 1}, collect(macro_run))
    final, check = with_verdict(facts, None)
    assert not facts.given and not check.given and final is not None and final.answer == ""
    assert all("no valid answer" in a.why for a in final.asks)


def test_checking_a_megabyte_answer_is_linear(macro_run):
    evidence = collect(macro_run)

    def checked(text: str) -> object:
        return check_answer(MACRO, ASKS, claim(text, ("a1", text, ["outputs/corr.json"])), evidence)

    assert_linear(checked, "r = -0.214 and 0.5 of `x_y` outputs/a.json 3.3x, ")


# -- the status, in one place -------------------------------------------------------------------------------------
def decide(macro_run, answer=GOOD, verdict=None, **facts) -> evidence_status.Verdict:
    final, check = with_verdict(check_answer(MACRO, ASKS, answer, collect(macro_run)),
                                verdict if verdict is not None else agreeing("a1", "a2"))
    facts.setdefault("stages", [StageRecord(id="s1", status=StageStatus.APPROVED)])
    return evidence_status.decide(evidence_status.RunFacts(mode="orchestrated", check=check, **facts))


def test_completed_needs_everything_and_says_so(macro_run):
    verdict = decide(macro_run, criteria=[CriterionRecord(id="c1", text="x", met=True)])
    assert verdict.status is RunStatus.COMPLETED and verdict.confidence == "high"
    assert "every ask answered" in verdict.reason and "all 1 success criteria met" in verdict.reason


def test_an_unanswered_ask_or_unmet_criterion_is_incomplete(macro_run):
    verdict = decide(macro_run, verdict=agreeing("a1"))
    assert verdict.status is RunStatus.INCOMPLETE and verdict.confidence == "low" and "a2" in verdict.reason
    unmet = decide(macro_run, criteria=[CriterionRecord(id="c1", text="x", met=False, judged="shows means only")])
    assert unmet.status is RunStatus.INCOMPLETE
    assert "criterion c1 not met: x (the judge: shows means only)" in unmet.reason


def test_failed_or_unrun_stages_and_warnings_complete_with_warnings(macro_run):
    stages = [StageRecord(id="s1", status=StageStatus.APPROVED), StageRecord(id="s2", status=StageStatus.FAILED)]
    verdict = decide(macro_run, stages=stages, warnings=["stage_reflector gave no valid answer"])
    assert verdict.status is RunStatus.COMPLETED_WITH_WARNINGS and verdict.confidence == "medium"


def test_nothing_done_is_failed_and_a_stop_says_why_it_stopped(macro_run):
    assert decide(macro_run, stages=[]).status is RunStatus.FAILED
    stopped = decide(macro_run, stop=(RunStatus.INCOMPLETE, "budget reached: max LLM calls (5) used"))
    assert stopped.status is RunStatus.INCOMPLETE and stopped.reason.startswith("budget reached")


def test_a_model_fit_answer_has_medium_confidence(macro_run):
    verdict = decide(macro_run, verdict=agreeing("a1", "a2", estimate=True))
    assert verdict.status is RunStatus.COMPLETED and verdict.confidence == "medium"


def test_no_code_run_is_never_completed_whatever_the_validator_and_judge_say(tmp_path):
    workspace = new_workspace(tmp_path)
    facts = check_answer(MACRO, ASKS, GOOD, collect(workspace))
    _final, check = with_verdict(facts, agreeing("a1", "a2"))
    for mode in ("simple", "orchestrated"):
        verdict = evidence_status.decide(evidence_status.RunFacts(
            mode=mode, check=check, stages=[StageRecord(id="s1", status=StageStatus.APPROVED)]))
        assert not verdict.status.answered and verdict.confidence == "low"


def test_the_judge_is_shown_the_line_where_a_figure_is_written_as_the_answer_writes_it(tmp_path):
    from agentic_ds.evidence.numbers import extract

    workspace = new_workspace(tmp_path)
    record_cells(workspace, [{"out": "rows: 480 | missing: 0\nW = 0.9533\np_value (4 dp) = 0.0000\nshare 0.25"}])
    evidence, out = collect(workspace), "stages/01-analysis/cell_001.out.txt"
    written, rounded, percent = extract("p = 0.0000, W = 0.953, 25%")
    assert evidence.line_of(written, out) == "p_value (4 dp) = 0.0000"   # not the "missing: 0" line before it
    assert evidence.line_of(rounded, out) == "W = 0.9533"                 # written otherwise: where its value is
    assert evidence.line_of(percent, out) == "share 0.25"


def test_a_column_named_by_the_code_that_wrote_the_cited_file_counts_as_named(tmp_path):
    workspace = new_workspace(tmp_path)
    table = "gender,median\nF,54.0\nM,52.5\n"
    record_cells(workspace, [{"out": "written", "files": {"outputs/median_by_gender.csv": table}}])
    (workspace.root / "stages/01-analysis/cell_001.py").write_text(
        "df.groupby('gender')['exam_score'].median().rename('median').to_csv('outputs/median_by_gender.csv')\n")
    check = CitationCheck(collect(workspace), "median exam_score by gender")
    kept = check.verify(met("outputs/median_by_gender.csv: median `exam_score` F 54.0, M 52.5"))
    assert kept.met is True
    other = check.verify(met("outputs/median_by_gender.csv: median `sleep_hours` F 54.0, M 52.5"))
    assert other.met is False and "sleep_hours is named in none of" in other.evidence
