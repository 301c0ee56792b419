"""The offline model's reading of a task: direct questions by kind, and the goals of open tasks."""

from __future__ import annotations

import pytest

from agentic_ds.offline.intent import parse_intent


@pytest.mark.parametrize(
    ("task", "statistic", "target", "group"),
    [
        ("What is the average unit price?", "mean", "unit price", ""),
        ("median revenue by region", "median", "revenue", "region"),
        ("How many distinct stores are there?", "nunique", "stores", ""),
        ("What's the standard deviation of units sold?", "std", "units sold", ""),
        ("What is the total sales per store?", "sum", "sales", "store"),
        ("How many missing values are in the discount column?", "missing", "discount column", ""),
        ("What is the maximum order value?", "max", "order", ""),
        ("Minimum delivery time for each region", "min", "delivery time", "region"),
        ("How many rows are there?", "count", "", ""),
    ],
)
def test_statistic_questions(task, statistic, target, group):
    intent = parse_intent(task)
    assert (intent.kind, intent.statistic, intent.target_text, intent.group_text) == (
        "statistic",
        statistic,
        target,
        group,
    )


@pytest.mark.parametrize(
    ("task", "percentile"),
    [("90th percentile of delivery time", 90.0), ("What is the p95 of revenue?", 95.0),
     ("What is the upper quartile of price?", 75.0), ("lower quartile of price", 25.0)],
)
def test_percentiles(task, percentile):
    intent = parse_intent(task)
    assert intent.statistic == "percentile" and intent.percentile == percentile


def test_which_group_ranks_highest():
    intent = parse_intent("Which region has the highest average revenue?")
    assert (intent.kind, intent.statistic, intent.target_text, intent.group_text, intent.extreme) == (
        "statistic", "mean", "revenue", "region", "max")
    lowest_sales = parse_intent("Which store has the lowest sales?")
    assert (lowest_sales.statistic, lowest_sales.group_text, lowest_sales.extreme) == ("sum", "store", "min")


@pytest.mark.parametrize(
    "task",
    ["correlation between discount and units", "Is there a relationship between discount and units?",
     "Does discount correlate with units?", "Is discount correlated with units?"],
)
def test_correlations(task):
    intent = parse_intent(task)
    assert (intent.kind, intent.target_text, intent.second_text) == ("correlation", "discount", "units")


def test_comparison_between_named_groups():
    intent = parse_intent("Is revenue different between online and in-store?")
    assert (intent.kind, intent.target_text, intent.group_values) == ("comparison", "revenue", ("online", "in-store"))


def test_comparison_across_a_column():
    intent = parse_intent("Compare revenue across regions")
    assert (intent.kind, intent.target_text, intent.group_text, intent.group_values) == (
        "comparison",
        "revenue",
        "regions",
        (),
    )


@pytest.mark.parametrize(
    ("task", "target", "top_n"),
    [("most common product category", "product category", 5), ("What is the most frequent region?", "region", 5),
     ("Top 3 products", "products", 3)],
)
def test_top_values(task, target, top_n):
    intent = parse_intent(task)
    assert (intent.kind, intent.target_text, intent.top_n) == ("top_values", target, top_n)


@pytest.mark.parametrize(
    "task", ["How has revenue trended over time?", "What is the trend of revenue?", "monthly revenue over time"]
)
def test_trends(task):
    intent = parse_intent(task)
    assert (intent.kind, intent.target_text) == ("trend", "revenue")


def test_open_tasks_get_goals_from_their_words():
    assert parse_intent("Predict churn from usage").goals == ("audit", "descriptive", "predictive")
    growth = parse_intent("Which region's sales grow fastest, and why?")
    assert growth.kind == "open"
    assert {"trends", "relationships", "group_comparisons"} <= set(growth.goals)


def test_generic_exploration_asks_for_every_analysis_and_wins_over_statistic_words():
    intent = parse_intent("Explore this dataset and tell me what drives total revenue")
    assert intent.kind == "open"
    assert intent.goals[:2] == ("audit", "descriptive")
    assert {"relationships", "group_comparisons", "trends", "distributions"} <= set(intent.goals)


@pytest.mark.parametrize(
    ("task", "statistic", "target"),
    [
        ("How many departments are there?", "count", "departments"),
        ("number of distinct departments", "nunique", "departments"),
        ("How many different regions are there?", "nunique", "regions"),
    ],
)
def test_counting_a_plural_noun_keeps_its_words_for_binding(task, statistic, target):
    intent = parse_intent(task)
    assert (intent.kind, intent.statistic, intent.target_text) == ("statistic", statistic, target)


@pytest.mark.parametrize(
    "task",
    ["Which department is most common?", "What is the most common department?", "most popular department",
     "Which department is the most frequent?", "Which department appears most often?"],
)
def test_most_common_questions_are_top_values(task):
    intent = parse_intent(task)
    assert (intent.kind, intent.target_text) == ("top_values", "department")


@pytest.mark.parametrize(
    ("task", "target", "group", "values"),
    [
        ("Do remote employees earn more than non-remote ones?", "earn", "remote employees", ()),
        ("Are remote workers paid less than not remote workers?", "paid", "remote workers", ()),
        ("Do senior staff have higher ratings than the others?", "ratings", "senior staff", ()),
        ("Is salary higher for remote than non-remote employees?", "salary", "remote", ()),
        ("Does salary differ between managers and engineers?", "salary", "", ("managers", "engineers")),
        ("Do engineering employees earn more than sales employees?", "earn", "", ("engineering", "sales")),
        ("Is revenue higher for online than in-store?", "revenue", "", ("online", "in-store")),
    ],
)
def test_comparisons_of_one_group_against_another(task, target, group, values):
    intent = parse_intent(task)
    assert (intent.kind, intent.target_text, intent.group_text, intent.group_values) == (
        "comparison",
        target,
        group,
        values,
    )
