"""The whole pipeline with the offline model for every role, on data generated here: the numbers are right."""

from __future__ import annotations

import json

import pytest

from agentic_ds.testing.harness import make_request
from agentic_ds.workflow.runner import execute_run
from tests.offline_support import shop_frame

pytestmark = pytest.mark.slow


def write_orders(folder, seed):
    folder.mkdir(parents=True, exist_ok=True)
    frame = shop_frame(seed=seed, n=300)
    path = folder / "orders.csv"
    frame.to_csv(path, index=False)
    return frame, path


async def test_orchestrated_direct_question_gets_the_pandas_numbers(tmp_path):
    frame, csv = write_orders(tmp_path / "data", seed=11)
    task = "What is the median unit price for each region?"
    outcome = await execute_run(make_request(tmp_path, task, [csv]))
    run = outcome.workspace.root
    assert outcome.status == "completed", outcome.reason
    result = json.loads((run / "outputs" / "02-answer.json").read_text())
    expected = frame.groupby("region")["unit_price"].median()
    assert result["by_group"] == pytest.approx(expected.to_dict())
    assert result["answer_value"] == pytest.approx(frame["unit_price"].median())
    report = (run / "report.md").read_text()
    answer = report.split("## Key findings")[0]
    top = expected.idxmax()
    assert f"Highest is {top} ({expected.max():,.2f}".rstrip("0").rstrip(".") in answer.replace(",", "")
    plan = json.loads((run / "plan.json").read_text())
    assert [s["title"] for s in plan["stages"]] == ["Audit data quality", "Answer: median of unit_price per region"]
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    assert {"plan_maker", "plan_reviewer", "coding_agent", "code_reviewer", "criteria_checker", "summary_agent"} <= {
        e["author"] for e in events}


async def test_simple_mode_answers_with_a_validated_number(tmp_path):
    frame, csv = write_orders(tmp_path / "data", seed=12)
    outcome = await execute_run(
        make_request(tmp_path, "What is the 90th percentile of delivery time?", [csv], mode="simple")
    )
    run = outcome.workspace.root
    assert outcome.status == "completed", outcome.reason
    final = json.loads((run / "run.json").read_text())["final_answer"]
    expected = frame["delivery_days"].quantile(0.9)
    assert final["valid"] is True and final["output_type"] == "number"
    assert f"is {expected:g}" in final["answer"]
    assert any("delivery_days" in caveat for caveat in final["caveats"])   # "delivery time" was a paraphrase


def staff_frame(n: int = 400):
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(7)
    frame = pd.DataFrame({
        "employee_id": range(1, n + 1),
        "department": rng.choice(["Sales", "Engineering", "Support", "Marketing"], n, p=[0.3, 0.35, 0.2, 0.15]),
        "annual_salary": rng.normal(70000, 15000, n).round(0),
        "remote": rng.choice(["yes", "no"], n),
    })
    frame.loc[rng.choice(n, 10, replace=False), "annual_salary"] = np.nan
    return frame


@pytest.mark.parametrize(
    ("task", "expected_text"),
    [
        ("How many departments are there?", lambda f: f"is {f['department'].nunique()} "),
        ("Which department is most common?",
         lambda f: f"is {f['department'].value_counts().idxmax()} ({f['department'].value_counts().max()} of {len(f)}"),
        ("Do remote employees earn more than non-remote ones?",
         lambda f: f"yes {f.groupby('remote')['annual_salary'].mean()['yes']:,.1f}"),
    ],
)
async def test_simple_mode_reads_plain_questions_about_staff(tmp_path, task, expected_text):
    (tmp_path / "data").mkdir()
    frame = staff_frame()
    csv = tmp_path / "data" / "staff.csv"
    frame.to_csv(csv, index=False)
    outcome = await execute_run(make_request(tmp_path, task, [csv], mode="simple"))
    assert outcome.status == "completed", outcome.reason
    final = json.loads((outcome.workspace.root / "run.json").read_text())["final_answer"]
    assert expected_text(frame) in final["answer"], final["answer"]
