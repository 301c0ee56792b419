"""Probe7 questions on the restaurant bills (tips), the penguins, the irises and the wines."""

from __future__ import annotations

import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe7.registry import q, rejected

# ---------------------------------------------------------------- stat


@q("stat", "tips", "median total_bill across all parties? two decimals")
def tips_median_bill(d: Data) -> dict:
    return {"median_bill": r(d["tips"]["total_bill"].median(), 2)}


@q("stat", "penguins", "Sample standard deviation (ddof = 1) of bill_depth_mm, ignoring the missing measurements. "
                       "3 decimals.")
def penguins_sd_depth(d: Data) -> dict:
    return {"sd_depth": r(d["penguins"]["bill_depth_mm"].std(ddof=1), 3)}


@q("stat", "wine", "What's the 80th percentile of proline over every wine in the file (numpy's default linear "
                   "interpolation)?")
def wine_p80_proline(d: Data) -> dict:
    return {"p80": r(d["wine"]["proline"].quantile(0.8), 2)}


# ---------------------------------------------------------------- stat_filter


@q("stat_filter", "tips", "Mean tip for dinner parties of at least four people, only non-smokers; skip the rows "
                          "where the tip is missing. Give it to the cent.")
def tips_mean_tip_big_dinner_nonsmoker(d: Data) -> dict:
    t = d["tips"]
    sub = t[(t["time"] == "Dinner") & (t["size"] >= 4) & (t["smoker"] == "No")]
    return {"mean_tip": r(sub["tip"].dropna().mean(), 2)}


@q("stat_filter", "penguins", "for Gentoo birds weighing more than 5000 g (5000 itself not included), what is the "
                              "average flipper_length_mm? 2 dp -> @flipper[value]")
def penguins_gentoo_heavy_flipper(d: Data) -> dict:
    p = d["penguins"]
    sub = p[(p["species"] == "Gentoo") & (p["body_mass_g"] > 5000)]
    return {"flipper": r(sub["flipper_length_mm"].mean(), 2)}


@q("stat_filter", "iris", "Leaving the setosa flowers out, what is the median petal_width of the irises whose "
                          "sepal_length is between 6.0 and 6.5 cm, both ends included?")
def iris_median_petal_width_window(d: Data) -> dict:
    i = d["iris"]
    sub = i[(i["species"] != "setosa") & i["sepal_length"].between(6.0, 6.5)]
    return {"median_pw": r(sub["petal_width"].median(), 3)}


# ---------------------------------------------------------------- multi_stat


@q("multi_stat", "wine", "Quick profile of 'color_intensity' for cultivar 3 only, each to 3 decimals:\n"
                         "- mean @ci_mean[value]\n- sample SD @ci_sd[value]\n- max @ci_max[value]")
def wine_c3_color_profile(d: Data) -> dict:
    c = d["wine"].query("cultivar == 3")["color_intensity"]
    return {"ci_mean": r(c.mean(), 3), "ci_sd": r(c.std(ddof=1), 3), "ci_max": r(c.max(), 3)}


@q("multi_stat", "tips", "Can you give me the first quartile, the median and the third quartile of tip (linear "
                         "interpolation, missing tips dropped)? Format: @tip_q1[value] @tip_med[value] "
                         "@tip_q3[value]")
def tips_tip_quartiles(d: Data) -> dict:
    t = d["tips"]["tip"].dropna()
    return {"tip_q1": r(t.quantile(0.25), 3), "tip_med": r(t.median(), 3), "tip_q3": r(t.quantile(0.75), 3)}


# ---------------------------------------------------------------- correlation


@q("correlation", "penguins", "Spearman rank correlation between flipper length and body mass among the Adelie "
                              "penguins (pairwise complete rows). 3 dp.")
def penguins_adelie_spearman(d: Data) -> dict:
    p = d["penguins"].query("species == 'Adelie'")
    return {"rho": r(corr(p["flipper_length_mm"], p["body_mass_g"], "spearman"), 3)}


