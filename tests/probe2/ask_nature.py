"""Questions about measurements: penguins, iris flowers, wines, breast tumours, diabetes patients."""

from __future__ import annotations

import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, shapiro, unique_arg, z_outliers
from tests.probe2.registry import q, rejected

# ---------------------------------------------------------------- penguins


@q("stat", "penguins",
   "What is the standard deviation of penguin body mass, in kilograms rather than grams? Sample standard "
   "deviation (n - 1), penguins with no mass skipped, 3 decimals: @sd_kg[value]")
def penguins_sd_mass_kg(d: Data) -> dict:
    return {"sd_kg": r(d["penguins"]["body_mass_g"].std(ddof=1) / 1000, 3)}


@q("stat_filter", "penguins",
   "Mean flipper length of male Gentoo penguins, in mm, 1 decimal. Report as @mean_flipper[value].")
def penguins_mean_flipper_gentoo_males(d: Data) -> dict:
    p = d["penguins"]
    return {"mean_flipper": r(p.loc[(p["species"] == "Gentoo") & (p["sex"] == "male"), "flipper_length_mm"]
                              .mean(), 1)}


@q("stat_filter", "penguins",
   "What's the median bill length of the penguins that were not measured on Biscoe island? mm, two decimals.")
def penguins_median_bill_not_biscoe(d: Data) -> dict:
    p = d["penguins"]
    return {"median": r(p.loc[p["island"] != "Biscoe", "bill_length_mm"].median(), 2)}


@q("group", "penguins",
   "How many penguins were recorded on each island? Give the count for Biscoe, Dream and Torgersen.")
def penguins_count_by_island(d: Data) -> dict:
    c = d["penguins"]["island"].value_counts()
    return {"Biscoe": int(c["Biscoe"]), "Dream": int(c["Dream"]), "Torgersen": int(c["Torgersen"])}


@q("test", "penguins",
   "Within Adelie penguins only, compare body mass of males and females with Welch's t-test (unequal "
   "variances; birds with no sex or no mass dropped). Give the t statistic for males minus females as "
   "@t_stat[value] with 2 decimals.")
def penguins_welch_adelie_mass_sex(d: Data) -> dict:
    p = d["penguins"]
    a = p[p["species"] == "Adelie"]
    res = stats.ttest_ind(a.loc[a["sex"] == "male", "body_mass_g"].dropna(),
                          a.loc[a["sex"] == "female", "body_mass_g"].dropna(), equal_var=False)
    return {"t_stat": r(res.statistic, 2)}


@q("test", "penguins",
   "Shapiro-Wilk normality test on Gentoo flipper lengths (missing skipped): W statistic to 4 decimals, and at "
   "the 5% level do we reject normality, yes or no? @W[value] @reject[yes/no]")
def penguins_shapiro_gentoo_flipper(d: Data) -> dict:
    p = d["penguins"]
    w, pv = shapiro(p.loc[p["species"] == "Gentoo", "flipper_length_mm"])
    return {"W": r(w, 4), "reject": rejected(pv, 0.05)}


@q("outlier", "penguins",
   "Count the outliers in bill depth by the 1.5 IQR rule (linear-interpolation quartiles), computed separately "
   "within each species, and give the total over the three species.")
def penguins_iqr_bill_depth_within_species(d: Data) -> dict:
    p = d["penguins"]
    return {"outliers": sum(iqr_outliers(g["bill_depth_mm"]) for _, g in p.groupby("species"))}


@q("argmax", "penguins",
   "For Chinstrap penguins, which study year has the lowest mean body mass (birds with no mass skipped)?")
def penguins_chinstrap_lightest_year(d: Data) -> dict:
    p = d["penguins"]
    m = p[p["species"] == "Chinstrap"].groupby("year")["body_mass_g"].mean()
    return {"year": int(unique_arg(m, largest=False))}


@q("group", "penguins",
   "How many times longer, on average, is a Gentoo flipper than an Adelie flipper? Ratio of the two species' "
   "mean flipper lengths (missing skipped), 4 decimals.")
def penguins_flipper_ratio_gentoo_adelie(d: Data) -> dict:
    m = d["penguins"].groupby("species")["flipper_length_mm"].mean()
    return {"ratio": r(m["Gentoo"] / m["Adelie"], 4)}


@q("hard", "penguins",
   "What share of the penguins are heavier than the median body mass of their own species? Only birds with a "
   "recorded mass count, in numerator and denominator. Percentage, 1 decimal.")
