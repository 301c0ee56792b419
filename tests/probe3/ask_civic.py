"""Questions about US states (statecrime) and the 1996 election survey (anes96)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, r, unique_arg
from tests.probe3.registry import q, rejected


def _states(d: Data) -> pd.DataFrame:
    frame = d["statecrime"]
    return frame[frame["state"] != "District of Columbia"]


@q("stat", "statecrime",
   "statecrime table: what's the median poverty rate across all the rows (the 50 states and DC)? "
   "One decimal place.")
def civic_median_poverty(d: Data) -> dict[str, Any]:
    return {"median_poverty": r(d["statecrime"]["poverty"].median(), 1)}


@q("stat_filter", "statecrime",
   "Average murder rate (murders per 100,000 residents) for states where fewer than 85 percent of adults "
   "graduated from high school. Leave the District of Columbia out. Answer as @mean_murder[value], 2 decimals.")
def civic_murder_low_grad(d: Data) -> dict[str, Any]:
    frame = _states(d)
    assert not (frame["hs_grad"] == 85).any()
    return {"mean_murder": r(frame.loc[frame["hs_grad"] < 85, "murder"].mean(), 2)}


@q("derived", "statecrime",
   "The murder column is per 100,000 people. Re-express it per 1 million people and give the mean over the 50 "
   "states, DC not included, rounded to one decimal.")
def civic_murder_per_million(d: Data) -> dict[str, Any]:
    return {"mean_per_million": r((_states(d)["murder"] * 10).mean(), 1)}


@q("correlation", "statecrime",
   "Spearman rank correlation between the share of single-parent households and the violent crime rate, "
   "District of Columbia excluded. @rho[value] to 3 dp.")
def civic_spearman_single_violent(d: Data) -> dict[str, Any]:
    frame = _states(d)
    return {"rho": r(corr(frame["single"], frame["violent"], "spearman"), 3)}


@q("argmax", "statecrime",
   "Which state (count DC as a state here) has the largest number of murders per 100 violent crimes? "
   "Give its name as written in the table.", checker="exact")
def civic_argmax_murder_share(d: Data) -> dict[str, Any]:
    frame = d["statecrime"].set_index("state")
    return {"state": unique_arg(frame["murder"] / frame["violent"] * 100)}


@q("topk", "statecrime",
   "List the three least urbanised states by the urban column, lowest first, DC excluded from the ranking.",
   checker="contains")
def civic_top3_least_urban(d: Data) -> dict[str, Any]:
    ordered = _states(d).sort_values("urban")
    assert ordered["urban"].iloc[2] != ordered["urban"].iloc[3]
    names = ordered["state"].tolist()
    return {"first": names[0], "second": names[1], "third": names[2]}


@q("hard", "statecrime",
   "How many of the 51 rows have a poverty rate strictly above the median poverty rate of all 51 rows while "
   "also having a murder rate strictly below the median murder rate of all 51 rows?")
def civic_count_poor_safe(d: Data) -> dict[str, Any]:
    frame = d["statecrime"]
    pm, mm = frame["poverty"].median(), frame["murder"].median()
    return {"count": int(((frame["poverty"] > pm) & (frame["murder"] < mm)).sum())}


@q("outlier", "statecrime",
   "Using the 1.5 x IQR rule with linearly interpolated quartiles, how many of the 51 rows (states plus DC) are "
   "outliers in the violent crime rate?")
def civic_iqr_violent(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["statecrime"]["violent"])}


@q("regression", "statecrime",
   "I'm trying to see how poverty and family structure relate to violent crime across the states. Fit an OLS "
   "of the violent crime rate on the poverty rate and the single-parent household share (with an intercept, "
   "all 51 rows, DC included). Report the single-parent coefficient as @coef_single[value] (2 dp) and the "
   "R-squared as @r2[value] (3 dp).")
def civic_ols_violent(d: Data) -> dict[str, Any]:
    frame = d["statecrime"]
    fit = sm.OLS(frame["violent"], sm.add_constant(frame[["poverty", "single"]])).fit()
    return {"coef_single": r(fit.params["single"], 2), "r2": r(fit.rsquared, 3)}


@q("count_share", "statecrime",
   "In what fraction of states is the white share of the population at least 90 percent? Don't count the "
   "District of Columbia, and give the answer as a percentage with one decimal.")
def civic_share_white90(d: Data) -> dict[str, Any]:
    frame = _states(d)
    return {"percent": r((frame["white"] >= 90).mean() * 100, 1)}


@q("stat_filter", "anes96",
   "Among respondents aged 30 to 45 (both ends included), how many days a week did they watch TV news on "
   "average? Round to 2 decimals.")
def civic_tvnews_30_45(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    return {"mean_days": r(frame.loc[frame["age"].between(30, 45), "TVnews"].mean(), 2)}


@q("test", "anes96",
   "anes96: vote is 1 for Dole and 0 for Clinton. Do Dole voters place themselves further right on the 7-point "
   "liberal-conservative scale (selfLR) than Clinton voters? Welch's t-test, t computed as Dole minus Clinton. "
   "@t[value] (2 dp), @p_value[value] (4 significant figures is fine) and @reject_at_1pct[yes/no].")
def civic_welch_selflr_vote(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    res = stats.ttest_ind(frame.loc[frame["vote"] == 1, "selfLR"], frame.loc[frame["vote"] == 0, "selfLR"],
                          equal_var=False)
    return {"t": r(res.statistic, 2), "p_value": float(res.pvalue),
            "reject_at_1pct": rejected(float(res.pvalue), 0.01)}


@q("count_share", "anes96",
   "What percentage of the survey's respondents are strong Republicans (party identification code 6 on the "
   "0-6 PID scale)? One decimal.")
def civic_share_strong_rep(d: Data) -> dict[str, Any]:
    return {"percent": r((d["anes96"]["PID"] == 6).mean() * 100, 1)}


@q("test", "anes96",
   "Is the choice of candidate (vote) independent of education level (educ, all 7 codes)? Run a Pearson "
   "chi-square test of independence on the vote-by-educ table: @chi2[statistic, 2 dp], @dof[degrees of "
   "freedom] and @p_value[value, 3 significant figures].")
def civic_chi2_vote_educ(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    res = stats.chi2_contingency(pd.crosstab(frame["vote"], frame["educ"]))
    return {"chi2": r(res.statistic, 2), "dof": int(res.dof), "p_value": float(res.pvalue)}


@q("multi_stat", "anes96",
   "Income bracket in the anes96 file (income, coded 1 to 24): give the minimum as @min[value], the median as "
   "@median[value] and the interquartile range (linear interpolation) as @iqr[value].")
def civic_income_summary(d: Data) -> dict[str, Any]:
    income = d["anes96"]["income"]
    return {"min": int(income.min()), "median": float(income.median()),
            "iqr": float(income.quantile(0.75) - income.quantile(0.25))}


@q("hard", "anes96",
   "Restrict to respondents who put Clinton to the left of Dole on the 7-point scale (ClinLR strictly less than "
   "DoleLR). Of those, what share voted for Dole (vote = 1)? As a percentage, 1 decimal.")
def civic_share_dole_ordered(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    chosen = frame[frame["ClinLR"] < frame["DoleLR"]]
    return {"percent": r((chosen["vote"] == 1).mean() * 100, 1)}


@q("group", "anes96",
   "Mean age of the respondents by the candidate they voted for (vote 0 = Clinton, vote 1 = Dole), one decimal "
   "each: @clinton_age[value] @dole_age[value]")
def civic_age_by_vote(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    means = frame.groupby("vote")["age"].mean()
    return {"clinton_age": r(means[0], 1), "dole_age": r(means[1], 1)}


@q("correlation", "anes96",
   "Kendall's tau-b between how old a respondent is and how many days a week they watch the TV news. "
   "Three decimals please.")
def civic_kendall_age_tv(d: Data) -> dict[str, Any]:
    frame = d["anes96"]
    return {"tau": r(corr(frame["age"], frame["TVnews"], "kendall"), 3)}
