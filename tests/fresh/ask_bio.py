"""Fresh questions on biology and medicine tables: iris, wine, penguins, diabetes, breast_cancer."""

from __future__ import annotations

import numpy as np
import statsmodels.api as sm
from scipy import stats

from tests.fresh.registry import q, rejected
from tests.heldout.registry import Data
from tests.heldout.stats import anova, chi2, corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, z_outliers

# --- iris ---


@q("group", "iris", "Average petal length for each species (setosa, versicolor, virginica), 3 decimals each.")
def iris_petal_length_by_species(d: Data) -> dict:
    g = d["iris"].groupby("species")["petal_length"].mean()
    return {name: r(g[name], 3) for name in ("setosa", "versicolor", "virginica")}


@q("test", "iris", "Is sepal width normally distributed over the whole iris sample? Run a Shapiro-Wilk test "
   "on all 150 sepal widths. Give @p_value[value] to 4 decimals and @normal[yes or no], where yes means "
   "normality is not rejected at the 5% level.")
def iris_shapiro_sepal_width(d: Data) -> dict:
    _, p = shapiro(d["iris"]["sepal_width"])
    return {"p_value": r(p, 4), "normal": ("no" if rejected(p, 0.05) == "yes" else "yes")}


@q("test", "iris", "Do versicolor and virginica differ in the spread of sepal length? Use Levene's test centred "
   "on the median (the Brown-Forsythe variant) and report the p-value as @levene_p[value], 4 decimals.")
def iris_levene_sepal_length(d: Data) -> dict:
    i = d["iris"]
    p = stats.levene(i.loc[i["species"] == "versicolor", "sepal_length"],
                     i.loc[i["species"] == "virginica", "sepal_length"], center="median").pvalue
    return {"levene_p": r(p, 4)}


@q("derived", "iris", "For virginica flowers, multiply petal length by petal width to get a rough petal "
   "'area', then average it. Three decimals.")
def iris_virginica_petal_area(d: Data) -> dict:
    i = d["iris"]
    v = i[i["species"] == "virginica"]
    return {"mean_area": r((v["petal_length"] * v["petal_width"]).mean(), 3)}


@q("correlation", "iris", "Within the versicolor species only: Pearson correlation of petal length with petal "
   "width. Report @r[value] (3 decimals).")
def iris_versicolor_pearson(d: Data) -> dict:
    i = d["iris"]
    v = i[i["species"] == "versicolor"]
    return {"r": r(corr(v["petal_length"], v["petal_width"], "pearson"), 3)}


@q("multi_stat", "iris", "What are the first and third quartiles of sepal width across all flowers (linear "
   "interpolation between data points)? Answer as @q1[value] and @q3[value].")
def iris_sepal_width_quartiles(d: Data) -> dict:
    v = d["iris"]["sepal_width"]
    return {"q1": v.quantile(0.25), "q3": v.quantile(0.75)}


# --- wine ---


@q("test", "wine", "One-way ANOVA: does alcohol content differ across the three cultivars? F statistic, 2 "
   "decimals.")
def wine_anova_alcohol(d: Data) -> dict:
    f, _ = anova(d["wine"], "alcohol", "cultivar")
    return {"f_stat": r(f, 2)}


@q("argmax", "wine", "Which cultivar number has the most intense colour on average (color_intensity)?")
def wine_cultivar_max_color(d: Data) -> dict:
    return {"cultivar": int(unique_arg(d["wine"].groupby("cultivar")["color_intensity"].mean()))}


@q("stat_filter", "wine", "Mean proline of wines whose alcohol is between 13 and 14 (both ends included)? "
   "@mean_proline[value], 1 decimal.")
def wine_proline_alcohol_13_14(d: Data) -> dict:
    w = d["wine"]
    return {"mean_proline": r(w.loc[w["alcohol"].between(13, 14), "proline"].mean(), 1)}


@q("count_share", "wine", "What percentage of the wines have magnesium strictly above 100? Round to 2 decimals.")
def wine_pct_magnesium_over_100(d: Data) -> dict:
    return {"pct": r((d["wine"]["magnesium"] > 100).mean() * 100, 2)}