@q("correlation", "iris", "pearson r of sepal_width vs petal_length over all the flowers, and then within "
                          "versicolor alone. Report @r_all[value] and @r_versicolor[value], 4 decimals each.")
def iris_pearson_all_and_versicolor(d: Data) -> dict:
    i = d["iris"]
    v = i[i["species"] == "versicolor"]
    return {"r_all": r(corr(i["sepal_width"], i["petal_length"], "pearson"), 4),
            "r_versicolor": r(corr(v["sepal_width"], v["petal_length"], "pearson"), 4)}


# ---------------------------------------------------------------- test


@q("test", "tips", "Do smokers and non-smokers leave different tips? Welch two-sample t-test on tip (rows with no "
                   "tip dropped), alpha 0.05. Reply with the t statistic for smokers minus non-smokers as "
                   "@t_stat[value] and the decision as @reject_h0[yes/no].")
def tips_welch_smoker_tip(d: Data) -> dict:
    t = d["tips"]
    res = stats.ttest_ind(t.loc[t["smoker"] == "Yes", "tip"].dropna(), t.loc[t["smoker"] == "No", "tip"].dropna(),
                          equal_var=False)
    return {"t_stat": r(res.statistic, 3), "reject_h0": rejected(float(res.pvalue), 0.05)}


@q("test", "penguins", "Chi-square test of independence between island and species (no continuity correction "
                       "applies, the table is bigger than 2x2). What is the chi-square statistic, rounded to 2 "
                       "decimals?")
def penguins_chi2_island_species(d: Data) -> dict:
    p = d["penguins"]
    res = stats.chi2_contingency(pd.crosstab(p["island"], p["species"]))
    return {"chi2": r(res.statistic, 2)}


@q("test", "wine", "One-way ANOVA of magnesium across the three cultivars: F statistic, two decimals.")
def wine_anova_magnesium(d: Data) -> dict:
    w = d["wine"]
    res = stats.f_oneway(*[g["magnesium"] for _, g in w.groupby("cultivar")])
    return {"f": r(res.statistic, 2)}


@q("test", "iris", "Shapiro-Wilk on sepal_width of the virginica flowers — at the 1% level, do we reject "
                   "normality? Give W as @w_stat[value] (4 dp) and @normal_rejected[answer yes or no].")
def iris_shapiro_virginica_width(d: Data) -> dict:
    res = stats.shapiro(d["iris"].query("species == 'virginica'")["sepal_width"])
    return {"w_stat": r(res.statistic, 4), "normal_rejected": rejected(float(res.pvalue), 0.01)}


# ---------------------------------------------------------------- outlier


@q("outlier", "tips", "How many total_bill values are outliers under the usual 1.5*IQR rule (quartiles with "
                      "linear interpolation, strictly beyond the fences)?")
def tips_bill_iqr_outliers(d: Data) -> dict:
    return {"n_outliers": iqr_outliers(d["tips"]["total_bill"])}


@q("outlier", "wine", "Count wines whose malic_acid has an absolute z-score above 2.5 -> @n_z[value]")
def wine_malic_z25(d: Data) -> dict:
    return {"n_z": z_outliers(d["wine"]["malic_acid"], 2.5)}


# ---------------------------------------------------------------- group


@q("group", "penguins", "avg body mass (g) per species, females only, one decimal each")
def penguins_female_mass_by_species(d: Data) -> dict:
    p = d["penguins"].query("sex == 'female'")
    return {k: r(v, 1) for k, v in p.groupby("species")["body_mass_g"].mean().items()}


@q("group", "tips", "For each day of the week in the data, what is the mean party size (2 dp)? Put them in "
                    "@Thur[value] @Fri[value] @Sat[value] @Sun[value].")
def tips_mean_size_by_day(d: Data) -> dict:
    m = d["tips"].groupby("day")["size"].mean()
    return {k: r(m[k], 2) for k in ("Thur", "Fri", "Sat", "Sun")}


