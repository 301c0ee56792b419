"""Questions on the restaurant tips, the wine cultivars, Engel's household food spending and the iris flowers."""

from __future__ import annotations

from typing import Any, cast

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import anova, chi2, corr, iqr_outliers, ols, r, ttest, unique_arg, z_outliers
from tests.probe6.registry import q, rejected

# --- tips -------------------------------------------------------------------------------------------------------


@q("stat", "tips", "What is the average tip? (parties with no tip recorded are left out)")
def tips_mean_tip(d: Data) -> dict[str, Any]:
    return {"mean": d["tips"]["tip"].mean()}


@q("stat_filter", "tips",
   "avg total_bill for dinner parties of 3 or more people on a Sat or Sun, 2 dp please")
def tips_weekend_dinner_big_bill(d: Data) -> dict[str, Any]:
    t = d["tips"]
    rows = t[(t["time"] == "Dinner") & (t["size"] >= 3) & t["day"].isin(["Sat", "Sun"])]
    return {"mean": r(rows["total_bill"].mean(), 2)}


@q("test", "tips",
   "Do smokers tip differently from non-smokers? Run Welch's t-test (unequal variances) on tip, leaving out "
   "missing tips, and at alpha = 0.05 answer as @p_value[p rounded to 4 dp] and @significant[yes/no].")
def tips_smoker_welch(d: Data) -> dict[str, Any]:
    t = d["tips"]
    _, p = ttest(t.loc[t["smoker"] == "Yes", "tip"], t.loc[t["smoker"] == "No", "tip"], equal_var=False)
    return {"p_value": r(p, 4), "significant": rejected(p, 0.05)}


@q("group", "tips", "median tip by day of the week (days named as in the day column)? missing tips skipped")
def tips_median_tip_by_day(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {cast(str, day): v for day, v in t.groupby("day")["tip"].median().items()}


@q("derived", "tips",
   "Work out each party's tip as a percentage of its total bill and give me the mean of that percentage over the "
   "parties whose tip is known, to two decimals.")
def tips_mean_tip_pct(d: Data) -> dict[str, Any]:
    t = d["tips"].dropna(subset=["tip"])
    return {"mean_pct": r((100 * t["tip"] / t["total_bill"]).mean(), 2)}


@q("count_share", "tips",
   "Among dinner parties only, what percent were smokers? Give a percentage (not a fraction), 1 decimal.")
def tips_dinner_smoker_pct(d: Data) -> dict[str, Any]:
    t = d["tips"]
    dinner = t[t["time"] == "Dinner"]
    return {"pct": r(100 * (dinner["smoker"] == "Yes").mean(), 1)}


@q("outlier", "tips",
   "Using the 1.5*IQR rule (Q1/Q3 by linear interpolation), how many total_bill values count as outliers on "
   "either side? @n_outliers[count]")
def tips_bill_iqr_outliers(d: Data) -> dict[str, Any]:
    return {"n_outliers": iqr_outliers(d["tips"]["total_bill"])}


@q("argmax", "tips",
   "Which date had the biggest combined total_bill across all its parties? Answer with the date as YYYY-MM-DD.",
   checker="exact")
def tips_busiest_date_by_bill(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"date": unique_arg(t.groupby("date")["total_bill"].sum())}


@q("hard", "tips",
   "how many parties had a total bill above the average bill of their own day (Thur/Fri/Sat/Sun each get their "
   "own mean)?")
def tips_above_own_day_mean(d: Data) -> dict[str, Any]:
    t = d["tips"]
    day_mean = t.groupby("day")["total_bill"].transform("mean")
    assert not (t["total_bill"] == day_mean).any()
    return {"count": int((t["total_bill"] > day_mean).sum())}


def _top3(series: pd.Series) -> list[str]:
    ordered = series.sort_values(ascending=False)
    assert ordered.iloc[2] != ordered.iloc[3] and ordered.iloc[0] != ordered.iloc[1] != ordered.iloc[2]
    return [str(x) for x in ordered.index[:3]]


@q("topk", "tips",
   "Rank party sizes by their mean tip (missing tips ignored). Which three sizes come out on top? "
   "@first[size] @second[size] @third[size]")
def tips_top3_sizes_by_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    first, second, third = _top3(t.groupby("size")["tip"].mean())
    return {"first": int(first), "second": int(second), "third": int(third)}


@q("regression", "tips",
   "Fit tip = a + b * total_bill by OLS (drop rows where tip is missing). Report @slope[b] and @r_squared[R^2], "
   "both to 4 decimals.")
def tips_tip_on_bill(d: Data) -> dict[str, Any]:
    t = d["tips"]
    fit = ols(t["tip"], t["total_bill"])
    return {"slope": r(fit["slope"], 4), "r_squared": r(fit["r2"], 4)}


@q("correlation", "tips", "spearman rank correlation between party size and tip? (skip missing tips)")
def tips_spearman_size_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"rho": corr(t["size"], t["tip"], "spearman")}


