"""`agentic-ds run` end to end, in both modes, with models that lie, agree with everything or return junk: the exit
code, the last line, run.json and report.md say what is missing, and never `completed`.

Each run is the real CLI over a real CSV with real executed code; only the models are scripted. A happy run of each
mode ends `completed` (exit 0), so every check below can fail.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import agentic_ds.workflow.runner as runner_module
from agentic_ds.cli.main import main
from agentic_ds.testing.scripted import ScriptedLlm, as_json, call, text
from tests.workflow_scripts import MEANS_CODE, criteria, happy_scripts, no_change, validated, write_sales

TASK = "Which region has the highest mean price?"
INVENTED = "South has the highest mean price (27.5)."
JUNK = [text("sure, looks fine!"), text("{'answer': 21"), text("[]")]


def cli_run(tmp_path: Path, monkeypatch, mode: str, scripts: dict[str, list], *extra: str
            ) -> tuple[int, str, dict, str]:
    """(exit code, last line, run.json, report.md) of `agentic-ds run` with `scripts` as the models."""
    models = {agent: ScriptedLlm(name=agent, script=list(steps)) for agent, steps in scripts.items()}
    scripted = functools.partial(runner_module.execute_run, llm_overrides=models)
    monkeypatch.setattr(runner_module, "execute_run", scripted)
    config = tmp_path / "one-attempt.yaml"
    config.write_text("loops:\n  simple_attempts: 1\n")
    result = CliRunner().invoke(main, [
        "run", "--mode", mode, TASK, "--files", str(write_sales(tmp_path / "data")),
        "--workdir", str(tmp_path / "runs"),
        "--model", "offline", "--config", str(config), "--quiet", *extra], catch_exceptions=False)
    run_dir = next((tmp_path / "runs").iterdir())
    record = json.loads((run_dir / "run.json").read_text())
    return result.exit_code, result.output.strip().splitlines()[-1], record, (run_dir / "report.md").read_text()


def simple(coder: list, validator: list) -> dict[str, list]:
    return {"coding_agent": coder, "answer_validator": validator, "summary_agent": [text("## Answer\nSee below.")]}


def ran_means() -> list:
    return [call("run_python", code=MEANS_CODE), text("Means: north 11.0, south 21.0, east 6.0.")]


def orchestrated(**changes: list) -> dict[str, list]:
    scripts = happy_scripts()
    scripts["stage_reflector"] = [no_change(), no_change()]
    scripts.update(changes)
    return scripts


def everything_met_without_evidence() -> list:
    return [as_json({"criteria": [{"id": "c1", "met": True, "evidence": ""}]})] * 2


CASES = {
    # The final answer quotes a figure no executed code produced.
    "simple-lies-about-numbers": ("simple", lambda: simple(ran_means(), [validated(INVENTED)]),
                                  "the `region` with the highest mean of `price`"),
    "orchestrated-lies-about-numbers": ("orchestrated", lambda: orchestrated(answer_validator=[validated(INVENTED)]),
                                        "the `region` with the highest mean of `price`"),
    # The criteria checker says met, citing a file that is not there, or one that lacks the figure it quotes.
    "checker-cites-a-missing-file": ("orchestrated", lambda: orchestrated(
        criteria_checker=[criteria(True, "outputs/summary.json: south 21.0")] * 2),
     "not verified: outputs/summary.json does not exist"),
    "checker-quotes-a-figure-the-file-lacks": ("orchestrated", lambda: orchestrated(
        criteria_checker=[criteria(True, "outputs/means.csv: south 99.9")] * 2),
     "not verified: 99.9 is not in outputs/means.csv"),
    # Every model agrees with everything: no code ever runs.
    "simple-agrees-no-code": ("simple", lambda: simple([text("South, 21.0: I know this data.")],
                                                       [validated()]), "no code ran"),
    "orchestrated-agrees-no-code": ("orchestrated", lambda: orchestrated(
        coding_agent=[text("Audit done."), text("Means: north 11.0, south 21.0, east 6.0.")],
        criteria_checker=everything_met_without_evidence()), "not met"),
    # Code ran, every reviewer approves, every criterion 'met' with no evidence at all.
    "orchestrated-agrees-no-evidence": ("orchestrated", lambda: orchestrated(
        criteria_checker=everything_met_without_evidence()), "not verified: the evidence cites no file"),
    "simple-validator-agrees-with-nothing-said": ("simple", lambda: simple(
        ran_means(), [validated("Everything looks right.", asks=[])]), "not answered"),
    # The final answer is junk.
    "simple-junk-answer": ("simple", lambda: simple(ran_means(), JUNK), "no answer"),
    "orchestrated-junk-answer": ("orchestrated", lambda: orchestrated(answer_validator=JUNK), "no answer"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_model_that_lies_agrees_or_talks_junk_never_completes_a_run(tmp_path, monkeypatch, case):
    mode, scripts, missing = CASES[case]
    code, last, record, report = cli_run(tmp_path, monkeypatch, mode, scripts())
    assert record["status"] in ("incomplete", "completed_with_warnings", "failed"), record["reason"]
    assert missing in record["reason"], record["reason"]
    assert last.startswith(f"status: {record['status']}") and code == (1 if record["status"] == "failed" else 3)
    assert f"`{record['status']}`" in report and "status: completed " not in last
    final = record["final_answer"]
    assert set(final) >= {"answer", "asks", "confidence", "caveats"} and final["confidence"] != "high"
    if [a["answered"] for a in final["asks"]] == [True]:
        # The answer holds; a criterion did not: the run is not completed and its confidence not high.
        assert not all(c["met"] for c in record["criteria"]) and final["confidence"] == "medium"
    else:
        assert final["confidence"] == "low"
    not_answered = [a for a in final["asks"] if not a["answered"]]
    for ask in not_answered:
        assert ask["why"] and ask["ask"] in report and "**no**" in report
    assert "Confidence rule: high:" in report


@pytest.mark.parametrize("case", ["checker-cites-a-missing-file", "checker-quotes-a-figure-the-file-lacks",
                                  "orchestrated-agrees-no-evidence"])
def test_a_criterion_met_on_evidence_that_does_not_hold_is_set_unmet_and_says_why(tmp_path, monkeypatch, case):
    _mode, scripts, _ = CASES[case]
    _code, _last, record, report = cli_run(tmp_path, monkeypatch, "orchestrated", scripts())
    (criterion,) = record["criteria"]
    assert criterion["met"] is False and "[not verified: " in criterion["evidence"]
    why = {"checker-cites-a-missing-file": "outputs/summary.json does not exist",
           "checker-quotes-a-figure-the-file-lacks": "99.9 is not in outputs/means.csv",
           "orchestrated-agrees-no-evidence": "the evidence cites no file of this run"}[case]
    assert why in criterion["evidence"] and why in " ".join(report.split())


def test_the_lie_is_named_in_run_json_and_the_report(tmp_path, monkeypatch):
    _code, _last, record, report = cli_run(tmp_path, monkeypatch, "simple",
                                           simple(ran_means(), [validated(INVENTED)]))
    final = record["final_answer"]
    assert final["untraced_numbers"] == ["27.5"] and "27.5" in final["asks"][0]["why"]
    assert "`27.5`" in report


def test_junk_leaves_a_structured_answer_that_says_nothing_was_answered(tmp_path, monkeypatch):
    _code, _last, record, report = cli_run(tmp_path, monkeypatch, "orchestrated",
                                           orchestrated(answer_validator=JUNK))
    final = record["final_answer"]
    assert final["answer"] == "" and final["valid"] is False and final["confidence"] == "low"
    assert final["asks"][0]["answered"] is False and "no valid answer" in final["asks"][0]["why"]
    assert "no answer was validated" in final["caveats"][0]


@pytest.mark.parametrize("mode", ["simple", "orchestrated"])
def test_an_honest_run_completes_so_the_checks_above_can_fail(tmp_path, monkeypatch, mode):
    scripts = simple(ran_means(), [validated()]) if mode == "simple" else happy_scripts()
    code, last, record, report = cli_run(tmp_path, monkeypatch, mode, scripts)
    assert (code, record["status"]) == (0, "completed") and last.startswith("status: completed"), record["reason"]
    final = record["final_answer"]
    assert final["confidence"] == "high" and final["asks"][0]["answered"] and "21.0" in final["answer"]
    assert "| yes (computed) |" in report and "Confidence rule: high:" in report


def test_a_run_stopped_before_any_answer_still_says_ask_by_ask_that_nothing_was_answered(tmp_path, monkeypatch):
    code, last, record, report = cli_run(tmp_path, monkeypatch, "orchestrated", happy_scripts(), "--max-llm-calls", "2")
    assert code != 0 and record["status"] != "completed" and not last.startswith("status: completed")
    final = record["final_answer"]
    assert final["answer"] == "" and final["confidence"] == "low"
    assert final["asks"][0]["ask"] == "the `region` with the highest mean of `price`"
    assert not final["asks"][0]["answered"]
    assert "answer was validated" in final["asks"][0]["why"]
    assert "the `region` with the highest mean of `price`" in report
