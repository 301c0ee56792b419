"""Fresh questions on survey and people tables: fair, anes96, spector, tips."""

from __future__ import annotations

import pandas as pd
from scipy import stats

from tests.fresh.registry import q, rejected
from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, ttest, unique_arg

# --- fair: extramarital affairs survey (women) ---


@q("count_share", "fair", "What percentage of the women in the affairs survey report any time spent in "
   "affairs (affairs greater than zero)? @pct_any_affair[value], 2 decimals.")
def fair_pct_any_affair(d: Data) -> dict:
    return {"pct_any_affair": r((d["fair"]["affairs"] > 0).mean() * 100, 2)}


@q("group", "fair", "Break down the mean of affairs by marriage rating (rate_marriage, 1 = very poor to 5 = "
   "very good). Report @rating_1[value], @rating_3[value] and @rating_5[value], each to 3 decimals.")
def fair_affairs_by_rating(d: Data) -> dict:
    g = d["fair"].groupby("rate_marriage")["affairs"].mean()
    return {"rating_1": r(g[1], 3), "rating_3": r(g[3], 3), "rating_5": r(g[5], 3)}


@q("test", "fair", "Build a 2x2 table: has children (children > 0) versus had an affair (affairs > 0). Run a "
   "chi-square test of independence with Yates' continuity correction. Chi-square statistic as "
   "@chi2[value], 2 decimals.")
def fair_chi2_children_affair(d: Data) -> dict:
    f = d["fair"]
    table = pd.crosstab(f["children"] > 0, f["affairs"] > 0)
    assert table.shape == (2, 2)
    return {"chi2": r(stats.chi2_contingency(table, correction=True).statistic, 2)}


@q("stat_filter", "fair", "Women aged 32 or over who have four or more children: what's their average number "
   "of years married? Round to 2 dp.")
def fair_yrs_married_older_big_family(d: Data) -> dict:
    f = d["fair"]
    return {"mean_yrs": r(f.loc[(f["age"] >= 32) & (f["children"] >= 4), "yrs_married"].mean(), 2)}


@q("argmax", "fair", "Which occupation code (the woman's own occupation) has the highest proportion of women "
   "with affairs > 0? Answer with the code as @occupation[value].")
def fair_occupation_max_affair_share(d: Data) -> dict:
    f = d["fair"]
    return {"occupation": int(unique_arg((f["affairs"] > 0).groupby(f["occupation"]).mean()))}


@q("correlation", "fair", "What is Kendall's tau-b between religiousness and the marriage rating? 4 decimals.")
def fair_kendall_religious_rating(d: Data) -> dict:
    f = d["fair"]
    return {"kendall": r(corr(f["religious"], f["rate_marriage"], "kendall"), 4)}


@q("hard", "fair", "Group the respondents by education level (educ) and compute mean affairs in each group. "
   "Then give me the median of those group means, 4 decimals.")
def fair_median_educ_means(d: Data) -> dict:
    return {"median": r(d["fair"].groupby("educ")["affairs"].mean().median(), 4)}


# --- anes96: 1996 American National Election Study ---


@q("stat", "anes96", "Mean respondent age in the 1996 election survey, to 2 decimals?")
def anes_mean_age(d: Data) -> dict:
    return {"mean_age": r(d["anes96"]["age"].mean(), 2)}


@q("count_share", "anes96", "In the election survey, vote is coded 1 for Dole and 0 for Clinton. What percent "
   "of respondents are coded as Dole voters? One decimal.")
def anes_pct_dole(d: Data) -> dict:
    return {"pct_dole": r((d["anes96"]["vote"] == 1).mean() * 100, 1)}


@q("test", "anes96", "Do Dole voters and Clinton voters (vote = 1 vs vote = 0) watch different amounts of TV "
   "news (TVnews, days per week)? Two-sided Mann-Whitney U test: @p_value[value] to 4 decimals, and "
   "@reject[yes or no] at the 0.05 level.")
