"""Questions about people: restaurant bills and tips, the 1996 election survey, the affairs survey, state crime."""

from __future__ import annotations

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import chi2, corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe2.registry import q, rejected


def _states(data: Data) -> pd.DataFrame:
    frame = data["statecrime"]
    frame["state"] = frame["state"].str.strip()
    return frame


def _fifty(data: Data) -> pd.DataFrame:
    frame = _states(data)
    return frame[frame["state"] != "District of Columbia"]


# ---------------------------------------------------------------- tips

@q("stat_filter", "tips", "median tip, dinner only, 2dp (skip rows with no tip)")
def tips_median_tip_dinner_terse(d: Data) -> dict:
    t = d["tips"]
    return {"median_tip": r(t.loc[t["time"] == "Dinner", "tip"].dropna().median(), 2)}


@q("stat_filter", "tips",
   "Our weekend manager wants a number for the board. What was the average bill on Saturdays and Sundays, "
   "not counting tables of one? Give it to the nearest cent.")
def tips_weekend_mean_bill_no_singles(d: Data) -> dict:
    t = d["tips"]
    rows = t[t["day"].isin(["Sat", "Sun"]) & (t["size"] > 1)]
    return {"mean_bill": r(rows["total_bill"].mean(), 2)}


@q("count_share", "tips",
   "Of the parties whose payer is recorded as female (parties with no sex recorded are left out), what share "
   "were smoking parties? As a percentage with one decimal.")
def tips_share_smokers_among_women(d: Data) -> dict:
    t = d["tips"]
    women = t[t["sex"] == "Female"]
    return {"percent": r(100 * (women["smoker"] == "Yes").mean(), 1)}



@q("derived", "tips",
   "Express each tip as a percentage of its total bill. Across the parties that left a recorded tip, what is "
   "the median of that percentage? One decimal place.")
def tips_median_tip_percent(d: Data) -> dict:
    t = d["tips"].dropna(subset=["tip"])
    return {"median_percent": r((100 * t["tip"] / t["total_bill"]).median(), 1)}


@q("derived", "tips",
   "For Sunday dinners, divide each bill by the number of people at the table and average the result. "
   "Report it as @per_head[value], rounded to 2 decimals.")
def tips_sunday_dinner_bill_per_head(d: Data) -> dict:
    t = d["tips"]
    rows = t[(t["day"] == "Sun") & (t["time"] == "Dinner")]
    return {"per_head": r((rows["total_bill"] / rows["size"]).mean(), 2)}


@q("test", "tips",
   "Do smokers tip differently from non-smokers? Run Welch's two-sample t-test on the tip (parties with no tip "
   "left out) and give the two-sided p-value as @p_value[value] to 3 decimals, and whether the difference is "
   "significant at the 5% level as @significant[yes or no].")
def tips_welch_tip_smokers(d: Data) -> dict:
    t = d["tips"]
    res = stats.ttest_ind(t.loc[t["smoker"] == "Yes", "tip"].dropna(), t.loc[t["smoker"] == "No", "tip"].dropna(),
                          equal_var=False)
    return {"p_value": r(res.pvalue, 3), "significant": rejected(res.pvalue, 0.05)}


@q("test", "tips",
   "Mann-Whitney U test comparing total bills at lunch against total bills at dinner. I want the U statistic "
   "of the lunch sample, i.e. the number of (lunch, dinner) pairs in which the lunch bill is the larger, with "
   "ties counted as one half. Whole number.")
def tips_mannwhitney_u_lunch(d: Data) -> dict:
    t = d["tips"]
    res = stats.mannwhitneyu(t.loc[t["time"] == "Lunch", "total_bill"], t.loc[t["time"] == "Dinner", "total_bill"])
    u = float(res.statistic)
    assert u == int(u) or abs(u - round(u)) != 0.5, "U ends in .5: rounding is ambiguous"
    return {"U": int(round(u))}


@q("test", "tips",
   "Chi-square test of independence between the payer's sex and smoking status (a 2x2 table built from the "
   "rows where sex is recorded), without Yates' continuity correction. Chi-square statistic to 3 decimals.")
def tips_chi2_sex_smoker_no_yates(d: Data) -> dict:
    t = d["tips"].dropna(subset=["sex"])
    stat, _, _ = chi2(t, "sex", "smoker", correction=False)
    return {"chi2": r(stat, 3)}


@q("outlier", "tips",
   "Using the 1.5 x IQR rule with quartiles by linear interpolation, how many total bills are outliers?")
def tips_iqr_outliers_bill(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["tips"]["total_bill"])}


@q("group", "tips",
   "Average tip by day of the week, to 2 decimals, missing tips skipped: @thur[value] @fri[value] @sat[value] "
   "@sun[value]")
def tips_mean_tip_by_day(d: Data) -> dict:
    means = d["tips"].groupby("day")["tip"].mean()
    return {"thur": r(means["Thur"], 2), "fri": r(means["Fri"], 2), "sat": r(means["Sat"], 2),
            "sun": r(means["Sun"], 2)}