def penguins_share_above_species_median(d: Data) -> dict:
    p = d["penguins"].dropna(subset=["body_mass_g"])
    med = p.groupby("species")["body_mass_g"].transform("median")
    return {"percent": r(100 * (p["body_mass_g"] > med).mean(), 1)}


@q("count_share", "penguins",
   "How many penguins in the table have no sex recorded? @missing_sex[value]")
def penguins_count_missing_sex(d: Data) -> dict:
    return {"missing_sex": int(d["penguins"]["sex"].isna().sum())}


@q("derived", "penguins",
   "Compute bill length divided by bill depth for each penguin. Mean of that ratio for Adelie penguins, 3 "
   "decimals, skipping birds with a missing measurement.")
def penguins_adelie_bill_ratio_mean(d: Data) -> dict:
    p = d["penguins"]
    a = p[p["species"] == "Adelie"]
    return {"ratio": r((a["bill_length_mm"] / a["bill_depth_mm"]).mean(), 3)}


# ---------------------------------------------------------------- iris

@q("correlation", "iris",
   "Pearson correlation of petal length and petal width for versicolor only. 3dp")
def iris_pearson_petals_versicolor(d: Data) -> dict:
    i = d["iris"]
    v = i[i["species"] == "versicolor"]
    return {"r": r(corr(v["petal_length"], v["petal_width"], "pearson"), 3)}


@q("regression", "iris",
   "Among the virginica flowers, regress petal width on petal length. I need @slope[value] (4 decimals) and "
   "@r_squared[value] (3 decimals).")
def iris_ols_virginica_petals(d: Data) -> dict:
    i = d["iris"]
    v = i[i["species"] == "virginica"]
    fit = ols(v["petal_width"], v["petal_length"])
    return {"slope": r(fit["slope"], 4), "r_squared": r(fit["r2"], 3)}


@q("multi_stat", "iris",
   "Sepal width: first quartile, median and third quartile over all 150 flowers (linear interpolation between "
   "order statistics, as numpy's default), 2 decimals. @q1[value] @median[value] @q3[value]")
def iris_sepal_width_quartiles(d: Data) -> dict:
    s = d["iris"]["sepal_width"]
    return {"q1": r(s.quantile(0.25), 2), "median": r(s.median(), 2), "q3": r(s.quantile(0.75), 2)}


@q("count_share", "iris",
   "What proportion of the setosa flowers have a sepal length of at least 5 cm? Give it as a percentage, "
   "rounded to the nearest whole number.")
def iris_setosa_share_sepal_5(d: Data) -> dict:
    i = d["iris"]
    s = i.loc[i["species"] == "setosa", "sepal_length"]
    return {"percent": int(round(100 * (s >= 5).mean()))}


# ---------------------------------------------------------------- wine

@q("test", "wine",
   "Does alcohol content differ between the three cultivars? One-way ANOVA; report the F statistic rounded to "
   "1 decimal.")
def wine_anova_alcohol(d: Data) -> dict:
    w = d["wine"]
    res = stats.f_oneway(*[g["alcohol"] for _, g in w.groupby("cultivar")])
    return {"F": r(res.statistic, 1)}


@q("group", "wine",
   "median proline per cultivar -> @cultivar_1[value] @cultivar_2[value] @cultivar_3[value], 1 decimal")
def wine_median_proline_by_cultivar(d: Data) -> dict:
    m = d["wine"].groupby("cultivar")["proline"].median()
    return {f"cultivar_{k}": r(m[k], 1) for k in (1, 2, 3)}


@q("outlier", "wine",
   "Magnesium outliers, 1.5*IQR rule with linear-interpolation quartiles, over all wines: how many?")
def wine_iqr_magnesium(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["wine"]["magnesium"])}


@q("derived", "wine",
   "For the third cultivar, what's the average share of total phenols that is flavanoids (flavanoids divided by "
   "total_phenols, averaged over its wines)? 3 decimals, as a fraction.")
def wine_cultivar3_flavanoid_share(d: Data) -> dict:
    w = d["wine"]
    c = w[w["cultivar"] == 3]
    return {"share": r((c["flavanoids"] / c["total_phenols"]).mean(), 3)}


@q("topk", "wine",
   "Which three wines have the highest colour intensity? Give their positions in the file counting the first "
   "data row as row 1, highest first, as @first[row] @second[row] @third[row].")
def wine_top3_color_rows(d: Data) -> dict:
    s = d["wine"]["color_intensity"].sort_values(ascending=False, kind="stable")
    assert s.iloc[2] > s.iloc[3] and s.iloc[0] > s.iloc[1] > s.iloc[2]
    return {"first": int(s.index[0]) + 1, "second": int(s.index[1]) + 1, "third": int(s.index[2]) + 1}