@q("test", "tips",
   "Chi-square test of independence between smoker and time (lunch vs dinner), WITHOUT Yates' continuity "
   "correction. What's the p-value?")
def tips_chi2_smoker_time(d: Data) -> dict[str, Any]:
    _, p, _ = chi2(d["tips"], "smoker", "time", correction=False)
    return {"p_value": p}


@q("count_share", "tips", "What's the total number of Sunday dinner parties with more than 2 people?")
def tips_sunday_dinner_big_parties(d: Data) -> dict[str, Any]:
    t = d["tips"]
    return {"count": int(((t["day"] == "Sun") & (t["time"] == "Dinner") & (t["size"] > 2)).sum())}


@q("stat_filter", "tips",
   "for the Q2 report (the data covers April-June): avg tip at Thursday lunches where sex is Female, blank tips "
   "skipped -> @avg_tip[2 dp]")
def tips_thur_lunch_female_tip(d: Data) -> dict[str, Any]:
    t = d["tips"]
    rows = t[(t["day"] == "Thur") & (t["time"] == "Lunch") & (t["sex"] == "Female")]
    return {"avg_tip": r(rows["tip"].mean(), 2)}


# --- wine -------------------------------------------------------------------------------------------------------


@q("stat", "wine", "Sample standard deviation (ddof=1) of alcohol in the wine data?")
def wine_alcohol_sd(d: Data) -> dict[str, Any]:
    return {"sd": d["wine"]["alcohol"].std(ddof=1)}


@q("group", "wine",
   "mean proline for each cultivar, rounded to the nearest whole number: "
   "@cultivar_1[mean] @cultivar_2[mean] @cultivar_3[mean]")
def wine_proline_by_cultivar(d: Data) -> dict[str, Any]:
    means = d["wine"].groupby("cultivar")["proline"].mean()
    return {f"cultivar_{k}": r(v, 0) for k, v in means.items()}


@q("test", "wine",
   "One-way ANOVA of flavanoids across the three cultivars - just the F statistic, 2 decimal places.")
def wine_anova_flavanoids(d: Data) -> dict[str, Any]:
    f, _ = anova(d["wine"], "flavanoids", "cultivar")
    return {"F": r(f, 2)}


@q("argmax", "wine", "Which cultivar (1, 2 or 3) has the lowest median color_intensity? @cultivar[number]")
def wine_lowest_median_colour(d: Data) -> dict[str, Any]:
    return {"cultivar": int(unique_arg(d["wine"].groupby("cultivar")["color_intensity"].median(), largest=False))}


@q("correlation", "wine",
   "Within cultivar 2 only, Pearson r between total_phenols and flavanoids (3 dp).")
def wine_pearson_phenols_flav_c2(d: Data) -> dict[str, Any]:
    w = d["wine"]
    w = w[w["cultivar"] == 2]
    return {"r": r(corr(w["total_phenols"], w["flavanoids"], "pearson"), 3)}


@q("outlier", "wine",
   "How many wines have a magnesium z-score whose absolute value is over 3?")
def wine_magnesium_z3(d: Data) -> dict[str, Any]:
    return {"count": z_outliers(d["wine"]["magnesium"], 3.0)}


@q("multi_stat", "wine",
   """For cultivar 3 wines, malic acid:
   - min -> @min_malic[value]
   - max -> @max_malic[value]
   - mean (3 decimals) -> @mean_malic[value]""")
def wine_c3_malic_summary(d: Data) -> dict[str, Any]:
    m = d["wine"].loc[lambda w: w["cultivar"] == 3, "malic_acid"]
    return {"min_malic": m.min(), "max_malic": m.max(), "mean_malic": r(m.mean(), 3)}


@q("derived", "wine",
   "ratio of flavanoids to total phenols, per wine. What's the median ratio over all 178 wines? round to 3")
def wine_median_flav_ratio(d: Data) -> dict[str, Any]:
    w = d["wine"]
    return {"median": r((w["flavanoids"] / w["total_phenols"]).median(), 3)}


# --- engel ------------------------------------------------------------------------------------------------------


@q("regression", "engel",
   "Regress foodexp on income (ordinary least squares with an intercept). What are the slope and the intercept?")
