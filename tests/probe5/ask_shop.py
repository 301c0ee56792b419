"""Probe5 questions on the restaurant bills and tips table (tips)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, ttest, unique_arg
from tests.probe5.registry import q, rejected


@q("stat", "tips", """@median_tip[value] <- median tip, skip the rows w/o a tip recorded. (2dp pls)""")
def p5_tips_median_tip_terse(d: Data) -> dict[str, Any]:
    return {"median_tip": r(d["tips"]["tip"].median(), 2)}


@q("stat_filter", "tips", """mean(total_bill) where day = Sun & time = Dinner & size >= 3 ; round to 2 decimals""")
def p5_tips_sql_sun_dinner_big(d: Data) -> dict[str, Any]:
    t = d["tips"]
    sel = t[(t["day"] == "Sun") & (t["time"] == "Dinner") & (t["size"] >= 3)]
    return {"mean_bill": r(sel["total_bill"].mean(), 2)}


@q("stat_filter", "tips", """Whats the avg tip for partys of no more than 2 people that where NOT smokers? round 2 dec,
   ignore missing tips""")
def p5_tips_nonsmoker_small_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    sel = t[(t["size"] <= 2) & (t["smoker"] == "No")]
    return {"mean_tip": r(sel["tip"].mean(), 2)}


@q("count_share", "tips", """count rows with tip>5 & day==Sun (strictly more than 5 dollars)""")
def p5_tips_count_sun_big_tips(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"count": int(((t["tip"] > 5) & (t["day"] == "Sun")).sum())}


@q("count_share", "tips", """Of the Saturday parties, what pct were smokers? @smoker_pct[value] -- as a percentage
   with one decimal, not a fraction""")
def p5_tips_sat_smoker_pct(d: Data) -> dict[str, Any]:
    t = d["tips"]
    sat = t[t["day"] == "Sat"]
    return {"smoker_pct": r(100 * (sat["smoker"] == "Yes").mean(), 1)}


@q("group", "tips", """groupby day -> max of total_bill. Answer as @Thur[value] @Fri[value] @Sat[value]
   @Sun[value]""")
def p5_tips_group_max_bill(d: Data) -> dict[str, Any]:
    m = d["tips"].groupby("day")["total_bill"].max()
    return {k: float(m[k]) for k in ("Thur", "Fri", "Sat", "Sun")}


@q("argmax", "tips", """tip per person = tip / size. which day of the week has the highest avg of that? (leave out the
   rows with no tip). give the day exactly as written in the day column.""", checker="exact")
def p5_tips_argmax_day_tip_per_head(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    t["pp"] = t["tip"] / t["size"]
    return {"day": unique_arg(t.groupby("day")["pp"].mean())}


@q("derived", "tips", """For lunch parties only: average of the tip as a % of the total bill (tip/total_bill*100,
   per row, then averaged), not counting parties with no tip on record. Two decimals.""")
def p5_tips_lunch_tip_pct(d: Data) -> dict[str, Any]:
    t = d["tips"]
    t = t[(t["time"] == "Lunch")].dropna(subset=["tip"])
    return {"tip_pct": r((100 * t["tip"] / t["total_bill"]).mean(), 2)}


@q("test", "tips", """Do smokers tip differently from non-smokers? Welch's two-sample t-test (unequal variances) on
   tip, missing tips dropped, two-sided. @p_value[value] (4 decimals) and at the 5% level @reject[yes or no]""")
def p5_tips_welch_smoker(d: Data) -> dict[str, Any]:
    t = d["tips"]
    _, p = ttest(t.loc[t["smoker"] == "Yes", "tip"], t.loc[t["smoker"] == "No", "tip"], equal_var=False)
    return {"p_value": r(p, 4), "reject": rejected(p, 0.05)}


@q("hard", "tips", """Among dinner parties whose bill was above the median bill of ALL parties (lunch included), what
   fraction left a tip of at least $4? Leave out parties with no tip recorded; as a fraction, 3 decimals.""")
def p5_tips_hard_dinner_above_median(d: Data) -> dict[str, Any]:
    t = d["tips"]
    med = t["total_bill"].median()
    assert not (t["total_bill"] == med).any()
    sel = t[(t["time"] == "Dinner") & (t["total_bill"] > med)].dropna(subset=["tip"])
    return {"fraction": r((sel["tip"] >= 4).mean(), 3)}


@q("topk", "tips", """The 3 best dates by total takings (sum of total_bill per date). Give them in order:
   @first[YYYY-MM-DD] @second[YYYY-MM-DD] @third[YYYY-MM-DD]""", checker="exact")
def p5_tips_top3_dates(d: Data) -> dict[str, Any]:
    s = d["tips"].groupby("date")["total_bill"].sum().sort_values(ascending=False)
    assert s.iloc[2] - s.iloc[3] > 0.01
    return {"first": s.index[0], "second": s.index[1], "third": s.index[2]}


@q("outlier", "tips", """no. of outliers in tip for Dinner rows only, using the 1.5*IQR rule (quartiles by linear
   interpolation, strictly outside the fences), missing tips ignored""")
def p5_tips_outlier_dinner_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"outliers": iqr_outliers(t.loc[t["time"] == "Dinner", "tip"])}


@q("multi_stat", "tips", """tip column:
   1. min
   2. max
   3. no. of missing values
   answer -> @min_tip[value] @max_tip[value] @n_missing[value]""")
def p5_tips_multi_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]["tip"]
    return {"min_tip": float(t.min()), "max_tip": float(t.max()), "n_missing": int(t.isna().sum())}


@q("correlation", "tips", """spearman corr between bill and tip, excl. the parties of 1 and ignoring missing tips
   -- 3 dp""")
def p5_tips_spearman_excl_solo(d: Data) -> dict[str, Any]:
    t = d["tips"]
    t = t[t["size"] != 1]
    return {"rho": r(corr(t["total_bill"], t["tip"], "spearman"), 3)}


@q("regression", "tips", """weekend only (Sat and Sun): regress tip on total_bill w/ intercept (OLS, drop missing
   tips). slope to 4 decimal places?""")
def p5_tips_reg_weekend(d: Data) -> dict[str, Any]:
    t = d["tips"]
    t = t[t["day"].isin(["Sat", "Sun"])]
    return {"slope": r(ols(t["tip"], t["total_bill"])["slope"], 4)}


@q("count_share", "tips", """Fri thru Sun, how many more parties had a male payer than a female one? (rows where sex
   is blank dont count for either)""")
def p5_tips_more_male(d: Data) -> dict[str, Any]:
    t = d["tips"]
    t = t[t["day"].isin(["Fri", "Sat", "Sun"])]
    return {"difference": int((t["sex"] == "Male").sum() - (t["sex"] == "Female").sum())}


@q("derived", "tips", """In the first place I need the bill per head (total_bill divided by size) for each party;
   then tell me the avg of it for the parties of 4 or more, rounded to the nearest cent.""")
def p5_tips_bill_per_head_big(d: Data) -> dict[str, Any]:
    t = d["tips"]
    t = t[t["size"] >= 4]
    return {"per_head": r((t["total_bill"] / t["size"]).mean(), 2)}


@q("hard", "tips", """groupby date -> number of parties; then mean of those daily counts, but only over the dates that
   are Saturdays. 2dp""")
def p5_tips_hard_parties_per_saturday(d: Data) -> dict[str, Any]:
    t = d["tips"]
    per_date = t[t["day"] == "Sat"].groupby("date").size()
    return {"mean_parties": r(per_date.mean(), 2)}


@q("test", "tips", """(answer @p_value[value] to 4dp first, then @chi2[value] to 2dp) chi-square test of independence
   between time of day (lunch/dinner) and smoker, with Yates continuity correction""")
def p5_tips_chi2_time_smoker(d: Data) -> dict[str, Any]:
    t = d["tips"]
    res = stats.chi2_contingency(pd.crosstab(t["time"], t["smoker"]), correction=True)
    return {"p_value": r(res.pvalue, 4), "chi2": r(res.statistic, 2)}


@q("count_share", "tips", """What is the total number of Sunday parties that, at any time of day, left a tip worth at
   least 20% of their bill? (tip / total_bill >= 0.20; no-tip rows don't count)""")
def p5_tips_sunday_generous(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    t = t[t["day"] == "Sun"]
    ratio = t["tip"] / t["total_bill"]
    assert not (abs(ratio - 0.2) < 1e-9).any()
    return {"count": int((ratio >= 0.2).sum())}


@q("stat_filter", "tips", """Among the sizeable parties -- 5 or more people -- whats the avg tip? 2dp, missing tips
   left out""")
def p5_tips_sizeable_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"mean_tip": r(t.loc[t["size"] >= 5, "tip"].mean(), 2)}


@q("group", "tips", """how much lower is the avg tip at lunch than at dinner? (dinner avg minus lunch avg, so a
   positive number if lunch is lower; 2 decimals; rows with no tip ignored)""")
def p5_tips_lunch_lower(d: Data) -> dict[str, Any]:
    m = d["tips"].groupby("time")["tip"].mean()
    assert m["Dinner"] > m["Lunch"]
    return {"gap": r(m["Dinner"] - m["Lunch"], 2)}
