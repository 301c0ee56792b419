"""The offline reader: asks, filters, periods, derived columns, files and joins, rounding and answer format, and
whether a question was read with confidence at all.

The questions here are not the eval sets' (examples/eval, tests/heldout): they are other phrasings over the bundled
data, so these tests check that the reading generalises rather than that it memorised a set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_ds.offline.reader import read_question
from agentic_ds.offline.reader.spec import build_spec
from agentic_ds.profiling import profile_inputs

DATA = Path(__file__).resolve().parents[1] / "examples" / "eval" / "data"


@pytest.fixture(scope="module")
def profiles():
    def profile(name: str):
        path = DATA / name
        files = sorted(path.rglob("*.csv")) if path.is_dir() else [path]
        return profile_inputs(files, base=DATA.parent)

    return {
        key: profile(name)
        for key, name in {
            "emp": "employees.csv",
            "sen": "sensors.csv",
            "stu": "students.csv",
            "cty": "countries.csv",
            "shop": "shop",
        }.items()
    }


def asks_of(spec):
    return [(a.stat, a.column, a.second, a.group, a.extreme) for a in spec.asks]


def filters_of(spec):
    return [(f.column, f.op, f.value) for f in spec.filters]


@pytest.mark.parametrize(
    ("data", "task", "asks", "filters"),
    [
        (
            "emp",
            "Calculate the average and median salary for employees older than 50.",
            [("mean", "salary", "", "", ""), ("median", "salary", "", "", "")],
            [("age", ">", 50)],
        ),
        (
            "emp",
            "What's the std of bonus among Mid level staff?",
            [("std", "bonus", "", "", "")],
            [("level", "==", "Mid")],
        ),
        ("emp", "How many employees work remotely?", [("count", "", "", "", "")], [("remote", "==", True)]),
        (
            "emp",
            "Among employees in Oslo, what is the highest salary?",
            [("max", "salary", "", "", "")],
            [("city", "==", "Oslo")],
        ),
        ("emp", "Which city has the lowest average bonus?", [("mean", "bonus", "", "city", "min")], []),
        (
            "emp",
            "Report the correlation of age with salary using Kendall's tau.",
            [("kendall", "age", "salary", "", "")],
            [],
        ),
        (
            "emp",
            "Is the bonus normally distributed? Use the Shapiro-Wilk test.",
            [("shapiro", "bonus", "", "", "")],
            [],
        ),
        (
            "emp",
            "Count the employees with a performance_score of at least 4 in Sales.",
            [("count", "", "", "", "")],
            [("performance_score", ">=", 4), ("department", "==", "Sales")],
        ),
        ("emp", "What proportion of employees are remote?", [("percent", "remote", "", "", "")], []),
        (
            "emp",
            "How many employees have more than 20 years of experience?",
            [("count", "", "", "", "")],
            [("years_experience", ">", 20)],
        ),
        (
            "sen",
            "What is the maximum temperature recorded by sensor C?",
            [("max", "temperature", "", "", "")],
            [("sensor", "==", "C")],
        ),
        (
            "sen",
            "How many pressure values are outliers using 3 times the IQR?",
            [("outliers_iqr", "pressure", "", "", "")],
            [],
        ),
        ("stu", "What share of male students passed?", [("percent", "passed", "", "", "")], [("gender", "==", "male")]),
        ("stu", "Which gender has a higher median study_hours?", [("median", "study_hours", "", "gender", "max")], []),
        (
            "stu",
            "Average sleep_hours of students in class B?",
            [("mean", "sleep_hours", "", "", "")],
            [("class", "==", "B")],
        ),
        (
            "cty",
            "What is the median co2_per_capita of countries with population_m under 10?",
            [("median", "co2_per_capita", "", "", "")],
            [("population_m", "<", 10)],
        ),
        (
            "cty",
            "Which continent has the largest total gdp_billion?",
            [("sum", "gdp_billion", "", "continent", "max")],
            [],
        ),
        (
            "cty",
            "How many countries have population_m between 5 and 20?",
            [("count", "", "", "", "")],
            [("population_m", ">=", 5), ("population_m", "<=", 20)],
        ),
        (
            "emp",
            "What's the average age of employees in the 'Sales' department?",
            [("mean", "age", "", "", "")],
            [("department", "==", "Sales")],
        ),
        (
            "emp",
            "Calculate the proportion of employees whose salary exceeds 80000.",
            [("percent_rows", "", "", "", "")],
            [("salary", ">", 80000)],
        ),
        (
            "emp",
            "What is the total bonus paid to Engineering employees in Oslo?",
            [("sum", "bonus", "", "", "")],
            [("department", "==", "Engineering"), ("city", "==", "Oslo")],
        ),
        (
            "cty",
            "List the country with the highest life_expectancy in Europe.",
            [("mean", "life_expectancy", "", "country", "max")],
            [("continent", "==", "Europe")],
        ),
        (
            "sen",
            "Find the median humidity for readings where the pressure is below 1010.",
            [("median", "humidity", "", "", "")],
            [("pressure", "<", 1010)],
        ),
    ],
)
def test_questions_are_read_into_asks_and_filters(profiles, data, task, asks, filters):
    spec = build_spec(task, profiles[data])
    assert spec.answerable, spec.problem
    assert asks_of(spec) == asks
    assert filters_of(spec) == filters


def test_an_ignore_missing_constraint_filters_rows_and_never_replaces_the_statistic(profiles):
    spec = build_spec("What is the mean bonus, ignoring rows with missing values?", profiles["emp"])
    assert asks_of(spec) == [("mean", "bonus", "", "", "")] and spec.dropna == "used"
    counted = build_spec("How many missing values does bonus have?", profiles["emp"])
    assert asks_of(counted) == [("missing", "bonus", "", "", "")] and counted.dropna is None


def test_method_rounding_and_format_shape_the_asks(profiles):
    spec = build_spec("Use Spearman to correlate age and salary, rounded to 3 decimal places: @rho[value] "
                      "@p_value[value]", profiles["emp"])
    assert asks_of(spec) == [("spearman", "age", "salary", "", "")] and spec.digits == 3
    assert spec.asks[0].slots == {"value": "rho", "p_value": "p_value"}
    ordered = build_spec("Give @std_price[value] and @mean_price[value] for salary.", profiles["emp"])
    assert {a.stat: a.slots["value"] for a in ordered.asks} == {"std": "std_price", "mean": "mean_price"}


def test_words_describing_a_method_are_not_extra_asks_when_the_format_names_the_answer(profiles):
    spec = build_spec("KS test of pressure against a normal with the sample mean and standard deviation: "
                      "@statistic[value]", profiles["sen"])
    assert asks_of(spec) == [("ks", "pressure", "", "", "")] and spec.asks[0].slots == {"statistic": "statistic"}


def test_outliers_to_remove_are_a_filter_and_tests_report_significance(profiles):
    spec = build_spec("Remove the outliers of bonus with the z-score method (|z| > 3), then compute the mean bonus. "
                      "@mean_bonus[value]", profiles["emp"])
    assert asks_of(spec) == [("mean", "bonus", "", "", "")]
    assert filters_of(spec) == [("bonus", "not_outlier", {"rule": "z", "threshold": 3.0})]
    iqr = build_spec("After excluding outliers in training_hours by the IQR rule, what is the mean training_hours?",
                     profiles["emp"])
    assert filters_of(iqr) == [("training_hours", "not_outlier", {"rule": "iqr", "threshold": 1.5})]
    test = build_spec("Is there a significant difference in salary between remote and non-remote employees? Use a "
                      "two-sample t-test at alpha 0.01: @p_value[value] @significant[yes/no]", profiles["emp"])
    assert asks_of(test) == [("ttest", "salary", "", "remote", "")] and test.asks[0].params["alpha"] == 0.01
    assert test.asks[0].slots == {"p_value": "p_value", "significant": "significant"}


def test_a_slot_naming_a_group_takes_that_groups_value(profiles):
    spec = build_spec(
        "What is the mean salary per level? Report @mean_salary_junior[value] @mean_salary_senior[value].",
        profiles["emp"],
    )
    assert asks_of(spec) == [("mean", "salary", "", "level", "")]
    assert spec.asks[0].slots == {"group:Junior": "mean_salary_junior", "group:Senior": "mean_salary_senior"}


def test_derived_columns_are_defined_then_used(profiles):
    spec = build_spec("gdp per person = gdp_billion * 1000 / population_m. What is its maximum?", profiles["cty"])
    assert [(d.name, d.expression, d.columns) for d in spec.derived] == [
        ("gdp_per_person", "gdp_billion * 1000 / population_m", ("gdp_billion", "population_m"))]
    assert asks_of(spec) == [("max", "gdp_per_person", "", "", "")]
    words = build_spec(
        "Let margin be defined as revenue minus shipping_cost. What is the mean margin?", profiles["shop"]
    )
    assert not words.derived or words.derived[0].expression == "revenue - shipping_cost"


@pytest.mark.parametrize(
    ("task", "primary", "joins", "filters"),
    [
        ("What is the average revenue of orders for products in the Garden category?", "orders.csv",
         [("products.csv", "product_id")], [("category", "==", "Garden")]),
        ("How many orders were placed by customers from Norway?", "orders.csv", [("customers.csv", "customer_id")],
         [("country", "==", "Norway")]),
        ("What is the average shipping_cost per product category?", "orders.csv", [("products.csv", "product_id")], []),
        ("How many products cost a list_price above 30?", "products.csv", [], [("list_price", ">", 30)]),
        ("What is the median signup_year of customers in the Corporate segment?", "customers.csv", [],
         [("segment", "==", "Corporate")]),
    ],
)
def test_a_folder_question_picks_its_files_and_joins_on_the_shared_key(profiles, task, primary, joins, filters):
    spec = build_spec(task, profiles["shop"])
    assert spec.answerable, spec.problem
    assert spec.data.path.endswith(primary) and not spec.data.path.endswith("audit_log.csv")
    assert [(Path(j.path).name, j.key) for j in spec.joins] == joins
    assert filters_of(spec) == filters
    assert any("Answered from" in c and primary in c for c in spec.caveats)


def test_a_column_in_a_file_without_a_shared_key_is_a_problem_not_a_guess(profiles):
    spec = build_spec("What is the mean list_price of products bought by users who did an export in audit_log?",
                      profiles["shop"])
    assert not any(j.path.endswith("audit_log.csv") for j in spec.joins)


def test_a_task_is_read_as_a_direct_question_an_open_analysis_or_not_at_all(profiles):
    assert read_question("What drives salary?", profiles["emp"]).kind == "open"
    assert read_question("Explore what drives total salary", profiles["emp"]).kind == "open"
    direct = read_question("What is the median salary for each department, rounded to 1 decimal?", profiles["emp"])
    assert direct.kind == "direct" and [a.text for a in direct.asks] == ["the median of `salary` per `department`"]
    unread = read_question("By how much did the mean salary rise from 2019 to 2021?", profiles["emp"])
    assert unread.kind == "unread" and "'rise'" in unread.why_unread()


@pytest.mark.parametrize(
    ("task", "doubt"),
    [
        ("What is the mean salary of employees between 30 and 40?", "'30', '40'"),
        ("What is the mean salary of the 10 oldest employees?", "'10'"),
        ("What is the mean salary in 2030?", "'2030'"),
        ("What is the ratio of the mean salary to the mean bonus?", "'ratio'"),
        ("How many employees are not in a negative position on the ranking?", "'ranking'"),
        ("Give the mean salary as @mean_salary[value] and the cube of the bonus as @cube[value].", "@cube"),
        ("Which 3 departments have the highest salary?", "'3'"),
    ],
)
def test_a_word_or_number_no_reader_used_keeps_the_reading_from_confidence(profiles, task, doubt):
    reading = read_question(task, profiles["emp"])
    assert reading.kind != "direct" and doubt in reading.why_unread()


@pytest.mark.parametrize(
    "task",
    [
        "What is the 90th percentile of training_hours?",
        "Is salary normally distributed at a significance level of 0.01? Use a Shapiro-Wilk test.",
        "How many salary outliers are there with a z-score above 3?",
        "What is the mean salary, rounded to 2 decimals?",
        "What is the mean salary of employees with 3 or more years_experience?",
        "Give the mean and the sample standard deviation (ddof=1) of salary, each rounded to 2 decimals.",
        "What are the 10th and 90th percentiles of salary?",
    ],
)
def test_numbers_and_words_that_are_read_leave_no_doubt(profiles, task):
    reading = read_question(task, profiles["emp"])
    assert reading.kind == "direct", reading.why_unread()


def test_tests_regressions_and_groups_named_by_their_values(profiles):
    line = build_spec("Regress salary on years_experience with OLS: @slope[value] @intercept[value] @r2[value]",
                      profiles["emp"])
    assert asks_of(line) == [("linreg", "salary", "years_experience", "", "")]
    assert line.asks[0].slots == {"slope": "slope", "intercept": "intercept", "r2": "r2"} and not line.doubts
    equation = build_spec("Fit salary = a + b * age by least squares. Give the slope.", profiles["emp"])
    assert asks_of(equation) == [("linreg", "salary", "age", "", "")]
    anova = build_spec("Run a one-way ANOVA of salary across department: is the difference significant?",
                       profiles["emp"])
    assert asks_of(anova) == [("anova", "salary", "", "department", "")] and not anova.doubts
    chi2 = build_spec("Is department independent of city? Use a chi-square test of independence.", profiles["emp"])
    assert asks_of(chi2) == [("chi2", "department", "city", "", "")] and not chi2.doubts
    welch = build_spec("Compare salary between Engineering and Sales with Welch's t-test.", profiles["emp"])
    assert asks_of(welch) == [("ttest", "salary", "", "department", "")]
    assert welch.asks[0].params["levels"] == ["Engineering", "Sales"] and not welch.doubts
    versus = build_spec("Average salary for Engineering versus Sales, two decimals each?", profiles["emp"])
    assert asks_of(versus) == [("mean", "salary", "", "department", "")] and not versus.doubts


def test_signs_and_spans_of_years_select_rows(profiles):
    negative = build_spec("In how many rows was the bonus negative?", profiles["emp"])
    assert filters_of(negative) == [("bonus", "<", 0.0)]
    assert negative.doubts == ["no row meets `bonus < 0.0` (bonus runs from 91.32 to 14624.1)"]     # no bonus is
    span = build_spec("What is the mean signup_year of customers over 2019-2021?", profiles["shop"])
    assert filters_of(span) == [("signup_year", ">=", 2019), ("signup_year", "<=", 2021)] and not span.doubts


@pytest.mark.parametrize(
    ("task", "slots"),
    [
        ("Chi-square test of department against city: @chi2[value] and @unrelated[yes/no] (yes when the p-value is "
         "above 0.05).", {"statistic": "chi2", "holds": "unrelated"}),
        ("Is city associated with department (chi-square)? Give @associated[yes/no].", {"significant": "associated"}),
        ("Chi-square test of department and city: @verdict[yes/no], yes if the independence is rejected.",
         {"significant": "verdict"}),
        ("Levene test of salary across department: @same_spread[yes/no] (yes if equal variances are not rejected).",
         {"holds": "same_spread"}),
    ],
)
def test_a_yes_no_slot_is_the_verdict_its_rule_or_name_defines(profiles, task, slots):
    spec = build_spec(task, profiles["emp"])
    assert spec.asks[0].slots == slots and spec.confident, spec.doubts


def test_a_yes_no_slot_whose_meaning_is_not_read_keeps_the_reading_from_confidence(profiles):
    reading = read_question("Chi-square test of department and city: @chi2[value] and @flag[yes/no].",
                            profiles["emp"])
    assert reading.kind != "direct" and "@flag" in reading.why_unread()


def test_dropping_missing_values_means_in_the_columns_used_unless_any_column_is_said(profiles):
    anova = build_spec("One-way ANOVA of performance_score across department, missing values dropped.",
                       profiles["emp"])
    assert asks_of(anova) == [("anova", "performance_score", "", "department", "")] and anova.dropna == "used"
    assert anova.confident, anova.doubts
    listwise = build_spec("After removing rows with a missing value in any column, what is the mean salary?",
                          profiles["emp"])
    assert listwise.dropna == "all" and listwise.confident, listwise.doubts


@pytest.mark.parametrize("method", ["Student's t-test", "a t-test with equal variances assumed", "a pooled t-test"])
def test_students_t_test_is_the_pooled_test_with_the_groups_in_the_order_named(profiles, method):
    spec = build_spec(f"Using {method}, compare study_hours between students who passed (passed = 1) and those "
                      "who did not (passed = 0): @t[value] @p[value].", profiles["stu"])
    assert asks_of(spec) == [("ttest", "study_hours", "", "passed", "")] and spec.confident, spec.doubts
    assert spec.asks[0].params["method"] == "student" and spec.asks[0].params["levels"] == ["1", "0"]
    welch = build_spec("T-test of study_hours between passed = 0 and passed = 1 with unequal variances: @t[value]",
                       profiles["stu"])
    assert welch.asks[0].params.get("method") is None and welch.asks[0].params["levels"] == ["0", "1"]


@pytest.mark.parametrize(
    ("task", "doubt"),
    [
        ("Regress salary on age and years_experience: what is the slope?", "years_experience"),
        ("Mann-Whitney test of salary between remote and office staff: @u[value]", "@u"),
        ("Among employees in Sales, what share earn over 80000?", "told apart"),
        ("What is the adjusted R-squared of salary regressed on age?", "'adjusted'"),
        ("What is the standard error of the mean salary?", "'error'"),
        ("What is the geometric mean of salary?", "'geometric'"),
        ("One-sided Welch t-test of salary between remote and office staff: give the p-value.", "'one-sided'"),
    ],
)
def test_what_the_reader_did_not_use_keeps_the_reading_from_confidence(profiles, task, doubt):
    reading = read_question(task, profiles["emp"])
    assert reading.kind != "direct" and doubt in reading.why_unread()


def test_a_proportion_is_out_of_one_and_yates_correction_can_be_turned_off(profiles):
    share = build_spec("What proportion of students passed? Give a number between 0 and 1.", profiles["stu"])
    assert asks_of(share) == [("percent", "passed", "", "", "")] and share.asks[0].params["scale"] == "fraction"
    assert share.confident, share.doubts
    chi2 = build_spec("Chi-square test of gender and class without Yates' correction: @chi2[value]", profiles["stu"])
    assert asks_of(chi2) == [("chi2", "gender", "class", "", "")] and chi2.asks[0].params["correction"] is False
    assert chi2.confident, chi2.doubts


@pytest.mark.parametrize(
    ("key", "task", "doubt"),
    [
        # values named together: one figure over all of them, or one each? Only "or", "combined" ... pool them
        ("emp", "What is the mean salary of Finance staff, and of Support staff?", "one figure over all"),
        ("stu", "What is the mean exam_score of female students and of male students?", "one figure over all"),
        ("emp", "What is the highest salary paid in Oslo, and what is it in Krakow?", "one figure over all"),
        ("emp", "What is the average salary of staff, Finance excepted?", "'excepted'"),
        ("emp", "What is the mean salary of the three best-paid employees?", "'three'"),
        ("emp", "Give the total bonus of the senior staff's five best years.", "'senior'"),
        ("stu", "Which student_id occurs most often in the table?", "every student_id has one row"),
    ],
)
def test_a_reading_that_the_profile_contradicts_is_not_confident(profiles, key, task, doubt):
    reading = read_question(task, profiles[key])
    assert reading.kind != "direct" and doubt in reading.why_unread()


@pytest.mark.parametrize(
    ("key", "task"),
    [
        ("emp", "What is the mean salary of employees in Finance or Support?"),
        ("emp", "What is the mean bonus of staff at Junior level who are remote?"),
        ("stu", "Compare exam_score between the two genders with a Welch t-test: give the p-value."),
        ("emp", "How many salary outliers are there with a z-score above three?"),
    ],
)
def test_values_and_number_words_the_reading_uses_leave_no_doubt(profiles, key, task):
    reading = read_question(task, profiles[key])
    assert reading.kind == "direct", reading.why_unread()


def test_several_roundings_take_the_finest(profiles):
    spec = build_spec("Regress salary on age: the slope (4 decimals) and the intercept (1 decimal).", profiles["emp"])
    assert spec.digits == 4


@pytest.mark.parametrize(
    ("task", "doubt"),
    [
        # a rule stated that nothing asked applies: the 3 x IQR fences are read, the count is of every row
        ("Use the 3 x IQR fence rule on salary. How many employees are there?", "outlier rule"),
        # a threshold that is itself a statistic: the rows above the median are not selected by computing the median
        ("Take the employees whose salary is above the median salary. What is their mean bonus?",
         "comparison(s) 'above'"),
        ("For staff with age below the mean age, give the average training_hours.", "comparison(s) 'below'"),
        # comparisons no filter read: a threshold said in the sentence before
        ("The median salary is taken over all staff. For employees whose salary was strictly above that median, "
         "what was the mean bonus? Reply as @mean_bonus[value].", "comparison(s) 'above'"),
        # a value named in the plural is still a value of the data; imputing is not computed
        ("In Oslo, what fraction of the employees are Seniors?", "'Seniors' of the data"),
        ("Fill the missing bonus values with zero, then give the mean bonus.", "'fill'"),
        # a negation no reader used: the rows it denies are read as the rows it names, or as every row
        ("How many employees are there whose department nobody recorded?", "negation(s) 'nobody'"),
        ("What is the mean salary of employees who are neither remote nor in Engineering?", "'neither', 'nor'"),
    ],
)
def test_a_rule_or_threshold_that_nothing_computes_is_not_confident(profiles, task, doubt):
    reading = read_question(task, profiles["stu" if "student" in task else "emp"])
    assert reading.kind != "direct" and doubt in reading.why_unread()


def test_an_applied_rule_and_a_share_of_a_measure_stay_confident(profiles):
    above = read_question("How many employees have a salary above 80000?", profiles["emp"])
    assert above.direct, above.why_unread()
    outliers = read_question("How many salary outliers are there by the 3 x IQR rule?", profiles["emp"])
    assert outliers.direct, outliers.why_unread()
    share = read_question("Which continent has the largest population_m?", profiles["cty"])
    assert share.direct, share.why_unread()


@pytest.fixture
def yearly(tmp_path):
    """60 years, one row each, and a measure whose name the question does not use; 11 firms, one rare."""
    years = tmp_path / "data" / "sun.csv"
    years.parent.mkdir()
    years.write_text("YEAR,SUNACT\n" + "".join(f"{1901 + i},{(i * 37) % 150 + 0.5}\n" for i in range(60)))
    firms = tmp_path / "data" / "firms.csv"
    names = [f"Firm{chr(65 + i)}" for i in range(10) for _ in range(3 + i)] + ["Kappa"]
    firms.write_text("firm,invest\n" + "".join(f"{n},{i * 1.5}\n" for i, n in enumerate(names)))
    couples = tmp_path / "data" / "couples.csv"
    couples.write_text("occupation,affairs\n" + "".join(f"{i % 6 + 1},{(i * 7) % 5 * 0.6}\n" for i in range(300)))
    return {key: profile_inputs([path], base=tmp_path) for key, path in
            {"sun": years, "firms": firms, "couples": couples}.items()}


def test_a_share_of_the_kept_rows_per_group_is_not_read_as_their_count(yearly):
    # which group has the highest share of its rows with affairs > 0 is not the group with the most such rows
    share = read_question("Which occupation has the highest proportion of people with affairs > 0?", yearly["couples"])
    assert not share.direct and "'proportion'" in share.why_unread()
    most = read_question("Which occupation has the most people with affairs > 0?", yearly["couples"])
    assert most.direct, most.why_unread()


def test_a_statistic_of_the_column_that_numbers_the_rows_is_not_confident(yearly):
    # "solar activity" names no column; the reader's only column is YEAR, one value per row in sequence
    guessed = read_question("Average yearly solar activity over the years 1901 to 1950, to 2 decimals.", yearly["sun"])
    assert not guessed.direct and "YEAR numbers the rows" in guessed.why_unread()
    named = read_question("Average yearly SUNACT over the years 1901 to 1950, to 2 decimals.", yearly["sun"])
    assert named.direct, named.why_unread()
    assert [(f.column, f.op) for f in named.spec.filters] == [("YEAR", ">="), ("YEAR", "<=")]
    # asked for by its name, the numbering column's own statistic is what the question wants
    asked = read_question("What is the mean of YEAR, to 1 decimal?", yearly["sun"])
    assert asked.direct, asked.why_unread()
    assert [(a.stat, a.column) for a in asked.spec.asks] == [("mean", "YEAR")]


def test_every_value_of_a_column_with_few_values_is_known_so_a_rare_one_is_read(yearly):
    firm = yearly["firms"].files[0].columns[0]
    assert firm.distinct == 11 and {v for v, _ in firm.top_values} >= {"Kappa", "FirmA"}
    reading = read_question("What is the mean invest of Kappa and of FirmA?", yearly["firms"])
    assert not reading.direct and "one figure over all" in reading.why_unread()


@pytest.mark.parametrize("task", ["How many employees have no city recorded?",
                                  "How many rows of employees.csv have no recorded city?",
                                  "No. of employees with an unrecorded city?",
                                  "how many staff have an unreported city"])
def test_rows_with_nothing_recorded_for_a_column_are_its_missing_values(profiles, task):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == [("missing", "city", "", "", "")]


@pytest.mark.parametrize("task", ["What is the median bonus per department, ignoring employees with no bonus recorded?",
                                  "Median bonus per department, employees with an unrecorded bonus left out"])
def test_rows_ignored_for_nothing_recorded_drop_that_column_s_missing_values(profiles, task):
    spec = build_spec(task, profiles["emp"])
    assert spec.confident, spec.doubts
    assert spec.dropna == ["bonus"]


def test_a_yes_no_rule_said_with_means_is_the_verdict(profiles):
    spec = build_spec("Is salary normally distributed? Run a Shapiro-Wilk test and give @p_value[value] and "
                      "@normal[yes or no], where yes means normality is not rejected at the 5% level.",
                      profiles["emp"])
    assert spec.confident, spec.doubts
    assert spec.asks[0].slots == {"p_value": "p_value", "holds": "normal"}


@pytest.fixture(scope="module")
def plant(tmp_path_factory):
    """Columns named as one word or by initials, as statsmodels and scikit-learn name them."""
    root = tmp_path_factory.mktemp("plant")
    path = root / "plant.csv"
    path.write_text("AIRFLOW,WATERLOSS,TVhours,bmi,cured,arm\n" + "".join(
        f"{50 + i % 13},{(i * 7) % 11},{i % 6},{18 + (i * 5) % 17},{i % 3 == 0},{i % 2}\n" for i in range(40)))
    return profile_inputs([path], base=root)


@pytest.mark.parametrize(("task", "column"), [
    ("What is the median air flow in the water loss data?", "AIRFLOW"),
    ("Mean daily TV hours, to 2 decimals.", "TVhours"),
    ("What is the mean body mass index?", "bmi"),
])
def test_a_name_written_as_one_word_or_as_initials_is_named_by_its_words(plant, task, column):
    reading = read_question(task, plant)
    assert reading.direct, reading.why_unread()
    assert [a.column for a in reading.spec.asks] == [column]


def test_a_transformation_the_regression_does_not_apply_is_not_confident(plant):
    logged = read_question("Regress log(air flow) on log(body mass index) and give the slope.", plant)
    assert not logged.direct and "'log'" in logged.why_unread()
    plain = read_question("Regress air flow on body mass index and give the slope.", plant)
    assert plain.direct, plain.why_unread()


def test_a_share_asked_for_as_a_fraction_is_a_fraction(plant):
    reading = read_question("For arm 1, what share was cured? Give it as a fraction to 3 decimals.", plant)
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.params.get("scale")) for a in reading.spec.asks] == [("percent", "fraction")]


def test_a_terse_closed_request_it_cannot_read_is_unread_not_an_open_analysis(plant):
    # no question word and no "?", but a rounding: a number is asked for, so a data description does not answer it
    reading = read_question("Kendall concordance of air flow with the sunshine index, 3 decimals.", plant)
    assert reading.kind == "unread", reading.kind


def test_a_test_of_the_column_that_numbers_the_rows_is_not_confident_unless_named(yearly):
    guessed = read_question("Shapiro-Wilk test of the yearly solar activity: W and p to 4 decimals.", yearly["sun"])
    assert not guessed.direct and "YEAR numbers the rows" in guessed.why_unread()
    named = read_question("Shapiro-Wilk test of SUNACT: W and p-value to 4 decimals.", yearly["sun"])
    assert named.direct, named.why_unread()


def test_a_share_of_rows_with_no_condition_read_is_not_confident(plant):
    # "share of air flow lost as water": a ratio of two columns, not a share of rows; no condition chooses rows
    reading = read_question("Share of air flow lost as water, row by row. What is the median of that share?", plant)
    assert not reading.direct and "no condition was read" in reading.why_unread()
    counted = read_question("What share of the rows have air flow above 55?", plant)
    assert counted.direct, counted.why_unread()


@pytest.mark.parametrize(("task", "threshold", "side"), [
    ("How many employees earn a salary more than 2 standard deviations away from the mean salary?", 2.0, None),
    ("Any salaries beyond 2.5 SD from the mean (sample sd)? How many?", 2.5, None),
    ("How many employees have a salary more than 1.5 SD above the mean?", 1.5, "upper"),
    ("How many bonuses lie more than two standard deviations below the average bonus?", 2.0, "lower"),
])
def test_a_multiple_of_the_standard_deviation_is_the_z_rule(profiles, task, threshold, side):
    # read before as a bound of the column itself ("salary > 2"), or as the mean and the SD to report
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.params.get("threshold"), a.params.get("side")) for a in reading.spec.asks] == [
        ("outliers_z", threshold, side)]
    assert reading.spec.filters == []


@pytest.mark.parametrize("task", [
    "How many employees have a salary within 2 SD of the mean?",
    "How many employees have a salary less than 2 standard deviations from the mean?",
])
def test_a_distance_in_standard_deviations_that_is_not_beyond_is_not_confident(profiles, task):
    assert not read_question(task, profiles["emp"]).direct


def test_a_condition_the_data_contradicts_is_not_confident(profiles):
    # a bound every row meets: the number belongs to something else; no row left: a condition tied to the wrong
    # column ("quarters with a negative rate" read as quarter < 0), or nothing to answer from
    every = read_question("What is the mean bonus of employees with a salary above 5?", profiles["emp"])
    assert not every.direct and "`salary > 5.0` keeps every row" in every.why_unread()
    none = read_question("What is the mean bonus of employees older than 500?", profiles["emp"])
    assert not none.direct and "no row meets `age > 500.0`" in none.why_unread()
    counted = read_question("How many employees are older than 500?", profiles["emp"])
    assert not counted.direct and "no row meets `age > 500.0` (age runs from" in counted.why_unread()
    ranged = read_question("What is the mean salary of employees with an age between 18 and 99?", profiles["emp"])
    assert ranged.direct, ranged.why_unread()          # a range that spans the data: said, not contradicted


@pytest.fixture(scope="module")
def quarters(tmp_path_factory):
    """Quarterly figures named as statsmodels names them (realint, realcons), and a measure with gaps."""
    root = tmp_path_factory.mktemp("quarters")
    path = root / "quarters.csv"
    path.write_text("year,quarter,realint,realcons,body_mass_g,sex\n" + "".join(
        f"{1960 + i // 4},{i % 4 + 1},{(i * 37) % 11 - 3},{1000 + 7 * i},{'' if i % 9 == 0 else 3000 + 13 * i},"
        f"{'' if i % 7 == 0 else 'female' if i % 2 else 'male'}\n" for i in range(60)))
    return profile_inputs([path], base=root)


@pytest.mark.parametrize(("task", "column"), [
    ("In how many quarters was the real interest rate negative?", "realint"),
    ("What is the mean real consumption, to 1 decimal?", "realcons"),
])
def test_a_name_made_of_the_beginnings_of_words_is_named_by_them(quarters, task, column):
    # read before as "quarter < 0" (the only word it knew), or not at all
    reading = read_question(task, quarters)
    assert reading.direct, reading.why_unread()
    assert {c for a in reading.spec.asks for c in (a.column,) if c} | {f.column for f in reading.spec.filters} == {
        column}


def test_a_measure_named_by_two_of_its_words_and_not_used_is_not_confident(quarters):
    # "body mass" names body_mass_g; the condition on it ("even though ... was measured") was not read
    reading = read_question("How many rows have no sex recorded even though their body mass was measured?", quarters)
    assert not reading.direct and "'body_mass_g' are named but not used" in reading.why_unread()


def test_a_terse_request_holding_words_it_cannot_read_is_unread_not_an_open_analysis(profiles):
    reading = read_question("Middle salary for each department (missing skipped).", profiles["emp"])
    assert reading.kind == "unread" and "'each'" in reading.why_unread()


def test_a_share_of_the_values_that_are_missing_is_the_missing_share(profiles):
    reading = read_question("What percentage of the bonus values are missing?", profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column, a.params.get("scale")) for a in reading.spec.asks] == [("missing", "bonus", "percent")]


@pytest.mark.parametrize(("task", "doubt"), [
    # a share read from the words gives way to a count of missing values guessed from the slot's name
    ("What share of the staff have no bonus recorded? @pct_missing[value]", "that the words ask for fill no answer"),
    # rows chosen by a statistic ("the lowest score of anyone"), then referred back to: no condition read them
    ("Consider the employees rated as poorly as anyone (the lowest performance score). What is their mean salary?",
     "'their' refers to rows no condition read selects"),
])
def test_asks_and_rows_the_words_name_that_the_reading_loses_are_not_confident(profiles, task, doubt):
    reading = read_question(task, profiles["emp"])
    assert not reading.direct and doubt in reading.why_unread()


def test_the_z_rule_uses_the_standard_deviation_it_names_and_leaves_other_sentences_their_asks(profiles):
    population = read_question("How many employees have a salary more than 2 standard deviations from the mean "
                               "(population standard deviation)?", profiles["emp"])
    assert population.direct, population.why_unread()
    assert [(a.stat, a.params.get("ddof")) for a in population.spec.asks] == [("outliers_z", 0)]
    both = read_question("How many employees have a salary more than 2 SD from the mean? What is the mean bonus?",
                         profiles["emp"])
    assert both.direct, both.why_unread()
    assert sorted((a.stat, a.column) for a in both.spec.asks) == [("mean", "bonus"), ("outliers_z", "salary")]


@pytest.mark.parametrize(("task", "asks"), [
    # shorthand: "no." / "num." for "number" (the period ends no sentence), "pctile" for percentile
    ("No. of distinct cities in the staff file?", [("nunique", "city", None)]),
    ("num. of missing bonus values", [("missing", "bonus", None)]),
    ("What's the 90th pctile of salary, to 1 dp?", [("percentile", "salary", 90.0)]),
    # a statistic explained by its definition is that one statistic, not two more
    ("Bonus range (max minus min), 2dp.", [("range", "bonus", None)]),
    ("Range of salary, i.e. highest - lowest?", [("range", "salary", None)]),
    ("Interquartile range of bonus (Q3 minus Q1)?", [("iqr", "bonus", None)]),
    ("salary interquartile range (q3 - q1), 1 dp", [("iqr", "salary", None)]),
])
def test_shorthand_and_a_statistic_s_own_definition_read_as_the_statistic(profiles, task, asks):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column, a.params.get("p")) for a in reading.spec.asks] == asks


def test_a_count_written_no_dot_of_keeps_its_sentence_and_rule(profiles):
    reading = read_question("No. of employees older than 50? Also the no. of distinct departments.", profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column) for a in reading.spec.asks] == [("count", ""), ("nunique", "department")]
    assert filters_of(reading.spec) == [("age", ">", 50)]


@pytest.mark.parametrize("task", [
    "groupby department -> median salary; answer @Finance[value] @Support[value]",
    "Group by department, then the median salary: @Finance[value] and @Support[value].",
])
def test_a_groupby_whose_slots_name_the_groups_takes_each_group_s_value(profiles, task):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    [ask] = reading.spec.asks
    assert (ask.stat, ask.column, ask.group) == ("median", "salary", "department")
    assert ask.slots == {"group:Finance": "Finance", "group:Support": "Support"}


@pytest.mark.parametrize(("task", "y", "x"), [
    ("salary on age, simple OLS w/ const. slope to 4 dp", "salary", "age"),
    ("Bonus on salary (least squares with an intercept): @slope[value] @intercept[value]", "bonus", "salary"),
    ("age on salary, simple OLS w/ const. slope to 4 dp", "age", "salary"),   # the same words, the roles swapped
])
def test_y_on_x_with_a_regression_word_is_the_line_of_y_on_x(profiles, task, y, x):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column, a.second) for a in reading.spec.asks] == [("linreg", y, x)]


@pytest.mark.parametrize("task", [
    "salary on age and training hours together, OLS: coefficient of age",      # several regressors
    "Regress salary on age, experience and bonus jointly; the age coefficient?",
    "salary on age, OLS; suppress the constant. Slope?",                        # no intercept
    "salary on age, OLS without a constant: slope",
    "salary on age, bonus and training hours (OLS with constant): coefficient of bonus",
    "The effect of age on salary: OLS slope?",                                 # which is y is not said
    "Regress salary on age, the staff grade and the office floor; slope of age?",  # the others are no columns
    "Regression of the effect of age on salary: the slope, 2 dp",
    "regress salary on age + tenure in years, coefficient of age",
])
def test_a_regression_on_several_columns_or_without_a_constant_is_not_confident(profiles, task):
    assert not read_question(task, profiles["emp"]).direct


@pytest.fixture(scope="module")
def monthly(tmp_path_factory):
    """A monthly series whose month column holds names ("Jan"), as seaborn's flights data does."""
    root = tmp_path_factory.mktemp("monthly")
    path = root / "monthly.csv"
    names = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    path.write_text("year,month,visitors\n" + "".join(
        f"{2001 + i // 12},{names[i % 12]},{100 + 5 * i + (i * 7) % 13}\n" for i in range(60)))
    return profile_inputs([path], base=root)