@q("group", "iris", "Per species, the coefficient of variation of petal_length (sample SD over the mean), as a "
                    "percentage with 1 decimal.")
def iris_cv_petal_length_by_species(d: Data) -> dict:
    g = d["iris"].groupby("species")["petal_length"]
    return {k: r(100 * g.std(ddof=1)[k] / g.mean()[k], 1) for k in g.mean().index}


# ---------------------------------------------------------------- argmax


@q("argmax", "penguins", "Which island has the heaviest penguins on average (body_mass_g)? Give the island name "
                         "as it is spelled in the data.")
def penguins_heaviest_island(d: Data) -> dict:
    return {"island": unique_arg(d["penguins"].groupby("island")["body_mass_g"].mean())}


@q("argmax", "tips", "On which date (YYYY-MM-DD) was the sum of total_bill the lowest among dates with at least "
                     "three parties? @date[YYYY-MM-DD]", checker="exact")
def tips_lowest_revenue_busy_date(d: Data) -> dict:
    t = d["tips"]
    g = t.groupby("date")["total_bill"].agg(["sum", "size"])
    return {"date": unique_arg(g.loc[g["size"] >= 3, "sum"], largest=False)}


@q("argmax", "wine", "Which cultivar has the smallest mean hue? Just the cultivar number.")
def wine_lowest_hue_cultivar(d: Data) -> dict:
    return {"cultivar": int(unique_arg(d["wine"].groupby("cultivar")["hue"].mean(), largest=False))}


# ---------------------------------------------------------------- regression


@q("regression", "penguins", "OLS body_mass_g ~ flipper_length_mm + bill_depth_mm for the Gentoo rows (drop "
                             "incomplete rows). Coefficient on bill depth? 2 decimals.")
def penguins_gentoo_mass_regression(d: Data) -> dict:
    p = d["penguins"].query("species == 'Gentoo'").dropna(subset=["body_mass_g", "flipper_length_mm",
                                                                   "bill_depth_mm"])
    fit = smf.ols("body_mass_g ~ flipper_length_mm + bill_depth_mm", data=p).fit()
    return {"coef_depth": r(fit.params["bill_depth_mm"], 2)}


@q("regression", "tips", "regress tip on total_bill (simple linear, intercept included, drop the missing tips). "
                         "I need @slope[value] @intercept[value] and @r_squared[value], all to 4 d.p.")
def tips_tip_on_bill(d: Data) -> dict:
    t = d["tips"]
    fit = ols(t["tip"], t["total_bill"])
    return {"slope": r(fit["slope"], 4), "intercept": r(fit["intercept"], 4), "r_squared": r(fit["r2"], 4)}


# ---------------------------------------------------------------- derived


@q("derived", "tips", "Work out each party's bill per person (total_bill / size). What's the mean of that across "
                      "the Saturday dinners? Round to cents.")
def tips_bill_per_head_sat(d: Data) -> dict:
    t = d["tips"].query("day == 'Sat' and time == 'Dinner'")
    return {"per_head": r((t["total_bill"] / t["size"]).mean(), 2)}


@q("derived", "penguins", "Define bill ratio = bill_length_mm / bill_depth_mm. Median of it for the Chinstrap "
                          "penguins, 3 dp.")
def penguins_chinstrap_bill_ratio(d: Data) -> dict:
    p = d["penguins"].query("species == 'Chinstrap'")
    return {"ratio_median": r((p["bill_length_mm"] / p["bill_depth_mm"]).median(), 3)}


@q("derived", "iris", "Approximate petal area as petal_length times petal_width. Sample standard deviation of "
                      "this area over the versicolor irises? 3 decimals.")
def iris_versicolor_petal_area_sd(d: Data) -> dict:
    i = d["iris"].query("species == 'versicolor'")
    return {"sd_area": r((i["petal_length"] * i["petal_width"]).std(ddof=1), 3)}


