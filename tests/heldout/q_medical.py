"""Questions on scikit-learn's wine, diabetes (unscaled) and breast-cancer (Wisconsin) tables."""

from __future__ import annotations

from scipy import stats

from tests.heldout.registry import Data, q
from tests.heldout.stats import anova, corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, yes_no, z_outliers

W, DB, B = "wine", "diabetes", "breast_cancer"


@q("argmax", W, """Which cultivar (1, 2 or 3) produces wines with the highest average alcohol content? Answer as
    @cultivar[value].""")
def wine_cultivar_max_alcohol(d: Data) -> dict:
    return {"cultivar": int(unique_arg(d[W].groupby("cultivar").alcohol.mean()))}


@q("argmax", W, "Which cultivar has the lowest mean flavanoids? Give its number as @cultivar_min_flavanoids[value].")
def wine_cultivar_min_flavanoids(d: Data) -> dict:
    return {"cultivar_min_flavanoids": int(unique_arg(d[W].groupby("cultivar").flavanoids.mean(), largest=False))}


@q("stat", W, "What is the maximum proline value in wine.csv?")
def wine_max_proline(d: Data) -> dict:
    return {"max": d[W].proline.max()}


@q("correlation", W, "How correlated are flavanoids and total_phenols (Pearson r, 3 decimals)?")
def wine_pearson_flavanoids_phenols(d: Data) -> dict:
    return {"pearson": r(corr(d[W].flavanoids, d[W].total_phenols, "pearson"), 3)}


@q("test", W, """Does magnesium differ between the three cultivars? Run a one-way ANOVA and report the F statistic
    as @F[value] (2 decimals) and whether the effect is significant at alpha = 0.001 as @significant[yes/no].""")
def wine_anova_magnesium(d: Data) -> dict:
    f, p = anova(d[W], "magnesium", "cultivar")
    return {"F": r(f, 2), "significant": yes_no(p < 0.001)}


@q("test", W, """Check whether the variance of ash is equal across cultivars with Levene's test centred on the
    median (scipy's default, the Brown-Forsythe variant). Give the p-value to 4 decimals.""")
def wine_levene_ash(d: Data) -> dict:
    groups = [g.ash for _, g in d[W].groupby("cultivar")]
    return {"p_value": r(stats.levene(*groups, center="median").pvalue, 4)}


@q("outlier", W, "Using the interquartile range rule (1.5*IQR), how many wines have an outlying magnesium value?")
def wine_iqr_magnesium(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[W].magnesium)}


@q("stat_filter", W, "For cultivar 3, what is the mean color_intensity? Give @mean_color_3[value], 3 decimals.")
def wine_color_cultivar3(d: Data) -> dict:
    w = d[W]
    return {"mean_color_3": r(w[w.cultivar == 3].color_intensity.mean(), 3)}


@q("multi_stat", W, """What are the 10th and 90th percentiles of hue (linear interpolation)? Report them as
    @p10[value] and @p90[value], 3 decimals.""")
def wine_hue_percentiles(d: Data) -> dict:
    hue = d[W].hue
    return {"p10": r(hue.quantile(0.1), 3), "p90": r(hue.quantile(0.9), 3)}


@q("regression", W, "Slope of the OLS regression of color_intensity on alcohol, and its R-squared? 3 decimals.")
def wine_ols_color_alcohol(d: Data) -> dict:
    fit = ols(d[W].color_intensity, d[W].alcohol)
    return {"slope": r(fit["slope"], 3), "R-squared": r(fit["r2"], 3)}


@q("group", W, """How many wines are there of each cultivar? Answer as @n_cultivar1[value], @n_cultivar2[value] and
    @n_cultivar3[value].""")
def wine_counts_by_cultivar(d: Data) -> dict:
    counts = d[W].cultivar.value_counts()
    return {f"n_cultivar{k}": int(counts[k]) for k in (1, 2, 3)}


@q("stat", DB, "What is the mean body mass index (bmi) of the patients in diabetes.csv? Round to two decimals.")
def diabetes_mean_bmi(d: Data) -> dict:
    return {"mean": r(d[DB].bmi.mean(), 2)}


@q("stat", DB, "What is the 75th percentile of blood pressure (bp)?")
def diabetes_bp_p75(d: Data) -> dict:
    return {"p75": d[DB].bp.quantile(0.75)}


@q("stat_filter", DB, "How many patients are older than 60?")
def diabetes_count_over_60(d: Data) -> dict:
    return {"count": int((d[DB].age > 60).sum())}


@q("stat_filter", DB, """Mean disease progression (progression) for patients with a bmi above 30? Answer as
    @mean_progression_obese[value], two decimals.""")
def diabetes_progression_obese(d: Data) -> dict:
    db = d[DB]
    return {"mean_progression_obese": r(db[db.bmi > 30].progression.mean(), 2)}


@q("group", DB, """The sex column is coded 1 and 2. What is the average progression for sex 1 and for sex 2?
    Answer as @progression_sex1[value] and @progression_sex2[value] rounded to 2 decimals.""")
def diabetes_progression_by_sex(d: Data) -> dict:
    means = d[DB].groupby("sex").progression.mean()
    return {"progression_sex1": r(means[1], 2), "progression_sex2": r(means[2], 2)}