def engel_food_on_income(d: Data) -> dict[str, Any]:
    fit = ols(d["engel"]["foodexp"], d["engel"]["income"])
    return {"slope": fit["slope"], "intercept": fit["intercept"]}


@q("derived", "engel",
   "Food budget share = foodexp / income for every household. Mean share, as a percent with 2 decimals "
   "@mean_share_pct[percent]")
def engel_mean_food_share(d: Data) -> dict[str, Any]:
    e = d["engel"]
    return {"mean_share_pct": r(100 * (e["foodexp"] / e["income"]).mean(), 2)}


@q("count_share", "engel", "no. of households with income over 1000 but food expenditure under 600?")
def engel_rich_low_food(d: Data) -> dict[str, Any]:
    e = d["engel"]
    assert not e["income"].eq(1000).any() and not e["foodexp"].eq(600).any()
    return {"count": int(((e["income"] > 1000) & (e["foodexp"] < 600)).sum())}


@q("hard", "engel",
   "Take the households whose income is strictly above the 90th percentile of income (linear interpolation). "
   "What is the median of foodexp/income among them? 4 decimals, as a fraction.")
def engel_top_decile_share(d: Data) -> dict[str, Any]:
    e = d["engel"]
    cut = e["income"].quantile(0.9)
    assert not e["income"].eq(cut).any()
    top = e[e["income"] > cut]
    return {"median_share": r((top["foodexp"] / top["income"]).median(), 4)}


# --- iris -------------------------------------------------------------------------------------------------------


@q("stat", "iris",
   "IQR of petal_length (quartiles with linear interpolation, i.e. numpy's default) -> @iqr[value]")
def iris_petal_length_iqr(d: Data) -> dict[str, Any]:
    p = d["iris"]["petal_length"]
    return {"iqr": p.quantile(0.75) - p.quantile(0.25)}


@q("argmax", "iris",
   "Which species shows the largest spread in sepal width, measured by the sample standard deviation? "
   "Give the species name in lower case.", checker="exact")
def iris_widest_sepal_spread(d: Data) -> dict[str, Any]:
    return {"species": unique_arg(d["iris"].groupby("species")["sepal_width"].std())}


@q("test", "iris",
   "Mann-Whitney U test (two-sided) comparing sepal_length of versicolor against virginica. "
   "@U[U statistic for versicolor] @p[p-value]. Is the difference significant at the 1% level? @sig_1pct[yes/no]")
def iris_mwu_sepal(d: Data) -> dict[str, Any]:
    i = d["iris"]
    res = stats.mannwhitneyu(i.loc[i["species"] == "versicolor", "sepal_length"],
                             i.loc[i["species"] == "virginica", "sepal_length"], alternative="two-sided")
    return {"U": float(res.statistic), "p": float(res.pvalue), "sig_1pct": rejected(float(res.pvalue), 0.01)}


@q("stat_filter", "iris",
   "Leaving setosa out, what's the mean petal width of flowers whose petal length is between 4 and 5 cm, "
   "both ends included? Round it to 3 d.p.")
def iris_mid_petal_width(d: Data) -> dict[str, Any]:
    i = d["iris"]
    rows = i[(i["species"] != "setosa") & i["petal_length"].between(4, 5, inclusive="both")]
    return {"mean": r(rows["petal_width"].mean(), 3)}


@q("multi_stat", "iris", "sepal_length: mean, median and (sample) std dev? @mean[..] @median[..] @std[..]")
def iris_sepal_length_summary(d: Data) -> dict[str, Any]:
    s = d["iris"]["sepal_length"]
    return {"mean": s.mean(), "median": s.median(), "std": s.std(ddof=1)}


@q("hard", "iris",
   "Count the flowers whose sepal length is strictly above the median sepal length of their own species (all 3 "
   "species pooled into one count).")
def iris_above_species_median(d: Data) -> dict[str, Any]:
    i = d["iris"]
    med = i.groupby("species")["sepal_length"].transform("median")
    return {"count": int((i["sepal_length"] > med).sum())}


@q("count_share", "iris",
   "What fraction of the 150 flowers have a petal more than 4.5 times as long as it is wide? fraction between 0 "
   "and 1, 3 decimals")
def iris_long_thin_petals(d: Data) -> dict[str, Any]:
    i = d["iris"]
    ratio = i["petal_length"] / i["petal_width"]
    assert not ((ratio - 4.5).abs() < 1e-9).any()
    return {"fraction": r((ratio > 4.5).mean(), 3)}
