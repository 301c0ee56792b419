"""Probe4 questions about money and the economy: grunfeld, macrodata, longley, engel, tips."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg
from tests.probe4.registry import q, rejected

Answer = dict[str, Any]


def _paid(tips: pd.DataFrame) -> pd.DataFrame:
    return tips.dropna(subset=["tip"])


# --- stat -------------------------------------------------------------------------------------------------------

@q("stat", "engel", """We're benchmarking household budgets against the old Engel survey. How spread out is food
   spending across the households there? Give the sample standard deviation (divide by n-1), to the nearest whole
   number.""")
def money_engel_food_spread(d: Data) -> Answer:
    return {"answer": r(d["engel"]["foodexp"].std(ddof=1), 0)}


# --- stat_filter ------------------------------------------------------------------------------------------------

@q("stat_filter", "tips", """median tip, weekend dinners, smokers only (Sat+Sun, time = Dinner, smoker = Yes);
   rows with no tip recorded skipped; 2dp""")
def money_tips_weekend_smoker_dinner_median(d: Data) -> Answer:
    t = _paid(d["tips"])
    sel = t[t["day"].isin(["Sat", "Sun"]) & (t["time"] == "Dinner") & (t["smoker"] == "Yes")]
    return {"answer": r(sel["tip"].median(), 2)}


@q("stat_filter", "grunfeld", """For General Electric in the post-war years (1946 onwards, inclusive), what was the
   average yearly investment? Round to one decimal.""")
def money_grunfeld_ge_postwar(d: Data) -> Answer:
    g = d["grunfeld"]
    sel = g[(g["firm"] == "General Electric") & (g["year"] >= 1946)]
    return {"answer": r(sel["invest"].mean(), 1)}


@q("stat_filter", "macrodata", """What was the typical (mean) unemployment rate during the sixties, i.e. 1960-69,
   all quarters? Two decimals.""")
def money_macro_sixties_unemployment(d: Data) -> Answer:
    m = d["macrodata"]
    return {"answer": r(m[m["year"].between(1960, 1969)]["unemp"].mean(), 2)}


# --- multi_stat -------------------------------------------------------------------------------------------------

@q("multi_stat", "engel", """Engel households, income: the average and the spread (sample standard deviation),
   plus how far apart the average and the middle value are (mean minus median). One decimal each:
   @mean_income[value] @sd_income[value] @mean_minus_median[value]""")
def money_engel_income_summary(d: Data) -> Answer:
    x = d["engel"]["income"]
    return {"mean_income": r(x.mean(), 1), "sd_income": r(x.std(ddof=1), 1),
            "mean_minus_median": r(x.mean() - x.median(), 1)}


@q("multi_stat", "tips", """Lunch service only: how many parties, the total of their bills in dollars, and of
   those parties, how many were a single diner eating alone? @lunch_parties[value] @lunch_bills[value]
   @solo_diners[value] (bills to 2dp)""")
def money_tips_lunch_summary(d: Data) -> Answer:
    t = d["tips"]
    lunch = t[t["time"] == "Lunch"]
    return {"lunch_parties": len(lunch), "lunch_bills": r(lunch["total_bill"].sum(), 2),
            "solo_diners": int((lunch["size"] == 1).sum())}


# --- correlation ------------------------------------------------------------------------------------------------

@q("correlation", "grunfeld", """Across every firm-year in the Grunfeld panel, how closely does a firm's market
   value track its gross investment in rank terms? Spearman's rho, 3 decimals.""")
def money_grunfeld_value_invest_spearman(d: Data) -> Answer:
    g = d["grunfeld"]
    return {"answer": r(corr(g["value"], g["invest"], "spearman"), 3)}


@q("correlation", "macrodata", """Since 1980 (every quarter from 1980 through the end of the table), what is the
   Pearson correlation between the inflation rate and the 3-month T-bill rate? @r[value] to three decimals.""")
def money_macro_infl_tbill_since_1980(d: Data) -> Answer:
    m = d["macrodata"]
    m = m[m["year"] >= 1980]
    return {"r": r(corr(m["infl"], m["tbilrate"], "pearson"), 3)}


# --- test -------------------------------------------------------------------------------------------------------

@q("test", "tips", """A manager thinks smokers tip differently from non-smokers. Leaving out parties whose tip
   wasn't recorded, run Welch's two-sample t-test on the tip amount. Give the p-value to 4 decimals as
   @p_value[value] and say whether the difference is significant at the 5% level, yes or no, as
   @significant[answer].""")
def money_tips_smoker_welch(d: Data) -> Answer:
    t = _paid(d["tips"])
    res = stats.ttest_ind(t[t["smoker"] == "Yes"]["tip"], t[t["smoker"] == "No"]["tip"], equal_var=False)
    return {"p_value": r(res.pvalue, 4), "significant": rejected(float(res.pvalue), 0.05)}


