"""Cost through the real LiteLLM path against the fault server on 127.0.0.1 (which reports usage, cached tokens
too): a model with no known price is said to be unpriced, `--max-cost` is refused for it before anything is
created, a price set in agentic-ds.yaml makes `--max-cost` stop the run, and every figure agrees."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import yaml
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.errors import EXIT_INCOMPLETE
from tests.fault_runs import FAST_CALLS, CliRun, assert_consistent, run_cli
from tests.ledger_checks import assert_one_ledger
from tests.support.fault_server import FaultServer

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

LOCAL = "openai/my-local-thing"


def test_a_model_with_no_known_price_is_said_on_the_first_line_and_its_calls_still_agree(tmp_path):
    with FaultServer(cached_tokens=4) as server:
        run = run_cli(tmp_path, server.url, model=LOCAL)
    assert_consistent(run, "completed", 0)
    first = run.stdout.splitlines()[0]
    assert first.startswith("models: ") and f"price unknown for {LOCAL}" in first
    assert f"model_options.{LOCAL}.price_per_mtok" in first
    record = run.record
    assert record["cost"]["unpriced"] == [LOCAL] and record["cost"]["by_model"][LOCAL]["usd"] is None
    totals = assert_one_ledger(record, run.report_md, policy_calls=True)
    assert totals["calls"] == len(server.seen)              # nothing retried: one answered call per request
    assert totals["cached_tokens"] == 4 * totals["calls"]   # what the server said it read from its cache
    assert f"No price is known for {LOCAL}" in run.report_md


def test_max_cost_with_an_unpriced_model_is_refused_before_anything_is_created(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "sales.csv").write_text("region,price\nnorth,10\n", encoding="utf-8")
    config = tmp_path / "agentic-ds.yaml"
    config.write_text(yaml.safe_dump({"model_options": {LOCAL: {"api_base": "http://127.0.0.1:9/v1"}}}))
    workdir = tmp_path / "runs"
    result = CliRunner().invoke(main, ["run", "--mode", "simple", "Mean price", "--files", str(data), "--workdir",
                                       str(workdir), "--model", LOCAL, "--config", str(config), "--max-cost", "1"])
    assert result.exit_code == 2, result.output
    assert f"no price is known for {LOCAL}" in result.stderr
    assert f"hint: set model_options.{LOCAL}.price_per_mtok" in result.stderr
    assert not workdir.exists() or not any(workdir.iterdir())


PRICE = {"price_per_mtok": [2000, 4000]}   # $2,000 per million input tokens: the offline brain's prompts pass $0.05


@dataclass
class Stopped:
    server: FaultServer
    run: CliRun
    requests: int      # what the server had answered when the run stopped


@pytest.fixture(scope="module")
def stopped_by_cost(tmp_path_factory) -> Iterator[Stopped]:
    """One run stopped by `--max-cost` under a price from the config: checked as it ended, then resumed (the
    run's figures are read when it ends, so the two tests do not depend on their order)."""
    with FaultServer() as server:
        run = run_cli(tmp_path_factory.mktemp("priced"), server.url, model=LOCAL, options=PRICE,
                      extra=("--max-cost", "0.05"))
        yield Stopped(server, run, len(server.seen))


def test_a_price_set_in_the_config_is_used_and_max_cost_stops_the_run_incomplete(stopped_by_cost):
    run = stopped_by_cost.run
    assert_consistent(run, "incomplete", EXIT_INCOMPLETE)
    assert "budget reached: max cost ($0.05)" in run.record["reason"]
    assert "price unknown" not in run.stdout.splitlines()[0]
    record = run.record
    assert record["cost"]["unpriced"] == []
    totals = assert_one_ledger(record, run.report_md, policy_calls=True)
    expected = (totals["input_tokens"] * 2000 + totals["output_tokens"] * 4000) / 1e6
    assert record["cost"]["total_usd"] == pytest.approx(expected, abs=1e-6) and expected >= 0.05
    assert stopped_by_cost.requests < 40   # it stopped early, not at the end of the analysis


def test_the_resumed_run_s_cost_adds_the_earlier_attempt_s(tmp_path, stopped_by_cost):
    """Stopped by --max-cost, resumed with a larger one: run.json's ledger and cost cover both attempts."""
    server, first, requests_before = stopped_by_cost.server, stopped_by_cost.run, stopped_by_cost.requests
    assert first.record["status"] == "incomplete"
    before = first.record["tokens"]
    config = {"model_options": {LOCAL: {"api_base": server.url, **PRICE}}, "calls": FAST_CALLS}
    (tmp_path / "agentic-ds.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(first.run_dir), "--config", str(tmp_path / "agentic-ds.yaml"),
                                       "--max-cost", "1000"], catch_exceptions=False)
    record = json.loads((first.run_dir / "run.json").read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert record["status"] in ("completed", "completed_with_warnings"), record["reason"]
    report = (first.run_dir / "report.md").read_text(encoding="utf-8")
    totals = assert_one_ledger(record, report, policy_calls=True)
    resumed_requests = len(server.seen) - requests_before
    assert resumed_requests > 0 and totals["calls"] == before["llm_calls"] + resumed_requests
    assert totals["input_tokens"] > before["input"]
    expected = (totals["input_tokens"] * 2000 + totals["output_tokens"] * 4000) / 1e6
    assert record["cost"]["total_usd"] == pytest.approx(expected, abs=1e-6)
    assert record["cost"]["total_usd"] > first.record["cost"]["total_usd"]


def test_with_compaction_and_retries_the_ledger_still_agrees_with_the_calls_block(tmp_path):
    """The compactor's summaries are model calls too (they made run.json's tokens and cost disagree); retried
    requests are one answered call each. A budget this small makes a messy run (loops, failed stages): the
    figures must agree all the same."""
    from tests.support.fault_server import Rule, Status

    with FaultServer([Rule(Status(503, "overloaded"), agent="coding_agent", times=1)]) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated", context={"budget_tokens": 3000})
    assert run.record["status"] != "running" and run.calls["retries"] == 1
    assert run.record["context"].get("compactions", 0) > 0, run.record["context"]
    totals = assert_one_ledger(run.record, run.report_md, policy_calls=True)
    assert totals["calls"] == len(server.seen) - 1
    assert "compactor" in run.record["agents"]


def test_a_first_call_that_fails_counts_no_call_anywhere(tmp_path):
    """The call never answered: run.json's tokens, agents, cost and calls block all say 0 answered calls."""
    from tests.support.fault_server import Rule, Status

    with FaultServer([Rule(Status(401, "key revoked"), times=None)]) as server:
        run = run_cli(tmp_path, server.url, model=LOCAL)
    assert_consistent(run, "failed", 1)
    assert len(server.seen) == 1 and run.calls["calls"] == 0 and run.calls["failures"] == 1
    record = run.record
    assert record["tokens"]["llm_calls"] == 0 and record["ledger"] == []
    assert sum(m["calls"] for m in record["cost"]["by_model"].values()) == 0
    assert sum(a["llm_calls"] for a in record["agents"].values()) == 0
