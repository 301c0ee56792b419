"""Questions about money: restaurant tips, household food spending (engel), the US macro series (macrodata,
longley), firms' investment (grunfeld) and the affairs survey (fair)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg
from tests.probe3.registry import q, rejected


@q("stat_filter", "tips", "median tip, dinner only, 2dp (parties with a blank tip ignored)")
def money_median_tip_dinner(d: Data) -> dict[str, Any]:
    frame = d["tips"]
    return {"median_tip": r(frame.loc[frame["time"] == "Dinner", "tip"].dropna().median(), 2)}


@q("derived", "tips",
   "For Sunday parties only, work out each party's tip as a percentage of its bill, then average those "
   "percentages (skip parties whose tip is missing). @mean_tip_pct[value] with one decimal.")
def money_tip_pct_sunday(d: Data) -> dict[str, Any]:
    frame = d["tips"]
    frame = frame[(frame["day"] == "Sun") & frame["tip"].notna()]
    return {"mean_tip_pct": r((frame["tip"] / frame["total_bill"] * 100).mean(), 1)}


@q("group", "tips",
   "Bill per head (total bill divided by party size), averaged over the parties of each day. Give the four "
   "days Thur, Fri, Sat and Sun, two decimals each.")
def money_bill_per_head_by_day(d: Data) -> dict[str, Any]:
    frame = d["tips"]
    means = (frame["total_bill"] / frame["size"]).groupby(frame["day"]).mean()
    return {day: r(means[day], 2) for day in ("Thur", "Fri", "Sat", "Sun")}


@q("test", "tips",
   "Do smokers and non-smokers tip differently? Two-sided Mann-Whitney U test on tip, missing tips dropped. "
   "Give @p_value[value] and whether it is significant at 0.05 as @significant[yes/no].")
def money_mwu_tip_smoker(d: Data) -> dict[str, Any]:
    frame = d["tips"].dropna(subset=["tip"])
    res = stats.mannwhitneyu(frame.loc[frame["smoker"] == "Yes", "tip"], frame.loc[frame["smoker"] == "No", "tip"],
                             alternative="two-sided")
    return {"p_value": float(res.pvalue), "significant": rejected(float(res.pvalue), 0.05)}


@q("count_share", "tips",
   "Of the parties where the sex column is filled in, what share are Female? "
   "Answer as a fraction rounded to three decimals.")
def money_share_female(d: Data) -> dict[str, Any]:
    sex = d["tips"]["sex"].dropna()
    return {"share": r((sex == "Female").mean(), 3)}


@q("regression", "engel",
   "Engel data. I want the income elasticity of food spending: regress the natural log of food expenditure on "
   "the natural log of income (OLS with intercept) and give the slope as @elasticity[value] to 3 decimals.")
def money_engel_elasticity(d: Data) -> dict[str, Any]:
    frame = d["engel"]
    return {"elasticity": r(ols(np.log(frame["foodexp"]), np.log(frame["income"]))["slope"], 3)}


@q("outlier", "engel",
   "household income (engel): count of 1.5*IQR outliers, quartiles by linear interpolation")
def money_engel_iqr_income(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["engel"]["income"])}


@q("stat", "engel",
   "What's the sample standard deviation of household income in the Engel data? Nearest whole number.")
def money_engel_sd_income(d: Data) -> dict[str, Any]:
    return {"sd": int(round(d["engel"]["income"].std(ddof=1)))}


@q("derived", "engel",
   "Share of income spent on food, household by household (food expenditure over income). What is the median "
   "of that share? Give it as a percentage with two decimals.")
def money_engel_food_share(d: Data) -> dict[str, Any]:
    frame = d["engel"]
    return {"median_pct": r((frame["foodexp"] / frame["income"]).median() * 100, 2)}


@q("stat_filter", "macrodata",
   "Average civilian unemployment rate across the seventies (every quarter from 1970 through 1979). "
   "@mean_unemp[value], 2 decimals.")
def money_unemp_seventies(d: Data) -> dict[str, Any]:
    frame = d["macrodata"]
    return {"mean_unemp": r(frame.loc[frame["year"].between(1970, 1979), "unemp"].mean(), 2)}


@q("correlation", "macrodata",
   "Pearson correlation of the inflation rate with the 3-month T-bill rate, quarters of 1980-89 only, 3dp.")
def money_corr_infl_tbill_80s(d: Data) -> dict[str, Any]:
    frame = d["macrodata"]
    frame = frame[frame["year"].between(1980, 1989)]
    return {"r": r(corr(frame["infl"], frame["tbilrate"], "pearson"), 3)}


@q("count_share", "macrodata",
   "In how many quarters was the real interest rate below zero? (Zero itself does not count.)")
def money_count_negative_realint(d: Data) -> dict[str, Any]:
    return {"quarters": int((d["macrodata"]["realint"] < 0).sum())}


@q("hard", "macrodata",
   "Average real GDP within each calendar year first (only years with all four quarters), then compute the "
   "growth of that yearly average over the previous year in percent. Which year had the highest growth? "
   "@year[value]; and that growth as @growth_pct[value] with 2 decimals.")
def money_best_growth_year(d: Data) -> dict[str, Any]:
    frame = d["macrodata"]
    full = frame.groupby("year").filter(lambda g: len(g) == 4)
    yearly = full.groupby("year")["realgdp"].mean()
    growth = yearly.pct_change() * 100
    growth = growth[growth.index.to_series().diff() == 1]
    return {"year": unique_arg(growth), "growth_pct": r(growth.max(), 2)}


@q("derived", "macrodata",
   "Real GDP per person (realgdp divided by pop): how many times larger was it in the last quarter of the table "
   "than in the first? Round to 2 decimals.")
def money_gdp_per_head_ratio(d: Data) -> dict[str, Any]:
    frame = d["macrodata"]
    per_head = frame["realgdp"] / frame["pop"]
    return {"ratio": r(per_head.iloc[-1] / per_head.iloc[0], 2)}


@q("regression", "longley",
   "Longley: simple OLS of total employment on GNP. @slope[value] (4 dp) and @r2[value] (4 dp).")
def money_longley_emp_gnp(d: Data) -> dict[str, Any]:
    frame = d["longley"]
    fit = ols(frame["TOTEMP"], frame["GNP"])
    return {"slope": r(fit["slope"], 4), "r2": r(fit["r2"], 4)}


@q("hard", "longley",
   "By how many percent did the GNP deflator rise from 1950 to 1960 in the Longley table? One decimal.")
def money_longley_deflator_rise(d: Data) -> dict[str, Any]:
    frame = d["longley"].set_index("YEAR")
    return {"rise_pct": r((frame.loc[1960, "GNPDEFL"] / frame.loc[1950, "GNPDEFL"] - 1) * 100, 1)}


@q("argmax", "grunfeld",
   "Grunfeld panel: for every firm and year take gross investment divided by capital stock, then average "
   "those yearly ratios within each firm. Which firm has the highest average?", checker="exact")
def money_firm_best_invest_ratio(d: Data) -> dict[str, Any]:
    frame = d["grunfeld"]
    return {"firm": unique_arg((frame["invest"] / frame["capital"]).groupby(frame["firm"]).mean())}


@q("topk", "grunfeld",
   "Top 3 firms by total investment summed over 1950-54 (both years included), biggest first.", checker="contains")
def money_top3_invest_50_54(d: Data) -> dict[str, Any]:
    frame = d["grunfeld"]
    totals = frame[frame["year"].between(1950, 1954)].groupby("firm")["invest"].sum().sort_values(ascending=False)
    assert totals.iloc[2] != totals.iloc[3]
    return {"first": totals.index[0], "second": totals.index[1], "third": totals.index[2]}


@q("test", "grunfeld",
   "Comparing General Electric with Westinghouse year by year: is GE's investment different? Paired t-test on "
   "invest matched by year, GE minus Westinghouse. What is the t statistic, to 2 decimals?")
def money_paired_ge_westinghouse(d: Data) -> dict[str, Any]:
    frame = d["grunfeld"].pivot(index="year", columns="firm", values="invest")
    res = stats.ttest_rel(frame["General Electric"], frame["Westinghouse"])
    return {"t": r(res.statistic, 2)}


@q("group", "grunfeld",
   "Median market value per firm, only for US Steel and Chrysler, 1 dp: @us_steel[value] @chrysler[value]")
def money_median_value_two_firms(d: Data) -> dict[str, Any]:
    med = d["grunfeld"].groupby("firm")["value"].median()
    return {"us_steel": r(med["US Steel"], 1), "chrysler": r(med["Chrysler"], 1)}


@q("count_share", "fair",
   "fair dataset: what percent of the women report any time spent in extramarital affairs (affairs greater "
   "than zero)? One decimal.")
def money_fair_share_affairs(d: Data) -> dict[str, Any]:
    return {"percent": r((d["fair"]["affairs"] > 0).mean() * 100, 1)}


@q("test", "fair",
   "One-way ANOVA: does years married differ across the four religiousness levels (religious = 1, 2, 3, 4)? "
   "@F[value] to 2 decimals and @p_value[value].")
def money_fair_anova_religious(d: Data) -> dict[str, Any]:
    frame = d["fair"]
    res = stats.f_oneway(*[g["yrs_married"] for _, g in frame.groupby("religious")])
    return {"F": r(res.statistic, 2), "p_value": float(res.pvalue)}


@q("multi_stat", "fair",
   "For the marriage rating (rate_marriage, 1-5 scale) give the mean to 3 decimals, the mode, and the sample "
   "standard deviation to 3 decimals: @mean[value] @mode[value] @sd[value]")
def money_fair_rating_summary(d: Data) -> dict[str, Any]:
    rating = d["fair"]["rate_marriage"]
    modes = rating.mode()
    assert len(modes) == 1
    return {"mean": r(rating.mean(), 3), "mode": int(modes.iloc[0]), "sd": r(rating.std(ddof=1), 3)}


@q("group", "fair",
   "How does the mean affairs measure vary with how the women rate their marriage? Give the mean for the lowest "
   "rating (1) and for the highest (5), 3 decimals each, as @rating1[value] and @rating5[value].")
def money_fair_affairs_by_rating(d: Data) -> dict[str, Any]:
    means = d["fair"].groupby("rate_marriage")["affairs"].mean()
    return {"rating1": r(means[1], 3), "rating5": r(means[5], 3)}


@q("hard", "tips",
   "Split the bills into the parties above the median total bill (strictly) and the rest. How much higher is "
   "the mean tip of the first group than of the second, in dollars to 2 dp? Ignore missing tips.")
def money_tip_gap_by_bill_median(d: Data) -> dict[str, Any]:
    frame = d["tips"]
    med = frame["total_bill"].median()
    big = frame["total_bill"] > med
    return {"gap": r(frame.loc[big, "tip"].mean() - frame.loc[~big, "tip"].mean(), 2)}


@q("multi_stat", "macrodata",
   "CPI, whole table: first value, last value and the percentage increase between them (1 decimal). "
   "@first_cpi[value] @last_cpi[value] @increase_pct[value]")
def money_cpi_first_last(d: Data) -> dict[str, Any]:
    cpi = d["macrodata"]["cpi"]
    return {"first_cpi": float(cpi.iloc[0]), "last_cpi": float(cpi.iloc[-1]),
            "increase_pct": r((cpi.iloc[-1] / cpi.iloc[0] - 1) * 100, 1)}


@q("outlier", "macrodata",
   "How many quarters have an inflation rate whose z-score exceeds 2.5 in absolute value? Use the sample "
   "standard deviation.")
def money_z_infl(d: Data) -> dict[str, Any]:
    infl = d["macrodata"]["infl"]
    z = (infl - infl.mean()) / infl.std(ddof=1)
    assert not np.isclose(z.abs(), 2.5, atol=1e-3).any()
    return {"quarters": int((z.abs() > 2.5).sum())}