@q("test", "grunfeld", """Did investment differ across firms more than chance would explain? One-way ANOVA of
   yearly investment with firm as the group, all ten firms: the F statistic to two decimals.""")
def money_grunfeld_anova_firm(d: Data) -> Answer:
    g = d["grunfeld"]
    res = stats.f_oneway(*[grp["invest"] for _, grp in g.groupby("firm")])
    return {"answer": r(res.statistic, 2)}


# --- outlier ----------------------------------------------------------------------------------------------------

@q("outlier", "grunfeld", """Leaving General Motors out (it dwarfs the others), how many firm-years have an unusual
   investment figure by the 1.5 x IQR rule (quartiles by linear interpolation)?""")
def money_grunfeld_invest_outliers_no_gm(d: Data) -> Answer:
    g = d["grunfeld"]
    return {"answer": iqr_outliers(g[g["firm"] != "General Motors"]["invest"])}


@q("outlier", "tips", """tips: outliers of bill per person (total_bill / size) by 1.5 IQR, linear quartiles, all
   rows -> @n_outliers[count]""")
def money_tips_bill_per_head_outliers(d: Data) -> Answer:
    t = d["tips"]
    return {"n_outliers": iqr_outliers(t["total_bill"] / t["size"])}


# --- group ------------------------------------------------------------------------------------------------------

@q("group", "grunfeld", """How many more dollars (in the table's units) does General Motors invest in a typical
   year than US Steel? Use each firm's mean yearly investment and give the difference to one decimal.""")
def money_grunfeld_gm_minus_usx(d: Data) -> Answer:
    m = d["grunfeld"].groupby("firm")["invest"].mean()
    return {"answer": r(m["General Motors"] - m["US Steel"], 1)}


@q("group", "tips", """For each day, what percentage of parties were smokers? One decimal, as @Thur[value]
   @Fri[value] @Sat[value] @Sun[value].""")
def money_tips_smoker_share_by_day(d: Data) -> Answer:
    t = d["tips"]
    share = t.groupby("day")["smoker"].apply(lambda s: 100 * (s == "Yes").mean())
    return {day: r(share[day], 1) for day in ("Thur", "Fri", "Sat", "Sun")}


# --- argmax -----------------------------------------------------------------------------------------------------

@q("argmax", "grunfeld", """Adding up the investment of all the firms in each year, which year had the biggest
   combined investment?""")
def money_grunfeld_year_top_total(d: Data) -> Answer:
    return {"answer": int(unique_arg(d["grunfeld"].groupby("year")["invest"].sum()))}


@q("argmax", "macrodata", """During the 1970s (1970 through 1979) which quarter had the lowest 3-month T-bill rate?
   Answer @year[value] and @quarter[value] (quarter as 1-4).""")
def money_macro_seventies_min_tbill(d: Data) -> Answer:
    frame = d["macrodata"]
    m = frame[frame["year"].between(1970, 1979)].set_index(["year", "quarter"])["tbilrate"]
    low = m[m == m.min()]
    assert len(low) == 1
    year, quarter = low.index[0]
    return {"year": int(year), "quarter": int(quarter)}


# --- regression -------------------------------------------------------------------------------------------------

@q("regression", "engel", """Every extra unit of income adds how much food spending? Fit food expenditure on income
   by ordinary least squares with an intercept and give the slope to four decimals.""")
def money_engel_slope(d: Data) -> Answer:
    e = d["engel"]
    return {"answer": r(ols(e["foodexp"], e["income"])["slope"], 4)}


@q("regression", "grunfeld", """Westinghouse only: regress the natural log of investment on the natural log of
   firm value (OLS with intercept). What is the elasticity, i.e. the slope? @elasticity[value], 3dp.""")
def money_grunfeld_westinghouse_loglog(d: Data) -> Answer:
    g = d["grunfeld"]
    w = g[g["firm"] == "Westinghouse"]
    return {"elasticity": r(ols(np.log(w["invest"]), np.log(w["value"]))["slope"], 3)}


@q("regression", "longley", """In the Longley data, how much of the variation in total employment does GNP alone
   explain in a straight-line fit? R-squared to four decimals.""")
def money_longley_r2_gnp(d: Data) -> Answer:
    lo = d["longley"]
    return {"answer": r(ols(lo["TOTEMP"], lo["GNP"])["r2"], 4)}


# --- derived ----------------------------------------------------------------------------------------------------

@q("derived", "tips", """Sunday parties: tip per diner (tip divided by party size), averaged over the Sunday
   parties with a tip on record. Three decimals.""")
def money_tips_sunday_tip_per_diner(d: Data) -> Answer:
    t = _paid(d["tips"])
    t = t[t["day"] == "Sun"]
    return {"answer": r((t["tip"] / t["size"]).mean(), 3)}


@q("derived", "grunfeld", """Chrysler: investment per unit of capital stock, computed for every year, then the
   middle value of those yearly ratios. @median_ratio[value] to 3 decimals.""")
