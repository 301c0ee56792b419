"""What a task asks for, read in code; and a plan's criteria made to cover every ask."""

from __future__ import annotations

import pytest

from agentic_ds.offline.addressing import addresses, cover
from agentic_ds.offline.task_parts import MAX_ASKS, extract_asks
from agentic_ds.offline.wording import Mentions, sentences
from agentic_ds.schema import CriterionRecord
from tests.evidence_support import assert_linear

MACRO = "How did unemployment relate to inflation and real GDP growth over 1959-2009?"


def kinds(task: str) -> list[tuple[str, str]]:
    return [(ask.kind, ask.text) for ask in extract_asks(task)]


def test_the_macro_question_asks_two_relations_and_a_period():
    assert kinds(MACRO) == [
        ("relation", "how unemployment relates to inflation"),
        ("relation", "how unemployment relates to real GDP growth"),
        ("period", "the period 1959-2009"),
    ]


@pytest.mark.parametrize(("task", "expected"), [
    ("What are the mean and standard deviation of price and units?",
     ["the mean of price", "the mean of units", "the standard deviation of price", "the standard deviation of units"]),
    ("Give the minimum, median and maximum age.", ["the minimum of age", "the median of age", "the maximum of age"]),
    ("What is the average salary in each department?", ["the average of salary per department"]),
    ("Which department has the highest median salary?", ["which department has the highest median salary"]),
    ("Which department is most common?", ["which department is most common"]),
    ("Is there a relationship between age, income and spending?",
     ["how age relates to income", "how age relates to spending", "how income relates to spending"]),
    ("What is the Pearson correlation coefficient between years_experience and salary?",
     ["how years_experience relates to salary"]),
    ("Does advertising spend affect sales and profit?",
     ["how advertising spend relates to sales", "how advertising spend relates to profit"]),
    ("What is the effect of discount on units sold in 2020?", ["how discount relates to units sold", "the year 2020"]),
    ("What explains the differences in life_expectancy between countries?", ["what drives life_expectancy"]),
    ("How did inflation change between 1990 and 2000?", ["how inflation changed", "the period 1990-2000"]),
    ("Compare revenue in the North and the South.", ["Compare revenue in the North and the South."]),
    ("Load sales.csv. Then describe it.", ["Load sales.csv. Then describe it."]),
])
def test_asks_of_common_questions(task, expected):
    assert [text for _, text in kinds(task)] == expected


def test_named_answer_values_are_the_asks_with_any_period():
    task = "What was the mean inflation over 1990-2000? Answer as @mean_inflation[value] and @n[value]."
    asks = extract_asks(task)
    assert [(a.kind, a.slot) for a in asks] == [("value", "mean_inflation"), ("value", "n"), ("period", "")]


def test_a_mention_in_other_words_still_addresses_an_ask():
    relation, other, period = extract_asks(MACRO)
    assert addresses(relation, "Unemployment and inflation: Pearson r = -0.21")
    assert addresses(other, "unemployment vs gdp_growth: r = -0.62")        # two of "real GDP growth" suffice
    assert not addresses(other, "The trend of inflation rose by 0.05 per year")
    assert addresses(period, "over 1959 to 2009") and not addresses(period, "since 1990")


def test_a_plan_that_leaves_asks_out_gets_a_criterion_for_each():
    plan = [CriterionRecord(id="c1", text="outputs/02-answer.json states the trend of inflation over year.")]
    criteria, missing = cover(extract_asks(MACRO), plan)
    assert [a.id for a in missing] == ["a1", "a2", "a3"]
    assert [c.id for c in criteria] == ["c1", "c2", "c3", "c4"] and criteria[0].asks == []
    assert [c.asks for c in criteria[1:]] == [["a1"], ["a2"], ["a3"]]
    assert all(c.origin == "asks" and "outputs/" in c.text for c in criteria[1:])
    assert "unemployment" in criteria[1].text and "real GDP growth" in criteria[2].text
    assert "1959-2009" in criteria[3].text


def test_a_plan_that_covers_every_ask_is_kept_as_it_is():
    plan = [CriterionRecord(id="c1", text="outputs/r.json states the correlation of unemployment with inflation"),
            CriterionRecord(id="c2", text="outputs/r.json states the correlation of unemployment with GDP growth"),
            CriterionRecord(id="c3", text="every figure covers 1959 to 2009")]
    criteria, missing = cover(extract_asks(MACRO), plan)
    assert missing == [] and [c.asks for c in criteria] == [["a1"], ["a2"], ["a3"]]


def test_a_task_of_many_questions_keeps_at_most_the_cap():
    task = " ".join(f"What is the mean of column_{i}?" for i in range(200))
    assert len(extract_asks(task)) == MAX_ASKS


@pytest.mark.slow
@pytest.mark.parametrize("shape", [
    MACRO + " ", "relate to a and b and c and d ", "what is the mean of x, y and z ", "which a has the highest b ",
    "a" * 5000 + " ", "1990-2000 since 1990 in 2001 ", "relationship between a, b, c, d, e, f, g ", "x " * 50 + "\n",
    "@slot_name[value] ", "How many rows are there",
])
def test_reading_asks_is_linear(shape):
    assert_linear(extract_asks, shape)


def test_a_two_word_phrase_is_named_by_the_word_that_says_which_thing():
    assert Mentions("mean quantity 5.2").phrase("order quantity")
    assert Mentions("real gdp rose").phrase("real GDP") and Mentions("GDP fell").phrase("real GDP")
    assert not Mentions("the inflation rate was 3%").phrase("unemployment rate")
    assert not Mentions("total bonus 5000").phrase("total salary")
    assert Mentions("GDP growth was 2%").phrase("real GDP growth")
    assert not Mentions("growth was 2%").phrase("real GDP growth")


def test_sentences_end_at_stops_not_at_decimal_points_or_file_names():
    assert sentences("Mean is 0.45 in sales.csv. Why?? ok\nnext; last") == [
        "Mean is 0.45 in sales.csv.", "Why??", "ok", "next;", "last"]
    assert sentences("... ;; ") == []


def test_which_group_has_the_highest_asks_for_the_measure_and_the_direction():
    (ask,) = [a for a in extract_asks("Which department has the highest mean salary?") if a.kind == "extreme"]
    assert addresses(ask, "Engineering has the highest mean salary (81234.5)")
    assert not addresses(ask, "Engineering has the lowest mean salary (51234.5)")
    # A plan's criterion that states every department's mean salary covers it: its values show the highest.
    assert addresses(ask, "outputs/salary.json states the mean salary per department", plan=True)
