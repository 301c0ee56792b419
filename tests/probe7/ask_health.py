"""Probe7 questions on the diabetes and breast-cancer tables, the affairs survey (fair), the grades (spector) and
the 1996 election survey (anes96)."""

from __future__ import annotations

import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe7.registry import q, rejected

# ---------------------------------------------------------------- stat


@q("stat", "diabetes", "Mean bmi of the diabetes patients — 3 decimal places please.")
def diabetes_mean_bmi(d: Data) -> dict:
    return {"mean_bmi": r(d["diabetes"]["bmi"].mean(), 3)}


@q("stat", "breast_cancer", "interquartile range of 'worst texture' (Q3 minus Q1, linear interpolation)? "
                            "3 dp")
def cancer_iqr_worst_texture(d: Data) -> dict:
    s = d["breast_cancer"]["worst texture"]
    return {"iqr_wt": r(s.quantile(0.75) - s.quantile(0.25), 3)}


# ---------------------------------------------------------------- stat_filter


@q("stat_filter", "diabetes", "Average progression for patients older than 50 (not 50 itself) with a bmi under "
                              "25. One decimal.")
def diabetes_progression_old_lean(d: Data) -> dict:
    x = d["diabetes"]
    return {"mean_prog": r(x.loc[(x["age"] > 50) & (x["bmi"] < 25), "progression"].mean(), 1)}


@q("stat_filter", "fair", "Among women married 10 years or longer who rate their marriage 2 or lower, what's the "
                          "median age? Answer @median_age[value].")
def fair_median_age_unhappy_long(d: Data) -> dict:
    f = d["fair"]
    return {"median_age": float(f.loc[(f["yrs_married"] >= 10) & (f["rate_marriage"] <= 2), "age"].median())}


@q("stat_filter", "anes96", "mean selfLR of respondents aged 30 through 45 inclusive, excluding anyone with "
                            "educ equal to 1. 3 decimals")
def anes_selflr_age_window(d: Data) -> dict:
    a = d["anes96"]
    sub = a[a["age"].between(30, 45) & (a["educ"] != 1)]
    return {"mean_selflr": r(sub["selfLR"].mean(), 3)}


# ---------------------------------------------------------------- multi_stat


@q("multi_stat", "spector", "For GPA give me:\n1. mean -> @gpa_mean[value]\n2. population std (ddof=0) -> "
                            "@gpa_pstd[value]\n3. range (max - min) -> @gpa_range[value]\nall rounded to 4 dp")
def spector_gpa_summary(d: Data) -> dict:
    g = d["spector"]["GPA"]
    return {"gpa_mean": r(g.mean(), 4), "gpa_pstd": r(g.std(ddof=0), 4), "gpa_range": r(g.max() - g.min(), 4)}


@q("multi_stat", "breast_cancer", "benign tumours only: skewness (pandas' bias-corrected .skew()) and excess "
                                  "kurtosis (pandas' .kurt()) of 'mean area', as @skew[value] and @kurt[value], "
                                  "3 d.p.")
def cancer_benign_area_shape(d: Data) -> dict:
    s = d["breast_cancer"].query("diagnosis == 'benign'")["mean area"]
    return {"skew": r(s.skew(), 3), "kurt": r(s.kurt(), 3)}


# ---------------------------------------------------------------- correlation


@q("correlation", "diabetes", "What is the Kendall tau-b between s5 and progression? Round to 4 decimals.")
def diabetes_kendall_s5(d: Data) -> dict:
    x = d["diabetes"]
    return {"tau": r(corr(x["s5"], x["progression"], "kendall"), 4)}


@q("correlation", "anes96", "Pearson correlation of ClinLR with DoleLR, among respondents who place themselves "
                            "at 4 (the middle) on selfLR, to 3 dp")
def anes_clin_dole_moderates(d: Data) -> dict:
    a = d["anes96"].query("selfLR == 4")
    return {"r_mid": r(corr(a["ClinLR"], a["DoleLR"], "pearson"), 3)}


# ---------------------------------------------------------------- test