@pytest.mark.parametrize(("task", "stat"), [
    ("How many months had more than 300 visitors?", ("count", "")),           # months of the series: rows
    ("no. of months with at least 300 visitors", ("count", "")),
    ("How many distinct months had more than 300 visitors?", ("nunique", "month")),
])
def test_months_of_a_series_are_counted_as_rows_unless_distinct_is_said(monthly, task, stat):
    reading = read_question(task, monthly)
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column) for a in reading.spec.asks] == [stat]


@pytest.mark.parametrize(("task", "filters"), [
    ("Apart from the Oslo office, what is the mean salary?", [("city", "!=", "Oslo")]),
    ("Mean bonus excl. Ghent staff, 2 decimals.", [("city", "!=", "Ghent")]),
    ("What is the median salary of employees other than Marketing ones?", [("department", "!=", "Marketing")]),
    ("Average salary excluding Oslo and Krakow?", [("city", "!=", "Oslo"), ("city", "!=", "Krakow")]),
    ("Other than Engineering, which department has the highest mean salary?", [("department", "!=", "Engineering")]),
    # the words that leave the value out are said after it, or around it
    ("Leaving Oslo out, what is the mean salary?", [("city", "!=", "Oslo")]),
    ("Leaving the Marketing department aside, what is the median salary?", [("department", "!=", "Marketing")]),
    ("Mean bonus with Ghent excluded?", [("city", "!=", "Ghent")]),
    ("Setting aside Krakow, what is the highest salary?", [("city", "!=", "Krakow")]),
    ("Not counting Engineering, what's the average bonus?", [("department", "!=", "Engineering")]),
    # said after a list, the words leave out the whole list; a value outside the list stays kept
    ("Mean salary, Oslo and Ghent left out?", [("city", "!=", "Oslo"), ("city", "!=", "Ghent")]),
    ("Mean salary with Oslo, Krakow and Ghent excluded?", [("city", "!=", v) for v in ("Oslo", "Krakow", "Ghent")]),
    ("Mean salary in Oslo, with Ghent excluded?", [("city", "==", "Oslo"), ("city", "!=", "Ghent")]),
])
def test_a_value_named_after_an_exclusion_leaves_its_rows_out(profiles, task, filters):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert filters_of(reading.spec) == filters


