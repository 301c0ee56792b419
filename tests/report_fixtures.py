"""Run directories as the workflow leaves them, built by hand for the report and review tests.

`make_run` writes a realistic finished orchestrated run (real PNG figures from matplotlib, a CSV
table, code, cell outputs, plan, profile, run record, the summary agent's report). Tests then
delete or corrupt parts of it to get partial and failed runs.
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

TASK = "Which region has the highest average sales, and is the difference significant?"

AGENT_REPORT = """# Which region sells most?

**Answer: the West has the highest average sale, 412.50, against 301.20 in the East (Welch t = 4.1, p < 0.001).**

## Key findings
- West: mean 412.50 over 1,204 orders; East: mean 301.20 over 1,187 orders.
- The gap of 111.30 is significant (Welch's t-test, p < 0.001).

![Mean sales by region](figures/02-compare-regions-001.png)

## Caveats
- 3.2% of `amount` values were missing and were dropped.
"""

STAGE_CODE = {
    "01-load-and-audit": "import pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\nprint(df.shape)\n"
                         "print(df.isna().sum())\n",
    "02-compare-regions": (
        "import pandas as pd\nfrom scipy import stats\n"
        "df = pd.read_csv('inputs/sales.csv')\n"
        "means = df.groupby('region')['amount'].mean()\n"
        "means.to_csv('outputs/region_means.csv')\n"
        "print(stats.ttest_ind(df[df.region=='West'].amount, df[df.region=='East'].amount, equal_var=False))\n"
    ),
    "03-monthly-trend": "import pandas as pd\ndf = pd.read_csv('inputs/sales.csv', parse_dates=['date'])\n"
                        "df.resample('M', on='dat')\n",
}


@functools.cache
def png_bytes(kind: str = "bar") -> bytes:
    """A real PNG chart, rendered once per test session."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=80)
    if kind == "bar":
        ax.bar(["East", "North", "South", "West"], [301.2, 350.4, 329.9, 412.5], color="#2456a6")
        ax.set_ylabel("mean amount")
        ax.set_title("Mean sales by region")
    else:
        ax.hist([1, 2, 2, 3, 3, 3, 4, 4, 5], bins=5, color="#1f7a3f")
        ax.set_title("Distribution of amount")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return buffer.getvalue()


def _write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def _json(path: Path, data: Any) -> None:
    _write(path, json.dumps(data, indent=2))


def run_record(run_id: str, **overrides: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": run_id,
        "task": TASK,
        "mode": "orchestrated",
        "status": "completed_with_warnings",
        "reason": "Two of three stages were approved; the trend stage failed after 3 attempts.",
        "started_at": "2026-11-22T01:30:00+00:00",
        "ended_at": "2026-11-22T01:31:12.500000+00:00",
        "wall_s": 72.5,
        "models": {"planner": "offline", "coder": "offline", "reviewer": "offline", "summarizer": "offline"},
        "isolation": "bwrap",
        "agents": {
            "plan_maker": {"llm_calls": 1, "input_tokens": 1800, "output_tokens": 420, "wall_s": 0.4},
            "coding_agent": {"llm_calls": 9, "input_tokens": 21000, "output_tokens": 3100, "wall_s": 41.2},
        },
        "cost": {
            "total_usd": 0.0123,
            "by_model": {
                "offline": {"calls": 10, "input_tokens": 22800, "output_tokens": 3520, "usd": 0.0},
                "openai/gpt-4.1-mini": {"calls": 2, "input_tokens": 5000, "output_tokens": 700, "usd": 0.0123},
            },
        },
        "stages": [
            {
                "id": "s1",
                "title": "Load and audit",
                "status": "approved",
                "attempts": 1,
                "dir": "stages/01-load-and-audit",
            },
            {
                "id": "s2",
                "title": "Compare regions",
                "status": "approved",
                "attempts": 2,
                "dir": "stages/02-compare-regions",
            },
            {"id": "s3", "title": "Monthly trend", "status": "failed", "attempts": 3, "dir": "stages/03-monthly-trend"},
        ],
        "criteria": [
            {
                "id": "c1",
                "text": "Mean amount per region computed",
                "met": True,
                "evidence": "outputs/region_means.csv: West 412.50, East 301.20",
            },
            {
                "id": "c2",
                "text": "Monthly trend of sales shown",
                "met": False,
                "evidence": "stage s3 failed: KeyError 'dat'",
            },
        ],
        "warnings": ["Stage 'Monthly trend' failed after 3 attempts."],
        "inputs": ["inputs/sales.csv"],
    }
    record.update(overrides)
    return record


def make_run(root: Path, run_id: str = "20261122-013000-which-region", **record_overrides: Any) -> Path:
    """A finished orchestrated run under `root`; returns its directory."""
    run = root / run_id
    _write(run / "inputs" / "sales.csv", "date,region,amount\n2026-01-03,West,420.5\n2026-01-04,East,300.1\n")
    _json(
        run / "data_profile.json",
        {
            "files": [
                {
                    "path": "inputs/sales.csv",
                    "rows": 2391,
                    "columns": [{"name": "date"}, {"name": "region"}, {"name": "amount"}],
                }
            ]
        },
    )
    _json(
        run / "plan.json",
        {
            "stages": [
                {
                    "id": "s1",
                    "title": "Load and audit",
                    "description": "Load inputs/sales.csv; count rows, types, missing values.",
                    "expected_outputs": [],
                },
                {
                    "id": "s2",
                    "title": "Compare regions",
                    "description": "Mean amount per region; Welch t-test West vs East.",
                    "expected_outputs": ["outputs/region_means.csv"],
                },
                {
                    "id": "s3",
                    "title": "Monthly trend",
                    "description": "Monthly total of amount over date.",
                    "expected_outputs": [],
                },
            ],
            "success_criteria": ["Mean amount per region computed", "Monthly trend of sales shown"],
        },
    )
    _write(run / "plan.md", "# Plan\n1. Load and audit\n2. Compare regions\n3. Monthly trend\n")
    results = {
        "01-load-and-audit": {
            "id": "s1",
            "title": "Load and audit",
            "status": "approved",
            "attempts": 1,
            "summary": "Loaded **2,391** rows and 3 columns; `amount` has 3.2% missing values.",
            "review": "Counts match the profile.",
            "figures": ["figures/01-load-and-audit-001.png"],
            "files": [],
        },
        "02-compare-regions": {
            "id": "s2",
            "title": "Compare regions",
            "status": "approved",
            "attempts": 2,
            "summary": "West mean 412.50 vs East 301.20; Welch t = 4.1, p < 0.001.",
            "review": "Test choice is right for unequal variances.",
            "figures": ["figures/02-compare-regions-001.png"],
            "files": ["outputs/region_means.csv"],
        },
        "03-monthly-trend": {
            "id": "s3",
            "title": "Monthly trend",
            "status": "failed",
            "attempts": 3,
            "summary": "Could not resample: the code used a column that does not exist.",
            "review": "KeyError 'dat' on every attempt.",
            "figures": [],
            "files": [],
        },
    }
    for name, result in results.items():
        stage = run / "stages" / name
        _json(stage / "result.json", result)
        _write(stage / "code.py", STAGE_CODE[name])
        _write(stage / "cell_001.py", STAGE_CODE[name])
        _write(stage / "cell_001.out.txt", "(2391, 3)\n" if name.startswith("01") else "KeyError: 'dat'\n")
    _write(run / "figures" / "01-load-and-audit-001.png", png_bytes("hist"))
    _write(run / "figures" / "02-compare-regions-001.png", png_bytes("bar"))
    _write(run / "outputs" / "region_means.csv", "region,amount\nEast,301.2\nNorth,350.4\nSouth,329.9\nWest,412.5\n")
    _write(run / "analysis.ipynb", json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    _write(run / "events.jsonl", '{"type": "run_started"}\n')
    _write(run / "report.md", AGENT_REPORT)
    _json(run / "run.json", run_record(run_id, **record_overrides))
    return run
