"""Periods in a question select rows from the right year or date column, and the answer agrees with pandas.

"orders placed in 2023" once filtered on customers' signup_year (a join the question never asked for), and
"in March 2023" was not read at all: the median of every row was answered as the median of March's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.planner import direct_spec
from agentic_ds.offline.spec import build_spec
from agentic_ds.profiling import profile_inputs
from bench.offline_eval import run_question

EVAL = Path(__file__).resolve().parents[1] / "examples" / "eval"
SHOP = EVAL / "data" / "shop"


@pytest.fixture(scope="module")
def shop():
    return profile_inputs(sorted(SHOP.glob("*.csv")), base=EVAL)


@pytest.mark.parametrize(
    ("task", "column", "op", "value", "joins"),
    [
        ("What is the median unit_price of orders placed in March 2023?", "order_date", "period",
         {"from": "2023-03-01", "to": "2023-04-01"}, []),
        ("How many orders were placed in December 2023?", "order_date", "period",
         {"from": "2023-12-01", "to": "2024-01-01"}, []),
        ("What is the median unit_price of orders placed in 2023?", "order_date", "period",
         {"from": "2023-01-01", "to": "2024-01-01"}, []),
        ("What was the total revenue since May 2023?", "order_date", "period", {"from": "2023-05-01", "to": None}, []),
        ("What was the total revenue before 2024?", "order_date", "period", {"from": None, "to": "2024-01-01"}, []),
        ("What was the total revenue after June 2023?", "order_date", "period", {"from": "2023-07-01", "to": None}, []),
        ("How many customers signed up in 2021?", "signup_year", "==", 2021, []),
        ("What is the mean revenue of customers who signed up in 2021?", "signup_year", "==", 2021,
         ["customers.csv"]),
    ],
)
def test_a_period_filters_the_year_or_date_column_its_words_point_to(shop, task, column, op, value, joins):
    spec = build_spec(task, shop)
    assert spec.answerable, spec.problem
    assert [(f.column, f.op, f.value) for f in spec.filters] == [(column, op, value)]
    assert [Path(j.path).name for j in spec.joins] == joins


def test_a_plain_statistic_keeps_the_whole_reading_when_the_loose_one_names_another_column(shop):
    task = "How many distinct customers placed an order?"
    spec = direct_spec(parse_intent(task), shop)
    assert spec is not None and [(a.stat, a.column) for a in spec.asks] == [("nunique", "customer_id")]
    assert spec.data is not None and spec.data.path.endswith("orders.csv")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("task", "expected"),
    [
        ("What is the median unit_price of orders placed in March 2023?",
         lambda o: o.loc[o.order_date.dt.month == 3, "unit_price"].median()),
        ("What was the total revenue since May 2023?", lambda o: o.loc[o.order_date >= "2023-05-01", "revenue"].sum()),
        ("How many distinct customers placed an order?", lambda o: o.customer_id.nunique()),
    ],
)
async def test_the_offline_answer_to_a_period_question_is_pandas_answer(tmp_path, task, expected):
    orders = pd.read_csv(SHOP / "orders.csv", parse_dates=["order_date"])
    item = {"id": "period", "task": task, "files": ["data/shop"], "answer": None, "checker": "none"}
    status, answer, _ = await run_question(item, EVAL, tmp_path, "simple")
    assert status == "completed", answer
    want = float(expected(orders))
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", answer.replace(",", ""))]
    assert any(abs(n - want) <= 0.0005 * abs(want) + 0.006 for n in numbers), (want, answer)