@q("correlation", DB, "What's the Pearson correlation between bmi and progression?")
def diabetes_pearson_bmi(d: Data) -> dict:
    return {"pearson": r(corr(d[DB].bmi, d[DB].progression, "pearson"), 4)}


@q("correlation", DB, "Spearman rank correlation of s5 with progression, to three decimal places.")
def diabetes_spearman_s5(d: Data) -> dict:
    return {"spearman": r(corr(d[DB].s5, d[DB].progression, "spearman"), 3)}


@q("regression", DB, """Fit progression ~ bmi by ordinary least squares. Give the slope, the intercept and the
    R-squared as @slope[value], @intercept[value], @r2[value] (slope and intercept to 2 decimals, R-squared to
    4).""")
def diabetes_ols_bmi(d: Data) -> dict:
    fit = ols(d[DB].progression, d[DB].bmi)
    return {"slope": r(fit["slope"], 2), "intercept": r(fit["intercept"], 2), "r2": r(fit["r2"], 4)}


@q("test", DB, """Is disease progression different for the two sexes? Use Welch's t-test with alpha 0.05 and report
    the p-value (3 decimals) and your decision.""")
def diabetes_welch_sex(d: Data) -> dict:
    db = d[DB]
    _, p = ttest(db[db.sex == 1].progression, db[db.sex == 2].progression, equal_var=False)
    return {"p_value": r(p, 3)}


@q("outlier", DB, """Flag values of s3 whose z-score, (x - mean) / standard deviation, is above 3 in absolute value.
    How many are flagged?""")
def diabetes_z_s3(d: Data) -> dict:
    return {"outliers": z_outliers(d[DB].s3)}


@q("multi_stat", DB, """Summarise age: mean, median and sample standard deviation, each to 2 decimals, as
    @mean_age[value], @median_age[value], @sd_age[value].""")
def diabetes_age_summary(d: Data) -> dict:
    age = d[DB].age
    return {"mean_age": r(age.mean(), 2), "median_age": r(age.median(), 2), "sd_age": r(age.std(ddof=1), 2)}


@q("stat", B, "How many tumours in breast_cancer.csv are malignant?")
def cancer_count_malignant(d: Data) -> dict:
    return {"malignant": int((d[B].diagnosis == "malignant").sum())}


@q("stat", B, "What percentage of the samples are benign? Two decimals.")
def cancer_pct_benign(d: Data) -> dict:
    return {"percent": r(100 * (d[B].diagnosis == "benign").mean(), 2)}


@q("group", B, "Average 'mean radius' for malignant versus benign tumours, two decimals each?")
def cancer_radius_by_diagnosis(d: Data) -> dict:
    means = d[B].groupby("diagnosis")["mean radius"].mean()
    return {"malignant": r(means["malignant"], 2), "benign": r(means["benign"], 2)}


@q("argmax", B, """Which diagnosis group has the higher average 'mean concavity'? Answer as @diagnosis[value].""",
   checker="exact")
def cancer_diagnosis_max_concavity(d: Data) -> dict:
    return {"diagnosis": unique_arg(d[B].groupby("diagnosis")["mean concavity"].mean())}


@q("stat_filter", B, "What is the median 'worst area' among benign tumours?")
def cancer_median_worst_area_benign(d: Data) -> dict:
    b = d[B]
    return {"median": b[b.diagnosis == "benign"]["worst area"].median()}


@q("test", B, """Compare 'mean fractal dimension' between malignant and benign tumours using Welch's t-test.
    Report @t_stat[value] and @p_value[value] (3 decimals each), and whether the difference is significant at the
    0.05 level as @significant[yes/no].""")
def cancer_welch_fractal(d: Data) -> dict:
    b = d[B]
    t, p = ttest(b[b.diagnosis == "malignant"]["mean fractal dimension"],
                 b[b.diagnosis == "benign"]["mean fractal dimension"], equal_var=False)
    return {"t_stat": r(t, 3), "p_value": r(p, 3), "significant": yes_no(p < 0.05)}


@q("correlation", B, "Compute the Pearson correlation between 'mean smoothness' and 'mean compactness' (3 decimals).")
def cancer_pearson_smooth_compact(d: Data) -> dict:
    return {"pearson": r(corr(d[B]["mean smoothness"], d[B]["mean compactness"], "pearson"), 3)}


@q("outlier", B, """How many samples have an outlying 'mean area' under the 1.5 IQR rule? Answer as
    @n_outliers[value].""")
def cancer_iqr_mean_area(d: Data) -> dict:
    return {"n_outliers": iqr_outliers(d[B]["mean area"])}


@q("outlier", B, "Using z-scores, count the samples whose 'mean area' has |z| > 3.")
def cancer_z_mean_area(d: Data) -> dict:
    return {"outliers": z_outliers(d[B]["mean area"])}


@q("test", B, """Shapiro-Wilk test on 'mean smoothness' for the benign group only: report the W statistic
    (4 decimals).""")
def cancer_shapiro_smoothness_benign(d: Data) -> dict:
    b = d[B]
    w, _ = shapiro(b[b.diagnosis == "benign"]["mean smoothness"])
    return {"W": r(w, 4)}