def anes_mannwhitney_tvnews(d: Data) -> dict:
    a = d["anes96"]
    p = stats.mannwhitneyu(a.loc[a["vote"] == 1, "TVnews"], a.loc[a["vote"] == 0, "TVnews"],
                           alternative="two-sided").pvalue
    return {"p_value": r(p, 4), "reject": rejected(p, 0.05)}


@q("group", "anes96", "average self-placement on the liberal-conservative scale (selfLR) for each vote group: "
   "@clinton[value] for vote 0 and @dole[value] for vote 1, 3 dp")
def anes_selflr_by_vote(d: Data) -> dict:
    g = d["anes96"].groupby("vote")["selfLR"].mean()
    return {"clinton": r(g[0], 3), "dole": r(g[1], 3)}


@q("derived", "anes96", "How far do respondents place themselves from where they place Clinton? Compute the "
   "absolute difference |selfLR - ClinLR| per respondent and give its mean, 3 decimals.")
def anes_distance_clinton(d: Data) -> dict:
    a = d["anes96"]
    return {"mean_distance": r((a["selfLR"] - a["ClinLR"]).abs().mean(), 3)}


@q("stat_filter", "anes96", "Median income code among respondents aged 30-49 (inclusive on both ends).")
def anes_median_income_30_49(d: Data) -> dict:
    a = d["anes96"]
    return {"median_income": a.loc[a["age"].between(30, 49), "income"].median()}


# --- spector: a teaching method (PSI) and grades ---


@q("test", "spector", "Students taught with PSI (PSI = 1) vs without (PSI = 0): is there a difference in GPA? "
   "Use the pooled-variance (Student) t-test. Give @p_value[value], 3 decimals.")
def spector_student_gpa_psi(d: Data) -> dict:
    s = d["spector"]
    _, p = ttest(s.loc[s["PSI"] == 1, "GPA"], s.loc[s["PSI"] == 0, "GPA"], True)
    return {"p_value": r(p, 3)}


@q("stat", "spector", "Sample standard deviation (n - 1 denominator) of GPA, 4 decimal places.")
def spector_std_gpa(d: Data) -> dict:
    return {"std_gpa": r(d["spector"]["GPA"].std(ddof=1), 4)}


@q("regression", "spector", "A linear probability model: regress GRADE (1 = grade improved) on GPA by OLS. "
   "What slope do you get? @slope[value], 4 decimals.")
def spector_lpm_gpa(d: Data) -> dict:
    s = d["spector"]
    return {"slope": r(ols(s["GRADE"], s["GPA"])["slope"], 4)}


@q("count_share", "spector", "Of the students who got PSI, how many improved their grade (GRADE = 1)?")
def spector_count_psi_improved(d: Data) -> dict:
    s = d["spector"]
    return {"count": int(((s["PSI"] == 1) & (s["GRADE"] == 1)).sum())}


# --- tips (generated: a restaurant's parties, April-June 2023; some tips and sexes missing) ---


@q("derived", "tips", "Tip as a percentage of the bill: 100 * tip / total_bill for each party with a recorded "
   "tip. What's the average? Two decimals.")
def tips_mean_tip_pct(d: Data) -> dict:
    t = d["tips"]
    return {"mean_tip_pct": r((100 * t["tip"] / t["total_bill"]).mean(), 2)}


@q("group", "tips", "The owner wants the mean tip for each day of the week in the data (Thur, Fri, Sat, Sun), "
   "leaving out parties whose tip is missing. Label each with the day's abbreviation as in the day column and "
   "round to 2 decimals.")
def tips_mean_tip_by_day(d: Data) -> dict:
    g = d["tips"].groupby("day")["tip"].mean()
    return {day: r(g[day], 2) for day in ("Thur", "Fri", "Sat", "Sun")}


@q("test", "tips", "Welch's t-test comparing tips of smokers and non-smokers (missing tips dropped). Is the "
   "difference significant at the 5% level? Give @p_value[value] (4 decimals) and @significant[yes or no].")