@pytest.mark.parametrize(("task", "doubt"), [
    ("What is the mean salary of staff apart from Narvik?", "'apart'"),     # a value the data may not hold
    ("What is the mean salary of non-Engineering staff?", "'non-Engineering'"),
    ("What is the mean salary in Ghent thru Oslo combined?", "'Oslo'"),          # a range of values: which ones?
    ("With Narvik set aside, what is the mean salary?", "'aside'"),
])
def test_an_exclusion_that_is_not_read_keeps_the_reading_from_confidence(profiles, task, doubt):
    reading = read_question(task, profiles["emp"])
    assert not reading.direct and doubt in reading.why_unread()


@pytest.mark.parametrize(("task", "filters"), [
    ("Mean salary of employees aged 30 or younger?", [("age", "<=", 30)]),
    ("How many employees are aged 60 and over?", [("age", ">=", 60)]),
    ("Average bonus for staff aged at least 45, 2 decimals.", [("age", ">=", 45)]),
    ("Mean salary of the employees whose performance_score is 4 or higher?", [("performance_score", ">=", 4)]),
    ("How many employees have bonus>3000 (strictly more than 3000)?", [("bonus", ">", 3000)] * 2),
    ("How many employees have a salary strictly above 80000?", [("salary", ">", 80000)]),
])
def test_bounds_said_around_a_number_select_rows(profiles, task, filters):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert filters_of(reading.spec) == filters