@q("test", "wine", "Compare flavanoids between cultivar 1 and cultivar 2 with a two-sided Mann-Whitney U test. "
   "Report the smaller of the two U statistics as @u_stat[value] and whether the difference is significant at "
   "0.05 as @significant[yes or no].")
def wine_mannwhitney_flavanoids(d: Data) -> dict:
    w = d["wine"]
    a, b = w.loc[w["cultivar"] == 1, "flavanoids"], w.loc[w["cultivar"] == 2, "flavanoids"]
    res = stats.mannwhitneyu(a, b, alternative="two-sided")
    u = min(res.statistic, len(a) * len(b) - res.statistic)
    return {"u_stat": u, "significant": rejected(res.pvalue, 0.05)}


@q("hard", "wine", "Standardise alcohol over all wines (z = (x - mean) / sample standard deviation, ddof=1). "
   "What is the average z-score of the cultivar 3 wines? 3 decimals.")
def wine_mean_z_cultivar3(d: Data) -> dict:
    w = d["wine"]
    z = (w["alcohol"] - w["alcohol"].mean()) / w["alcohol"].std(ddof=1)
    return {"mean_z": r(z[w["cultivar"] == 3].mean(), 3)}


# --- penguins (generated; some measurements and sexes missing) ---


@q("stat", "penguins", "How many penguins have no sex recorded?")
def penguins_missing_sex(d: Data) -> dict:
    return {"missing": int(d["penguins"]["sex"].isna().sum())}


@q("group", "penguins", "Median body mass per species, in grams, ignoring penguins with no body mass recorded. "
   "Give Adelie, Chinstrap and Gentoo.")
def penguins_median_mass_by_species(d: Data) -> dict:
    g = d["penguins"].groupby("species")["body_mass_g"].median()
    return {name: g[name] for name in ("Adelie", "Chinstrap", "Gentoo")}


@q("test", "penguins", "Among Adelie penguins of known sex, do males weigh more than females? Run Welch's "
   "t-test on body_mass_g (males minus females, two-sided). Report @t_stat[value] with 2 decimals.")
def penguins_welch_adelie_mass(d: Data) -> dict:
    p = d["penguins"]
    a = p[p["species"] == "Adelie"]
    t, _ = ttest(a.loc[a["sex"] == "male", "body_mass_g"], a.loc[a["sex"] == "female", "body_mass_g"], False)
    return {"t_stat": r(t, 2)}


@q("test", "penguins", "Chi-square test of independence between species and island (contingency table of "
   "counts, all rows). What are the chi-square statistic and its degrees of freedom? Answer "
   "@chi2[value] (1 decimal) @dof[value].")
def penguins_chi2_species_island(d: Data) -> dict:
    c, _, dof = chi2(d["penguins"], "species", "island")
    return {"chi2": r(c, 1), "dof": dof}


@q("stat_filter", "penguins", "What's the mean flipper length of female Gentoo penguins measured in 2008? "
   "Two decimals.")
def penguins_gentoo_female_2008_flipper(d: Data) -> dict:
    p = d["penguins"]
    sel = (p["species"] == "Gentoo") & (p["sex"] == "female") & (p["year"] == 2008)
    return {"mean_flipper": r(p.loc[sel, "flipper_length_mm"].mean(), 2)}


@q("count_share", "penguins", "What share of all the penguins in the table were recorded on Dream island? As "
   "a percentage, one decimal: @pct_dream[value].")
def penguins_pct_dream(d: Data) -> dict:
    return {"pct_dream": r((d["penguins"]["island"] == "Dream").mean() * 100, 1)}


@q("derived", "penguins", "Bill shape: for Chinstrap penguins, what is the mean ratio of bill length to bill "
   "depth? Skip birds missing either measure. 3 decimals.")
def penguins_chinstrap_bill_ratio(d: Data) -> dict:
    p = d["penguins"]
    c = p[p["species"] == "Chinstrap"]
    return {"mean_ratio": r((c["bill_length_mm"] / c["bill_depth_mm"]).mean(), 3)}


@q("hard", "penguins", "Work out the mean body mass of each species. How many grams separate the heaviest "
   "species' mean from the lightest species' mean? @gap_g[value], 1 decimal.")
def penguins_species_mass_gap(d: Data) -> dict:
    g = d["penguins"].groupby("species")["body_mass_g"].mean()
    return {"gap_g": r(g.max() - g.min(), 1)}