@q("argmax", "tips",
   "Which day has the highest median tip rate (tip divided by total bill, parties without a tip dropped)? "
   "Answer with the day exactly as it is written in the day column.", checker="exact")
def tips_day_highest_median_rate(d: Data) -> dict:
    t = d["tips"].dropna(subset=["tip"])
    rate = (t["tip"] / t["total_bill"]).groupby(t["day"]).median()
    return {"day": unique_arg(rate)}


@q("topk", "tips",
   "Add up the total bills per calendar date. Which three dates took the most money? List them as @first[date] "
   "@second[date] @third[date] in YYYY-MM-DD form, largest first.", checker="exact")
def tips_top3_dates_takings(d: Data) -> dict:
    s = d["tips"].groupby("date")["total_bill"].sum().sort_values(ascending=False)
    assert s.iloc[2] > s.iloc[3] + 1e-9 and s.iloc[0] > s.iloc[1] and s.iloc[1] > s.iloc[2]
    return {"first": s.index[0], "second": s.index[1], "third": s.index[2]}


@q("hard", "tips",
   "Running the dates in order, on which date did the restaurant's cumulative takings (the running sum of "
   "total_bill) first go above 2,500 dollars? Give the date as YYYY-MM-DD.", checker="exact")
def tips_date_cumulative_takings_pass(d: Data) -> dict:
    s = d["tips"].groupby("date")["total_bill"].sum().sort_index().cumsum()
    return {"date": s[s > 2500].index[0]}


@q("regression", "tips",
   "Fit tip = a + b * total_bill by ordinary least squares on the parties that have a tip. What are b and a? "
   "Slope to 4 decimals, intercept to 3 decimals.")
def tips_ols_tip_on_bill(d: Data) -> dict:
    t = d["tips"]
    fit = ols(t["tip"], t["total_bill"])
    return {"slope": r(fit["slope"], 4), "intercept": r(fit["intercept"], 3)}


@q("correlation", "tips",
   "spearman rank corr between party size and tip, pairs with a missing tip dropped, 3 d.p.")
def tips_spearman_size_tip(d: Data) -> dict:
    t = d["tips"]
    return {"rho": r(corr(t["size"], t["tip"], "spearman"), 3)}


@q("multi_stat", "tips",
   "For lunch parties only, give the smallest bill, the largest bill and the mean bill as @min_bill[value] "
   "@max_bill[value] @mean_bill[value] (2 decimals).")
def tips_lunch_bill_summary(d: Data) -> dict:
    t = d["tips"]
    b = t.loc[t["time"] == "Lunch", "total_bill"]
    return {"min_bill": r(b.min(), 2), "max_bill": r(b.max(), 2), "mean_bill": r(b.mean(), 2)}


@q("group", "tips",
   "How much higher is the median total bill at dinner than at lunch? Dinner median minus lunch median, in "
   "dollars, to the cent.")
def tips_dinner_minus_lunch_median_bill(d: Data) -> dict:
    t = d["tips"]
    m = t.groupby("time")["total_bill"].median()
    return {"difference": r(m["Dinner"] - m["Lunch"], 2)}


@q("count_share", "tips",
   "How many more dinner parties than lunch parties are there in the data?")
def tips_how_many_more_dinners(d: Data) -> dict:
    counts = d["tips"]["time"].value_counts()
    return {"difference": int(counts["Dinner"] - counts["Lunch"])}


# ---------------------------------------------------------------- anes96

@q("stat", "anes96",
   "In the 1996 American election survey, what is the average age of the 944 respondents? Round to one decimal.")
def anes_mean_age(d: Data) -> dict:
    return {"mean_age": r(d["anes96"]["age"].mean(), 1)}


@q("stat_filter", "anes96",
   "On average, how many days a week do respondents older than 60 watch the TV news? Two decimals.")
def anes_tvnews_over_60(d: Data) -> dict:
    a = d["anes96"]
    return {"days": r(a.loc[a["age"] > 60, "TVnews"].mean(), 2)}


@q("count_share", "anes96",
   "Among strong Republicans (party identification code 6), what fraction voted for Dole (vote = 1)? "
   "Report @fraction[value] as a proportion between 0 and 1 with 3 decimals.")
def anes_strong_rep_dole_fraction(d: Data) -> dict:
    a = d["anes96"]
    return {"fraction": r(a.loc[a["PID"] == 6, "vote"].mean(), 3)}


@q("correlation", "anes96",
   "Kendall's tau-b between where respondents place themselves on the liberal-conservative scale and where "
   "they place Clinton on it. @tau[value], 3 decimals.")
def anes_kendall_self_clinton(d: Data) -> dict:
    a = d["anes96"]
    return {"tau": r(stats.kendalltau(a["selfLR"], a["ClinLR"]).statistic, 3)}


@q("argmax", "anes96",
   "Looking only at income codes held by at least 40 respondents, which income code has the highest share of "
   "Dole voters? Give the code as @income_code[value].")
