"""Probe questions about people: restaurant bills (tips), the affairs survey (fair), the 1996 election survey
(anes96), US state crime rates (statecrime) and diabetes patients (diabetes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import chi2, corr, iqr_outliers, ols, r, unique_arg, unique_mode
from tests.probe.registry import q, rejected

# --- tips: one row per party, Thursday to Sunday; six tips and four sexes are missing -------------------------


@q("count_share", "tips", """The restaurant's log has one row per party. For how many parties is there no tip
   on record at all?""")
def tips_parties_without_tip(d: Data) -> dict[str, Any]:
    return {"value": int(d["tips"]["tip"].isna().sum())}


@q("stat_filter", "tips", """Looking only at dinner service and leaving Saturdays out, what was the average tip
   per party? Parties whose tip is missing don't count. Round to two decimals.""")
def tips_dinner_tip_other_than_saturday(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"value": r(t[(t["time"] == "Dinner") & (t["day"] != "Sat")]["tip"].dropna().mean(), 2)}


@q("count_share", "tips", """Of the parties that came in on a Sunday, what percentage were smokers? Give the
   percentage rounded to one decimal place.""")
def tips_sunday_smoker_percentage(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"value": r(100 * (t[t["day"] == "Sun"]["smoker"] == "Yes").mean(), 1)}


@q("derived", "tips", """How generous are customers relative to the bill? Work out each party's tip as a
   percentage of its total bill and give the median of that percentage, leaving out parties without a recorded
   tip: @median_tip_pct[value], rounded to two decimals.""")
