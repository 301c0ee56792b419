"""One check for every run: run.json's usage figures, summed any way, and report.md's cost table agree."""

from __future__ import annotations

import re
from typing import Any

import pytest

_TOTAL_ROW = re.compile(
    r"^\| \*\*Total\*\* \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| \*\*(\$[\d,.]+|-)\*\* \|$", re.MULTILINE
)
_FIGURES = ("calls", "input_tokens", "cached_tokens", "output_tokens")


def _sums(rows: list[dict[str, Any]], calls_key: str = "calls") -> dict[str, int]:
    return {name: sum(row[calls_key if name == "calls" else name] for row in rows) for name in _FIGURES}


def assert_one_ledger(record: dict[str, Any], report_md: str, *, policy_calls: bool) -> dict[str, int]:
    """run.json's `tokens` == the sum over `agents` == over `cost.by_model` == over `ledger`; the cost total is
    the sum of the models' costs; with the call policy, the calls are its answered requests; report.md's Total
    row shows the same figures. Returns the totals."""
    tokens = record["tokens"]
    totals = {"calls": tokens["llm_calls"], "input_tokens": tokens["input"], "cached_tokens": tokens["cached"],
              "output_tokens": tokens["output"]}
    assert totals["calls"] > 0
    assert _sums(list(record["agents"].values()), "llm_calls") == totals
    assert _sums(list(record["cost"]["by_model"].values())) == totals
    assert _sums(record["ledger"]) == totals
    priced = [m["usd"] for m in record["cost"]["by_model"].values() if m["usd"] is not None]
    assert record["cost"]["total_usd"] == pytest.approx(sum(priced), abs=1e-6)
    assert record["cost"]["total_usd"] == pytest.approx(sum(e["usd"] or 0 for e in record["ledger"]), abs=1e-6)
    if policy_calls:
        assert record["calls"]["calls"] == totals["calls"], record["calls"]
    (row,) = _TOTAL_ROW.findall(report_md)
    shown = [int(value.replace(",", "")) for value in row[:4]]
    assert shown == [totals[name] for name in _FIGURES], row
    return totals
