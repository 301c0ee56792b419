"""Probe5 questions on the biology and medicine tables (penguins, iris, wine, breast_cancer, diabetes)."""

from __future__ import annotations

from typing import Any

import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import anova, chi2, corr, iqr_outliers, r, unique_arg, z_outliers
from tests.probe5.registry import q, rejected


@q("stat", "iris", """sepal len std dev (answer as @sd[value]) -- sample sd, n-1, 3dp""")
def p5_iris_sepal_len_sd(d: Data) -> dict[str, Any]:
    return {"sd": r(d["iris"]["sepal_length"].std(ddof=1), 3)}


@q("stat", "wine", """no. of distinct magnesium values in the wine data?""")
def p5_wine_distinct_magnesium(d: Data) -> dict[str, Any]:
    return {"distinct": int(d["wine"]["magnesium"].nunique())}


@q("stat_filter", "penguins", """avg body mass of the female Gentoo penguins
   - in kilograms not grams, 2 decimals
   - birds with no mass skipped
   - format: @kg[value]""")
def p5_peng_gentoo_female_kg(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    sel = p[(p["species"] == "Gentoo") & (p["sex"] == "female")]
    return {"kg": r(sel["body_mass_g"].mean() / 1000, 2)}


@q("stat_filter", "penguins", """median flipper length for birds measured from 2008 on (2008 itself included), apart
   from the Adelie ones. one decimal""")
def p5_peng_flipper_2008_on_not_adelie(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    sel = p[(p["year"] >= 2008) & (p["species"] != "Adelie")]
    return {"median": r(sel["flipper_length_mm"].median(), 1)}


@q("multi_stat", "iris", """virginica petal width: @mean[value] @sd[value] (sample) @range[value] (max minus min),
   all to 3 decimals""")
def p5_iris_virginica_pw(d: Data) -> dict[str, Any]:
    s = d["iris"].query("species == 'virginica'")["petal_width"]
    return {"mean": r(s.mean(), 3), "sd": r(s.std(ddof=1), 3), "range": r(s.max() - s.min(), 3)}


@q("correlation", "penguins", """pearson r of bill length vs bill depth: (a) Gentoo only (b) all birds together.
   rows missing either skipped. 3dp each -> @gentoo_r[value] @all_r[value]""")
def p5_peng_corr_simpson(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    g = p[p["species"] == "Gentoo"]
    return {"gentoo_r": r(corr(g["bill_length_mm"], g["bill_depth_mm"], "pearson"), 3),
            "all_r": r(corr(p["bill_length_mm"], p["bill_depth_mm"], "pearson"), 3)}


@q("correlation", "breast_cancer", """kendall tau (tau-b) between mean radius and mean texture, benign tumours only,
   3 decimal places""")
def p5_bc_kendall_benign(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    b = b[b["diagnosis"] == "benign"]
    return {"tau": r(corr(b["mean radius"], b["mean texture"], "kendall"), 3)}


@q("test", "penguins", """one-way ANOVA of flipper length across the 3 species (missing flippers dropped). F
   statistic, to one decimal place""")
def p5_peng_anova_flipper(d: Data) -> dict[str, Any]:
    f, _ = anova(d["penguins"], "flipper_length_mm", "species")
    return {"F": r(f, 1)}


@q("test", "penguins", """is sex independant of island? chi-square test of independence on the counts (birds w/o a
   recorded sex excluded, no continuity correction needed since it isn't 2x2). @reject_at_5pct[yes or no]
   @dof[value]""")
def p5_peng_chi2_sex_island(d: Data) -> dict[str, Any]:
    p = d["penguins"].dropna(subset=["sex"])
    _, pv, dof = chi2(p, "sex", "island")
    return {"reject_at_5pct": rejected(pv, 0.05), "dof": dof}


@q("test", "diabetes", """Mann-Whitney U test (two-sided) comparing disease progression between sex 1 and sex 2 --
   just the p-value, 3 decimals""")
def p5_diab_mwu_sex(d: Data) -> dict[str, Any]:
    b = d["diabetes"]
    res = stats.mannwhitneyu(b.loc[b["sex"] == 1, "progression"], b.loc[b["sex"] == 2, "progression"],
                             alternative="two-sided")
    return {"p": r(res.pvalue, 3)}


@q("outlier", "breast_cancer", """how many malignant rows are outliers on 'area error' by the 1.5 IQR rule? (linear
   quartiles, points strictly beyond a fence; quartiles computed on the malignant rows only) @outliers[value]""")
def p5_bc_outlier_area_error_malig(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    return {"outliers": iqr_outliers(b.loc[b["diagnosis"] == "malignant", "area error"])}


@q("outlier", "wine", """count wines whose magnesium has an absolute z-score strictly greater than 3 (z from the mean
   and sd of all 178 wines)""")
def p5_wine_z_magnesium(d: Data) -> dict[str, Any]:
    return {"count": z_outliers(d["wine"]["magnesium"], 3.0)}


@q("group", "wine", """avg alcohol by cultivar (2dp): @c1[value] @c2[value] @c3[value] for cultivars 1, 2 and 3""")
def p5_wine_alcohol_by_cultivar(d: Data) -> dict[str, Any]:
    m = d["wine"].groupby("cultivar")["alcohol"].mean()
    return {"c1": r(m[1], 2), "c2": r(m[2], 2), "c3": r(m[3], 2)}


@q("argmax", "wine", """which cultivar has the lowest median hue? answer with the cultivar's number only
   @cultivar[value]""")
def p5_wine_argmin_hue(d: Data) -> dict[str, Any]:
    return {"cultivar": int(unique_arg(d["wine"].groupby("cultivar")["hue"].median(), largest=False))}


@q("argmax", "penguins", """Adelie only -- which yr (of the study years) had the highest avg bill length?""")
def p5_peng_adelie_year_bill(d: Data) -> dict[str, Any]:
    p = d["penguins"].query("species == 'Adelie'")
    return {"year": int(unique_arg(p.groupby("year")["bill_length_mm"].mean()))}


@q("regression", "diabetes", """progression ~ bmi + bp (OLS with a constant). I want the coefficient on bmi, 3
   decimal places, and the R-squared to 4: @bmi_coef[value] @r2[value]""")
def p5_diab_multi_reg(d: Data) -> dict[str, Any]:
    b = d["diabetes"]
    fit = sm.OLS(b["progression"], sm.add_constant(b[["bmi", "bp"]])).fit()
    return {"bmi_coef": r(fit.params["bmi"], 3), "r2": r(fit.rsquared, 4)}


@q("regression", "iris", """for setosa flowers, fit petal_length = a + b * sepal_length by least squares; what's the
   R squared (4dp)?""")
def p5_iris_setosa_r2(d: Data) -> dict[str, Any]:
    i = d["iris"].query("species == 'setosa'")
    fit = sm.OLS(i["petal_length"], sm.add_constant(i["sepal_length"])).fit()
    return {"r2": r(fit.rsquared, 4)}


@q("derived", "penguins", """bill length / bill depth ratio per bird; mean of that ratio for the Chinstraps, 3dp""")
def p5_peng_bill_ratio_chinstrap(d: Data) -> dict[str, Any]:
    p = d["penguins"].query("species == 'Chinstrap'")
    return {"ratio": r((p["bill_length_mm"] / p["bill_depth_mm"]).mean(), 3)}


@q("derived", "diabetes", """mean of (s1 minus s2) across patients aged 50 or over, 2 decimals""")
def p5_diab_s1_minus_s2(d: Data) -> dict[str, Any]:
    b = d["diabetes"].query("age >= 50")
    return {"mean_diff": r((b["s1"] - b["s2"]).mean(), 2)}


@q("count_share", "breast_cancer", """of the tumours with mean radius strictly above 15, what share are malignant --
   as a fraction (not %), 3dp""")
def p5_bc_share_malig_big(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    sel = b[b["mean radius"] > 15]
    return {"share": r((sel["diagnosis"] == "malignant").mean(), 3)}


@q("count_share", "penguins", """how many birds have no sex recorded but DO have a body mass?""")
def p5_peng_nosex_with_mass(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"count": int((p["sex"].isna() & p["body_mass_g"].notna()).sum())}


@q("topk", "iris", """the 3 largest petal lengths among versicolor flowers, biggest first: @first[value]
   @second[value] @third[value] (values may repeat if tied)""")
def p5_iris_top3_versicolor_pl(d: Data) -> dict[str, Any]:
    s = d["iris"].query("species == 'versicolor'")["petal_length"].sort_values(ascending=False)
    return {"first": float(s.iloc[0]), "second": float(s.iloc[1]), "third": float(s.iloc[2])}


@q("hard", "penguins", """take the median body mass of each species, then: largest of those medians minus the
   smallest of them, in grams""")
def p5_peng_hard_median_spread(d: Data) -> dict[str, Any]:
    m = d["penguins"].groupby("species")["body_mass_g"].median()
    return {"spread": float(m.max() - m.min())}


@q("hard", "iris", """count the flowers whose petal length is above the mean petal length of their OWN species
   (strictly above)""")
def p5_iris_hard_above_own_mean(d: Data) -> dict[str, Any]:
    i = d["iris"]
    m = i.groupby("species")["petal_length"].transform("mean")
    assert not (i["petal_length"] == m).any()
    return {"count": int((i["petal_length"] > m).sum())}


@q("group", "breast_cancer", """groupby diagnosis -> median of 'worst area'. answer @benign[value] and
   @malignant[value] to one decimal""")
def p5_bc_group_worst_area(d: Data) -> dict[str, Any]:
    m = d["breast_cancer"].groupby("diagnosis")["worst area"].median()
    return {"benign": r(m["benign"], 1), "malignant": r(m["malignant"], 1)}


@q("stat", "diabetes", """What is the 90th pctile of the disease progression score (numpy/pandas default linear
   interpolation)? nearest whole number""")
def p5_diab_p90(d: Data) -> dict[str, Any]:
    return {"p90": int(round(d["diabetes"]["progression"].quantile(0.9)))}


@q("hard", "wine", """For each cultivar find the mean proline; which cultivar's mean is closest to the overall
   (all-wine) mean proline? give the number @cultivar[value]""")
def p5_wine_hard_closest_mean(d: Data) -> dict[str, Any]:
    w = d["wine"]
    gap = (w.groupby("cultivar")["proline"].mean() - w["proline"].mean()).abs()
    return {"cultivar": int(unique_arg(gap, largest=False))}
