"""The usage ledger: cached tokens recorded and priced as cached, every sum of run.json and the report agreeing,
and a run's usage carried over a resume."""

from __future__ import annotations

import json

import pytest

from agentic_ds.config.settings import ModelOptions, Settings
from agentic_ds.runs.ledger import UsageLedger
from agentic_ds.runs.pricing import Pricing
from agentic_ds.testing.harness import run_scripted
from tests.ledger_checks import assert_one_ledger
from tests.workflow_scripts import happy_scripts, write_sales

pytestmark = pytest.mark.sandbox

TASK = "Mean price by region"
# USD per million tokens: input 10, output 20, cached input 1 (a tenth, as providers price cache reads)
PRICE = {"input": 10, "output": 20, "cached": 1}


def with_cached(scripts: dict[str, list], cached: int) -> dict[str, list]:
    """Every scripted reply reports `cached` of its 100 prompt tokens as read from the provider's cache."""
    for steps in scripts.values():
        for response in steps:
            response.usage_metadata.cached_content_token_count = cached
    return scripts


async def test_cached_tokens_are_recorded_priced_as_cached_and_the_report_shows_the_same_totals(tmp_path):
    csv = write_sales(tmp_path / "data")
    settings = Settings(model_options={"scripted": ModelOptions.model_validate({"price_per_mtok": PRICE})})
    outcome, models = await run_scripted(tmp_path, TASK, [csv], with_cached(happy_scripts(), 60), settings=settings)
    assert outcome.status in ("completed", "completed_with_warnings"), outcome.reason
    run = outcome.workspace.root
    record = json.loads((run / "run.json").read_text())
    scripted = record["cost"]["by_model"]["scripted"]
    calls = sum(len(m.requests) for m in models.values())
    assert scripted["calls"] == calls and scripted["cached_tokens"] == 60 * calls
    assert scripted["input_tokens"] == 100 * calls and scripted["output_tokens"] == 10 * calls
    # 40 uncached at $10, 60 cached at $1, 10 out at $20 per million: $0.00066 a call, not the $0.0012 of uncached
    assert scripted["usd"] == pytest.approx(calls * 0.00066)
    assert record["agents"]["coding_agent"]["cached_tokens"] == 60 * len(models["coding_agent"].requests)
    report = (run / "report.md").read_text()
    totals = assert_one_ledger(record, report, policy_calls=False)
    assert totals["cached_tokens"] == 60 * calls
    assert f"**${calls * 0.00066:.4f}**" in report
    html = (run / "report.html").read_text()
    assert f"{60 * calls:,}" in html and "of them cached" in html


@pytest.mark.parametrize("mode", ["simple", "orchestrated"])
async def test_offline_runs_keep_one_ledger(tmp_path, mode):
    """The offline model reports its own token counts; every sum of run.json and the report agree, at $0."""
    csv = write_sales(tmp_path / "data")
    outcome, _ = await run_scripted(tmp_path, TASK, [csv], {}, mode=mode)
    run = outcome.workspace.root
    record = json.loads((run / "run.json").read_text())
    assert_one_ledger(record, (run / "report.md").read_text(), policy_calls=False)
    assert record["cost"]["total_usd"] == 0 and record["cost"]["unpriced"] == []


def test_an_unpriced_model_is_listed_and_costs_nothing_known_while_priced_ones_are_summed():
    from agentic_ds.schema import RunRecord

    ledger = UsageLedger(Pricing())
    ledger.add("coding_agent", "openai/my-local-thing", calls=2, input_tokens=1000, output_tokens=100)
    ledger.add("plan_maker", "openai/gpt-4.1", calls=1, input_tokens=1_000_000, cached_tokens=500_000,
               output_tokens=0)
    record = RunRecord()
    ledger.into(record, {"coding_agent": 1.5})
    assert record.cost.unpriced == ["openai/my-local-thing"]
    assert record.cost.by_model["openai/my-local-thing"].usd is None
    # LiteLLM's gpt-4.1 prices: $2 per million input tokens, $0.50 per million read from the cache
    assert record.cost.by_model["openai/gpt-4.1"].usd == pytest.approx(1.0 + 0.25)
    assert record.cost.total_usd == pytest.approx(1.25)
    assert record.tokens.llm_calls == 3 and record.tokens.cached == 500_000
    assert record.agents["coding_agent"].wall_s == 1.5

    resumed = UsageLedger(Pricing())
    resumed.preload(record)
    resumed.add("coding_agent", "openai/gpt-4.1", calls=1, input_tokens=1_000_000)
    again = RunRecord()
    resumed.into(again, {})
    assert again.tokens.llm_calls == 4 and again.cost.total_usd == pytest.approx(3.25)
    assert again.cost.unpriced == ["openai/my-local-thing"]   # still unknown after a resume


def test_a_run_json_without_a_ledger_resumes_from_its_per_model_cost():
    """A run written before run.json had a ledger: its cost counts against the budget on resume."""
    from agentic_ds.runs.ledger import EARLIER
    from agentic_ds.schema import RunRecord

    old = RunRecord.model_validate({"cost": {"total_usd": 0.5, "by_model": {
        "openai/gpt-4.1": {"calls": 4, "input_tokens": 100, "output_tokens": 10, "usd": 0.5}}}})
    ledger = UsageLedger(Pricing())
    ledger.preload(old)
    assert ledger.total().usd == 0.5 and ledger.total().calls == 4
    assert list(ledger.by_agent()) == [EARLIER]