def test_a_bound_that_belongs_to_the_next_number_is_not_read_with_the_first(profiles):
    reading = read_question("How many employees are aged 30 and under 40?", profiles["emp"])
    assert not reading.direct and "'30'" in reading.why_unread()


@pytest.mark.parametrize(("task", "span"), [
    ("Mean realcons over 1970-79, 2 decimals.", (1970, 1979)),
    ("Mean realcons during the sixties (1960-69), 2 decimals.", (1960, 1969)),
    ("What was the mean realcons in the sixties, i.e. 1960-69?", (1960, 1969)),
])
def test_short_spans_of_years_and_decades_said_with_their_years_select_rows(quarters, task, span):
    reading = read_question(task, quarters)
    assert reading.direct, reading.why_unread()
    assert filters_of(reading.spec) == [("year", ">=", span[0]), ("year", "<=", span[1])]


@pytest.mark.parametrize(("task", "doubt"), [
    ("Mean realcons in the sixties, 2 decimals.", "'sixties'"),       # the 1960s, ages or temperatures?
    ("Mean realcons in the 1900s, 2 decimals.", "'1900'"),            # a decade or a century?
    ("Mean realcons for 1961-05, 2 decimals.", "'05'"),               # 1961 to 1965, or May 1961?
    ("Mean realcons for 1962-63, 2 decimals.", "'63'"),               # two years, or the 1962-63 season?
])
def test_a_span_of_years_that_may_mean_something_else_is_not_read(quarters, task, doubt):
    reading = read_question(task, quarters)
    assert not reading.direct and doubt in reading.why_unread()


