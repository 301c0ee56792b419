"""Questions about bodies, plants and processes: diabetes, breast_cancer, wine, iris, penguins, stackloss and
spector."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, ols, r, unique_arg
from tests.probe3.registry import q


@q("correlation", "diabetes",
   "How strongly does BMI track disease progression after one year? Pearson r, 3 decimal places.")
def body_pearson_bmi_progression(d: Data) -> dict[str, Any]:
    frame = d["diabetes"]
    return {"r": r(corr(frame["bmi"], frame["progression"], "pearson"), 3)}


@q("regression", "diabetes",
   "Multiple regression: progression on bmi, bp and s5 together, OLS with an intercept. I only need the "
   "adjusted R-squared (@adj_r2[value], 4 dp) and the bp coefficient (@coef_bp[value], 3 dp).")
def body_ols_progression(d: Data) -> dict[str, Any]:
    frame = d["diabetes"]
    fit = sm.OLS(frame["progression"], sm.add_constant(frame[["bmi", "bp", "s5"]])).fit()
    return {"adj_r2": r(fit.rsquared_adj, 4), "coef_bp": r(fit.params["bp"], 3)}


@q("stat_filter", "diabetes",
   "What is the mean blood pressure of patients older than 60 whose BMI is at least 30? @mean_bp[value], 1 dp")
def body_bp_old_obese(d: Data) -> dict[str, Any]:
    frame = d["diabetes"]
    return {"mean_bp": r(frame.loc[(frame["age"] > 60) & (frame["bmi"] >= 30), "bp"].mean(), 1)}


@q("group", "breast_cancer",
   "mean radius, average per diagnosis, 3dp: @benign[value] @malignant[value]")
def body_radius_by_diagnosis(d: Data) -> dict[str, Any]:
    means = d["breast_cancer"].groupby("diagnosis")["mean radius"].mean()
    return {"benign": r(means["benign"], 3), "malignant": r(means["malignant"], 3)}


@q("test", "breast_cancer",
   "worst area: benign vs malignant, Mann-Whitney U, two-sided. Give the U statistic of the benign group as "
   "@U[value] and the p-value as @p_value[value].")
def body_mwu_worst_area(d: Data) -> dict[str, Any]:
    frame = d["breast_cancer"]
    res = stats.mannwhitneyu(frame.loc[frame["diagnosis"] == "benign", "worst area"],
                             frame.loc[frame["diagnosis"] == "malignant", "worst area"], alternative="two-sided")
    return {"U": float(res.statistic), "p_value": float(res.pvalue)}


@q("multi_stat", "breast_cancer",
   "For the mean texture column: the 10th and 90th percentiles (linear interpolation) and their difference, "
   "2dp each. @p10[value] @p90[value] @spread[value]")
def body_texture_percentiles(d: Data) -> dict[str, Any]:
    texture = d["breast_cancer"]["mean texture"]
    p10, p90 = texture.quantile(0.10), texture.quantile(0.90)
    return {"p10": r(p10, 2), "p90": r(p90, 2), "spread": r(p90 - p10, 2)}


@q("group", "wine",
   "Average proline content of each of the three cultivars, rounded to whole numbers. Label them cultivar 1, "
   "cultivar 2 and cultivar 3.")
def body_proline_by_cultivar(d: Data) -> dict[str, Any]:
    means = d["wine"].groupby("cultivar")["proline"].mean()
    return {f"cultivar {k}": int(round(means[k])) for k in (1, 2, 3)}


@q("argmax", "wine",
   "Which cultivar has the lowest median hue? Answer @cultivar[number].", checker="exact")
def body_lowest_hue_cultivar(d: Data) -> dict[str, Any]:
    return {"cultivar": unique_arg(d["wine"].groupby("cultivar")["hue"].median(), largest=False)}


@q("hard", "wine",
   "Wines with alcohol of at least 13 percent: among those, what is the difference between the mean colour "
   "intensity of cultivar 1 and of cultivar 3 (cultivar 1 minus cultivar 3)? Two decimals.")
def body_color_gap_strong(d: Data) -> dict[str, Any]:
    frame = d["wine"]
    frame = frame[frame["alcohol"] >= 13]
    means = frame.groupby("cultivar")["color_intensity"].mean()
    return {"gap": r(means[1] - means[3], 2)}


@q("derived", "wine",
   "Ratio of flavanoids to total phenols for each wine; report its mean over cultivar 2 only as "
   "@mean_ratio[value] (3 dp).")
def body_flav_phenol_ratio(d: Data) -> dict[str, Any]:
    frame = d["wine"]
    frame = frame[frame["cultivar"] == 2]
    return {"mean_ratio": r((frame["flavanoids"] / frame["total_phenols"]).mean(), 3)}


@q("count_share", "iris",
   "How many iris flowers have a petal more than 2.9 times as long as it is wide, setosa excluded?")
def body_iris_long_petals(d: Data) -> dict[str, Any]:
    frame = d["iris"]
    frame = frame[frame["species"] != "setosa"]
    ratio = frame["petal_length"] / frame["petal_width"]
    assert not np.isclose(ratio, 2.9).any()
    return {"count": int((ratio > 2.9).sum())}


@q("stat_filter", "penguins",
   "Mean body mass of female Gentoo penguins in kilograms, to 3 decimals (the table is in grams; skip birds with "
   "no mass).")
def body_gentoo_female_kg(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    chosen = frame[(frame["species"] == "Gentoo") & (frame["sex"] == "female")]
    return {"kg": r(chosen["body_mass_g"].mean() / 1000, 3)}


@q("count_share", "penguins",
   "Of the penguins recorded on Biscoe island, what share are Adelie? @share[value] as a fraction, 3dp.")
def body_biscoe_adelie(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    biscoe = frame[frame["island"] == "Biscoe"]
    return {"share": r((biscoe["species"] == "Adelie").mean(), 3)}


@q("test", "penguins",
   "Chi-square test of independence between species and island (all 344 birds), no continuity correction. "
   "What are the chi-square statistic (1 dp) and the degrees of freedom? @chi2[value] @dof[value]")
def body_chi2_species_island(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    res = stats.chi2_contingency(pd.crosstab(frame["species"], frame["island"]), correction=False)
    return {"chi2": r(res.statistic, 1), "dof": int(res.dof)}


@q("hard", "penguins",
   "How many penguins are heavier than the mean body mass of their own species and sex? Birds with a missing "
   "sex or mass are left out, both from the means and from the count.")
def body_heavier_than_group(d: Data) -> dict[str, Any]:
    frame = d["penguins"].dropna(subset=["sex", "body_mass_g"])
    means = frame.groupby(["species", "sex"])["body_mass_g"].transform("mean")
    assert not np.isclose(frame["body_mass_g"], means).any()
    return {"count": int((frame["body_mass_g"] > means).sum())}


@q("argmax", "penguins",
   "Chinstrap penguins only: in which study year was their average bill depth highest? @year[value]",
   checker="exact")
def body_chinstrap_depth_year(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    return {"year": unique_arg(frame[frame["species"] == "Chinstrap"].groupby("year")["bill_depth_mm"].mean())}


@q("regression", "stackloss",
   "stackloss: regress stack loss on air flow, water temperature and acid concentration (OLS with "
   "intercept). Coefficient on water temperature, 3 dp: @coef_water[value]")
def body_stackloss_water(d: Data) -> dict[str, Any]:
    frame = d["stackloss"]
    fit = sm.OLS(frame["STACKLOSS"], sm.add_constant(frame[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"coef_water": r(fit.params["WATERTEMP"], 3)}


@q("test", "spector",
   "Spector: 32 students, some taught with the new PSI method. Is getting a better grade (GRADE = 1) associated "
   "with PSI? Fisher's exact test, two-sided; p-value to 4 decimals.")
def body_fisher_psi_grade(d: Data) -> dict[str, Any]:
    frame = d["spector"]
    res = stats.fisher_exact(pd.crosstab(frame["PSI"], frame["GRADE"]))
    return {"p_value": r(res.pvalue, 4)}


@q("stat", "spector", "Median GPA in the spector table, three decimals.")
def body_spector_median_gpa(d: Data) -> dict[str, Any]:
    return {"median_gpa": r(d["spector"]["GPA"].median(), 3)}


@q("correlation", "penguins",
   "Among the Gentoo penguins only, the Spearman correlation between flipper length and bill length "
   "(rows with gaps dropped), to 3 decimals.")
def body_gentoo_spearman(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    frame = frame[frame["species"] == "Gentoo"]
    return {"rho": r(corr(frame["flipper_length_mm"], frame["bill_length_mm"], "spearman"), 3)}


@q("topk", "diabetes",
   "Top three ages by number of patients in the diabetes table (most common age first): @first[age] "
   "@second[age] @third[age]", checker="exact")
def body_top3_ages(d: Data) -> dict[str, Any]:
    counts = d["diabetes"]["age"].value_counts()
    assert len(set(counts.iloc[:4])) == 4
    ages = [str(a) for a in counts.index[:3]]
    return {"first": ages[0], "second": ages[1], "third": ages[2]}


@q("stat", "iris", "iris: coefficient of variation of sepal width (sample sd over mean), as a % with 2dp")
def body_iris_cv(d: Data) -> dict[str, Any]:
    width = d["iris"]["sepal_width"]
    return {"cv_pct": r(width.std(ddof=1) / width.mean() * 100, 2)}


@q("regression", "penguins",
   "Simple regression of body mass (g) on flipper length (mm) for the Adelie penguins, missing rows dropped. "
   "How many grams per extra millimetre of flipper? 2 decimals.")
def body_adelie_mass_flipper(d: Data) -> dict[str, Any]:
    frame = d["penguins"]
    frame = frame[frame["species"] == "Adelie"]
    return {"slope": r(ols(frame["body_mass_g"], frame["flipper_length_mm"])["slope"], 2)}
