"""Simple mode with scripted models: one coding pass, mandatory validation, bounded retries."""

from __future__ import annotations

import json

from agentic_ds.testing.harness import run_scripted
from agentic_ds.testing.scripted import as_json, call, text
from tests.workflow_scripts import BROKEN_CODE, MEANS_CODE, write_sales

TASK = "What is the mean price per region?"


def answer(valid: bool, value: str = "South has the highest mean price, 21.0.") -> object:
    return as_json({
        "valid": valid, "answer": value, "confidence": "high" if valid else "low",
        "caveats": [] if valid else ["the code failed: KeyError 'prize'"],
        "reasoning_trace": ["grouped by region", "took the mean of price"], "output_type": "table",
    })


async def test_simple_mode_answers_with_a_validated_structured_answer(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = {
        "coding_agent": [call("run_python", code=MEANS_CODE), text("north 11.0, south 21.0, east 6.0")],
        "answer_validator": [answer(True)],
        "summary_agent": [text("## Answer\nSouth: 21.0")],
    }
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts, mode="simple")
    assert outcome.status == "completed", outcome.reason
    for model in models.values():
        model.assert_complete()
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    final = record["final_answer"]
    assert set(final) >= {"answer", "confidence", "caveats", "reasoning_trace", "output_type"}
    assert final["answer"].endswith("21.0.")
    assert "status: ok" in models["answer_validator"].request_text(0)
    assert "## Mode\nsimple" in models["summary_agent"].request_text(0)
    assert (outcome.workspace.root / "report.md").is_file()


async def test_a_failed_attempt_is_shown_to_the_next_one(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = {
        "coding_agent": [call("run_python", code=BROKEN_CODE), text("tried prize"),
                         call("run_python", code=MEANS_CODE), text("north 11.0, south 21.0, east 6.0")],
        "answer_validator": [answer(False), answer(True)],
        "summary_agent": [text("## Answer\nSouth: 21.0")],
    }
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts, mode="simple")
    assert outcome.status == "completed", outcome.reason
    second_attempt = models["coding_agent"].request_text(2)
    assert "## Earlier attempts" in second_attempt and "KeyError" in second_attempt


async def test_no_valid_answer_within_the_bound_is_reported_honestly(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = {
        "coding_agent": [call("run_python", code=BROKEN_CODE), text("tried")] * 2,
        "answer_validator": [answer(False)] * 2,
        "summary_agent": [text("## Answer\nNo answer could be validated.")],
    }
    from agentic_ds.config.settings import Settings

    outcome, models = await run_scripted(
        tmp_path, TASK, [csv], scripts, mode="simple", settings=Settings(loops={"simple_attempts": 2})
    )
    for model in models.values():
        model.assert_complete()
    assert outcome.status == "failed"
    assert "`failed`" in (outcome.workspace.root / "report.md").read_text()