@pytest.mark.parametrize(("task", "dropped"), [
    ("Mean realint of the quarters, rows with no body mass skipped.", ["body_mass_g"]),
    ("How many quarters had realint above 2? Rows where sex is blank don't count.", ["sex"]),
    ("Mean realint, not counting quarters with no body mass on record.", ["body_mass_g"]),
    ("Average realint with no-mass rows left out, 1 decimal.", ["body_mass_g"]),
])
def test_rows_missing_a_column_that_do_not_count_are_dropped(quarters, task, dropped):
    reading = read_question(task, quarters)
    assert reading.direct, reading.why_unread()
    assert reading.spec.dropna == dropped


def test_no_value_of_a_column_that_may_be_zero_is_not_read_as_missing(quarters, profiles):
    zero = read_question("Mean realcons ignoring quarters with no realint.", quarters)       # realint may be 0
    assert not zero.direct and "'no'" in zero.why_unread()
    # "no remote" may be the employees who are not remote; "no sex" is read only as "no sex recorded"
    for task in ("Mean salary, skipping staff with no remote.", "Mean salary ignoring rows with no city."):
        assert not read_question(task, profiles["emp"]).direct
    # the rows left out are Oslo's: not only those with no bonus
    mixed = read_question("Excluding Oslo staff with no bonus, what is the mean salary?", profiles["emp"])
    assert not mixed.direct


