"""Probe4 questions about people and places: fair, anes96, statecrime, spector."""

from __future__ import annotations

from typing import Any

import pandas as pd
import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe4.registry import q, rejected

Answer = dict[str, Any]


def _states(d: Data) -> pd.DataFrame:
    s = d["statecrime"]
    return s[s["state"] != "District of Columbia"]


# --- stat -------------------------------------------------------------------------------------------------------

@q("stat", "fair", """How long has the typical woman in the affairs survey been married? By typical I mean the
   middle value, not the average. Years, one decimal.""")
def soc_fair_typical_years_married(d: Data) -> Answer:
    return {"answer": r(d["fair"]["yrs_married"].median(), 1)}


@q("stat", "anes96", """how often do 1996 election-survey respondents watch TV news — average days per week,
   2dp""")
def soc_anes_tvnews_mean(d: Data) -> Answer:
    return {"answer": r(d["anes96"]["TVnews"].mean(), 2)}


@q("stat", "statecrime", """murder rate (per 100,000), 90th percentile across all 51 rows incl. DC, linear
   interpolation, 2dp""")
def soc_statecrime_murder_p90(d: Data) -> Answer:
    return {"answer": r(d["statecrime"]["murder"].quantile(0.9), 2)}


# --- stat_filter ------------------------------------------------------------------------------------------------

@q("stat_filter", "fair", """Looking at women younger than 30 who rated themselves 4 on the religiousness scale —
   and, among them, only those with at least one child — what is their mean number of years married? 2dp.""")
def soc_fair_young_religious_mothers(d: Data) -> Answer:
    f = d["fair"]
    sel = f[(f["age"] < 30) & (f["religious"] == 4) & (f["children"] > 0)]
    return {"answer": r(sel["yrs_married"].mean(), 2)}


@q("stat_filter", "statecrime", """Mean violent crime rate of the states that are more than 70% urban, District of
   Columbia not counted as a state. @violent[value], one decimal.""")
def soc_statecrime_urban_violent(d: Data) -> Answer:
    s = _states(d)
    assert not (s["urban"] == 70).any()
    return {"violent": r(s[s["urban"] > 70]["violent"].mean(), 1)}


# --- multi_stat -------------------------------------------------------------------------------------------------

@q("multi_stat", "spector", """Students who showed a grade improvement (GRADE = 1): lowest GPA, highest GPA and the
   range between them. @min_gpa[value] @max_gpa[value] @gpa_range[value], 2dp.""")
def soc_spector_improvers_gpa(d: Data) -> Answer:
    s = d["spector"]
    g = s[s["GRADE"] == 1]["GPA"]
    return {"min_gpa": r(g.min(), 2), "max_gpa": r(g.max(), 2), "gpa_range": r(g.max() - g.min(), 2)}


@q("multi_stat", "anes96", """Respondents' age: the youngest, the oldest and the middle value, for those whose
   party ID is 6 only: @youngest[value] @oldest[value] @median_age[value]""")
def soc_anes_strong_rep_age(d: Data) -> Answer:
    frame = d["anes96"]
    a = frame[frame["PID"] == 6]["age"]
    return {"youngest": int(a.min()), "oldest": int(a.max()), "median_age": float(a.median())}


# --- correlation ------------------------------------------------------------------------------------------------

@q("correlation", "fair", """Women with no children at all: Kendall's tau-b between age and years married,
   @tau[value] to three decimals.""")
def soc_fair_childless_kendall(d: Data) -> Answer:
    f = d["fair"]
    f = f[f["children"] == 0]
    return {"tau": r(corr(f["age"], f["yrs_married"], "kendall"), 3)}


@q("correlation", "statecrime", """Do poorer states have more murders? Pearson correlation of the poverty rate with
   the murder rate over the 50 states (DC excluded), 3 decimals.""")
def soc_statecrime_poverty_murder(d: Data) -> Answer:
    s = _states(d)
    return {"answer": r(corr(s["poverty"], s["murder"], "pearson"), 3)}


# --- test -------------------------------------------------------------------------------------------------------