@q("outlier", "penguins", "Gentoo penguins only: how many bill depths fall outside 1.5 IQR of the quartiles "
   "(linear-interpolation quartiles, missing values dropped)?")
def penguins_gentoo_iqr_depth(d: Data) -> dict:
    p = d["penguins"]
    return {"outliers": iqr_outliers(p.loc[p["species"] == "Gentoo", "bill_depth_mm"])}


@q("argmax", "penguins", "On which island are flippers longest on average?", checker="exact")
def penguins_island_max_flipper(d: Data) -> dict:
    return {"island": unique_arg(d["penguins"].groupby("island")["flipper_length_mm"].mean())}


@q("hard", "penguins", "Average bill length by island first, then take the median of those island averages. "
   "Two decimals please.")
def penguins_median_island_bill(d: Data) -> dict:
    return {"median": r(d["penguins"].groupby("island")["bill_length_mm"].mean().median(), 2)}


# --- diabetes (unscaled features; progression one year after baseline) ---


@q("regression", "diabetes", "Simple linear regression of disease progression on BMI. Give the slope "
   "@slope[value], intercept @intercept[value] and R-squared @r2[value], all to 3 decimals.")
def diabetes_progression_on_bmi(d: Data) -> dict:
    fit = ols(d["diabetes"]["progression"], d["diabetes"]["bmi"])
    return {"slope": r(fit["slope"], 3), "intercept": r(fit["intercept"], 3), "r2": r(fit["r2"], 3)}


@q("regression", "diabetes", "Fit progression ~ bmi + bp + s5 by ordinary least squares with an intercept. "
   "What is the coefficient on s5? Round to 2 decimals.")
def diabetes_multi_s5(d: Data) -> dict:
    frame = d["diabetes"]
    fit = sm.OLS(frame["progression"], sm.add_constant(frame[["bmi", "bp", "s5"]])).fit()
    return {"coef_s5": r(fit.params["s5"], 2)}


@q("stat_filter", "diabetes", "Patients aged 60 or older whose BMI is above 30: their mean progression score? "
   "@mean_progression[value], 2 decimals.")
def diabetes_old_obese_progression(d: Data) -> dict:
    f = d["diabetes"]
    return {"mean_progression": r(f.loc[(f["age"] >= 60) & (f["bmi"] > 30), "progression"].mean(), 2)}


@q("correlation", "diabetes", "spearman corr bmi vs progression (3dp)")
def diabetes_spearman_bmi(d: Data) -> dict:
    f = d["diabetes"]
    return {"spearman": r(corr(f["bmi"], f["progression"], "spearman"), 3)}


@q("test", "diabetes", "Do the two sex groups differ in mean progression? Use Student's t-test assuming equal "
   "variances (sex 1 versus sex 2). Report @p_value[value] rounded to 4 decimals.")
def diabetes_student_sex(d: Data) -> dict:
    f = d["diabetes"]
    _, p = ttest(f.loc[f["sex"] == 1, "progression"], f.loc[f["sex"] == 2, "progression"], True)
    return {"p_value": r(p, 4)}


@q("count_share", "diabetes", "How many patients in the diabetes table have a BMI of 30 or higher?")
def diabetes_count_bmi_30(d: Data) -> dict:
    return {"count": int((d["diabetes"]["bmi"] >= 30).sum())}


@q("hard", "diabetes", "Take the patients whose BMI is strictly above the 90th percentile of BMI (linear "
   "interpolation). What is their mean progression? 2 decimals.")
def diabetes_top_decile_bmi(d: Data) -> dict:
    f = d["diabetes"]
    cut = f["bmi"].quantile(0.9)
    return {"mean_progression": r(f.loc[f["bmi"] > cut, "progression"].mean(), 2)}


# --- breast cancer (Wisconsin diagnostic) ---


@q("group", "breast_cancer", "By diagnosis, what is the average of the 'mean radius' feature? Report "
   "@malignant[value] and @benign[value], 3 decimals.")
def cancer_radius_by_diagnosis(d: Data) -> dict:
    g = d["breast_cancer"].groupby("diagnosis")["mean radius"].mean()
    return {"malignant": r(g["malignant"], 3), "benign": r(g["benign"], 3)}


