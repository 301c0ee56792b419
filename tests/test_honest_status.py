"""Whole runs where a model lies, agrees with everything or returns junk: the status, exit code, reason in run.json
and report.md come from evidence, never from the model's word."""

from __future__ import annotations

import json

from agentic_ds.cli.run import STATUS_EXIT_CODES
from agentic_ds.config.settings import Settings
from agentic_ds.schema import RunStatus
from agentic_ds.testing.harness import run_scripted
from agentic_ds.testing.scripted import as_json, call, text
from tests.workflow_scripts import (
    MEANS_CODE,
    PARSED,
    criteria,
    happy_scripts,
    no_change,
    validated,
    write_sales,
)

TASK = "Which region has the highest mean price?"
ONE_ATTEMPT = Settings(loops={"simple_attempts": 1})


def record_of(outcome) -> dict:
    return json.loads((outcome.workspace.root / "run.json").read_text())


def report_of(outcome) -> str:
    return (outcome.workspace.root / "report.md").read_text()


def assert_outcome(outcome, status: RunStatus, *reasons: str) -> dict:
    """The status everywhere the user sees it: the outcome, the exit code, run.json and report.md."""
    assert outcome.status is status, outcome.reason
    record = record_of(outcome)
    assert record["status"] == status.value and record["reason"] == outcome.reason
    for reason in reasons:
        assert reason in outcome.reason, outcome.reason
    report = report_of(outcome)
    assert f"`{status.value}`" in report and outcome.reason.split(";")[0][:60] in " ".join(report.split())
    expected_exit = 0 if status.answered else 1 if status is RunStatus.FAILED else 3
    assert STATUS_EXIT_CODES[outcome.status] == expected_exit
    return record


def simple(coder: list, validator: list) -> dict:
    return {"coding_agent": coder, "answer_validator": validator, "summary_agent": [text("## Answer\nSee the record.")]}


# -- simple mode -----------------------------------------------------------------------------------------
async def test_simple_validator_saying_valid_when_no_code_ran_is_not_completed(tmp_path):
    scripts = simple([text("South has the highest mean price, 21.0 (I know this data).")],
                     [validated("South has the highest mean price (21.0).")])
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    record = assert_outcome(outcome, RunStatus.FAILED, "no code ran")
    assert record["final_answer"]["valid"] is True and record["final_answer"]["confidence"] == "low"
    assert record["stages"] == [{"id": "s1", "title": "Answer the task", "status": "failed", "attempts": 1, "dir": ""}]


async def test_simple_invented_figure_leaves_the_ask_unanswered(tmp_path):
    scripts = simple([call("run_python", code=MEANS_CODE), text("done")],
                     [validated("South has the highest mean price (27.5).")])
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "the `region` with the highest mean of `price`")
    final = record["final_answer"]
    assert final["untraced_numbers"] == ["27.5"] and final["asks"][0]["answered"] is False
    assert "27.5" in final["asks"][0]["why"] and "in none of the files it cites" in final["asks"][0]["why"]
    assert "`27.5`" in report_of(outcome)        # named in the report's answer-by-ask section


async def test_simple_validator_agreeing_with_anything_answers_nothing(tmp_path):
    scripts = simple([call("run_python", code=MEANS_CODE), text("done")],
                     [validated("Everything looks right.", asks=[])])
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "states no figure that executed code produced")
    assert [a["answered"] for a in record["final_answer"]["asks"]] == [False]


async def test_simple_validator_returning_junk_is_no_answer(tmp_path):
    scripts = simple([call("run_python", code=MEANS_CODE), text("done")], [text("sure!"), text("{oops"), text("[]")])
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "no answer")
    assert record["final_answer"]["answer"] == "" and not record["final_answer"]["asks"][0]["answered"]


async def test_simple_retry_is_told_why_an_answer_did_not_stand_and_then_completes(tmp_path):
    scripts = simple([text("South, 21.0"), call("run_python", code=MEANS_CODE), text("done")],
                     [validated("South has the highest mean price (21.0)."), validated()])
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                         settings=Settings(loops={"simple_attempts": 2}))
    record = assert_outcome(outcome, RunStatus.COMPLETED, "every ask answered")
    assert "no code ran without error" in models["coding_agent"].request_text(1)
    assert record["final_answer"]["confidence"] == "high" and record["final_answer"]["asks"][0]["answered"]
    assert record["stages"][0]["status"] == "approved" and record["stages"][0]["attempts"] == 2
    report = report_of(outcome)
    assert "plan.json is missing" not in report and "| 1 | Answer the task | approved | 2 |" in report


async def test_a_summary_that_states_another_status_in_the_reports_own_form_is_corrected(tmp_path):
    """The summarizer copies the report's status line with a status of its own: the report shows the run's one."""
    scripts = simple([call("run_python", code=MEANS_CODE), text("done")],
                     [validated("South has the highest mean price (27.5).")])
    scripts["summary_agent"] = [text("## Answer\nSouth, 27.5.\n\n**Run status:** `completed` - every ask answered")]
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    assert_outcome(outcome, RunStatus.INCOMPLETE)
    report = report_of(outcome)
    assert "`completed`" not in report and report.count("**Run status:**") == 1
    assert "## Answer\nSouth, 27.5." in report