@q("test", "fair", """Is having had any affair (affairs greater than zero) independent of having any children
   (children greater than zero)? Chi-square test of independence on the 2x2 table with Yates' continuity
   correction: statistic to 2 decimals as @chi2[value], and whether independence is rejected at the 1% level as
   @reject[answer] (yes or no).""")
def soc_fair_affair_children_chi2(d: Data) -> Answer:
    f = d["fair"]
    table = pd.crosstab(f["affairs"] > 0, f["children"] > 0)
    res = stats.chi2_contingency(table, correction=True)
    return {"chi2": r(res.statistic, 2), "reject": rejected(float(res.pvalue), 0.01)}


@q("test", "spector", """Comparing GPA of students taught with the new method (PSI = 1) against the rest (PSI = 0)
   with a Mann-Whitney test: what is the U statistic of the PSI = 1 group (U counted for the first sample, that
   group, as scipy reports it)? One decimal.""")
def soc_spector_mwu(d: Data) -> Answer:
    s = d["spector"]
    res = stats.mannwhitneyu(s[s["PSI"] == 1]["GPA"], s[s["PSI"] == 0]["GPA"], alternative="two-sided")
    return {"answer": r(res.statistic, 1)}


# --- outlier ----------------------------------------------------------------------------------------------------

@q("outlier", "statecrime", """How many of the 51 rows (states plus DC) have a violent-crime rate further than 2.5
   standard deviations from the mean? Sample SD.""")
def soc_statecrime_violent_z(d: Data) -> Answer:
    return {"answer": z_outliers(d["statecrime"]["violent"], 2.5, ddof=1)}


@q("outlier", "fair", """Among women who rated their marriage 1 or 2 (the unhappy ones), how many have an unusual
   affairs score by the 1.5 IQR rule (linear-interpolation quartiles)? @n[value]""")
def soc_fair_unhappy_affairs_outliers(d: Data) -> Answer:
    f = d["fair"]
    return {"n": iqr_outliers(f[f["rate_marriage"] <= 2]["affairs"])}


# --- group ------------------------------------------------------------------------------------------------------

@q("group", "anes96", """Share of respondents with vote = 1, strong Democrats (PID 0) vs strong Republicans (PID 6),
   as percentages with one decimal: @pid0[value] @pid6[value]""")
def soc_anes_vote_share_extremes(d: Data) -> Answer:
    a = d["anes96"]
    share = a.groupby("PID")["vote"].mean() * 100
    return {"pid0": r(share[0], 1), "pid6": r(share[6], 1)}


@q("group", "fair", """Average affairs score for each marriage rating, only the two ends of the scale: rating 1 and
   rating 5. Then how many times larger is the rating-1 figure than the rating-5 one? Give just that ratio, two
   decimals.""")
def soc_fair_affairs_ratio_rating(d: Data) -> Answer:
    m = d["fair"].groupby("rate_marriage")["affairs"].mean()
    return {"answer": r(m[1] / m[5], 2)}


# --- argmax -----------------------------------------------------------------------------------------------------

@q("argmax", "statecrime", """Which state has the lowest high-school graduation rate? Spell it as in the table:
   @state[name]""", checker="exact")
def soc_statecrime_lowest_hsgrad(d: Data) -> Answer:
    s = d["statecrime"].set_index("state")
    return {"state": unique_arg(s["hs_grad"], largest=False)}


@q("argmax", "fair", """Which occupation code has the highest share of women reporting any affair (affairs above
   zero)?""")
def soc_fair_occupation_top_affair_share(d: Data) -> Answer:
    f = d["fair"]
    return {"answer": int(unique_arg(f.groupby("occupation")["affairs"].apply(lambda s: (s > 0).mean())))}


# --- regression -------------------------------------------------------------------------------------------------

@q("regression", "fair", """Women married more than 10 years: straight-line fit of the affairs score on the
   marriage rating (OLS, intercept). Slope to 4 decimals.""")
def soc_fair_affairs_on_rating_long(d: Data) -> Answer:
    f = d["fair"]
    f = f[f["yrs_married"] > 10]
    return {"answer": r(ols(f["affairs"], f["rate_marriage"])["slope"], 4)}