@pytest.mark.parametrize(("task", "filters"), [
    ("Mean realcons, ignoring anything before 1965.", [("year", ">=", 1965)]),
    ("Mean realcons, 2 decimals; ignore 1970 and later.", [("year", "<", 1970)]),
    ("Mean realcons excluding the quarters after 1970?", [("year", "<=", 1970)]),
])
def test_a_period_whose_rows_are_left_out_keeps_the_other_rows(quarters, task, filters):
    reading = read_question(task, quarters)
    assert reading.direct, reading.why_unread()
    assert filters_of(reading.spec) == filters


def test_a_span_of_years_left_out_in_the_middle_is_not_read(quarters):
    reading = read_question("Mean realcons excluding 1960-1964, 1 decimal.", quarters)
    assert not reading.direct and "'1960'" in reading.why_unread()


@pytest.mark.parametrize(("task", "stat", "inner", "column", "over"), [
    ("Take the mean salary of each department, then give the median of those department means.",
     "median", "mean", "salary", "department"),
    ("Compute each city's total bonus; what is the range of these totals?", "range", "sum", "bonus", "city"),
    ("For every level, the median salary; then the standard deviation of those per-level medians (sample sd)?",
     "std", "median", "salary", "level"),
    # the statistic nearest its "of" is the outer one, not the per-group total before it
    ("Give each city's total bonus and the largest of those totals.", "max", "sum", "bonus", "city"),
    # with an answer slot: the per-group means fill none, the SD of the column itself is not the answer
    ("For each department take the mean salary; what is the standard deviation of those department means? "
     "@sd_means[value]", "std", "mean", "salary", "department"),
])
def test_a_statistic_of_group_statistics_is_one_ask_over_the_groups(profiles, task, stat, inner, column, over):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert [(a.stat, a.column, a.group, a.params.get("of"), a.params.get("over")) for a in reading.spec.asks] == [
        (stat, column, "", inner, over)]