def anes_income_code_most_dole(d: Data) -> dict:
    a = d["anes96"]
    g = a.groupby("income")["vote"].agg(["mean", "size"])
    g = g[g["size"] >= 40]
    return {"income_code": int(unique_arg(g["mean"]))}


@q("test", "anes96",
   "Is the vote (Clinton vs Dole) independent of the respondent's education level? Chi-square test of "
   "independence on the vote x education table. Give @dof[value] and @reject_at_1pct[yes or no].")
def anes_chi2_vote_educ(d: Data) -> dict:
    _, p, dof = chi2(d["anes96"], "vote", "educ")
    return {"dof": dof, "reject_at_1pct": rejected(p, 0.01)}


# ---------------------------------------------------------------- fair (affairs)

@q("count_share", "fair",
   "In the affairs survey, what percentage of the women report spending any time at all in extramarital "
   "affairs (a value above zero)? Percentage, one decimal.")
def fair_percent_any_affair(d: Data) -> dict:
    return {"percent": r(100 * (d["fair"]["affairs"] > 0).mean(), 1)}



@q("group", "fair",
   "Mean affairs score for each self-rating of the marriage, from 1 (very poor) to 5 (very good), 3 decimals "
   "each: @rating_1[value] @rating_2[value] @rating_3[value] @rating_4[value] @rating_5[value]")
def fair_mean_affairs_by_rating(d: Data) -> dict:
    m = d["fair"].groupby("rate_marriage")["affairs"].mean()
    return {f"rating_{k}": r(m[k], 3) for k in range(1, 6)}


@q("test", "fair",
   "One-way ANOVA: does the affairs measure differ across the religiousness levels? F statistic to 2 decimals.")
def fair_anova_affairs_religious(d: Data) -> dict:
    f = d["fair"]
    res = stats.f_oneway(*[g["affairs"] for _, g in f.groupby("religious")])
    return {"F": r(res.statistic, 2)}


@q("outlier", "fair",
   "How many women have an affairs value lying more than 3 standard deviations from the mean of affairs?")
def fair_z_outliers_affairs(d: Data) -> dict:
    return {"count": z_outliers(d["fair"]["affairs"])}


@q("regression", "fair",
   "Multiple regression of affairs on age, years married and number of children (OLS with an intercept). "
   "Give the intercept and the coefficient on age, 4 decimals: @intercept[value] @coef_age[value].")
def fair_multi_regression_yrs(d: Data) -> dict:
    import statsmodels.api as sm

    f = d["fair"]
    fit = sm.OLS(f["affairs"], sm.add_constant(f[["age", "yrs_married", "children"]])).fit()
    return {"intercept": r(fit.params["const"], 4), "coef_age": r(fit.params["age"], 4)}


# ---------------------------------------------------------------- statecrime

@q("stat_filter", "statecrime",
   "Across the 50 states, leaving out the District of Columbia, what is the mean murder rate (per 100,000 "
   "people)? Two decimals.")
def statecrime_mean_murder_without_dc(d: Data) -> dict:
    return {"mean": r(_fifty(d)["murder"].mean(), 2)}


@q("derived", "statecrime",
   "For every state other than DC, work out murders per 1,000 violent crimes (both columns are rates per "
   "100,000 people). What's the median of that figure? One decimal.")
def statecrime_median_murders_per_1000_violent(d: Data) -> dict:
    s = _fifty(d)
    return {"median": r((1000 * s["murder"] / s["violent"]).median(), 1)}


@q("topk", "statecrime",
   "Top 3 states by violent crime rate, not counting the District of Columbia, highest first. Answer with the "
   "state names as @first[name] @second[name] @third[name].", checker="exact")
def statecrime_top3_violent(d: Data) -> dict:
    s = _fifty(d).set_index("state")["violent"].sort_values(ascending=False)
    assert s.iloc[2] > s.iloc[3]
    return {"first": s.index[0], "second": s.index[1], "third": s.index[2]}


@q("correlation", "statecrime",
   "Is poverty associated with the murder rate? Give the Pearson correlation between the two across all 51 rows "
   "(DC included), to 3 decimals.")
def statecrime_pearson_poverty_murder(d: Data) -> dict:
    s = _states(d)
    return {"r": r(corr(s["poverty"], s["murder"], "pearson"), 3)}


@q("argmax", "statecrime",
   "Excluding DC, which state has the lowest share of high-school graduates?", checker="exact")
def statecrime_lowest_hs_grad(d: Data) -> dict:
    return {"state": unique_arg(_fifty(d).set_index("state")["hs_grad"], largest=False)}


@q("count_share", "statecrime",
   "How many states (DC not counted) have a poverty rate strictly above the median poverty rate of those same "
   "50 states and also an urban share below 60?")
def statecrime_count_poor_and_rural(d: Data) -> dict:
    s = _fifty(d)
    med = s["poverty"].median()
    assert not (s["urban"] == 60).any()
    return {"count": int(((s["poverty"] > med) & (s["urban"] < 60)).sum())}