@q("test", "breast_cancer", "Welch two-sample t-test on 'mean texture', malignant minus benign. What is the t "
   "statistic? 3 decimals.")
def cancer_welch_texture(d: Data) -> dict:
    b = d["breast_cancer"]
    t, _ = ttest(b.loc[b["diagnosis"] == "malignant", "mean texture"],
                 b.loc[b["diagnosis"] == "benign", "mean texture"], False)
    return {"t_stat": r(t, 3)}


@q("count_share", "breast_cancer", "What fraction of the tumours are malignant? Give it as a percentage with 2 "
   "decimals.")
def cancer_pct_malignant(d: Data) -> dict:
    return {"pct": r((d["breast_cancer"]["diagnosis"] == "malignant").mean() * 100, 2)}


@q("outlier", "breast_cancer", "Count the tumours whose 'mean area' has an absolute z-score greater than 3.")
def cancer_z_area(d: Data) -> dict:
    return {"outliers": z_outliers(d["breast_cancer"]["mean area"])}


@q("multi_stat", "breast_cancer", "For 'worst area', give the median as @median[value] and the interquartile "
   "range (Q3 minus Q1, linear interpolation) as @iqr[value], both to 2 decimals.")
def cancer_worst_area_median_iqr(d: Data) -> dict:
    v = d["breast_cancer"]["worst area"]
    return {"median": r(v.median(), 2), "iqr": r(v.quantile(0.75) - v.quantile(0.25), 2)}


@q("correlation", "breast_cancer", "How strongly do tumour size measures move together? Pearson correlation "
   "between mean radius and mean area, 4 decimal places.")
def cancer_pearson_radius_area(d: Data) -> dict:
    b = d["breast_cancer"]
    return {"pearson": r(corr(b["mean radius"], b["mean area"], "pearson"), 4)}


@q("derived", "breast_cancer", "Take the natural log of 'worst area' for each tumour. What is the sample "
   "standard deviation (ddof=1) of the logged values? 4 decimals.")
def cancer_log_worst_area_std(d: Data) -> dict:
    return {"std_log": r(np.log(d["breast_cancer"]["worst area"]).std(ddof=1), 4)}




@q("multi_stat", "penguins", "Adelie bill length: how many birds have a measurement, what is the mean and what "
   "is the sample standard deviation (ddof=1)? @n[value], @mean[value] (2 decimals), @sd[value] (2 decimals).")
def penguins_adelie_bill_summary(d: Data) -> dict:
    p = d["penguins"]
    v = p.loc[p["species"] == "Adelie", "bill_length_mm"].dropna()
    return {"n": len(v), "mean": r(v.mean(), 2), "sd": r(v.std(ddof=1), 2)}


@q("multi_stat", "diabetes", "What are the youngest and oldest ages in the diabetes data, and the mean age? "
   "Please label them minimum, maximum and mean (mean to 2 decimals).")
def diabetes_age_summary(d: Data) -> dict:
    v = d["diabetes"]["age"]
    return {"minimum": v.min(), "maximum": v.max(), "mean": r(v.mean(), 2)}


@q("group", "penguins", "Mean flipper length by sex, leaving out birds of unknown sex: @male[value] and "
   "@female[value], 2 decimals.")
def penguins_flipper_by_sex(d: Data) -> dict:
    g = d["penguins"].groupby("sex")["flipper_length_mm"].mean()
    return {"male": r(g["male"], 2), "female": r(g["female"], 2)}


@q("group", "wine", "Median magnesium in each cultivar. Answer @cultivar_1[value], @cultivar_2[value], "
   "@cultivar_3[value].")
def wine_median_magnesium(d: Data) -> dict:
    g = d["wine"].groupby("cultivar")["magnesium"].median()
    return {f"cultivar_{k}": g[k] for k in (1, 2, 3)}


@q("hard", "iris", "Which species has the most variable sepal length relative to its size, measured by the "
   "coefficient of variation (sample standard deviation divided by the mean)?", checker="exact")
def iris_species_max_cv(d: Data) -> dict:
    g = d["iris"].groupby("species")["sepal_length"]
    return {"species": unique_arg(g.std(ddof=1) / g.mean())}
