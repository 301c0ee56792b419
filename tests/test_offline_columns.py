"""Matching the words of a question to real column names."""

from __future__ import annotations

import pytest

from agentic_ds.offline.columns import match_column, mentioned_columns, words
from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.question import bind_question
from tests.offline_support import col as Column
from tests.offline_support import data_file as DataFile

COLUMNS = (
    Column("order_id", "id", distinct=400),
    Column("OrderDate", "datetime"),
    Column("Region", "categorical", distinct=4, top_values=("North", "South", "East", "West")),
    Column("sales_channel", "categorical", distinct=2, top_values=("online", "in-store")),
    Column("unit_price", "numeric"),
    Column("revenue", "numeric"),
    Column("units", "numeric"),
    Column("delivery_days", "numeric"),
    Column("store_id", "numeric", distinct=12),
)
DATA = DataFile("inputs/orders.csv", 400, COLUMNS)


def test_words_split_snake_camel_and_plurals():
    assert words("unitPrice") == ["unit", "price"]
    assert words("Unit_Prices") == ["unit", "price"]
    assert words("OrderDate") == ["order", "date"]


@pytest.mark.parametrize(
    ("phrase", "kinds", "expected", "how"),
    [
        ("unit price", ("numeric",), "unit_price", "exact"),
        ("UNIT_PRICE", (), "unit_price", "exact"),
        ("region", (), "Region", "exact"),
        ("price", ("numeric",), "unit_price", "tokens"),
        ("delivery time", ("numeric",), "delivery_days", "tokens"),
        ("sales", ("numeric",), "revenue", "synonym"),
        ("revenu", ("numeric",), "revenue", "tokens"),
        ("reveneu", ("numeric",), "revenue", "spelling"),
    ],
)
def test_match_column(phrase, kinds, expected, how):
    match = match_column(phrase, COLUMNS, kinds=kinds)
    assert match is not None and (match.name, match.how) == (expected, how)


def test_a_direct_token_match_beats_a_synonym():
    columns = (Column("sales", "numeric"), Column("revenue", "numeric"))
    assert match_column("sales", columns).name == "sales"


def test_no_match_returns_none():
    assert match_column("temperature", COLUMNS, kinds=("numeric",)) is None


def test_ambiguous_match_names_the_rivals_in_its_caveat():
    columns = (Column("list_price", "numeric"), Column("sale_price", "numeric"))
    match = match_column("price", columns)
    assert match.name == "list_price" and match.rivals == ("sale_price",)
    assert "also possible: `sale_price`" in match.caveat("price")


def test_mentioned_columns_in_order():
    assert [c.name for c in mentioned_columns("compare revenue by sales channel and region", COLUMNS)] == [
        "revenue", "sales_channel", "Region"]


def test_bind_question_to_columns_and_groups():
    q = bind_question(parse_intent("median revenue by region"), DATA)
    assert (q.target, q.group, q.problem) == ("revenue", "Region", "")
    q = bind_question(parse_intent("Is revenue different between online and in-store?"), DATA)
    assert (q.target, q.group, q.group_values) == ("revenue", "sales_channel", ("online", "in-store"))
    q = bind_question(parse_intent("How has revenue trended over time?"), DATA)
    assert (q.target, q.time) == ("revenue", "OrderDate")
    q = bind_question(parse_intent("How many distinct stores are there?"), DATA)
    assert q.target == "store_id"


def test_paraphrase_is_reported_as_a_caveat():
    q = bind_question(parse_intent("What is the average price?"), DATA)
    assert q.target == "unit_price"
    assert q.caveats == ['"price" was taken to mean the column `unit_price`.']


def test_unknown_column_makes_the_question_unanswerable():
    q = bind_question(parse_intent("What is the average temperature?"), DATA)
    assert not q.answerable and "temperature" in q.problem


STAFF = DataFile("inputs/staff.csv", 800, (
    Column("employee_id", "id", distinct=800),
    Column("department", "categorical", distinct=4, top_values=("Engineering", "Sales", "Support", "Marketing")),
    Column("annual_salary", "numeric"),
    Column("years_experience", "numeric"),
    Column("remote", "boolean", distinct=2, top_values=("yes", "no")),
    Column("performance_score", "numeric", distinct=5),
))


@pytest.mark.parametrize(
    ("task", "statistic", "target"),
    [
        ("How many departments are there?", "nunique", "department"),
        ("What is the number of departments?", "nunique", "department"),
        ("How many employees are there?", "count", "employee_id"),
        ("How many rows are there?", "count", ""),
        ("How many department values are there?", "count", "department"),
    ],
)
def test_counting_a_categorical_plural_counts_its_levels(task, statistic, target):
    q = bind_question(parse_intent(task), STAFF)
    assert (q.intent.statistic, q.target, q.problem) == (statistic, target, "")


def test_most_common_binds_to_the_named_column():
    q = bind_question(parse_intent("Which department is most common?"), STAFF)
    assert (q.intent.kind, q.target, q.problem) == ("top_values", "department", "")


@pytest.mark.parametrize("verb", ["earn", "get paid", "make"])
def test_pay_words_find_the_salary_column_and_the_named_two_level_group(verb):
    q = bind_question(parse_intent(f"Do remote employees {verb} more than non-remote ones?"), STAFF)
    assert (q.target, q.group, q.group_values, q.problem) == ("annual_salary", "remote", (), "")
    assert any("annual_salary" in caveat for caveat in q.caveats)   # a paraphrase is always reported


def test_a_pay_synonym_yields_to_a_column_named_directly():
    columns = (Column("wage", "numeric"), Column("salary", "numeric"), Column("remote", "boolean", distinct=2))
    q = bind_question(
        parse_intent("Do remote employees earn more than non-remote ones?"), DataFile("x.csv", 10, columns)
    )
    assert q.target in ("salary", "wage") and q.caveats
    named = bind_question(
        parse_intent("Is wage higher for remote than non-remote staff?"), DataFile("x.csv", 10, columns)
    )
    assert (named.target, named.group, named.caveats) == ("wage", "remote", [])


def test_comparison_of_named_levels_binds_their_column():
    q = bind_question(parse_intent("Do engineering employees earn more than sales employees?"), STAFF)
    assert (q.target, q.group, q.group_values) == ("annual_salary", "department", ("Engineering", "Sales"))
