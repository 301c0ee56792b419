"""Questions on the diabetes patients, the breast cancer biopsies, the penguins, the Fair affairs survey and
Spector's PSI teaching experiment."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import chi2, corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, unique_mode, z_outliers
from tests.probe6.registry import q, rejected

# --- diabetes ---------------------------------------------------------------------------------------------------


@q("stat", "diabetes", "What's the median BMI of the patients?")
def diab_median_bmi(d: Data) -> dict[str, Any]:
    return {"median": d["diabetes"]["bmi"].median()}


@q("stat_filter", "diabetes",
   "@mean_prog[value, 2 dp] = mean progression for patients aged 50 to 60 (both incl.) whose bmi is 30 or more")
def diab_prog_50s_obese(d: Data) -> dict[str, Any]:
    x = d["diabetes"]
    rows = x[x["age"].between(50, 60) & (x["bmi"] >= 30)]
    return {"mean_prog": r(rows["progression"].mean(), 2)}


@q("correlation", "diabetes", "Kendall's tau (tau-b) between bmi and progression: @tau[value to 4 decimals]")
def diab_kendall_bmi_prog(d: Data) -> dict[str, Any]:
    x = d["diabetes"]
    return {"tau": r(stats.kendalltau(x["bmi"], x["progression"]).statistic, 4)}


@q("regression", "diabetes",
   "multiple regression: progression ~ bmi + bp (OLS w/ intercept). I need the bmi coefficient and the model's "
   "R-squared -> @coef_bmi[..] @r2[..]")
def diab_prog_on_bmi_bp(d: Data) -> dict[str, Any]:
    x = d["diabetes"]
    fit = sm.OLS(x["progression"], sm.add_constant(x[["bmi", "bp"]])).fit()
    return {"coef_bmi": fit.params["bmi"], "r2": fit.rsquared}


@q("test", "diabetes",
   "Welch two-sample t-test of progression between sex coded 1 and sex coded 2; report the t statistic as group 1 "
   "minus group 2, three decimals.")
def diab_welch_sex(d: Data) -> dict[str, Any]:
    x = d["diabetes"]
    t, _ = ttest(x.loc[x["sex"] == 1, "progression"], x.loc[x["sex"] == 2, "progression"], equal_var=False)
    return {"t": r(t, 3)}


@q("outlier", "diabetes", "how many s1 readings are outliers by the usual 1.5 x IQR fences (linear-interp quartiles)?")
def diab_s1_iqr(d: Data) -> dict[str, Any]:
    return {"count": iqr_outliers(d["diabetes"]["s1"])}


@q("hard", "diabetes",
   "Split the patients at the median bmi: above the median vs at-or-below it. What is the mean progression of the "
   "upper group minus that of the lower group? @diff[value, 1 decimal]")
def diab_prog_gap_by_median_bmi(d: Data) -> dict[str, Any]:
    x = d["diabetes"]
    med = x["bmi"].median()
    high = x["bmi"] > med
    return {"diff": r(x.loc[high, "progression"].mean() - x.loc[~high, "progression"].mean(), 1)}


@q("derived", "diabetes",
   "Take the natural log of progression for each patient; what is the mean of ln(progression)? (4 dp)")
def diab_mean_log_prog(d: Data) -> dict[str, Any]:
    return {"mean_log": r(np.log(d["diabetes"]["progression"]).mean(), 4)}


# --- breast cancer ----------------------------------------------------------------------------------------------


@q("count_share", "breast_cancer", "What percentage of the biopsies are malignant? (percent, 2 decimals)")
def bc_pct_malignant(d: Data) -> dict[str, Any]:
    return {"pct": r(100 * (d["breast_cancer"]["diagnosis"] == "malignant").mean(), 2)}


@q("group", "breast_cancer", "Average of the 'mean radius' column for each diagnosis?")
def bc_radius_by_diagnosis(d: Data) -> dict[str, Any]:
    return {cast(str, k): v for k, v in d["breast_cancer"].groupby("diagnosis")["mean radius"].mean().items()}


@q("test", "breast_cancer",
   "Is 'mean texture' normally distributed among the benign cases? Shapiro-Wilk: @W[statistic] and, at the 5% "
   "level, @reject_normality[yes/no]")
def bc_shapiro_texture_benign(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    w, p = shapiro(b.loc[b["diagnosis"] == "benign", "mean texture"])
    return {"W": w, "reject_normality": rejected(p, 0.05)}


MEAN_FEATURES = ["mean radius", "mean texture", "mean perimeter", "mean area", "mean smoothness", "mean compactness",
                 "mean concavity", "mean concave points", "mean symmetry", "mean fractal dimension"]


@q("argmax", "breast_cancer",
   "Of the ten columns whose names start with 'mean', which one has the biggest ratio of its malignant-group "
   "average to its benign-group average? Give the column name exactly as in the header.", checker="exact")
def bc_biggest_ratio_feature(d: Data) -> dict[str, Any]:
    means = d["breast_cancer"].groupby("diagnosis")[MEAN_FEATURES].mean()
    return {"column": unique_arg(means.loc["malignant"] / means.loc["benign"])}


@q("outlier", "breast_cancer", "'worst area' - count of values with |z| > 3?")
def bc_worst_area_z(d: Data) -> dict[str, Any]:
    return {"count": z_outliers(d["breast_cancer"]["worst area"], 3.0)}


@q("topk", "breast_cancer",
   """Code malignant as 1 and benign as 0. Among the ten 'worst ...' columns, which three have the strongest
   Pearson correlation (largest absolute value) with that 0/1 code? Column names as in the header:
   @first[column] @second[column] @third[column]""")
def bc_top3_worst_corr(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    y = (b["diagnosis"] == "malignant").astype(float)
    cols = [c for c in b.columns if c.startswith("worst ")]
    strength = pd.Series({c: abs(corr(b[c], y, "pearson")) for c in cols}).sort_values(ascending=False)
    assert strength.iloc[2] - strength.iloc[3] > 1e-3 and strength.iloc[1] - strength.iloc[2] > 1e-3
    return {"first": strength.index[0], "second": strength.index[1], "third": strength.index[2]}


@q("multi_stat", "breast_cancer",
   """malignant rows only:
   1. how many are there  @n[count]
   2. mean of 'mean area'  @avg_area[1 decimal]
   3. largest 'worst radius'  @max_worst_radius[value]""")
def bc_malignant_summary(d: Data) -> dict[str, Any]:
    m = d["breast_cancer"].loc[lambda b: b["diagnosis"] == "malignant"]
    return {"n": len(m), "avg_area": r(m["mean area"].mean(), 1), "max_worst_radius": m["worst radius"].max()}


# --- penguins ---------------------------------------------------------------------------------------------------


@q("stat", "penguins", "Which island turns up most often in the penguin table?", checker="exact")
def peng_modal_island(d: Data) -> dict[str, Any]:
    return {"island": unique_mode(d["penguins"]["island"])}


@q("stat_filter", "penguins",
   "mean body_mass_g of female gentoos measured in 2008 or later (ignore missing masses), whole grams")
def peng_gentoo_female_mass(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    rows = p[(p["species"] == "Gentoo") & (p["sex"] == "female") & (p["year"] >= 2008)]
    return {"mean": r(rows["body_mass_g"].mean(), 0)}


@q("group", "penguins",
   "Median flipper length per species, please: @adelie[mm] @chinstrap[mm] @gentoo[mm]")
def peng_median_flipper(d: Data) -> dict[str, Any]:
    med = d["penguins"].groupby("species")["flipper_length_mm"].median()
    return {cast(str, k).lower(): v for k, v in med.items()}


@q("test", "penguins",
   "For Adelie penguins only: Welch's t-test on body mass, males vs females (birds with no sex recorded dropped). "
   "Give the t statistic as male minus female in @t[..] and the p-value in @p[..].")
def peng_adelie_mass_sex(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    a = p[p["species"] == "Adelie"]
    t, pv = ttest(a.loc[a["sex"] == "male", "body_mass_g"], a.loc[a["sex"] == "female", "body_mass_g"], False)
    return {"t": t, "p": pv}


@q("correlation", "penguins",
   "Pearson correlation of bill length with bill depth, (a) over all penguins and (b) within Gentoo only. "
   "@r_all[..] @r_gentoo[..], 3 dp each")
def peng_bill_corr_simpson(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    g = p[p["species"] == "Gentoo"]
    return {"r_all": r(corr(p["bill_length_mm"], p["bill_depth_mm"], "pearson"), 3),
            "r_gentoo": r(corr(g["bill_length_mm"], g["bill_depth_mm"], "pearson"), 3)}


@q("count_share", "penguins", "How many penguins have no sex recorded?")
def peng_missing_sex(d: Data) -> dict[str, Any]:
    return {"count": int(d["penguins"]["sex"].isna().sum())}


@q("count_share", "penguins",
   "Of the 344 birds, how many were weighed at 4 kg or more (body_mass_g >= 4000)? Birds with no mass don't count. "
   "@n_heavy[count]")
def peng_heavy_birds(d: Data) -> dict[str, Any]:
    return {"n_heavy": int((d["penguins"]["body_mass_g"] >= 4000).sum())}


@q("argmax", "penguins",
   "On which island are the penguins lightest on average (body_mass_g, missing values skipped)?", checker="exact")
def peng_lightest_island(d: Data) -> dict[str, Any]:
    return {"island": unique_arg(d["penguins"].groupby("island")["body_mass_g"].mean(), largest=False)}


@q("hard", "penguins",
   "compute the mean flipper length of each species, then tell me the range of those species means "
   "(largest minus smallest), 2 d.p.")
def peng_range_of_species_means(d: Data) -> dict[str, Any]:
    m = d["penguins"].groupby("species")["flipper_length_mm"].mean()
    return {"range": r(m.max() - m.min(), 2)}


@q("regression", "penguins",
   "Chinstraps: how many grams of body mass per extra mm of flipper? i.e. the OLS slope of body_mass_g on "
   "flipper_length_mm, 2 decimals")
def peng_chinstrap_mass_slope(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    c = p[p["species"] == "Chinstrap"]
    return {"slope": r(ols(c["body_mass_g"], c["flipper_length_mm"])["slope"], 2)}


@q("derived", "penguins",
   "For Adelies, bill length divided by bill depth - what's the average of that ratio? @ratio[3 decimals]")
def peng_adelie_bill_ratio(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    a = p[p["species"] == "Adelie"]
    return {"ratio": r((a["bill_length_mm"] / a["bill_depth_mm"]).mean(), 3)}


@q("outlier", "penguins",
   "within gentoo, bill_depth_mm outliers by the 1.5 IQR rule (quartiles linearly interpolated, NaN dropped) - "
   "how many?")
def peng_gentoo_depth_iqr(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"count": iqr_outliers(p.loc[p["species"] == "Gentoo", "bill_depth_mm"])}


# --- fair -------------------------------------------------------------------------------------------------------


@q("count_share", "fair", "share of respondents reporting any affairs at all (affairs > 0), as a percent")
def fair_any_affair_pct(d: Data) -> dict[str, Any]:
    return {"pct": 100 * (d["fair"]["affairs"] > 0).mean()}


@q("argmax", "fair",
   "Which level of religious has the lowest average affairs? @religious[level]")
def fair_least_affairs_religious(d: Data) -> dict[str, Any]:
    return {"religious": int(unique_arg(d["fair"].groupby("religious")["affairs"].mean(), largest=False))}


@q("test", "fair",
   "Chi-square test of independence: had an affair (affairs > 0) vs rate_marriage (all 5 levels). "
   "@chi2[statistic, 1 dp] @dof[degrees of freedom]")
def fair_chi2_affair_rating(d: Data) -> dict[str, Any]:
    f = d["fair"]
    f["had_affair"] = f["affairs"] > 0
    stat, _, dof = chi2(f, "had_affair", "rate_marriage")
    return {"chi2": r(stat, 1), "dof": dof}


@q("stat_filter", "fair",
   "Mean yrs_married for women 32 or younger with educ of at least 16, excluding occupation 1. 3 dp.")
def fair_yrs_married_young_educated(d: Data) -> dict[str, Any]:
    f = d["fair"]
    rows = f[(f["age"] <= 32) & (f["educ"] >= 16) & (f["occupation"] != 1)]
    return {"mean": r(rows["yrs_married"].mean(), 3)}


# --- spector ----------------------------------------------------------------------------------------------------


@q("test", "spector",
   "Fisher's exact test (two-sided) on the 2x2 table of PSI by GRADE: what's the p-value? Reject independence at "
   "alpha 0.05? @p_value[..] @reject[yes/no]")
def spector_fisher_psi_grade(d: Data) -> dict[str, Any]:
    s = d["spector"]
    res = stats.fisher_exact(pd.crosstab(s["PSI"], s["GRADE"]).to_numpy(), alternative="two-sided")
    return {"p_value": float(res.pvalue), "reject": rejected(float(res.pvalue), 0.05)}


@q("regression", "spector",
   "Linear probability model: GRADE ~ GPA + TUCE + PSI by plain OLS. Coefficient on PSI? @psi_coef[value]")
def spector_lpm_psi(d: Data) -> dict[str, Any]:
    s = d["spector"]
    fit = sm.OLS(s["GRADE"], sm.add_constant(s[["GPA", "TUCE", "PSI"]])).fit()
    return {"psi_coef": fit.params["PSI"]}
