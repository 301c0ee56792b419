"""Probe questions about measured specimens: penguins, iris flowers, wines (wine) and breast tumours
(breast_cancer)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import anova, corr, iqr_outliers, ols, r, ttest, unique_arg, z_outliers
from tests.probe.registry import q, rejected

# --- penguins: three species on three islands, 2007-2009; two birds have no measurements, eleven no sex --------


@q("stat", "penguins", """How heavy is a typical Gentoo penguin? Use the median body mass, in grams.""")
def penguins_median_gentoo_mass(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"value": float(p[p["species"] == "Gentoo"]["body_mass_g"].median())}


@q("stat_filter", "penguins", """Leaving the Adelie penguins out, what was the mean flipper length of the birds
   measured in 2008? Skip birds without a flipper measurement and round to two decimals.""")
def penguins_flipper_2008_except_adelie(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"value": r(p[(p["species"] != "Adelie") & (p["year"] == 2008)]["flipper_length_mm"].mean(), 2)}


@q("count_share", "penguins", """On Dream island, what fraction of the penguins are Chinstraps? Give a fraction
   between zero and one, rounded to three decimals, as @fraction[value].""")
def penguins_chinstrap_fraction_on_dream(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"fraction": r((p[p["island"] == "Dream"]["species"] == "Chinstrap").mean(), 3)}


@q("count_share", "penguins", """Some penguins were weighed but nobody recorded whether they are male or female.
   How many such birds are there?""")
def penguins_weighed_without_sex(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    return {"value": int((p["body_mass_g"].notna() & p["sex"].isna()).sum())}


@q("group", "penguins", """How much does body mass vary within each species? Give the sample standard deviation
   (ddof=1, missing masses skipped) as @Adelie[value], @Chinstrap[value] and @Gentoo[value], in grams rounded to
   one decimal.""")
def penguins_mass_sd_each_species(d: Data) -> dict[str, Any]:
    sd = d["penguins"].groupby("species")["body_mass_g"].std(ddof=1)
    return {s: r(sd[s], 1) for s in ("Adelie", "Chinstrap", "Gentoo")}


@q("group", "penguins", """Within each species, what percentage of the birds whose sex was recorded are
   female? Reply @Adelie[value], @Chinstrap[value] and @Gentoo[value] as percentages rounded to one decimal.""")
def penguins_female_percentage_each_species(d: Data) -> dict[str, Any]:
    p = d["penguins"].dropna(subset=["sex"])
    share = (p["sex"] == "female").groupby(p["species"]).mean()
    return {s: r(100 * share[s], 1) for s in ("Adelie", "Chinstrap", "Gentoo")}


@q("hard", "penguins", """Call a penguin heavy when its body mass is above the mean of its own species (each mean
   taken over the birds of that species with a recorded mass). Among the heavy penguins whose sex is recorded,
   what percentage are male? One decimal.""")
def penguins_male_percentage_of_heavy(d: Data) -> dict[str, Any]:
    p = d["penguins"]
    heavy = p[p["body_mass_g"] > p.groupby("species")["body_mass_g"].transform("mean")].dropna(subset=["sex"])
    return {"value": r(100 * (heavy["sex"] == "male").mean(), 1)}


@q("correlation", "penguins", """Within Gentoo penguins only, how strongly are bill length and bill depth related?
   Give the Spearman rank correlation, rounded to three decimals.""")
def penguins_spearman_gentoo_bill(d: Data) -> dict[str, Any]:
    g = d["penguins"].query("species == 'Gentoo'")
    return {"value": r(corr(g["bill_length_mm"], g["bill_depth_mm"], "spearman"), 3)}


@q("test", "penguins", """Adelie penguins live on all three islands. Does their bill length differ between
   islands? Run a one-way ANOVA (missing values dropped) and give the F statistic as @F[value] to three decimals
   and whether it is significant at the 5% level as @significant[yes or no].""")
def penguins_anova_adelie_bill_length_by_island(d: Data) -> dict[str, Any]:
    adelie = d["penguins"].query("species == 'Adelie'")
    statistic, p = anova(adelie, "bill_length_mm", "island")
    return {"F": r(statistic, 3), "significant": rejected(p, 0.05)}


@q("regression", "penguins", """For Adelie penguins, by how many grams does body mass go up per extra millimetre
   of flipper? Take the slope of an ordinary least squares fit of body mass on flipper length, rounded to two
   decimals.""")
def penguins_adelie_mass_per_flipper_mm(d: Data) -> dict[str, Any]:
    adelie = d["penguins"].query("species == 'Adelie'")
    return {"value": r(ols(adelie["body_mass_g"], adelie["flipper_length_mm"])["slope"], 2)}


@q("derived", "penguins", """Bill shape: divide each Chinstrap's bill length by its bill depth. What is the median
   of that ratio? Three decimals.""")
def penguins_chinstrap_median_bill_ratio(d: Data) -> dict[str, Any]:
    c = d["penguins"].query("species == 'Chinstrap'")
    return {"value": r((c["bill_length_mm"] / c["bill_depth_mm"]).median(), 3)}


@q("outlier", "penguins", """Standardise bill depth over all penguins with a measurement (z = (x - mean) / sample
   standard deviation). How many birds have |z| above 2.5?""")
def penguins_bill_depth_z_over_two_and_a_half(d: Data) -> dict[str, Any]:
    return {"value": z_outliers(d["penguins"]["bill_depth_mm"], threshold=2.5, ddof=1)}


@q("argmax", "penguins", """In which study year was the average body mass of female penguins lowest? Birds with no
   sex or mass recorded are not counted.""")
def penguins_year_lightest_females(d: Data) -> dict[str, Any]:
    f = d["penguins"].query("sex == 'female'")
    return {"value": int(unique_arg(f.groupby("year")["body_mass_g"].mean(), largest=False))}


# --- iris: 150 flowers, 50 of each of three species --------------------------------------------------------------


@q("argmax", "iris", """The file holds 150 flowers from three species. Which species shows the widest spread in
   sepal length, measured by the sample standard deviation?""", checker="exact")
def iris_species_widest_sepal_length_spread(d: Data) -> dict[str, Any]:
    return {"species": unique_arg(d["iris"].groupby("species")["sepal_length"].std())}


@q("correlation", "iris", """For versicolor flowers, what is Kendall's tau (tau-b) between sepal length and petal
   length? Reply @tau[value] to three decimals.""")
def iris_kendall_versicolor_lengths(d: Data) -> dict[str, Any]:
    v = d["iris"].query("species == 'versicolor'")
    return {"tau": r(corr(v["sepal_length"], v["petal_length"], "kendall"), 3)}


@q("outlier", "iris", """Looking at sepal width across all flowers, how many lie more than 2.5 standard deviations
   from the mean?""")
def iris_sepal_width_beyond_two_and_a_half_sd(d: Data) -> dict[str, Any]:
    return {"value": z_outliers(d["iris"]["sepal_width"], threshold=2.5)}


@q("multi_stat", "iris", """For the petal width of virginica flowers give @minimum[value], @maximum[value] and the
   interquartile range @iqr[value] (quartiles by linear interpolation, two decimals).""")
def iris_virginica_petal_width_range(d: Data) -> dict[str, Any]:
    w = d["iris"].query("species == 'virginica'")["petal_width"]
    return {"minimum": float(w.min()), "maximum": float(w.max()),
            "iqr": r(w.quantile(0.75) - w.quantile(0.25), 2)}


# --- wine: 178 wines from three cultivars, coded 1, 2 and 3 ------------------------------------------------------


@q("stat_filter", "wine", """Wines from the third cultivar (cultivar code 3): what is their median proline
   content?""")
def wine_median_proline_cultivar_three(d: Data) -> dict[str, Any]:
    w = d["wine"]
    return {"value": float(w[w["cultivar"] == 3]["proline"].median())}


@q("test", "wine", """Is the spread of alcohol content the same for the three cultivars? Use Levene's test centred
   on the median (the Brown-Forsythe variant) and give the statistic as @W[value] to three decimals and
   @equal_variances_rejected[yes or no] at the 0.05 level.""")
def wine_brown_forsythe_alcohol(d: Data) -> dict[str, Any]:
    w = d["wine"]
    result = stats.levene(*[g["alcohol"] for _, g in w.groupby("cultivar")], center="median")
    return {"W": r(result.statistic, 3), "equal_variances_rejected": rejected(float(result.pvalue), 0.05)}


@q("derived", "wine", """What share of a wine's total phenols are flavanoids? Compute flavanoids divided by
   total_phenols for every wine and report the mean of that ratio, rounded to three decimals.""")
def wine_mean_flavanoid_share_of_phenols(d: Data) -> dict[str, Any]:
    w = d["wine"]
    return {"value": r((w["flavanoids"] / w["total_phenols"]).mean(), 3)}


@q("multi_stat", "wine", """Describe colour intensity across all wines: @mean[value], the sample standard
   deviation @sd[value] (ddof=1) and @median[value], each to three decimals.""")
def wine_colour_intensity_summary(d: Data) -> dict[str, Any]:
    c = d["wine"]["color_intensity"]
    return {"mean": r(c.mean(), 3), "sd": r(c.std(ddof=1), 3), "median": r(c.median(), 3)}


@q("test", "wine", """Compare the hue of cultivar 1 and cultivar 2 wines with a two-sided Mann-Whitney U test.
   Report the U statistic of cultivar 1 (the one scipy returns when cultivar 1's values come first), rounded to
   one decimal.""")
def wine_mannwhitney_hue_first_two_cultivars(d: Data) -> dict[str, Any]:
    w = d["wine"]
    result = stats.mannwhitneyu(w[w["cultivar"] == 1]["hue"], w[w["cultivar"] == 2]["hue"],
                                alternative="two-sided")
    return {"value": r(result.statistic, 1)}


@q("hard", "wine", """For each cultivar, take the mean magnesium; then, of those three means, which is the
   middle one? Give its value to two decimals.""")
def wine_middle_cultivar_mean_magnesium(d: Data) -> dict[str, Any]:
    means = d["wine"].groupby("cultivar")["magnesium"].mean()
    assert means.is_unique
    return {"value": r(means.median(), 2)}


# --- breast_cancer: 569 tumours, malignant or benign, 30 measurements -------------------------------------------


@q("count_share", "breast_cancer", """What percentage of the tumours in the breast cancer table were diagnosed
   malignant? Two decimals.""")
def breast_cancer_percent_malignant(d: Data) -> dict[str, Any]:
    return {"value": r(100 * (d["breast_cancer"]["diagnosis"] == "malignant").mean(), 2)}


@q("test", "breast_cancer", """Are malignant tumours larger? Compare mean radius between malignant and benign
   tumours with Welch's t-test, malignant minus benign, and give the t statistic as @t[value] to two
   decimals.""")
def breast_cancer_welch_radius(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    t, _ = ttest(b[b["diagnosis"] == "malignant"]["mean radius"], b[b["diagnosis"] == "benign"]["mean radius"],
                 equal_var=False)
    return {"t": r(t, 2)}


@q("outlier", "breast_cancer", """Among benign tumours only, how many are outliers in mean area under the usual
   1.5 IQR rule (quartiles by linear interpolation, computed over the benign tumours)?""")
def breast_cancer_benign_area_iqr_outliers(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"]
    return {"value": iqr_outliers(b[b["diagnosis"] == "benign"]["mean area"])}


@q("group", "breast_cancer", """What is the median worst radius for each diagnosis? Answer with both numbers,
   naming each diagnosis (malignant, benign), two decimals.""")
def breast_cancer_median_worst_radius_by_diagnosis(d: Data) -> dict[str, Any]:
    med = d["breast_cancer"].groupby("diagnosis")["worst radius"].median()
    return {k: r(med[k], 2) for k in ("malignant", "benign")}


@q("derived", "breast_cancer", """A tumour's perimeter relative to its radius says something about its shape.
   Divide the column "mean perimeter" by the column "mean radius" for each tumour, then give the mean of that
   ratio over the malignant tumours to four decimals.""")
def breast_cancer_perimeter_radius_ratio_malignant(d: Data) -> dict[str, Any]:
    b = d["breast_cancer"].query("diagnosis == 'malignant'")
    return {"value": r(np.mean(b["mean perimeter"] / b["mean radius"]), 4)}