@pytest.mark.parametrize(("task", "asks"), [
    # the arg-max over the groups, said of their means: the arg-max already read, not a mean of the means
    ("Mean salary by department; which department has the highest of these means?",
     [("mean", "salary", "", "department", ""), ("mean", "salary", "", "department", "max")]),
    # a plural that names the per-group statistic itself
    ("Salary means by level: which level is lowest?", [("mean", "salary", "", "level", "min")]),
])
def test_group_statistics_said_in_the_plural_keep_their_reading(profiles, task, asks):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == asks


@pytest.mark.parametrize(("task", "asks"), [
    # "which ... is highest" says no statistic: the one the sentence before named for that column and group
    ("Median salary for each department; which department is highest?",
     [("median", "salary", "", "department", ""), ("median", "salary", "", "department", "max")]),
    # bonus is an amount, whose default is its total: the average named before is what is compared
    ("Average bonus by level. Which level is lowest?",
     [("mean", "bonus", "", "level", ""), ("mean", "bonus", "", "level", "min")]),
])
def test_which_group_is_highest_after_a_per_group_statistic_compares_that_statistic(profiles, task, asks):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == asks


@pytest.mark.parametrize(("task", "doubt"), [
    ("What is the range of the department means of salary?", "'means'"),      # no per-group ask read to take them from
    ("What is the mean of the department means of salary?", "no per-group statistic read gives these results"),
    ("How many of the monthly differences in salary exceed a z-score of 2?", "'differences'"),
])
def test_results_of_a_step_not_read_keep_the_reading_from_confidence(profiles, task, doubt):
    """A plural statistic no per-group ask gives, or differences an outlier count would have to derive, are not
    answered as a statistic of the column itself."""
    reading = read_question(task, profiles["emp"])
    assert not reading.direct and doubt in reading.why_unread()


