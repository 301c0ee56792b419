"""The bundled eval set: reproducible, answers checked against pandas, a grader that cannot be fooled, and the
offline model answering a sample of it end to end."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bench.eval_grading import answer_slots, grade
from bench.offline_eval import run_question

EVAL = Path(__file__).resolve().parents[1] / "examples" / "eval"
KINDS = ("exact", "numeric", "contains", "none")


def manifest() -> list[dict]:
    return [json.loads(line) for line in (EVAL / "manifest.jsonl").read_text().splitlines()]


def question(qid: str) -> dict:
    return next(q for q in manifest() if q["id"] == qid)


def test_generator_rewrites_the_committed_files_byte_for_byte(tmp_path):
    spec = importlib.util.spec_from_file_location("eval_generate", EVAL / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_generate"] = module
    spec.loader.exec_module(module)
    written = module.generate(tmp_path)
    for path in written:
        committed = EVAL / path.relative_to(tmp_path)
        assert path.read_bytes() == committed.read_bytes(), f"{committed} differs from what generate.py writes"


def test_manifest_lines_follow_the_eval_schema_and_cover_every_kind():
    lines = manifest()
    assert 40 <= len(lines) <= 60 and len({q["id"] for q in lines}) == len(lines)
    for q in lines:
        assert set(q) == {"id", "task", "files", "answer", "checker"} and q["checker"] in KINDS
        assert all((EVAL / f).exists() for f in q["files"])
        assert (q["answer"] is None) == (q["checker"] == "none")
        for name in answer_slots(q["task"]):
            assert name in {k.lower() for k in q["answer"] or {}} or q["checker"] == "none", (q["id"], name)
    ids = " ".join(q["id"] for q in lines)
    for kind in ("mean-std", "dropna", "filter", "pearson", "spearman", "kendall", "skew", "kurtosis", "shapiro",
                 "dagostino", "ks", "iqr-outliers", "zscore", "conditional-count", "group", "argmax", "argmin",
                 "derived", "file-choice", "join", "drivers"):
        assert kind in ids, f"no question of kind {kind}"


def test_answers_agree_with_pandas():
    employees = pd.read_csv(EVAL / "data" / "employees.csv")
    assert question("emp-mean-std-salary")["answer"] == {
        "mean_salary": round(employees["salary"].mean(), 2), "std_salary": round(employees["salary"].std(), 2)}
    complete = employees.dropna()
    assert question("emp-bonus-dropna")["answer"]["mean_bonus"] == pytest.approx(complete["bonus"].mean(), abs=0.005)
    experienced = employees.loc[employees["years_experience"] > 10, "salary"].mean()
    assert question("emp-filter-mean")["answer"]["mean_salary"] == pytest.approx(experienced, abs=0.005)
    shop = EVAL / "data" / "shop"
    orders = pd.read_csv(shop / "orders.csv").merge(pd.read_csv(shop / "customers.csv"), on="customer_id")
    premium = orders.loc[orders["segment"] == "Premium", "revenue"].sum()
    assert question("shop-join-filter-sum")["answer"]["premium_revenue"] == pytest.approx(premium, abs=0.005)
    assert question("shop-join-argmax")["answer"]["country"] == orders.groupby("country")["revenue"].sum().idxmax()
    students = pd.read_csv(EVAL / "data" / "students.csv")
    r = stats.pearsonr(students["siblings"], students["exam_score"])[0]
    assert question("stu-pearson-few-levels")["answer"]["r"] == pytest.approx(r, abs=0.0005)
    sensors = pd.read_csv(EVAL / "data" / "sensors.csv")
    assert question("sen-kurtosis")["answer"]["kurtosis"] == pytest.approx(sensors["temperature"].kurt(), abs=0.005)
    assert question("sen-skew-battery")["answer"]["skewness"] == pytest.approx(sensors["battery_pct"].skew(), abs=0.005)
    counts = np.abs(stats.zscore(sensors["temperature"], ddof=1)) > 3
    assert question("sen-zscore-outliers")["answer"]["outliers"] == int(counts.sum())


@pytest.mark.parametrize(
    ("qid", "answer", "right"),
    [
        ("emp-mean-std-salary", "mean 71374.39 sd 17164.15 @mean_salary[71374.39] @std_salary[17164.15]", True),
        ("emp-mean-std-salary", "@mean_salary[71,374.39] and @std_salary[17164.149]", True),
        ("emp-mean-std-salary", "@std_salary[17164.15] only", False),
        ("emp-mean-std-salary", "@mean_salary[71374.39] @std_salary[18000]", False),
        ("emp-mean-std-salary", "The mean is 71374.39 and the SD 17164.15.", False),  # the format was asked for
        ("emp-argmax-median", "@department[Engineering]", True),
        ("emp-argmax-median", "@department[Engineering or Finance]", False),
        ("cty-argmin-group", "Americas has the lowest mean life expectancy.", True),
        ("cty-argmin-group", "Oceania has the lowest mean life expectancy.", False),
        (
            "emp-group-mean",
            "Engineering 80333.51; Finance 75346.32; Marketing 68367.18; Sales 67758.5; Support 63764.37",
            True,
        ),
        (
            "emp-group-mean",
            "Engineering 80333.51; Finance 75346.32; Marketing 68367.18; Sales 63764.37; Support 67758.5",
            False,
        ),
        ("cty-correlation", "r = 0.638 (p < 0.001)", True),
        ("cty-correlation", "r = 0.7", False),
        ("emp-drivers", "anything at all", None),
    ],
)
def test_the_grader_accepts_right_answers_and_refuses_wrong_or_unformatted_ones(qid, answer, right):
    assert grade(question(qid), answer) is right


@pytest.mark.slow
@pytest.mark.parametrize("qid", ["emp-mean-std-salary", "stu-pearson-few-levels", "sen-shapiro", "shop-join-argmax",
                                 "shop-file-choice-customers", "cty-derived-argmax", "emp-bonus-dropna"])
async def test_the_offline_model_answers_eval_questions_in_simple_mode(tmp_path, qid):
    item = question(qid)
    status, answer, run = await run_question(item, EVAL, tmp_path, "simple")
    assert status == "completed", answer
    assert grade(item, answer), answer
    result = json.loads((Path(run) / "outputs" / "02-answer.json").read_text())
    # The final answer is the result's answer, then the sentence answering any other ask (a period, say).
    assert result["template"] == "compute_answers" and answer.startswith(result["answer_text"])


@pytest.mark.slow
async def test_a_count_of_another_files_rows_by_a_joined_name_is_answered_in_the_questions_words(tmp_path):
    # Orders per product_name needs orders.csv joined to products.csv; the answer must speak of "orders" (not
    # "rows") to answer the ask, and the caveats must come from the whole profile, not its first page.
    item = question("shop-join-most-orders")
    status, answer, run = await run_question(item, EVAL, tmp_path, "simple")
    assert status == "completed", answer
    assert grade(item, answer) and "highest number of orders" in answer, answer
    record = json.loads((Path(run) / "run.json").read_text())
    assert record["final_answer"]["asks"][0]["answered"] is True
    report = (Path(run) / "report.md").read_text()
    assert "could not be answered" not in report and "joined on `product_id`" in report
