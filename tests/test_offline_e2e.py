"""The whole pipeline with the offline model for every role: a `completed` answer is pandas' answer, and a question
the offline reader cannot read is never `completed`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.testing.harness import make_request
from agentic_ds.workflow.runner import execute_run
from tests.heldout.materialize import macrodata
from tests.offline_support import shop_frame

pytestmark = pytest.mark.slow
EVAL = Path(__file__).resolve().parents[1] / "examples" / "eval"


def write_orders(folder, seed):
    folder.mkdir(parents=True, exist_ok=True)
    frame = shop_frame(seed=seed, n=300)
    path = folder / "orders.csv"
    frame.to_csv(path, index=False)
    return frame, path


def figures(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text.replace(",", ""))]


def run_cli(tmp_path: Path, mode: str, task: str, data: Path) -> tuple[int, dict]:
    args = ["run", "--mode", mode, task, "-f", str(data), "--model", "offline", "--workdir", str(tmp_path / "runs"),
            "--quiet"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    (run,) = (tmp_path / "runs").iterdir()
    return result.exit_code, json.loads((run / "run.json").read_text())


@pytest.mark.sandbox
def test_the_mean_unemployment_rate_of_macrodata_is_answered_and_completed(tmp_path):
    """Issue 18: this simplest direct question once ended `incomplete` after a data description was run instead."""
    data = tmp_path / "macrodata.csv"
    frame = macrodata()
    frame.to_csv(data, index=False)
    code, record = run_cli(tmp_path, "simple", "What is the average unemployment rate (unemp) over the whole period?",
                           data)
    assert (code, record["status"]) == (0, "completed"), record["reason"]
    answer = record["final_answer"]
    assert answer["asks"][0]["answered"] and answer["asks"][0]["evidence"] == ["outputs/02-answer.json"]
    assert any(abs(n - frame["unemp"].mean()) < 5e-5 for n in figures(answer["answer"]))
    assert f"{frame['unemp'].mean():.2f}" == "5.88"
    report = (next((tmp_path / "runs").iterdir()) / "report.md").read_text()
    assert [line for line in report.splitlines() if "Run status:" in line] == [
        f"**Run status:** `completed` - {record['reason']}"]


@pytest.mark.sandbox
async def test_orchestrated_direct_question_gets_the_pandas_numbers(tmp_path):
    frame, csv = write_orders(tmp_path / "data", seed=11)
    task = "What is the median unit price for each region?"
    outcome = await execute_run(make_request(tmp_path, task, [csv]))
    run = outcome.workspace.root
    assert outcome.status == "completed", outcome.reason
    result = json.loads((run / "outputs" / "02-answer.json").read_text())
    expected = frame.groupby("region")["unit_price"].median()
    assert result["by_group"] == pytest.approx(expected.to_dict())
    final = json.loads((run / "run.json").read_text())["final_answer"]
    for region, value in expected.items():
        assert f"{region} {value:g}" in final["answer"]
    plan = json.loads((run / "plan.json").read_text())
    assert [s["title"] for s in plan["stages"]] == ["Audit data quality",
                                                    "Answer: the median of unit_price per region"]
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    assert {"plan_maker", "plan_reviewer", "coding_agent", "code_reviewer", "criteria_checker", "summary_agent"} <= {
        e["author"] for e in events}


@pytest.mark.sandbox
@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("What is the median unit_price of orders placed in March 2023?",
         lambda o: o.loc[(o.order_date.dt.month == 3) & (o.order_date.dt.year == 2023), "unit_price"].median()),
        ("What was the total revenue since May 2023?", lambda o: o.loc[o.order_date >= "2023-05-01", "revenue"].sum()),
        ("How many distinct customers placed an order?", lambda o: o.customer_id.nunique()),
    ],
)
async def test_a_period_or_folder_question_is_answered_with_pandas_figure(tmp_path, task, expected):
    shop = EVAL / "data" / "shop"
    orders = pd.read_csv(shop / "orders.csv", parse_dates=["order_date"])
    outcome = await execute_run(make_request(tmp_path, task, sorted(shop.glob("*.csv")), mode="simple"))
    assert outcome.status == "completed", outcome.reason
    answer = json.loads((outcome.workspace.root / "run.json").read_text())["final_answer"]["answer"]
    want = float(expected(orders))
    assert any(abs(n - want) <= 0.0005 * abs(want) + 0.006 for n in figures(answer)), (want, answer)


@pytest.mark.sandbox
@pytest.mark.parametrize("mode", ["simple", "orchestrated"])
async def test_a_question_it_cannot_read_is_never_completed_and_says_why(tmp_path, mode):
    _, csv = write_orders(tmp_path / "data", seed=13)
    task = "By how much did the average revenue rise between the first and the last week?"
    outcome = await execute_run(make_request(tmp_path, task, [csv], mode=mode))
    assert outcome.status == "incomplete", outcome.reason
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert not any(a["answered"] for a in record["final_answer"]["asks"])
    report = (outcome.workspace.root / "report.md").read_text()
    assert "could not read this question with confidence" in report and "'rise'" in report
    assert [line for line in report.splitlines() if "Run status:" in line] == [
        f"**Run status:** `incomplete` - {outcome.reason}"]


def _anova(frame: pd.DataFrame) -> tuple[float, float]:
    from scipy import stats

    groups = [g["performance_score"].dropna() for _, g in frame.groupby("department")]
    result = stats.f_oneway(*groups)
    return float(result.statistic), float(result.pvalue)


def _chi2(frame: pd.DataFrame) -> tuple[float, float]:
    from scipy import stats

    chi2, p, _dof, _expected = stats.chi2_contingency(pd.crosstab(frame["department"], frame["city"]))
    return float(chi2), float(p)


def _student(frame: pd.DataFrame) -> tuple[float, float]:
    from scipy import stats

    result = stats.ttest_ind(frame.loc[frame.passed == 1, "study_hours"], frame.loc[frame.passed == 0, "study_hours"],
                             equal_var=True)
    return float(result.statistic), float(result.pvalue)


@pytest.mark.sandbox
@pytest.mark.parametrize(
    ("data", "task", "expected"),
    [
        ("employees.csv", "One-way ANOVA of performance_score across department (missing values dropped): give "
         "@F[value] and @differ[yes/no].", lambda f: ("F", "differ", *_anova(f), "yes if p < 0.05")),
        ("employees.csv", "Chi-square test of independence between department and city: @chi2[value] and "
         "@independent[yes/no] (yes if independence is not rejected at alpha = 0.05).",
         lambda f: ("chi2", "independent", *_chi2(f), "yes if p >= 0.05")),
        ("students.csv", "Student's t-test (equal variances assumed) of study_hours between students who passed "
         "(passed = 1) and those who did not (passed = 0): @t[value] and @significant[yes/no].",
         lambda f: ("t", "significant", *_student(f), "yes if p < 0.05")),
    ],
)
async def test_a_test_with_a_yes_no_verdict_is_answered_as_scipy_answers_it(tmp_path, data, task, expected):
    """A yes/no slot gets the verdict its rule defines, 'missing values dropped' drops rows missing a column the
    test uses (performance_score, not bonus), and Student's t-test is pooled with the groups in the order named."""
    frame = pd.read_csv(EVAL / "data" / data)
    statistic_slot, verdict_slot, statistic, p, rule = expected(frame)
    outcome = await execute_run(make_request(tmp_path, task, [EVAL / "data" / data], mode="simple"))
    assert outcome.status == "completed", outcome.reason
    answer = json.loads((outcome.workspace.root / "run.json").read_text())["final_answer"]["answer"]
    got = re.search(rf"@{statistic_slot}\[(-?[\d.]+)\]", answer)
    assert got and abs(float(got.group(1)) - statistic) <= 5e-4 * abs(statistic) + 1e-4, (statistic, answer)
    yes = p < 0.05 if rule.startswith("yes if p <") else p >= 0.05
    assert f"@{verdict_slot}[{'yes' if yes else 'no'}]" in answer, (p, answer)