@q("test", "breast_cancer", "Mann-Whitney U (two-sided, scipy default with continuity correction) comparing "
                            "'mean smoothness' of malignant vs benign: report U for the malignant sample as "
                            "@u_stat[value].")
def cancer_mwu_smoothness(d: Data) -> dict:
    b = d["breast_cancer"]
    res = stats.mannwhitneyu(b.loc[b["diagnosis"] == "malignant", "mean smoothness"],
                             b.loc[b["diagnosis"] == "benign", "mean smoothness"], alternative="two-sided")
    return {"u_stat": float(res.statistic)}


@q("test", "diabetes", "Is the average bp different between sex 1 and sex 2? Use Student's t-test with pooled "
                       "variance; report the t statistic (sex 1 minus sex 2), 3 dp.")
def diabetes_student_bp_sex(d: Data) -> dict:
    x = d["diabetes"]
    res = stats.ttest_ind(x.loc[x["sex"] == 1, "bp"], x.loc[x["sex"] == 2, "bp"], equal_var=True)
    return {"t": r(res.statistic, 3)}


@q("test", "fair", "Chi-square test of independence between religious (the four levels) and whether a woman "
                   "reports any affairs (affairs > 0). Significant at 0.001? Put the statistic in "
                   "@chi_sq[value] (2 dp) and the verdict in @significant[yes or no].")
def fair_chi2_religious_any_affair(d: Data) -> dict:
    f = d["fair"]
    res = stats.chi2_contingency(pd.crosstab(f["religious"], f["affairs"] > 0))
    return {"chi_sq": r(res.statistic, 2), "significant": rejected(float(res.pvalue), 0.001)}


# ---------------------------------------------------------------- outlier


@q("outlier", "diabetes", "Using 1.5×IQR fences (pandas' default linear quartiles), how many s6 readings are "
                          "outliers?")
def diabetes_s6_iqr(d: Data) -> dict:
    return {"n": iqr_outliers(d["diabetes"]["s6"])}


@q("outlier", "breast_cancer", "count of malignant cases whose 'worst area' z-score (computed within the "
                               "malignant group, sample SD) exceeds 3 in absolute value -> @n_extreme[value]")
def cancer_malignant_worst_area_z(d: Data) -> dict:
    s = d["breast_cancer"].query("diagnosis == 'malignant'")["worst area"]
    return {"n_extreme": z_outliers(s, 3.0, ddof=1)}


# ---------------------------------------------------------------- group


@q("group", "fair", "Mean affairs score by occupation_husb (codes 1 to 6), 3 dp each, as @occ1[value] @occ2[value] "
                    "@occ3[value] @occ4[value] @occ5[value] @occ6[value].")
def fair_affairs_by_husband_occupation(d: Data) -> dict:
    m = d["fair"].groupby("occupation_husb")["affairs"].mean()
    return {f"occ{k}": r(m[k], 3) for k in range(1, 7)}


@q("group", "breast_cancer", "Median 'mean radius' for each diagnosis class, 2 decimals.")
def cancer_median_radius_by_diagnosis(d: Data) -> dict:
    m = d["breast_cancer"].groupby("diagnosis")["mean radius"].median()
    return {k: r(v, 2) for k, v in m.items()}


# ---------------------------------------------------------------- argmax


@q("argmax", "anes96", "Which education level (educ code) has the highest share of vote == 1? Give the code as "
                       "@educ_level[code].")
def anes_educ_max_vote(d: Data) -> dict:
    return {"educ_level": int(unique_arg(d["anes96"].groupby("educ")["vote"].mean()))}


@q("argmax", "breast_cancer", "Of the ten columns whose name starts with 'mean ', which one has the largest "
                              "coefficient of variation (sample SD / mean)? Answer with the column name exactly as "
                              "in the header.", checker="exact")
def cancer_most_variable_mean_column(d: Data) -> dict:
    b = d["breast_cancer"]
    cols = [c for c in b.columns if c.startswith("mean ")]
    cv = b[cols].std(ddof=1) / b[cols].mean()
    return {"column": unique_arg(cv)}


# ---------------------------------------------------------------- regression


