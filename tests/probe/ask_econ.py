"""Probe questions about economies and firms: US quarterly macro data (macrodata), US employment 1947-1962
(longley), investment of eleven firms (grunfeld), household food spending (engel), a teaching experiment
(spector) and a chemical plant (stackloss)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg
from tests.probe.registry import q, rejected

# --- macrodata: US quarterly, 1959 Q1 to 2009 Q3 ----------------------------------------------------------------


@q("stat_filter", "macrodata", """What was the average 3-month Treasury bill rate over the 1980s, meaning every
   quarter from 1980 through 1989 inclusive? Reply @mean_tbill[value], three decimals.""")
def macro_tbill_rate_in_the_eighties(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    return {"mean_tbill": r(m[m["year"].between(1980, 1989)]["tbilrate"].mean(), 3)}


@q("hard", "macrodata", """Average the quarterly inflation rate within each calendar year. Which year has the
   highest yearly average? Only years with all four quarters in the table count.""")
def macro_year_highest_mean_inflation(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    full = m.groupby("year").filter(lambda g: len(g) == 4)
    return {"value": int(unique_arg(full.groupby("year")["infl"].mean()))}


@q("derived", "macrodata", """Real GDP per person: divide realgdp by pop for each quarter of the year 2000 and give
   the mean of the four quarterly figures as @gdp_per_person[value], rounded to three decimals.""")
def macro_gdp_per_person_in_2000(d: Data) -> dict[str, Any]:
    m = d["macrodata"].query("year == 2000")
    assert len(m) == 4
    return {"gdp_per_person": r((m["realgdp"] / m["pop"]).mean(), 3)}


@q("topk", "macrodata", """Which three calendar years had the highest average unemployment rate (mean of the
   quarters of each year)? Give the years.""", checker="contains")
def macro_three_years_highest_unemployment(d: Data) -> dict[str, Any]:
    yearly = d["macrodata"].groupby("year")["unemp"].mean().sort_values(ascending=False)
    assert yearly.iloc[2] - yearly.iloc[3] > 1e-9
    return {f"year{k + 1}": str(int(yearly.index[k])) for k in range(3)}


@q("count_share", "macrodata", """In how many quarters did real GDP shrink compared with the quarter before? (The
   first quarter of the table has nothing to compare with and is not counted.)""")
def macro_quarters_real_gdp_fell(d: Data) -> dict[str, Any]:
    return {"value": int((d["macrodata"]["realgdp"].diff() < 0).sum())}


@q("regression", "macrodata", """Estimate the marginal propensity to consume: regress real consumption on real
   disposable income by OLS with an intercept. Give @mpc[value] (the slope, four decimals) and
   @r_squared[value] (four decimals).""")
def macro_consumption_on_disposable_income(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    fit = ols(m["realcons"], m["realdpi"])
    return {"mpc": r(fit["slope"], 4), "r_squared": r(fit["r2"], 4)}


@q("multi_stat", "macrodata", """For the quarters of 2000 to 2009 (both years included; the table stops partway
   through 2009), report the unemployment rate's @lowest[value], @highest[value] and @mean[value] (mean to three
   decimals).""")
def macro_unemployment_two_thousands(d: Data) -> dict[str, Any]:
    u = d["macrodata"].query("2000 <= year <= 2009")["unemp"]
    return {"lowest": float(u.min()), "highest": float(u.max()), "mean": r(u.mean(), 3)}


@q("correlation", "macrodata", """Over all quarters, what is the Pearson correlation between the unemployment rate
   and the inflation rate? Three decimals.""")
def macro_pearson_unemployment_inflation(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    return {"value": r(corr(m["unemp"], m["infl"], "pearson"), 3)}


# --- longley: 16 years, 1947-1962 --------------------------------------------------------------------------------


@q("correlation", "longley", """In the Longley data, how tightly does total employment track GNP? Give the Pearson
   correlation as @r[value] rounded to four decimals.""")
def longley_pearson_gnp_employment(d: Data) -> dict[str, Any]:
    lg = d["longley"]
    return {"r": r(corr(lg["GNP"], lg["TOTEMP"], "pearson"), 4)}


@q("argmax", "longley", """Over the 16 years in the table, in which year did total employment grow the most
   compared with the year before? Answer as @year[value].""")
def longley_year_biggest_employment_gain(d: Data) -> dict[str, Any]:
    lg = d["longley"].set_index("YEAR")
    return {"year": int(unique_arg(lg["TOTEMP"].diff().dropna()))}


@q("stat_filter", "longley", """Excluding the years in which unemployment was above its median across the table
   (the median over all 16 years), what is the average size of the armed forces? One decimal.""")
def longley_armed_forces_low_unemployment_years(d: Data) -> dict[str, Any]:
    lg = d["longley"]
    return {"value": r(lg[lg["UNEMP"] <= lg["UNEMP"].median()]["ARMED"].mean(), 1)}


# --- grunfeld: 11 firms, 1935-1954 -------------------------------------------------------------------------------


@q("count_share", "grunfeld", """In 1940, what share of the gross investment of all firms in the table together
   came from US Steel? Give a percentage rounded to two decimals.""")
def grunfeld_us_steel_share_1940(d: Data) -> dict[str, Any]:
    g = d["grunfeld"].query("year == 1940")
    return {"value": r(100 * g[g["firm"] == "US Steel"]["invest"].sum() / g["invest"].sum(), 2)}


@q("argmax", "grunfeld", """Other than General Motors, which firm invested the most on average per year over the
   whole period?""", checker="exact")
def grunfeld_biggest_investor_besides_gm(d: Data) -> dict[str, Any]:
    g = d["grunfeld"].query("firm != 'General Motors'")
    return {"firm": unique_arg(g.groupby("firm")["invest"].mean())}


@q("hard", "grunfeld", """For each firm separately, compute the Pearson correlation between its yearly investment
   and its market value. Which firm has the weakest (lowest) correlation?""", checker="exact")
def grunfeld_firm_lowest_invest_value_correlation(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    per_firm = pd.Series({firm: f["invest"].corr(f["value"]) for firm, f in g.groupby("firm")})
    return {"firm": unique_arg(per_firm, largest=False)}


@q("group", "grunfeld", """What was the mean yearly investment of General Electric and of Westinghouse? Give
   @general_electric[value] and @westinghouse[value], two decimals each.""")
def grunfeld_mean_invest_ge_westinghouse(d: Data) -> dict[str, Any]:
    means = d["grunfeld"].groupby("firm")["invest"].mean()
    return {"general_electric": r(means["General Electric"], 2), "westinghouse": r(means["Westinghouse"], 2)}


@q("topk", "grunfeld", """Looking at the last year in the table only, which three firms had the largest capital
   stock?""", checker="contains")
def grunfeld_three_largest_capital_last_year(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    top = g[g["year"] == g["year"].max()].set_index("firm")["capital"].sort_values(ascending=False)
    assert top.iloc[2] > top.iloc[3]
    return {f"firm{k + 1}": str(top.index[k]) for k in range(3)}


@q("hard", "grunfeld", """How many of the firms at least doubled their investment between their first and their
   last recorded year (last year's investment at least twice the first year's)?""")
def grunfeld_firms_doubling_investment(d: Data) -> dict[str, Any]:
    g = d["grunfeld"].sort_values(["firm", "year"])
    ends = g.groupby("firm")["invest"].agg(["first", "last"])
    assert not (ends["last"] == 2 * ends["first"]).any()
    return {"value": int((ends["last"] >= 2 * ends["first"]).sum())}


# --- engel: 235 Belgian working-class households --------------------------------------------------------------


@q("derived", "engel", """Each household's food budget share is food expenditure divided by income. What is the
   median food budget share across households, as @median_share[value] rounded to four decimals?""")
def engel_median_food_budget_share(d: Data) -> dict[str, Any]:
    e = d["engel"]
    return {"median_share": r((e["foodexp"] / e["income"]).median(), 4)}


@q("regression", "engel", """What is the income elasticity of food spending? Fit log(food expenditure) on
   log(income), natural logs, OLS with an intercept, and give the slope as @elasticity[value] to four
   decimals.""")
def engel_log_log_elasticity(d: Data) -> dict[str, Any]:
    e = d["engel"]
    return {"elasticity": r(ols(np.log(e["foodexp"]), np.log(e["income"]))["slope"], 4)}


@q("outlier", "engel", """How many households are income outliers by Tukey's fences (below Q1 - 1.5 IQR or above
   Q3 + 1.5 IQR, quartiles by linear interpolation)?""")
def engel_income_tukey_outliers(d: Data) -> dict[str, Any]:
    return {"value": iqr_outliers(d["engel"]["income"])}


# --- spector: 32 students, a new teaching method (PSI) and whether their grade improved (GRADE) -----------------


@q("count_share", "spector", """Of the students taught with the new method (PSI = 1), what fraction improved their
   grade (GRADE = 1)? Three decimals.""")
def spector_improved_fraction_new_method(d: Data) -> dict[str, Any]:
    s = d["spector"]
    return {"value": r(s[s["PSI"] == 1]["GRADE"].mean(), 3)}


@q("test", "spector", """Is grade improvement associated with the new teaching method? With only 32 students, use
   Fisher's exact test (two-sided) on the 2x2 table of PSI against GRADE. Give the p-value as @p[value] to four
   decimals and @associated[yes or no] at the 5% level.""")
def spector_fisher_exact(d: Data) -> dict[str, Any]:
    s = d["spector"]
    result = stats.fisher_exact(pd.crosstab(s["PSI"], s["GRADE"]).to_numpy())
    return {"p": r(result.pvalue, 4), "associated": rejected(float(result.pvalue), 0.05)}


@q("stat_filter", "spector", """What is the mean GPA of the students whose grade did not improve? Two
   decimals.""")
def spector_gpa_not_improved(d: Data) -> dict[str, Any]:
    s = d["spector"]
    return {"value": r(s[s["GRADE"] == 0]["GPA"].mean(), 2)}


# --- stackloss: 21 days of a plant oxidising ammonia to nitric acid -------------------------------------------


@q("regression", "stackloss", """Model the stack loss on all three operating variables at once (air flow, cooling
   water temperature and acid concentration), OLS with an intercept. Report @r_squared[value] and the air flow
   coefficient @airflow[value], both to four decimals.""")
def stackloss_full_model(d: Data) -> dict[str, Any]:
    fit = smf.ols("STACKLOSS ~ AIRFLOW + WATERTEMP + ACIDCONC", data=d["stackloss"]).fit()
    return {"r_squared": r(fit.rsquared, 4), "airflow": r(fit.params["AIRFLOW"], 4)}


@q("stat", "stackloss", """What is the sample variance (ddof=1) of the stack loss over the 21 days? Two
   decimals.""")
def stackloss_variance(d: Data) -> dict[str, Any]:
    return {"value": r(d["stackloss"]["STACKLOSS"].var(ddof=1), 2)}
