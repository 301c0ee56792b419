"""The eval questions and their answers, computed with numpy/scipy from the CSV files as written.

Each question is one manifest line: {"id", "task", "files", "answer", "checker"}. `files` are relative to
the manifest's folder. Conventions the answers follow (and the tasks state where it matters): standard
deviation and variance are sample values (ddof=1), percentiles interpolate linearly, skewness and excess
kurtosis are the bias-corrected sample values, correlations drop rows missing either column.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

Table = dict[str, list[str]]


def read(path: Path) -> Table:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return {name: [row[name] for row in rows] for name in rows[0]}


def num(table: Table, column: str) -> np.ndarray:
    return np.array([float(v) if v != "" else np.nan for v in table[column]])


def text(table: Table, column: str) -> np.ndarray:
    return np.array(table[column])


def ok(values: np.ndarray) -> np.ndarray:
    return values[~np.isnan(values)]


def group_stat(keys: np.ndarray, values: np.ndarray, fn: Any) -> dict[str, float]:
    return {str(k): float(fn(ok(values[keys == k]))) for k in sorted(set(keys))}


def argmax(scores: dict[str, float]) -> str:
    best = max(scores.values())
    winners = [k for k, v in scores.items() if v == best]
    assert len(winners) == 1, f"tie for the maximum: {winners}"
    return winners[0]


def argmin(scores: dict[str, float]) -> str:
    return argmax({k: -v for k, v in scores.items()})


def iqr_outliers(values: np.ndarray, factor: float) -> int:
    q1, q3 = np.percentile(values, [25, 75])
    spread = q3 - q1
    return int(np.sum((values < q1 - factor * spread) | (values > q3 + factor * spread)))


def z_outliers(values: np.ndarray, limit: float) -> int:
    counts = {int(np.sum(np.abs(stats.zscore(values, ddof=d)) > limit)) for d in (0, 1)}
    assert len(counts) == 1, "the z-score count must not depend on ddof"
    return counts.pop()


def q(qid: str, task: str, files: list[str], answer: dict[str, Any] | None, checker: str) -> dict[str, Any]:
    return {"id": qid, "task": task, "files": files, "answer": answer, "checker": checker}


def r(value: float, digits: int) -> float:
    return round(float(value), digits)


def employee_questions(data: Path) -> list[dict[str, Any]]:
    e = read(data / "employees.csv")
    files = ["data/employees.csv"]
    salary, bonus, exp = num(e, "salary"), num(e, "bonus"), num(e, "years_experience")
    score, age, training = num(e, "performance_score"), num(e, "age"), num(e, "training_hours")
    dept, level, remote = text(e, "department"), text(e, "level"), text(e, "remote")
    medians = group_stat(dept, salary, np.median)
    senior_scores = ok(score[level == "Senior"])
    complete = ~np.isnan(bonus) & ~np.isnan(score)
    total_comp = salary + bonus
    welch = stats.ttest_ind(salary[remote == "yes"], salary[remote == "no"], equal_var=False)
    return [
        q("emp-mean-std-salary", "What are the mean and the standard deviation of salary? Answer as "
          "@mean_salary[value] and @std_salary[value], both rounded to two decimals.", files,
          {"mean_salary": r(salary.mean(), 2), "std_salary": r(salary.std(ddof=1), 2)}, "numeric"),
        q("emp-age-range",
          "Give the minimum, median and maximum age: @min_age[value] @median_age[value] @max_age[value].", files,
          {"min_age": age.min(), "median_age": float(np.median(age)), "max_age": age.max()}, "numeric"),
        q("emp-bonus-dropna", "What is the average bonus, ignoring rows with missing values? Round to two decimals "
          "and answer as @mean_bonus[value].", files, {"mean_bonus": r(bonus[complete].mean(), 2)}, "numeric"),
        q("emp-missing-bonus", "How many missing values does the bonus column have? @missing_bonus[value]", files,
          {"missing_bonus": int(np.isnan(bonus).sum())}, "numeric"),
        q("emp-filter-mean", "What is the mean salary of employees with years_experience greater than 10? "
          "@mean_salary[value], rounded to two decimals.", files, {"mean_salary": r(salary[exp > 10].mean(), 2)},
          "numeric"),
        q("emp-conditional-count", "How many employees in the Engineering department have a salary above 90000? "
          "@count[value]", files, {"count": int(np.sum((dept == "Engineering") & (salary > 90000)))}, "numeric"),
        q("emp-argmax-median", "Which department has the highest median salary? @department[name]", files,
          {"department": argmax(medians)}, "exact"),
        q("emp-group-mean", "What is the average salary in each department?", files,
          {k: r(v, 2) for k, v in group_stat(dept, salary, np.mean).items()}, "numeric"),
        q("emp-pearson", "What is the Pearson correlation coefficient between years_experience and salary? "
          "@r[value] rounded to three decimals.", files, {"r": r(stats.pearsonr(exp, salary)[0], 3)}, "numeric"),
        q("emp-spearman", "Using Spearman's rank correlation, how strongly is age related to years_experience? "
          "@rho[value] (three decimals)", files, {"rho": r(stats.spearmanr(age, exp)[0], 3)}, "numeric"),
        q("emp-skew-bonus", "What is the skewness of bonus? @skewness[value], rounded to two decimals.", files,
          {"skewness": r(stats.skew(ok(bonus), bias=False), 2)}, "numeric"),
        q("emp-iqr-outliers", "How many outliers does training_hours have by the IQR rule (values more than 1.5 IQR "
          "beyond the quartiles)? @outliers[value]", files, {"outliers": iqr_outliers(training, 1.5)}, "numeric"),
        q("emp-derived-median", "Let total_comp = salary + bonus. What is the median total_comp over the employees "
          "who have a bonus? @median_total_comp[value] rounded to two decimals.", files,
          {"median_total_comp": r(np.median(ok(total_comp)), 2)}, "numeric"),
        q("emp-welch", "Does salary differ between remote and non-remote employees? Use a Welch t-test and report "
          "@p_value[value] rounded to four decimals.", files, {"p_value": r(welch.pvalue, 4)}, "numeric"),
        q("emp-distinct-cities", "How many distinct cities are there? @cities[value]", files,
          {"cities": len(set(e["city"]))}, "numeric"),
        q("emp-p90", "What is the 90th percentile of salary? @p90_salary[value]", files,
          {"p90_salary": r(np.percentile(salary, 90), 2)}, "numeric"),
        q("emp-senior-stats", "For Senior employees only, what are the mean and standard deviation of "
          "performance_score? Answer @mean_score[value] @std_score[value], rounded to two decimals.", files,
          {"mean_score": r(senior_scores.mean(), 2), "std_score": r(senior_scores.std(ddof=1), 2)}, "numeric"),
        q("emp-drivers", "What drives salary in the employee data?", files, None, "none"),
    ]


def sensor_questions(data: Path) -> list[dict[str, Any]]:
    s = read(data / "sensors.csv")
    files = ["data/sensors.csv"]
    temp, hum, pres, battery = num(s, "temperature"), num(s, "humidity"), num(s, "pressure"), num(s, "battery_pct")
    sensor = text(s, "sensor")
    shapiro = stats.shapiro(hum)
    dagostino = stats.normaltest(pres)
    ks = stats.kstest(temp, "norm", args=(temp.mean(), temp.std(ddof=1)))
    return [
        q("sen-kurtosis", "What is the excess kurtosis of temperature? @kurtosis[value] rounded to two decimals.",
          files, {"kurtosis": r(stats.kurtosis(temp, bias=False), 2)}, "numeric"),
        q("sen-shapiro", "Test whether humidity is normally distributed with a Shapiro-Wilk test. Report "
          "@p_value[value] rounded to four decimals and @normal[yes or no] at alpha 0.05.", files,
          {"p_value": r(shapiro.pvalue, 4), "normal": "yes" if shapiro.pvalue >= 0.05 else "no"}, "numeric"),
        q("sen-dagostino", "Run D'Agostino's K-squared normality test on pressure: @statistic[value] @p_value[value], "
          "rounded to three decimals.", files,
          {"statistic": r(dagostino.statistic, 3), "p_value": r(dagostino.pvalue, 3)}, "numeric"),
        q("sen-ks", "Kolmogorov-Smirnov test of temperature against a normal distribution with the sample mean and "
          "standard deviation: @ks_statistic[value] rounded to four decimals.", files,
          {"ks_statistic": r(ks.statistic, 4)}, "numeric"),
        q("sen-zscore-outliers", "How many temperature readings have an absolute z-score above 3? @outliers[value]",
          files, {"outliers": z_outliers(temp, 3)}, "numeric"),
        q("sen-filter-group", "For sensor B only, what is the average temperature? @mean_temperature[value] rounded to "
          "two decimals.", files, {"mean_temperature": r(temp[sensor == "B"].mean(), 2)}, "numeric"),
        q("sen-group-mean", "What is the mean humidity per sensor?", files,
          {k: r(v, 2) for k, v in group_stat(sensor, hum, np.mean).items()}, "numeric"),
        q("sen-argmin", "Which sensor has the lowest average pressure? @sensor[name]", files,
          {"sensor": argmin(group_stat(sensor, pres, np.mean))}, "exact"),
        q("sen-two-conditions", "How many readings have humidity above 60 and temperature below 20? @count[value]",
          files, {"count": int(np.sum((hum > 60) & (temp < 20)))}, "numeric"),
        q("sen-mean-variance", "What are the mean and the variance of pressure? @mean_pressure[value] "
          "@variance_pressure[value], rounded to two decimals.", files,
          {"mean_pressure": r(pres.mean(), 2), "variance_pressure": r(pres.var(ddof=1), 2)}, "numeric"),
        q("sen-kendall", "What is the Kendall correlation between temperature and humidity? @tau[value] rounded to "
          "three decimals.", files, {"tau": r(stats.kendalltau(temp, hum)[0], 3)}, "numeric"),
        q("sen-skew-battery", "What is the skewness of battery_pct?", files,
          {"skewness": r(stats.skew(battery, bias=False), 2)}, "numeric"),
    ]


def student_questions(data: Path) -> list[dict[str, Any]]:
    t = read(data / "students.csv")
    files = ["data/students.csv"]
    study, sleep, siblings = num(t, "study_hours"), num(t, "sleep_hours"), num(t, "siblings")
    score, passed = num(t, "exam_score"), num(t, "passed")
    klass, gender = text(t, "class"), text(t, "gender")
    both = ~np.isnan(sleep)
    return [
        q("stu-pearson-few-levels", "What is the Pearson correlation between siblings and exam_score? @r[value] "
          "rounded to three decimals.", files, {"r": r(stats.pearsonr(siblings, score)[0], 3)}, "numeric"),
        q("stu-pass-rate", "What percentage of students passed? @pass_rate[value] in percent, rounded to one decimal.",
          files, {"pass_rate": r(100 * passed.mean(), 1)}, "numeric"),
        q("stu-filter-mean", "What is the average exam_score of students with study_hours greater than 5? "
          "@mean_score[value] rounded to two decimals.", files, {"mean_score": r(score[study > 5].mean(), 2)},
          "numeric"),
        q("stu-argmax-class", "Which class has the highest average exam_score? @class[name]", files,
          {"class": argmax(group_stat(klass, score, np.mean))}, "exact"),
        q("stu-count-below", "How many students have sleep_hours below 6? @count[value]", files,
          {"count": int(np.sum(sleep[both] < 6))}, "numeric"),
        q("stu-spearman-dropna", "Use the Spearman method to correlate sleep_hours and exam_score, ignoring missing "
          "values. @rho[value] (three decimals)", files,
          {"rho": r(stats.spearmanr(sleep[both], score[both])[0], 3)}, "numeric"),
        q("stu-group-median", "What is the median exam_score for each gender?", files,
          group_stat(gender, score, np.median), "numeric"),
        q("stu-mean-std", "What are the mean and standard deviation of study_hours? Round both to two decimals: "
          "@mean_study_hours[value] @std_study_hours[value]", files,
          {"mean_study_hours": r(study.mean(), 2), "std_study_hours": r(study.std(ddof=1), 2)}, "numeric"),
        q("stu-count-at-least", "How many students have an exam_score of at least 80? @count[value]", files,
          {"count": int(np.sum(score >= 80))}, "numeric"),
        q("stu-drivers", "What drives exam scores?", files, None, "none"),
    ]


def country_questions(data: Path) -> list[dict[str, Any]]:
    c = read(data / "countries.csv")
    files = ["data/countries.csv"]
    name, continent = text(c, "country"), text(c, "continent")
    pop, gdp, life = num(c, "population_m"), num(c, "gdp_billion"), num(c, "life_expectancy")
    co2, area = num(c, "co2_per_capita"), num(c, "area_km2")
    per_capita = dict(zip(name, gdp / pop, strict=True))
    density = pop * 1_000_000 / area
    return [
        q("cty-derived-argmax", "Which country has the highest GDP per capita, computed as gdp_billion / population_m? "
          "@country[name]", files, {"country": argmax(per_capita)}, "exact"),
        q("cty-argmin-group", "Which continent has the lowest average life_expectancy?", files,
          {"continent": argmin(group_stat(continent, life, np.mean))}, "contains"),
        q("cty-correlation", "What is the correlation between co2_per_capita and life_expectancy?", files,
          {"r": r(stats.pearsonr(co2, life)[0], 3)}, "numeric"),
        q("cty-filter-sum", "What is the total population_m of the countries in Asia? @total_population[value] rounded "
          "to one decimal.", files, {"total_population": r(pop[continent == "Asia"].sum(), 1)}, "numeric"),
        q("cty-derived-mean", "Compute density = population_m * 1000000 / area_km2 for each country. What is the mean "
          "density? @mean_density[value] rounded to two decimals.", files,
          {"mean_density": r(density.mean(), 2)}, "numeric"),
        q("cty-argmin", "Which country has the smallest area_km2? @country[name]", files,
          {"country": argmin(dict(zip(name, area, strict=True)))}, "exact"),
        q("cty-two-conditions", "How many countries have life_expectancy above 62 and co2_per_capita below 4? "
          "@count[value]", files, {"count": int(np.sum((life > 62) & (co2 < 4)))}, "numeric"),
        q("cty-group-mean", "What is the mean gdp_billion per continent?", files,
          {k: r(v, 2) for k, v in group_stat(continent, gdp, np.mean).items()}, "numeric"),
        q("cty-drivers", "What explains the differences in life_expectancy between countries?", files, None, "none"),
    ]


def shop_questions(data: Path) -> list[dict[str, Any]]:
    folder = data / "shop"
    customers, orders = read(folder / "customers.csv"), read(folder / "orders.csv")
    products = read(folder / "products.csv")
    files = ["data/shop"]
    segment_of = dict(zip(customers["customer_id"], customers["segment"], strict=True))
    country_of = dict(zip(customers["customer_id"], customers["country"], strict=True))
    category_of = dict(zip(products["product_id"], products["category"], strict=True))
    name_of = dict(zip(products["product_id"], products["product_name"], strict=True))
    revenue, quantity = num(orders, "revenue"), num(orders, "quantity")
    order_segment = np.array([segment_of[c] for c in orders["customer_id"]])
    order_country = np.array([country_of[c] for c in orders["customer_id"]])
    order_category = np.array([category_of[p] for p in orders["product_id"]])
    order_product = np.array([name_of[p] for p in orders["product_id"]])
    list_price, category = num(products, "list_price"), text(products, "category")
    order_counts = {k: float(np.sum(order_product == k)) for k in sorted(set(order_product))}
    return [
        q("shop-file-choice-products", "What is the average list_price of products in the Toys category? "
          "@mean_list_price[value] rounded to two decimals.", files,
          {"mean_list_price": r(list_price[category == "Toys"].mean(), 2)}, "numeric"),
        q("shop-file-choice-customers", "How many customers signed up in 2021? @customers[value]", files,
          {"customers": int(np.sum(num(customers, "signup_year") == 2021))}, "numeric"),
        q("shop-file-choice-orders", "What is the mean shipping_cost of the orders? @mean_shipping[value] rounded to "
          "two decimals.", files, {"mean_shipping": r(num(orders, "shipping_cost").mean(), 2)}, "numeric"),
        q("shop-join-filter-sum", "What is the total revenue of orders placed by customers in the Premium segment? "
          "@premium_revenue[value] rounded to two decimals.", files,
          {"premium_revenue": r(revenue[order_segment == "Premium"].sum(), 2)}, "numeric"),
        q("shop-join-argmax", "Which country's customers generated the highest total revenue? @country[name]", files,
          {"country": argmax(group_stat(order_country, revenue, np.sum))}, "exact"),
        q("shop-join-products", "What is the total quantity ordered of products in the Books category? "
          "@books_quantity[value]", files, {"books_quantity": int(quantity[order_category == "Books"].sum())},
          "numeric"),
        q("shop-join-group", "What is the average order quantity for each customer segment?", files,
          {k: r(v, 2) for k, v in group_stat(order_segment, quantity, np.mean).items()}, "numeric"),
        q("shop-join-most-orders", "Which product_name has the most orders?", files,
          {"product_name": argmax(order_counts)}, "contains"),
        q("shop-count-filter", "How many orders have revenue above 200? @count[value]", files,
          {"count": int(np.sum(revenue > 200))}, "numeric"),
        q("shop-derived-median", "Compute price_per_item = revenue / quantity for each order. What is its median? "
          "@median_price_per_item[value] rounded to two decimals.", files,
          {"median_price_per_item": r(np.median(revenue / quantity), 2)}, "numeric"),
        q("shop-drivers", "What drives order revenue in the shop data?", files, None, "none"),
    ]


def build_questions(data: Path) -> list[dict[str, Any]]:
    questions = (employee_questions(data) + sensor_questions(data) + student_questions(data)
                 + country_questions(data) + shop_questions(data))
    ids = [item["id"] for item in questions]
    assert len(ids) == len(set(ids)), "question ids must be unique"
    return [_plain(item) for item in questions]


def _plain(value: Any) -> Any:
    """numpy scalars as plain JSON numbers (ints stay ints)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        number = float(value)
        return int(number) if number.is_integer() and abs(number) < 1e15 else number
    return value