def money_grunfeld_chrysler_invest_capital(d: Data) -> Answer:
    g = d["grunfeld"]
    c = g[g["firm"] == "Chrysler"]
    return {"median_ratio": r((c["invest"] / c["capital"]).median(), 3)}


@q("derived", "longley", """Longley's ARMED and POP columns are both in thousands of people. Armed forces per 1,000
   inhabitants: what was the average of that yearly rate over all years in the table? Two decimals.""")
def money_longley_armed_per_1000(d: Data) -> Answer:
    lo = d["longley"]
    return {"answer": r((lo["ARMED"] / lo["POP"] * 1000).mean(), 2)}


@q("derived", "macrodata", """realcons is in billions of dollars and pop in millions of people. What was real
   consumption per person in dollars, averaged over the four quarters of 2000? Nearest whole dollar:
   @cons_per_person[value]""")
def money_macro_cons_per_person_2000(d: Data) -> Answer:
    m = d["macrodata"]
    m = m[m["year"] == 2000]
    return {"cons_per_person": r((m["realcons"] * 1e9 / (m["pop"] * 1e6)).mean(), 0)}


# --- count_share ------------------------------------------------------------------------------------------------

@q("count_share", "tips", """Out of the parties that have a tip on record, what fraction tipped at least 20% of the
   bill? Give it as a fraction (not a percent) to three decimals as @share[value].""")
def money_tips_share_generous(d: Data) -> Answer:
    t = _paid(d["tips"])
    pct = t["tip"] / t["total_bill"]
    assert not np.isclose(pct, 0.2).any()
    return {"share": r((pct >= 0.2).mean(), 3)}


@q("count_share", "macrodata", """In how many quarters was the real interest rate negative?""")
def money_macro_negative_realint(d: Data) -> Answer:
    return {"answer": int((d["macrodata"]["realint"] < 0).sum())}


# --- topk -------------------------------------------------------------------------------------------------------

@q("topk", "grunfeld", """General Electric's three biggest investment years, largest first (just the years).""",
   checker="contains")
def money_grunfeld_ge_top3_years(d: Data) -> Answer:
    g = d["grunfeld"]
    ge = g[g["firm"] == "General Electric"].sort_values("invest", ascending=False)
    assert ge["invest"].iloc[2] != ge["invest"].iloc[3]
    return {f"top{i + 1}": str(int(y)) for i, y in enumerate(ge["year"].iloc[:3])}


@q("topk", "macrodata", """Which three quarters had the highest inflation? Write each as year and quarter like
   1999Q4, highest first: @first[value] @second[value] @third[value]""", checker="exact")
def money_macro_top3_inflation(d: Data) -> Answer:
    m = d["macrodata"].sort_values("infl", ascending=False)
    assert m["infl"].iloc[2] != m["infl"].iloc[3]
    labels = [f"{int(y)}Q{int(qq)}" for y, qq in zip(m["year"].iloc[:3], m["quarter"].iloc[:3], strict=True)]
    return dict(zip(("first", "second", "third"), labels, strict=True))


# --- hard -------------------------------------------------------------------------------------------------------

@q("hard", "tips", """How many parties left a tip above the median tip of their own day of the week? (Medians over
   the recorded tips of each day; parties with no tip don't count; strictly above.)""")
def money_tips_above_own_day_median(d: Data) -> Answer:
    t = _paid(d["tips"])
    med = t.groupby("day")["tip"].transform("median")
    return {"answer": int((t["tip"] > med).sum())}


@q("hard", "grunfeld", """We want one 'typical firm' figure: take each firm's average yearly investment, then the
   middle value of those ten averages. Two decimals.""")
def money_grunfeld_median_of_firm_means(d: Data) -> Answer:
    return {"answer": r(d["grunfeld"].groupby("firm")["invest"].mean().median(), 2)}


@q("hard", "macrodata", """Annual real GDP is the mean of a year's four quarters; use only the years that have
   all four quarters in the table. Which year had the largest percentage fall in annual real GDP from the year
   before? @year[value], and the fall in percent (positive number, 2dp) as @fall_pct[value].""")
def money_macro_worst_gdp_year(d: Data) -> Answer:
    m = d["macrodata"]
    full = m.groupby("year")["quarter"].count()
    annual = m.groupby("year")["realgdp"].mean()[full == 4]
    change = annual.pct_change() * 100
    year = unique_arg(change.dropna(), largest=False)
    return {"year": int(year), "fall_pct": r(-change[int(year)], 2)}


@q("hard", "engel", """Households are split at the median income into a lower and an upper half (income at or below
   the median is 'lower'). What is the food-spending share of income (food / income, per household) in the lower
   half minus that in the upper half, each half's share being the mean of its households' ratios? Percentage
   points, 2dp.""")
def money_engel_food_share_gap(d: Data) -> Answer:
    e = d["engel"]
    share = e["foodexp"] / e["income"] * 100
    low = e["income"] <= e["income"].median()
    return {"answer": r(share[low].mean() - share[~low].mean(), 2)}