def tips_welch_smoker(d: Data) -> dict:
    t = d["tips"]
    _, p = ttest(t.loc[t["smoker"] == "Yes", "tip"], t.loc[t["smoker"] == "No", "tip"], False)
    return {"p_value": r(p, 4), "significant": rejected(p, 0.05)}


@q("stat_filter", "tips", "Dinner parties of four or more people: what's their average total bill, to the cent?")
def tips_dinner_big_party_bill(d: Data) -> dict:
    t = d["tips"]
    return {"mean_bill": r(t.loc[(t["time"] == "Dinner") & (t["size"] >= 4), "total_bill"].mean(), 2)}


@q("stat_filter", "tips", "What was the mean tip for visits in May 2023 (ignore missing tips)? "
   "@mean_tip_may[value], 3 decimals.")
def tips_mean_tip_may(d: Data) -> dict:
    t = d["tips"]
    return {"mean_tip_may": r(t.loc[t["date"].str.startswith("2023-05"), "tip"].mean(), 3)}


@q("argmax", "tips", "Which day of the week brought in the most revenue, summing total_bill? Use the "
   "abbreviation from the day column.", checker="exact")
def tips_day_max_revenue(d: Data) -> dict:
    return {"day": unique_arg(d["tips"].groupby("day")["total_bill"].sum())}


@q("count_share", "tips", "Among Saturday dinner parties, what percentage were smokers? @pct_smokers[value], "
   "1 decimal.")
def tips_pct_smokers_sat_dinner(d: Data) -> dict:
    t = d["tips"]
    sel = t[(t["day"] == "Sat") & (t["time"] == "Dinner")]
    return {"pct_smokers": r((sel["smoker"] == "Yes").mean() * 100, 1)}


@q("hard", "tips", "Running total of revenue: summing total_bill day by day from the first date, how much had "
   "the restaurant billed by the end of April 30, 2023? 2 decimals.")
def tips_cumulative_april(d: Data) -> dict:
    t = d["tips"]
    daily = t.groupby("date")["total_bill"].sum().cumsum()
    return {"cumulative": r(daily[daily.index <= "2023-04-30"].iloc[-1], 2)}


@q("outlier", "tips", "Bills outside [Q1 - 1.5*IQR, Q3 + 1.5*IQR] of total_bill, quartiles by linear "
   "interpolation: how many parties is that? @n_outliers[value]")
def tips_iqr_bill(d: Data) -> dict:
    return {"n_outliers": iqr_outliers(d["tips"]["total_bill"])}


@q("test", "tips", "I'd like to know whether smoking status is associated with the day of the week. Chi-square "
   "test of independence on the smoker-by-day counts: report the p-value, 4 decimal places, as "
   "@p_value[value].")
def tips_chi2_smoker_day(d: Data) -> dict:
    from tests.heldout.stats import chi2

    _, p, _ = chi2(d["tips"], "smoker", "day")
    return {"p_value": r(p, 4)}


@q("topk", "tips", "Give the three dates with the highest total revenue (sum of total_bill that day), as "
   "YYYY-MM-DD.", checker="contains")
def tips_top3_dates(d: Data) -> dict:
    daily = d["tips"].groupby("date")["total_bill"].sum().sort_values(ascending=False)
    assert daily.iloc[2] > daily.iloc[3]
    return {f"date{i + 1}": date for i, date in enumerate(daily.index[:3])}


@q("multi_stat", "tips", "Summarise the tip column (missing values skipped): mean, median and maximum, each to "
   "2 decimals.")
def tips_tip_summary(d: Data) -> dict:
    v = d["tips"]["tip"]
    return {"mean": r(v.mean(), 2), "median": r(v.median(), 2), "maximum": r(v.max(), 2)}


@q("hard", "anes96", "For every party identification category (PID), work out the share of respondents who "
   "voted Dole (vote = 1). How many percentage points separate the highest share from the lowest? "
   "@spread_pp[value], 1 decimal.")
def anes_pid_dole_spread(d: Data) -> dict:
    a = d["anes96"]
    share = (a["vote"] == 1).groupby(a["PID"]).mean() * 100
    return {"spread_pp": r(share.max() - share.min(), 1)}