# ---------------------------------------------------------------- count_share


@q("count_share", "tips", "what share of the parties (percent of all rows, 1 dp) tipped strictly more than 20% of "
                          "their bill? Rows with a missing tip count in the denominator but not as such parties.")
def tips_share_generous(d: Data) -> dict:
    t = d["tips"]
    return {"pct": r(100 * (t["tip"] / t["total_bill"] > 0.20).sum() / len(t), 1)}


@q("count_share", "penguins", "No. of penguins with an unrecorded sex?")
def penguins_missing_sex(d: Data) -> dict:
    return {"n_missing": int(d["penguins"]["sex"].isna().sum())}


@q("count_share", "wine", "How many wines have alcohol of 13.5 or more and also flavanoids below 1.0?")
def wine_count_alcohol_flav(d: Data) -> dict:
    w = d["wine"]
    return {"n_wines": int(((w["alcohol"] >= 13.5) & (w["flavanoids"] < 1.0)).sum())}


@q("count_share", "iris", "Fraction (0 to 1, 3 decimals) of the flowers with petal_length over 4.5 cm that are "
                          "virginica.")
def iris_fraction_virginica_long_petals(d: Data) -> dict:
    i = d["iris"][d["iris"]["petal_length"] > 4.5]
    return {"frac": r((i["species"] == "virginica").mean(), 3)}


# ---------------------------------------------------------------- topk


@q("topk", "wine", "Top 3 wines by proline — what are their alcohol values, highest proline first? "
                   "@first[value] @second[value] @third[value]")
def wine_top3_proline_alcohol(d: Data) -> dict:
    w = d["wine"]
    top = w.sort_values("proline", ascending=False)
    assert top["proline"].iloc[2] > top["proline"].iloc[3], "tie at rank 3"
    assert top["proline"].iloc[0] > top["proline"].iloc[1] > top["proline"].iloc[2]
    a = top["alcohol"].head(3).tolist()
    return {"first": a[0], "second": a[1], "third": a[2]}


@q("topk", "tips", "Which three dates took the most money (sum of total_bill)? List them as @d1[YYYY-MM-DD] "
                   "@d2[YYYY-MM-DD] @d3[YYYY-MM-DD], biggest first.", checker="exact")
def tips_top3_revenue_dates(d: Data) -> dict:
    c = d["tips"].groupby("date")["total_bill"].sum().sort_values(ascending=False)
    assert c.iloc[0] > c.iloc[1] > c.iloc[2] > c.iloc[3], "ties among the top dates"
    return {"d1": c.index[0], "d2": c.index[1], "d3": c.index[2]}


# ---------------------------------------------------------------- hard


@q("hard", "penguins", "Two steps: take the mean bill_length_mm of each species-by-sex group (ignore birds with "
                       "no sex), then tell me the gap between the largest and the smallest of those group means, "
                       "2 dp.")
def penguins_range_of_group_means(d: Data) -> dict:
    m = d["penguins"].dropna(subset=["sex"]).groupby(["species", "sex"])["bill_length_mm"].mean()
    return {"gap": r(m.max() - m.min(), 2)}


@q("hard", "tips", "How many parties paid a bill above the mean total_bill of their own day (strictly above)? "
                   "@above_day_mean[count]")
def tips_above_own_day_mean(d: Data) -> dict:
    t = d["tips"]
    mean = t.groupby("day")["total_bill"].transform("mean")
    assert not (t["total_bill"] == mean).any()
    return {"above_day_mean": int((t["total_bill"] > mean).sum())}


@q("hard", "wine", "For each cultivar find the median alcohol; then, across the whole file, what percentage of "
                   "wines lie strictly above their own cultivar's median? 2 d.p.")
def wine_share_above_cultivar_median(d: Data) -> dict:
    w = d["wine"]
    med = w.groupby("cultivar")["alcohol"].transform("median")
    return {"pct": r(100 * (w["alcohol"] > med).mean(), 2)}
