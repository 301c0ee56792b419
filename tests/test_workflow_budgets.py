"""A budget reached mid-run stops it cleanly: status incomplete with the reason, and a report still written."""

from __future__ import annotations

import json

import pytest

from agentic_ds.config.settings import ModelOptions, Settings
from agentic_ds.testing.harness import run_scripted
from tests.workflow_scripts import happy_scripts, write_sales

TASK = "Which region has the highest mean price?"


@pytest.mark.parametrize(
    "budgets, reason",
    [
        ({"max_llm_calls": 6}, "max LLM calls (6)"),
        ({"max_tokens": 700}, "max tokens (700)"),
    ],
)
async def test_budget_stops_the_run_with_an_honest_status_and_a_report(tmp_path, budgets, reason):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts, settings=Settings(budgets=budgets))
    assert outcome.status == "incomplete"
    assert "budget reached" in outcome.reason and reason in outcome.reason
    run = outcome.workspace.root
    record = json.loads((run / "run.json").read_text())
    assert record["status"] == "incomplete" and "budget reached" in record["reason"]
    report = (run / "report.md").read_text()
    assert "`incomplete`" in report
    # the summary agent may still write the report after the budget is reached
    assert models["summary_agent"].requests, "the report writer was not allowed to run"
    assert (run / "report.html").is_file()


async def test_cost_budget_uses_the_model_prices(tmp_path):
    """A priced model (fake price: $0.01 per 1k tokens) hits --max-cost; the offline/scripted ones cost 0."""
    csv = write_sales(tmp_path / "data")
    priced = ModelOptions.model_validate({"price_per_mtok": [10, 10]})
    settings = Settings(budgets={"max_cost_usd": 0.005}, model_options={"scripted": priced})
    outcome, _ = await run_scripted(tmp_path, TASK, [csv], happy_scripts(), settings=settings)
    assert outcome.status == "incomplete"
    assert "max cost ($0.01)" in outcome.reason or "max cost" in outcome.reason
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert record["cost"]["total_usd"] >= 0.005
