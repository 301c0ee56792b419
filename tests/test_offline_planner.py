"""Plans: the offline planner's plans from a real profile, and parsing plans written by anyone."""

from __future__ import annotations

import pytest

from agentic_ds.offline.planner.markdown import parse_plan
from agentic_ds.offline.planner.plan import plan_for
from agentic_ds.offline.roles.planning import review_plan
from agentic_ds.skills import SkillLibrary
from tests.offline_support import make_run_dir

HUMAN_PLAN = """# Plan: sales analysis

Some intro text about the approach.

1. **Load and audit** the data: check `inputs/sales.csv` for missing values.
   Outputs: outputs/audit.json
2. Compare revenue by region - use ANOVA on `revenue` grouped by `region`.
3. **Trend**: revenue over `order_date`, monthly.

## Success criteria
* outputs/audit.json exists with missing counts
* The report states the mean revenue per region
  with n per group
"""


@pytest.fixture(scope="module")
def library():
    return SkillLibrary.load()


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    return make_run_dir(tmp_path_factory.mktemp("run"))[2]


def test_human_numbered_plan_is_parsed_into_stages_and_criteria():
    plan = parse_plan(HUMAN_PLAN)
    assert [s.title for s in plan.stages] == ["Load and audit", "Compare revenue by region", "Trend"]
    assert plan.stages[0].description == "Load and audit the data: check `inputs/sales.csv` for missing values."
    assert plan.stages[0].expected_outputs == ["outputs/audit.json"]
    assert plan.stages[1].description == "use ANOVA on `revenue` grouped by `region`."
    assert plan.stages[2].description == "revenue over `order_date`, monthly."
    assert plan.success_criteria == [
        "outputs/audit.json exists with missing counts",
        "The report states the mean revenue per region with n per group",
    ]


def test_heading_plan_with_other_separators():
    text = (
        "## Steps\n## Step 1 - Clean\nDrop duplicates.\n**Expected outputs:** outputs/clean.csv\n\n## Step 2 - Model\n"
        "Fit OLS.\n\n## Definition of done\n1. outputs/model.json has R2\n"
    )
    plan = parse_plan(text)
    assert [(s.title, s.description, s.expected_outputs) for s in plan.stages] == [
        ("Clean", "Drop duplicates.", ["outputs/clean.csv"]), ("Model", "Fit OLS.", [])]
    assert plan.success_criteria == ["outputs/model.json has R2"]


def test_text_without_stages_becomes_one_stage():
    plan = parse_plan("Just compute the mean price and report it.")
    assert len(plan.stages) == 1 and plan.stages[0].description.startswith("Just compute")


def test_direct_question_plan_is_an_audit_then_the_bound_answer(library, profile):
    plan = plan_for("What is the median revenue per region?", profile, library)
    assert [s.method.template for s in plan.steps] == ["quality_audit", "compute_answers"]
    answer = plan.steps[1].method.params
    assert answer["asks"] == [{"name": "median_revenue_region", "stat": "median", "column": "revenue",
                               "group": "region"}]
    assert answer["data_path"] == "inputs/orders.csv"
    assert plan.steps[0].method.params["id_cols"] == ["order_id"]   # store_id repeats: not a unique id


def test_own_plan_round_trips_through_markdown_and_the_coder_finds_its_method_again(library, profile):
    task = "What is the mean revenue for online orders?"
    plan = plan_for(task, profile, library)
    text = plan.markdown(task)
    assert "Method:" not in text and "Params:" not in text
    parsed = parse_plan(text)
    assert len(parsed.stages) == 2 and len(parsed.success_criteria) == 2
    again = plan_for(task, profile, library, 20).step_for(parsed.stages[1].title, parsed.stages[1].expected_outputs)
    assert again is not None and again.method == plan.steps[1].method
    assert parsed.stages[1].expected_outputs[0] == "outputs/02-answer.json"
    assert "outputs/02-answer.json" in parsed.success_criteria[1]


def test_open_task_plan_fits_the_column_types(library, profile):
    plan = plan_for("Explore the data and tell me about revenue", profile, library)
    templates = [s.method.template for s in plan.steps]
    assert templates[:2] == ["quality_audit", "describe"]
    assert {"trend_seasonality", "compare_groups", "correlation_matrix"} <= set(templates)
    trend = next(s.method for s in plan.steps if s.method.template == "trend_seasonality")
    assert trend.params["value_col"] == "revenue" and trend.params["date_col"] == "order_date"
    assert len(plan.steps) <= 6


def test_a_drivers_task_checks_structure_time_and_every_dimension_before_a_model(library, profile):
    plan = plan_for("Explore the data and tell me what drives revenue", profile, library, max_stages=12)
    templates = [s.method.template for s in plan.steps]
    assert templates == ["quality_audit", "identity_check", "trend_seasonality", "dimension_breakdown", "driver_model"]
    dimensions = plan.steps[3].method.params["dimensions"]
    assert {"region", "sales_channel", "product_category"} <= set(dimensions)
    assert "revenue" not in plan.steps[4].method.params["features"]


def test_a_question_it_cannot_read_is_described_and_the_plan_says_why(library, profile):
    plan = plan_for("By how much did the average revenue rise from spring to autumn?", profile, library)
    assert any("could not read this question" in note and "'rise'" in note for note in plan.notes)
    assert [s.method.template for s in plan.steps] == ["quality_audit", "describe"]


def test_reviewer_flags_unknown_columns_and_uncovered_questions(profile):
    plan = (
        "## Stages\n### Stage 1: Means\nMean of `unit_prise` by `region`.\nExpected outputs: outputs/a.json\n"
        "## Success criteria\n- outputs/a.json has means\n"
    )
    problems = review_plan(plan, "What is the average unit price?", profile)
    assert any("`unit_prise` is not a column" in p for p in problems)
    assert any("No stage uses `unit_price`" in p for p in problems)
    assert review_plan(plan.replace("unit_prise", "unit_price"), "What is the average unit price?", profile) == []