def tips_median_tip_percentage(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    return {"median_tip_pct": r((100 * t["tip"] / t["total_bill"]).median(), 2)}


@q("hard", "tips", """The median bill is computed over all 244 parties. For the parties whose bill was strictly
   above that median, what was the mean tip (missing tips skipped)? Reply as @mean_tip[value], two decimals.""")
def tips_mean_tip_above_median_bill(d: Data) -> dict[str, Any]:
    t = d["tips"]
    assert len(t) == 244 and not (t["total_bill"] == t["total_bill"].median()).any()
    return {"mean_tip": r(t[t["total_bill"] > t["total_bill"].median()]["tip"].dropna().mean(), 2)}


@q("test", "tips", """Do smokers leave a different fraction of the bill as tip than non-smokers? Compute tip
   divided by total_bill for each party with a recorded tip and compare the two groups with Welch's t-test
   (two-sided) at the 5% significance level. Answer @different[yes or no] and the p-value as @p_value[value],
   rounded to three decimals.""")
def tips_welch_tip_fraction_smokers(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    rate = t["tip"] / t["total_bill"]
    result = stats.ttest_ind(rate[t["smoker"] == "Yes"], rate[t["smoker"] == "No"], equal_var=False)
    return {"different": rejected(float(result.pvalue), 0.05), "p_value": r(result.pvalue, 3)}


@q("group", "tips", """What is the average total bill on each of the days the restaurant is open? Answer
   @Thur[value], @Fri[value], @Sat[value] and @Sun[value], each rounded to two decimals.""")
def tips_mean_bill_each_day(d: Data) -> dict[str, Any]:
    means = d["tips"].groupby("day")["total_bill"].mean()
    return {day: r(means[day], 2) for day in ("Thur", "Fri", "Sat", "Sun")}


@q("argmax", "tips", """A party's tip per guest is its tip divided by the number of people in it. On which day of
   the week is the average tip per guest highest? Parties without a recorded tip are excluded. Name the day as it
   is written in the data.""", checker="exact")
def tips_day_highest_tip_per_guest(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    return {"day": unique_arg((t["tip"] / t["size"]).groupby(t["day"]).mean())}


@q("topk", "tips", """Which three calendar dates brought in the most money, counting the sum of total_bill over
   every party that day? List the three dates as YYYY-MM-DD.""", checker="contains")
def tips_three_biggest_dates(d: Data) -> dict[str, Any]:
    totals = d["tips"].groupby("date")["total_bill"].sum().sort_values(ascending=False)
    assert totals.iloc[2] - totals.iloc[3] > 0.01
    return {f"date{k + 1}": str(totals.index[k]) for k in range(3)}


@q("test", "tips", """Is whether a party smokes independent of the sex of the person who paid? Leave out the
   parties whose sex is unknown and run a chi-square test of independence on the 2x2 table without Yates'
   continuity correction. What is the chi-square statistic, rounded to three decimals?""")
def tips_chi2_sex_smoker_no_yates(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["sex"])
    statistic, _, dof = chi2(t, "sex", "smoker", correction=False)
    assert dof == 1
    return {"value": r(statistic, 3)}


@q("hard", "tips", """Tips are often round amounts, so many parties left exactly the same tip. Which tip amount
   was left most often, and by how many parties? Answer @tip[value] and @parties[value].""")
def tips_most_common_tip_and_count(d: Data) -> dict[str, Any]:
    tip = d["tips"]["tip"]
    mode = unique_mode(tip)
    return {"tip": mode, "parties": int((tip == mode).sum())}


@q("stat", "tips", """What size is the middle party, that is, the median number of people per party?""")
def tips_median_party_size(d: Data) -> dict[str, Any]:
    return {"value": float(d["tips"]["size"].median())}


# --- fair: a 1974 survey of married women; `affairs` is a measure of time spent in extramarital affairs ------------


@q("count_share", "fair", """The survey asked married women how much time they spend in extramarital affairs.
   What fraction of the respondents reported none at all? Give it as a fraction between zero and one with three
   decimals.""")
def fair_fraction_reporting_none(d: Data) -> dict[str, Any]:
    return {"value": r((d["fair"]["affairs"] == 0).mean(), 3)}


@q("stat_filter", "fair", """Consider the women who rated their marriage as poorly as anyone in the survey did
   (the lowest marriage rating present in the data). What is their mean affairs value, to three decimals?""")
def fair_affairs_lowest_marriage_rating(d: Data) -> dict[str, Any]:
    f = d["fair"]
    return {"value": r(f[f["rate_marriage"] == f["rate_marriage"].min()]["affairs"].mean(), 3)}


@q("stat_filter", "fair", """Among women married more than 10 years who have at least one child, what is the
   average affairs score? Three decimals, please, as @mean_affairs[value].""")
def fair_affairs_long_marriages_with_children(d: Data) -> dict[str, Any]:
    f = d["fair"]
    return {"mean_affairs": r(f[(f["yrs_married"] > 10) & (f["children"] > 0)]["affairs"].mean(), 3)}


@q("test", "fair", """Is having had any affair at all (an affairs value above zero) related to how religious a
   woman rates herself? Cross-tabulate the two and run a chi-square test of independence. Report the statistic as
   @chi2[value] rounded to two decimals and the degrees of freedom as @dof[value].""")
def fair_chi2_any_affair_religiousness(d: Data) -> dict[str, Any]:
    f = d["fair"]
    f["any_affair"] = f["affairs"] > 0
    statistic, _, dof = chi2(f, "any_affair", "religious")
    return {"chi2": r(statistic, 2), "dof": dof}


# --- anes96: the 1996 American National Election Study -----------------------------------------------------------


@q("stat", "anes96", """In the election survey, how many days a week did respondents watch the TV news, on
   average? Round to two decimals.""")
def anes_mean_days_of_tv_news(d: Data) -> dict[str, Any]:
    return {"value": r(d["anes96"]["TVnews"].mean(), 2)}


@q("count_share", "anes96", """In the survey, vote is 1 for an intended Dole vote and 0 for Clinton. Among
   respondents who never watch TV news, what percentage intended to vote for Dole? One decimal.""")
def anes_dole_share_among_no_tv_news(d: Data) -> dict[str, Any]:
    a = d["anes96"]
    return {"value": r(100 * a[a["TVnews"] == 0]["vote"].mean(), 1)}


@q("derived", "anes96", """Respondents placed themselves and Bill Clinton on the same 7-point left-right scale.
   How far from Clinton do they put themselves on average? Use the absolute difference between the two
   placements and give its mean to three decimals.""")
def anes_mean_distance_from_clinton(d: Data) -> dict[str, Any]:
    a = d["anes96"]
    return {"value": r((a["selfLR"] - a["ClinLR"]).abs().mean(), 3)}


@q("correlation", "anes96", """How closely does party identification go with a respondent's own left-right
   self-placement? Give Kendall's tau-b between the two as @tau[value], rounded to three decimals.""")
def anes_kendall_party_id_self_placement(d: Data) -> dict[str, Any]:
    a = d["anes96"]
    return {"tau": r(corr(a["PID"], a["selfLR"], "kendall"), 3)}


# --- statecrime: 50 states and the District of Columbia ----------------------------------------------------------


def states(d: Data) -> pd.DataFrame:
    """The state crime table with the state names stripped of the spaces some carry."""
    s = d["statecrime"]
    s["state"] = s["state"].str.strip()
    return s


@q("argmax", "statecrime", """Other than the District of Columbia, which state has the highest murder rate?""",
   checker="exact")
def statecrime_highest_murder_other_than_dc(d: Data) -> dict[str, Any]:
    s = states(d)
    s = s[s["state"] != "District of Columbia"]
    return {"state": unique_arg(s.set_index("state")["murder"])}


@q("hard", "statecrime", """Rank all 51 rows of the table (the states plus DC) by violent crime rate, 1 being the
   most violent. What rank does Texas get?""")
def statecrime_texas_violent_rank(d: Data) -> dict[str, Any]:
    s = states(d)
    assert len(s) == 51 and s["violent"].is_unique
    rank = int(s.set_index("state")["violent"].rank(ascending=False)["Texas"])
    assert rank != 51
    return {"value": rank}


@q("hard", "statecrime", """Rank the states and DC by murder rate, rank 1 for the highest rate; states with
   the same rate share the average of the ranks they occupy. What rank does Texas get? Answer @rank[value].""")
def statecrime_texas_murder_rank_with_ties(d: Data) -> dict[str, Any]:
    s = states(d).set_index("state")["murder"]
    assert (s == s["Texas"]).sum() > 1
    return {"rank": float(s.rank(ascending=False, method="average")["Texas"])}


@q("derived", "statecrime", """Murders per 100 violent crimes: divide each state's murder rate by its violent
   crime rate and multiply by 100. What is the median of that figure over the 50 states and DC? Answer
   @murders_per_100[value], to three decimals.""")
def statecrime_median_murders_per_hundred_violent(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    return {"murders_per_100": r((100 * s["murder"] / s["violent"]).median(), 3)}


@q("stat_filter", "statecrime", """Take the states (DC included) whose share of people living in urban areas is
   strictly above the median of that share. What is their mean murder rate, to two decimals?""")
def statecrime_murder_in_more_urban_states(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    return {"value": r(s[s["urban"] > s["urban"].median()]["murder"].mean(), 2)}


@q("correlation", "statecrime", """Across the states and DC, is poverty associated with violent crime? Give the
   Spearman rank correlation of the poverty rate with the violent crime rate as @rho[value], three decimals.""")
def statecrime_spearman_poverty_violent(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    return {"rho": r(corr(s["poverty"], s["violent"], "spearman"), 3)}


@q("regression", "statecrime", """Regress the violent crime rate on the percentage of single-parent households
   (ordinary least squares with an intercept, all 51 rows). Report @slope[value] to two decimals and
   @r_squared[value] to three decimals.""")
def statecrime_violent_on_single(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    fit = ols(s["violent"], s["single"])
    return {"slope": r(fit["slope"], 2), "r_squared": r(fit["r2"], 3)}


@q("topk", "statecrime", """Leaving the District of Columbia out, which three states have the highest poverty
   rates? Name them.""", checker="contains")
def statecrime_three_poorest_states(d: Data) -> dict[str, Any]:
    s = states(d)
    top = s[s["state"] != "District of Columbia"].set_index("state")["poverty"].sort_values(ascending=False)
    assert top.iloc[2] > top.iloc[3]
    return {f"state{k + 1}": str(top.index[k]) for k in range(3)}


# --- diabetes: 442 patients, ten baseline measurements and a disease progression score a year later -------------


@q("stat_filter", "diabetes", """For the patients whose body-mass index is at or above the 75th percentile of BMI
   (linear interpolation), what is the mean disease progression score one year later? Two decimals.""")
def diabetes_progression_top_bmi_quarter(d: Data) -> dict[str, Any]:
    p = d["diabetes"]
    return {"value": r(p[p["bmi"] >= p["bmi"].quantile(0.75)]["progression"].mean(), 2)}


@q("regression", "diabetes", """Fit an ordinary least squares model of progression on bmi and bp together (with
   an intercept). Give @r_squared[value] to four decimals and the bmi coefficient as @bmi_coef[value] to three
   decimals.""")
def diabetes_progression_on_bmi_and_bp(d: Data) -> dict[str, Any]:
    fit = smf.ols("progression ~ bmi + bp", data=d["diabetes"]).fit()
    return {"r_squared": r(fit.rsquared, 4), "bmi_coef": r(fit.params["bmi"], 3)}


@q("correlation", "diabetes", """What's the Pearson correlation between a patient's average blood pressure and
   the disease progression score? Round to three decimals.""")
def diabetes_pearson_blood_pressure_progression(d: Data) -> dict[str, Any]:
    p = d["diabetes"]
    return {"value": r(corr(p["bp"], p["progression"], "pearson"), 3)}


@q("test", "diabetes", """Sex is coded 1 and 2 in the diabetes table. Does disease progression differ between
   the two? Use a two-sided Mann-Whitney U test at the 0.05 level and answer @differs[yes or no].""",
   checker="exact")
def diabetes_mannwhitney_progression_by_sex(d: Data) -> dict[str, Any]:
    p = d["diabetes"]
    result = stats.mannwhitneyu(p[p["sex"] == 1]["progression"], p[p["sex"] == 2]["progression"],
                                alternative="two-sided")
    return {"differs": rejected(float(result.pvalue), 0.05)}


@q("outlier", "diabetes", """Column s5 holds the log of serum triglycerides. How many patients are outliers on it
   by the 1.5 x IQR rule, with quartiles by linear interpolation?""")
def diabetes_iqr_outliers_triglycerides(d: Data) -> dict[str, Any]:
    return {"value": iqr_outliers(d["diabetes"]["s5"])}


@q("multi_stat", "diabetes", """Summarise the age of the patients who are not in sex group 1: give
   @mean_age[value] (two decimals), @median_age[value] and the sample standard deviation @sd_age[value] (ddof=1,
   two decimals).""")
def diabetes_age_summary_other_sex(d: Data) -> dict[str, Any]:
    age = d["diabetes"].query("sex != 1")["age"]
    return {"mean_age": r(age.mean(), 2), "median_age": float(age.median()), "sd_age": r(np.std(age, ddof=1), 2)}