async def test_a_link_the_code_planted_is_a_warning_in_the_status_of_run_json_and_of_the_report(tmp_path):
    """The sandbox refuses to follow a link executed code planted and says so: a warning, which the status both
    the report and run.json give must count (it counted only in run.json's list of warnings)."""
    plant = MEANS_CODE + "import os\nos.symlink('/etc/hostname', 'outputs/hostname.txt')\n"
    scripts = simple([call("run_python", code=plant), text("done")], [validated()])
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts, mode="simple",
                                    settings=ONE_ATTEMPT)
    record = assert_outcome(outcome, RunStatus.COMPLETED_WITH_WARNINGS, "warning:", "outputs/hostname.txt")
    assert any("outputs/hostname.txt" in warning for warning in record["warnings"])
    assert record["final_answer"]["asks"][0]["answered"]


# -- orchestrated mode -----------------------------------------------------------------------------------
async def test_a_checker_citing_a_missing_file_does_not_end_the_run_early(tmp_path):
    scripts = happy_scripts()
    # After stage 1, the checker claims the criterion met from a file that does not exist yet.
    scripts["criteria_checker"] = [criteria(True, "outputs/means.csv: south 21.0"), criteria(True)]
    scripts["stage_reflector"] = [no_change()]   # the check refused that evidence: the plan gets another look
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.COMPLETED)
    assert [s["status"] for s in record["stages"]] == ["approved", "approved"]   # stage 2 ran: nothing stopped early
    assert "not verified: outputs/means.csv does not exist" in models["stage_reflector"].request_text(0)
    assert record["final_answer"]["asks"][0]["answered"] and record["final_answer"]["confidence"] == "high"


async def test_a_checker_that_keeps_citing_a_missing_file_leaves_the_run_incomplete(tmp_path):
    scripts = happy_scripts()
    scripts["criteria_checker"] = [criteria(True, "outputs/summary.json: south 21.0")] * 2
    scripts["stage_reflector"] = [no_change(), no_change()]
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "criterion c1 not met")
    assert record["criteria"][0]["met"] is False
    assert "outputs/summary.json does not exist" in record["criteria"][0]["evidence"]
    assert "not verified" in report_of(outcome)


async def test_a_criterion_whose_evidence_the_judge_finds_does_not_show_it_is_unmet(tmp_path):
    """A p-value criterion 'met' with means only: the facts hold (the means are in the file), so only a reader of
    language can see that nothing shows a p-value. The judge says so, and the criterion is unmet."""
    scripts = happy_scripts()
    parsed = dict(PARSED, success_criteria=[{"text": "outputs/means.csv holds the mean price of every region with "
                                                     "its p-value", "asks": ["a1"]}])
    scripts["plan_parser"] = [as_json(parsed)]
    means_only = "outputs/means.csv: north 11.0, south 21.0"
    scripts["criteria_checker"] = [criteria(False, "not yet"), criteria(True, means_only)]
    scripts["stage_reflector"] = [no_change(), no_change()]
    scripts["judge"] = [as_json({"asks": [{"id": "a1", "addressed": True, "reason": "names south and its mean"}],
                                 "criteria": [{"id": "c1", "shown": False, "reason": "it quotes means, no p-value"}]})]
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "criterion c1 not met", "no p-value")
    assert record["criteria"][0]["met"] is False and record["criteria"][0]["judged"] == "it quotes means, no p-value"
    assert "north 11.0, south 21.0" in models["judge"].request_text(0)     # the judge read the evidence it judged
    assert record["final_answer"]["asks"][0]["answered"] is True


async def test_an_ask_the_plan_left_out_gets_a_criterion_and_keeps_the_run_from_completing(tmp_path):
    task = "What is the mean price and the mean units per region?"
    scripts = happy_scripts()
    scripts["stage_reflector"] = [no_change(), no_change()]
    scripts["answer_validator"] = [validated("Mean price: north 11.0, south 21.0, east 6.0.", asks=[])]
    outcome, models = await run_scripted(tmp_path, task, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE)
    added = record["criteria"][1]
    assert added["origin"] == "asks" and "units" in added["text"] and added["met"] is not True
    assert json.loads((outcome.workspace.root / "plan.json").read_text())["success_criteria"][1] == added["text"]
    asks = record["final_answer"]["asks"]
    assert [(a["ask"], a["answered"]) for a in asks] == [("the mean of `price` per `region`", True),
                                                         ("the mean of `units` per `region`", False)]
    assert "units" in models["criteria_checker"].request_text(0)


async def test_orchestrated_final_answer_is_structured_and_invented_figures_are_named(tmp_path):
    scripts = happy_scripts()
    scripts["answer_validator"] = [validated("South has the highest mean price (21.0), 3.3x east's 6.0; growth 14.2%.")]
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    # A ratio the model worked out itself (3.3x) and an invented growth are untraced: the ask is not answered.
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "3.3x", "14.2%")
    final = record["final_answer"]
    assert final["untraced_numbers"] == ["3.3x", "14.2%"] and final["confidence"] == "low"
    assert not final["asks"][0]["answered"] and final["asks"][0]["traced"] == ["21.0", "6.0"]


async def test_orchestrated_validator_returning_junk_leaves_no_answer(tmp_path):
    scripts = happy_scripts()
    scripts["answer_validator"] = [text("I think it is fine"), text("{"), text("null")]
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE, "no answer was validated")
    assert record["final_answer"]["valid"] is False and record["final_answer"]["confidence"] == "low"


async def test_coder_that_never_runs_code_cannot_complete_an_orchestrated_run(tmp_path):
    scripts = happy_scripts()
    scripts["coding_agent"] = [text("Audit done: 6 rows."), text("Means: north 11.0, south 21.0, east 6.0.")]
    scripts["stage_reflector"] = [no_change(), no_change()]
    outcome, _ = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    record = assert_outcome(outcome, RunStatus.INCOMPLETE)
    assert "no code ran" in outcome.reason or "not met" in outcome.reason
    assert record["final_answer"]["confidence"] == "low"