@q("argmax", "wine",
   "Which cultivar has the largest coefficient of variation (sample standard deviation over mean) of "
   "magnesium? Answer with the cultivar's number.")
def wine_cultivar_largest_cv_magnesium(d: Data) -> dict:
    g = d["wine"].groupby("cultivar")["magnesium"]
    return {"cultivar": int(unique_arg(g.std() / g.mean()))}


# ---------------------------------------------------------------- breast_cancer

@q("count_share", "breast_cancer",
   "What percentage of the tumours in the breast cancer data are malignant? As a percentage with one decimal.")
def bc_percent_malignant(d: Data) -> dict:
    return {"percent": r(100 * (d["breast_cancer"]["diagnosis"] == "malignant").mean(), 1)}


@q("stat_filter", "breast_cancer",
   "Average 'mean area' of the benign tumours whose mean radius is over 13, rounded to the nearest whole "
   "number.")
def bc_mean_area_benign_radius_13(d: Data) -> dict:
    b = d["breast_cancer"]
    rows = b[(b["diagnosis"] == "benign") & (b["mean radius"] > 13)]
    return {"mean_area": int(round(rows["mean area"].mean()))}


@q("test", "breast_cancer",
   "Compare the mean texture of malignant and benign tumours with a Mann-Whitney U test (two-sided). Is the "
   "difference significant at the 0.1% level? @significant[yes/no]; also give the U statistic of the "
   "malignant group (first sample) as @U[value], to one decimal.")
def bc_mannwhitney_texture(d: Data) -> dict:
    b = d["breast_cancer"]
    res = stats.mannwhitneyu(b.loc[b["diagnosis"] == "malignant", "mean texture"],
                             b.loc[b["diagnosis"] == "benign", "mean texture"], alternative="two-sided")
    return {"significant": rejected(res.pvalue, 0.001), "U": r(res.statistic, 1)}


@q("multi_stat", "breast_cancer",
   "Give me the mean and the sample standard deviation of worst radius among malignant cases, both to 3 "
   "decimals: @mean[value] @sd[value]")
def bc_worst_radius_malignant(d: Data) -> dict:
    b = d["breast_cancer"]
    s = b.loc[b["diagnosis"] == "malignant", "worst radius"]
    return {"mean": r(s.mean(), 3), "sd": r(s.std(ddof=1), 3)}


# ---------------------------------------------------------------- diabetes

@q("correlation", "diabetes",
   "Spearman correlation between body mass index and disease progression after one year, 3 decimals.")
def diabetes_spearman_bmi_progression(d: Data) -> dict:
    x = d["diabetes"]
    return {"rho": r(corr(x["bmi"], x["progression"], "spearman"), 3)}


@q("regression", "diabetes",
   "Regress disease progression on bmi and blood pressure (bp) together, OLS with intercept. What is the "
   "R-squared? Three decimals.")
def diabetes_r2_bmi_bp(d: Data) -> dict:
    x = d["diabetes"]
    fit = sm.OLS(x["progression"], sm.add_constant(x[["bmi", "bp"]])).fit()
    return {"r_squared": r(fit.rsquared, 3)}


@q("stat_filter", "diabetes",
   "Mean progression for patients aged 50 or older in sex group 2. Two decimals.")
def diabetes_mean_progression_50plus_sex2(d: Data) -> dict:
    x = d["diabetes"]
    return {"mean": r(x.loc[(x["age"] >= 50) & (x["sex"] == 2), "progression"].mean(), 2)}


@q("outlier", "diabetes",
   "How many patients have an s1 value with an absolute z-score above 2.5 (z from the mean and the sample "
   "standard deviation)? @count[value]")
def diabetes_z25_s1(d: Data) -> dict:
    return {"count": z_outliers(d["diabetes"]["s1"], threshold=2.5, ddof=1)}


@q("hard", "diabetes",
   "Split the patients into ten-year age bands by decade of age (a 19-year-old is in the 10-19 band, then "
   "20-29, 30-39 and so on). Compute mean progression per band, ignoring bands with fewer than 20 patients. "
   "What is the difference between the highest and the lowest band mean? One decimal, as @difference[value].")
def diabetes_age_band_range(d: Data) -> dict:
    x = d["diabetes"]
    band = (x["age"] // 10) * 10
    g = x.groupby(band)["progression"].agg(["mean", "size"])
    g = g[g["size"] >= 20]
    assert not (x.groupby(band).size() == 20).any()
    return {"difference": r(g["mean"].max() - g["mean"].min(), 1)}