@q("regression", "statecrime", """Regress the murder rate on the single-parent share and the poverty rate together
   (OLS with intercept, all 51 rows). Coefficient on the single-parent share @b_single[value] and the R-squared
   @r2[value], both to 3 decimals.""")
def soc_statecrime_murder_multi(d: Data) -> Answer:
    s = d["statecrime"]
    fit = sm.OLS(s["murder"], sm.add_constant(s[["single", "poverty"]])).fit()
    return {"b_single": r(fit.params["single"], 3), "r2": r(fit.rsquared, 3)}


# --- derived ----------------------------------------------------------------------------------------------------

@q("derived", "statecrime", """For each row, murders as a share of violent crime (both are per-100,000 rates). What
   is the middle value of that share across the rows, as a percentage with two decimals?""")
def soc_statecrime_murder_share_median(d: Data) -> Answer:
    s = d["statecrime"]
    return {"answer": r((s["murder"] / s["violent"] * 100).median(), 2)}


@q("derived", "anes96", """How far apart does each respondent place Clinton and Dole on the left-right scale (the
   absolute difference of the two placements)? Average that gap over all respondents, @mean_gap[value], 3dp.""")
def soc_anes_clinton_dole_gap(d: Data) -> Answer:
    a = d["anes96"]
    return {"mean_gap": r((a["ClinLR"] - a["DoleLR"]).abs().mean(), 3)}


# --- count_share ------------------------------------------------------------------------------------------------

@q("count_share", "fair", """Of the women married more than 10 years, what share reported no affairs at all?
   Percentage, one decimal.""")
def soc_fair_long_married_no_affair(d: Data) -> Answer:
    f = d["fair"]
    f = f[f["yrs_married"] > 10]
    return {"answer": r((f["affairs"] == 0).mean() * 100, 1)}


@q("count_share", "anes96", """How many distinct ages are there among respondents whose income code is 20 or
   higher?""")
def soc_anes_distinct_ages_rich(d: Data) -> Answer:
    a = d["anes96"]
    return {"answer": int(a[a["income"] >= 20]["age"].nunique())}


@q("count_share", "spector", """In this small class study, how many more students improved their grade among those
   taught with PSI than among those without it?""")
def soc_spector_how_many_more(d: Data) -> Answer:
    s = d["spector"]
    n = s[s["GRADE"] == 1].groupby("PSI").size()
    return {"answer": int(n[1] - n[0])}


# --- topk -------------------------------------------------------------------------------------------------------

@q("topk", "statecrime", """Leaving DC aside, which three states have the highest murder rates? Highest first.""",
   checker="contains")
def soc_statecrime_top3_murder(d: Data) -> Answer:
    s = _states(d).sort_values("murder", ascending=False)
    assert s["murder"].iloc[2] != s["murder"].iloc[3]
    return {f"top{i + 1}": name for i, name in enumerate(s["state"].iloc[:3])}


# --- hard -------------------------------------------------------------------------------------------------------

@q("hard", "statecrime", """Among the states (not DC) whose poverty rate is above the median poverty rate of those
   50 states, what is the average high-school graduation rate? 2dp.""")
def soc_statecrime_poor_half_hsgrad(d: Data) -> Answer:
    s = _states(d)
    med = s["poverty"].median()
    return {"answer": r(s[s["poverty"] > med]["hs_grad"].mean(), 2)}


@q("hard", "fair", """For each number of children in the table, take the mean affairs score; what is the spread
   (sample standard deviation) of those per-group means? @sd_of_means[value], 4dp.""")
def soc_fair_sd_of_child_means(d: Data) -> Answer:
    m = d["fair"].groupby("children")["affairs"].mean()
    return {"sd_of_means": r(m.std(ddof=1), 4)}


@q("hard", "anes96", """Self-placement minus Clinton placement on the left-right scale, per respondent. Among people
   who placed themselves to the right of Clinton (a positive difference), what is the typical (median) size of
   that difference?""")
def soc_anes_right_of_clinton_median(d: Data) -> Answer:
    a = d["anes96"]
    diff = a["selfLR"] - a["ClinLR"]
    return {"answer": float(diff[diff > 0].median())}