@pytest.mark.parametrize(("task", "op", "value"), [
    ("Mean exam_score for siblings 2?", "==", 2),
    ("What is the mean exam_score of students excluding siblings 0?", "!=", 0),
    ("Leaving siblings 4 out, what is the median study_hours?", "!=", 4),
])
def test_a_level_said_as_a_number_after_its_column_is_kept_or_left_out(profiles, task, op, value):
    reading = read_question(task, profiles["stu"])
    assert reading.direct, reading.why_unread()
    assert filters_of(reading.spec) == [("siblings", op, value)]


@pytest.mark.parametrize("task", [
    "Leaving aside missing values, what is the mean bonus?",
    "Setting aside rows with a missing bonus, what is the mean bonus?",
])
def test_missing_values_set_aside_are_dropped_not_counted(profiles, task):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == [("mean", "bonus", "", "", "")] and reading.spec.dropna == "used"


@pytest.mark.parametrize(("task", "expected"), [
    ("In which department is years_experience longest on average?",
     ("mean", "years_experience", "", "department", "max")),
    ("Which city has the heaviest training load (training_hours) on average?",
     ("mean", "training_hours", "", "city", "max")),
    ("Among the departments, which one has the smallest total bonus?", ("sum", "bonus", "", "department", "min")),
])
def test_which_group_is_highest_said_with_an_adjective_or_which_one_of_a_named_group(profiles, task, expected):
    reading = read_question(task, profiles["emp"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == [expected]


def test_which_period_is_highest_within_a_window_of_that_same_period(yearly):
    reading = read_question("Which year from 1901 to 1950 had the highest SUNACT?", yearly["sun"])
    assert reading.direct, reading.why_unread()
    assert asks_of(reading.spec) == [("mean", "SUNACT", "", "YEAR", "max")]
    assert filters_of(reading.spec) == [("YEAR", ">=", 1901), ("YEAR", "<=", 1950)]
