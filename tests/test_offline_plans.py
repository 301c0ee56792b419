"""Plans: the offline planner's plans from a real profile, and parsing plans written by anyone."""

from __future__ import annotations

import json

import pytest

from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.methods import read_method
from agentic_ds.offline.plan_markdown import parse_plan
from agentic_ds.offline.plan_roles import review_plan
from agentic_ds.offline.planner import make_plan
from agentic_ds.offline.profile import profile_from_json, salvage_profile
from agentic_ds.profiling import DataProfile
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
    root, _, _ = make_run_dir(tmp_path_factory.mktemp("run"))
    return profile_from_json(json.loads((root / "data_profile.json").read_text()))


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
    plan = make_plan(parse_intent("What is the median revenue per region?"), profile, library)
    assert [s.method.template for s in plan.steps] == ["quality_audit", "statistic"]
    answer = plan.steps[1].method
    assert answer.params["column"] == "revenue" and answer.params["group_col"] == "region"
    assert answer.params["stat"] == "median" and answer.params["data_path"] == "inputs/orders.csv"
    assert plan.steps[0].method.params["id_cols"] == ["order_id"]   # store_id repeats: not a unique id


def test_own_plan_round_trips_through_markdown_with_its_methods(library, profile):
    plan = make_plan(parse_intent("Is revenue different between online and in-store?"), profile, library)
    parsed = parse_plan(plan.markdown("Is revenue different between online and in-store?"))
    assert len(parsed.stages) == 2 and len(parsed.success_criteria) == 2
    method = read_method(parsed.stages[1].description)
    assert (method.skill, method.template) == ("group-comparisons", "compare_groups")
    assert method.params["value_col"] == "revenue" and method.params["group_col"] == "sales_channel"
    assert parsed.stages[1].expected_outputs[0] == "outputs/02-answer.json"
    assert "outputs/02-answer.json" in parsed.success_criteria[1]


def test_open_task_plan_fits_the_column_types(library, profile):
    plan = make_plan(parse_intent("Explore the data and tell me about revenue"), profile, library)
    templates = [s.method.template for s in plan.steps]
    assert templates[:2] == ["quality_audit", "describe"]
    assert {"trend_seasonality", "compare_groups", "correlation_matrix"} <= set(templates)
    trend = next(s.method for s in plan.steps if s.method.template == "trend_seasonality")
    assert trend.params["value_col"] == "revenue" and trend.params["date_col"] == "order_date"
    assert len(plan.steps) <= 6


def test_a_drivers_task_checks_structure_time_and_every_dimension_before_a_model(library, profile):
    plan = make_plan(parse_intent("Explore the data and tell me what drives revenue"), profile, library, max_stages=12)
    templates = [s.method.template for s in plan.steps]
    assert templates == ["quality_audit", "identity_check", "trend_seasonality", "dimension_breakdown", "driver_model"]
    dimensions = plan.steps[3].method.params["dimensions"]
    assert {"region", "sales_channel", "product_category"} <= set(dimensions)
    assert "revenue" not in plan.steps[4].method.params["features"]


def test_unanswerable_question_falls_back_to_exploring_and_says_why(library, profile):
    plan = make_plan(parse_intent("What is the average temperature?"), profile, library)
    assert any("temperature" in note for note in plan.notes)
    assert plan.steps[1].method.template == "describe"


def test_reviewer_flags_unknown_columns_and_uncovered_questions(profile):
    plan = (
        "## Stages\n### Stage 1: Means\nMean of `unit_prise` by `region`.\nExpected outputs: outputs/a.json\n"
        "## Success criteria\n- outputs/a.json has means\n"
    )
    problems = review_plan(plan, "What is the average unit price?", profile)
    assert any("`unit_prise` is not a column" in p for p in problems)
    assert any("No stage uses `unit_price`" in p for p in problems)
    assert review_plan(plan.replace("unit_prise", "unit_price"), "What is the average unit price?", profile) == []


def test_the_offline_model_reads_the_profilers_own_records(tmp_path):
    root, frame, _ = make_run_dir(tmp_path)
    document = json.loads((root / "data_profile.json").read_text())
    profile = profile_from_json(document)
    assert profile == DataProfile.from_json(document)
    channel = profile.files[0].column("sales_channel")
    assert channel.distinct == 2 and {v for v, _ in channel.top_values} == {"online", "in-store"}
    document["files"][0]["columns"][0]["added_by_a_newer_profiler"] = 1      # unknown fields do not break it
    document["files"][0]["encoding"] = "utf-8"
    assert [c.name for c in profile_from_json(document).files[0].columns] == list(frame.columns)


def test_a_cut_profile_file_still_yields_its_whole_columns(tmp_path):
    root, _, _ = make_run_dir(tmp_path)
    text = (root / "data_profile.json").read_text()
    full = profile_from_json(json.loads(text)).files[0].columns
    cut = salvage_profile(text[: len(text) // 2])
    names = [c.name for c in cut.files[0].columns]
    assert cut.files[0].path == "inputs/orders.csv" and cut.files[0].rows == 360
    assert 0 < len(names) < len(full) and names == [c.name for c in full[: len(names)]]
    assert cut.files[0].columns[0] == full[0]