@q("regression", "diabetes", "Fit progression ~ bmi + bp + s5 by OLS (intercept included). Report R-squared "
                             "(4 dp) and the bmi coefficient (3 dp): @rsq[value] @b_bmi[value]")
def diabetes_multiple_regression(d: Data) -> dict:
    fit = smf.ols("progression ~ bmi + bp + s5", data=d["diabetes"]).fit()
    return {"rsq": r(fit.rsquared, 4), "b_bmi": r(fit.params["bmi"], 3)}


@q("regression", "spector", "GPA regressed on TUCE (simple OLS with intercept): by how much does the fitted GPA "
                            "go up for 10 extra TUCE points? 3 decimals")
def spector_gpa_on_tuce(d: Data) -> dict:
    s = d["spector"]
    return {"per_10_points": r(10 * ols(s["GPA"], s["TUCE"])["slope"], 3)}


# ---------------------------------------------------------------- derived


@q("derived", "fair", "Compute age at marriage as age minus yrs_married for every respondent. What's the mean of "
                      "that, to 2 decimals?")
def fair_mean_age_at_marriage(d: Data) -> dict:
    f = d["fair"]
    return {"mean_age_married": r((f["age"] - f["yrs_married"]).mean(), 2)}


@q("derived", "anes96", "Per respondent, how far apart they put Clinton and Dole: |DoleLR - ClinLR|. Mean of "
                        "that distance for those with PID 0 -> @mean_gap[value] (3 dp).")
def anes_mean_perceived_gap_pid0(d: Data) -> dict:
    a = d["anes96"].query("PID == 0")
    return {"mean_gap": r((a["DoleLR"] - a["ClinLR"]).abs().mean(), 3)}


# ---------------------------------------------------------------- count_share


@q("count_share", "fair", "What percentage of the women report no affairs at all (affairs == 0)? 2 dp, as a "
                          "percent.")
def fair_pct_no_affairs(d: Data) -> dict:
    return {"pct": r(100 * (d["fair"]["affairs"] == 0).mean(), 2)}


@q("count_share", "spector", "How many students got GRADE = 1 without being in the PSI program (PSI = 0)?")
def spector_grade_without_psi(d: Data) -> dict:
    s = d["spector"]
    return {"n": int(((s["GRADE"] == 1) & (s["PSI"] == 0)).sum())}


@q("count_share", "diabetes", "Number of patients with s4 at least 5 and progression under 100.")
def diabetes_count_s4_progression(d: Data) -> dict:
    x = d["diabetes"]
    return {"n": int(((x["s4"] >= 5) & (x["progression"] < 100)).sum())}


# ---------------------------------------------------------------- topk


@q("topk", "diabetes", "Top three features by absolute Pearson correlation with progression (among age, bmi, bp, "
                       "s1-s6; leave sex out). Names in lower case: @top1[name] @top2[name] @top3[name].",
   checker="exact")
def diabetes_top3_correlates(d: Data) -> dict:
    x = d["diabetes"]
    cols = ["age", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
    c = x[cols].corrwith(x["progression"]).abs().sort_values(ascending=False)
    assert c.iloc[2] - c.iloc[3] > 1e-6
    return {"top1": c.index[0], "top2": c.index[1], "top3": c.index[2]}


# ---------------------------------------------------------------- hard


@q("hard", "fair", "Step 1: mean affairs for each rate_marriage level. Step 2: the median of those five means. "
                   "Report @median_of_means[value], 4 decimals.")
def fair_median_of_rating_means(d: Data) -> dict:
    return {"median_of_means": r(d["fair"].groupby("rate_marriage")["affairs"].mean().median(), 4)}


@q("hard", "diabetes", "How many patients have a bmi above the 90th percentile of bmi (linear interpolation, "
                       "strictly above) and at the same time a progression strictly below the overall median?")
def diabetes_high_bmi_low_progression(d: Data) -> dict:
    x = d["diabetes"]
    p90 = x["bmi"].quantile(0.9)
    assert not (x["bmi"] == p90).any()
    med = x["progression"].median()
    return {"n": int(((x["bmi"] > p90) & (x["progression"] < med)).sum())}
