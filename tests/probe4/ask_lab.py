"""Probe4 questions about measurements: wine, breast_cancer, diabetes, iris, penguins, stackloss."""

from __future__ import annotations

from typing import Any

import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, r, unique_arg, z_outliers
from tests.probe4.registry import q, rejected

Answer = dict[str, Any]


# --- stat -------------------------------------------------------------------------------------------------------

@q("stat", "wine", """wine: proline IQR (Q3 - Q1, quartiles by linear interpolation) -> @proline_iqr[value], 1dp""")
def lab_wine_proline_iqr(d: Data) -> Answer:
    p = d["wine"]["proline"]
    return {"proline_iqr": r(p.quantile(0.75) - p.quantile(0.25), 1)}


@q("stat", "diabetes", """Our clinic's intake form records blood pressure the same way as the diabetes study's bp
   column. Before comparing, I need to know how often the study's most common bp reading occurs: how many
   patients share the most frequent bp value?""")
def lab_diabetes_bp_mode_count(d: Data) -> Answer:
    return {"answer": int(d["diabetes"]["bp"].value_counts().max())}


# --- stat_filter ------------------------------------------------------------------------------------------------

@q("stat_filter", "penguins", """Female Gentoo penguins on Biscoe: their average body mass in kilograms (the table
   is in grams), three decimals. Birds with no mass recorded are skipped.""")
def lab_penguins_female_gentoo_kg(d: Data) -> Answer:
    p = d["penguins"]
    sel = p[(p["species"] == "Gentoo") & (p["island"] == "Biscoe") & (p["sex"] == "female")]
    return {"answer": r(sel["body_mass_g"].mean() / 1000, 3)}


@q("stat_filter", "diabetes", """Patients over 50 (age strictly greater than 50) who also have a BMI of 30 or more:
   what is the middle value of their progression score?""")
def lab_diabetes_older_obese_median(d: Data) -> Answer:
    x = d["diabetes"]
    sel = x[(x["age"] > 50) & (x["bmi"] >= 30)]
    return {"answer": float(sel["progression"].median())}


# --- multi_stat -------------------------------------------------------------------------------------------------

@q("multi_stat", "stackloss", """Plant stack loss across the 21 runs: the lowest, the highest and the middle value.
   @low[value] @high[value] @mid[value]""")
def lab_stackloss_min_max_median(d: Data) -> Answer:
    s = d["stackloss"]["STACKLOSS"]
    return {"low": int(s.min()), "high": int(s.max()), "mid": float(s.median())}


@q("multi_stat", "iris", """versicolor petal width -> mean, sample sd, n: @mean_pw[value] @sd_pw[value] @n[value]
   (3dp)""")
def lab_iris_versicolor_petal_width(d: Data) -> Answer:
    i = d["iris"]
    v = i[i["species"] == "versicolor"]["petal_width"]
    return {"mean_pw": r(v.mean(), 3), "sd_pw": r(v.std(ddof=1), 3), "n": int(v.count())}


# --- correlation ------------------------------------------------------------------------------------------------

@q("correlation", "wine", """Only the wines of cultivar 3: Pearson correlation between alcohol and colour
   intensity, three decimals.""")
def lab_wine_cultivar3_alcohol_colour(d: Data) -> Answer:
    w = d["wine"]
    w = w[w["cultivar"] == 3]
    return {"answer": r(corr(w["alcohol"], w["color_intensity"], "pearson"), 3)}


@q("correlation", "diabetes", """Is the link between BMI and disease progression stronger for sex code 1 or sex
   code 2? Give Pearson's r within each group to 3 decimals, @r_sex1[value] and @r_sex2[value], and the code of
   the group with the larger r as @stronger[value].""")
def lab_diabetes_bmi_prog_by_sex(d: Data) -> Answer:
    x = d["diabetes"]
    rs = {s: corr(g["bmi"], g["progression"], "pearson") for s, g in x.groupby("sex")}
    assert abs(rs[1] - rs[2]) > 0.01
    return {"r_sex1": r(rs[1], 3), "r_sex2": r(rs[2], 3), "stronger": 1 if rs[1] > rs[2] else 2}


# --- test -------------------------------------------------------------------------------------------------------

@q("test", "penguins", """Adelie penguins only: does body mass differ between the three islands? One-way ANOVA
   (birds with no mass recorded dropped). F statistic to three decimals.""")
def lab_penguins_adelie_island_anova(d: Data) -> Answer:
    p = d["penguins"]
    p = p[p["species"] == "Adelie"].dropna(subset=["body_mass_g"])
    res = stats.f_oneway(*[g["body_mass_g"] for _, g in p.groupby("island")])
    return {"answer": r(res.statistic, 3)}


@q("test", "breast_cancer", """Benign tumours only: Shapiro-Wilk test on the mean radius. Report W to four decimals
   as @w[value], and answer yes or no in @looks_normal[answer]: yes if normality is NOT rejected at the 1%
   level.""")
def lab_breast_benign_radius_shapiro(d: Data) -> Answer:
    b = d["breast_cancer"]
    res = stats.shapiro(b[b["diagnosis"] == "benign"]["mean radius"])
    return {"w": r(res.statistic, 4), "looks_normal": "no" if rejected(float(res.pvalue), 0.01) == "yes" else "yes"}


@q("test", "iris", """Do the three species differ in the spread of sepal width? Brown-Forsythe test (Levene's test
   centred on the median). Statistic to three decimals.""")
def lab_iris_brown_forsythe_sepal_width(d: Data) -> Answer:
    i = d["iris"]
    res = stats.levene(*[g["sepal_width"] for _, g in i.groupby("species")], center="median")
    return {"answer": r(res.statistic, 3)}


# --- outlier ----------------------------------------------------------------------------------------------------

@q("outlier", "wine", """How many wines have an unusual magnesium level by the usual 1.5 x IQR rule (linear
   quartiles)?""")
def lab_wine_magnesium_outliers(d: Data) -> Answer:
    return {"answer": iqr_outliers(d["wine"]["magnesium"])}


@q("outlier", "breast_cancer", """Malignant tumours only: how many have a worst area more than three standard deviations
   away from the malignant mean (sample standard deviation, n-1)?""")
def lab_breast_malignant_worst_area_z(d: Data) -> Answer:
    b = d["breast_cancer"]
    return {"answer": z_outliers(b[b["diagnosis"] == "malignant"]["worst area"], 3.0, ddof=1)}


@q("outlier", "diabetes", """s5 is the log of serum triglycerides. Count the patients whose s5 is more than 2.5
   sample standard deviations from the mean, either side.""")
def lab_diabetes_s5_z(d: Data) -> Answer:
    return {"answer": z_outliers(d["diabetes"]["s5"], 2.5, ddof=1)}


# --- group ------------------------------------------------------------------------------------------------------

@q("group", "penguins", """Middle flipper length for each species (missing skipped).""")
def lab_penguins_median_flipper(d: Data) -> Answer:
    m = d["penguins"].groupby("species")["flipper_length_mm"].median()
    return {name: float(m[name]) for name in ("Adelie", "Chinstrap", "Gentoo")}


@q("group", "wine", """How many times higher is the average proline of cultivar 1 than that of cultivar 2? Ratio
   of the two group means, two decimals.""")
def lab_wine_proline_ratio(d: Data) -> Answer:
    m = d["wine"].groupby("cultivar")["proline"].mean()
    return {"answer": r(m[1] / m[2], 2)}


# --- argmax -----------------------------------------------------------------------------------------------------

@q("argmax", "penguins", """On which island are Adelie penguins heaviest on average? @island[name]""",
   checker="exact")
def lab_penguins_adelie_heaviest_island(d: Data) -> Answer:
    p = d["penguins"]
    return {"island": unique_arg(p[p["species"] == "Adelie"].groupby("island")["body_mass_g"].mean())}


@q("argmax", "wine", """Which cultivar has the highest median malic acid?""")
def lab_wine_cultivar_malic(d: Data) -> Answer:
    return {"answer": int(unique_arg(d["wine"].groupby("cultivar")["malic_acid"].median()))}


# --- regression -------------------------------------------------------------------------------------------------

@q("regression", "stackloss", """Stack loss regressed on air flow, water temperature and acid concentration together
   (OLS with intercept). Coefficient of water temperature @b_water[value] and R-squared @r2[value], 4dp.""")
def lab_stackloss_multiple(d: Data) -> Answer:
    s = d["stackloss"]
    fit = sm.OLS(s["STACKLOSS"], sm.add_constant(s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"b_water": r(fit.params["WATERTEMP"], 4), "r2": r(fit.rsquared, 4)}


@q("regression", "diabetes", """Progression on BMI and blood pressure (both in one OLS model with intercept): what is
   the coefficient on blood pressure? @b_bp[value], 3dp""")
def lab_diabetes_prog_bmi_bp(d: Data) -> Answer:
    x = d["diabetes"]
    fit = sm.OLS(x["progression"], sm.add_constant(x[["bmi", "bp"]])).fit()
    return {"b_bp": r(fit.params["bp"], 3)}


# --- derived ----------------------------------------------------------------------------------------------------

@q("derived", "penguins", """Chinstraps: bill length divided by bill depth for each bird, then the average of that
   ratio (birds with a missing measurement dropped). 3dp.""")
def lab_penguins_chinstrap_bill_ratio(d: Data) -> Answer:
    p = d["penguins"]
    p = p[p["species"] == "Chinstrap"]
    return {"answer": r((p["bill_length_mm"] / p["bill_depth_mm"]).mean(), 3)}


@q("derived", "breast_cancer", """For malignant tumours, mean perimeter divided by mean radius per row; how spread
   out is that ratio? Sample standard deviation, @sd_ratio[value], 4dp.""")
def lab_breast_perimeter_radius_sd(d: Data) -> Answer:
    b = d["breast_cancer"]
    b = b[b["diagnosis"] == "malignant"]
    return {"sd_ratio": r((b["mean perimeter"] / b["mean radius"]).std(ddof=1), 4)}


# --- count_share ------------------------------------------------------------------------------------------------

@q("count_share", "penguins", """How many penguins have no sex recorded even though their body mass was
   measured?""")
def lab_penguins_no_sex_with_mass(d: Data) -> Answer:
    p = d["penguins"]
    return {"answer": int((p["sex"].isna() & p["body_mass_g"].notna()).sum())}


@q("count_share", "iris", """How many more flowers have a sepal longer than 6 cm than have a petal longer than 5 cm?
   (Strictly longer in both cases.)""")
def lab_iris_how_many_more(d: Data) -> Answer:
    i = d["iris"]
    return {"answer": int((i["sepal_length"] > 6).sum() - (i["petal_length"] > 5).sum())}


@q("count_share", "breast_cancer", """What share of the tumours are malignant? Percentage, one decimal,
   @pct_malignant[value]""")
def lab_breast_share_malignant(d: Data) -> Answer:
    b = d["breast_cancer"]
    return {"pct_malignant": r((b["diagnosis"] == "malignant").mean() * 100, 1)}


# --- topk -------------------------------------------------------------------------------------------------------

@q("topk", "wine", """Rank the three cultivars by average colour intensity, darkest first: @first[value]
   @second[value] @third[value] (cultivar codes).""")
def lab_wine_cultivar_colour_rank(d: Data) -> Answer:
    m = d["wine"].groupby("cultivar")["color_intensity"].mean().sort_values(ascending=False)
    return dict(zip(("first", "second", "third"), (int(c) for c in m.index), strict=True))


# --- hard -------------------------------------------------------------------------------------------------------

@q("hard", "breast_cancer", """How many benign tumours have a mean radius larger than the median mean radius of the
   malignant ones?""")
def lab_breast_benign_above_malignant_median(d: Data) -> Answer:
    b = d["breast_cancer"]
    med = b[b["diagnosis"] == "malignant"]["mean radius"].median()
    benign = b[b["diagnosis"] == "benign"]["mean radius"]
    assert not (benign == med).any()
    return {"answer": int((benign > med).sum())}


@q("hard", "penguins", """What percentage of penguins (those with a body mass recorded) are heavier than the average
   of their own species? One decimal.""")
def lab_penguins_heavier_than_species_mean(d: Data) -> Answer:
    p = d["penguins"].dropna(subset=["body_mass_g"])
    mean = p.groupby("species")["body_mass_g"].transform("mean")
    assert not (p["body_mass_g"] == mean).any()
    return {"answer": r((p["body_mass_g"] > mean).mean() * 100, 1)}


@q("hard", "iris", """Standardise petal length within each species (subtract the species mean, divide by the species
   sample SD). Which species has the single most extreme flower, i.e. the largest absolute standardised value?
   @species[name]""", checker="exact")
def lab_iris_most_extreme_within_species(d: Data) -> Answer:
    i = d["iris"]
    g = i.groupby("species")["petal_length"]
    z = ((i["petal_length"] - g.transform("mean")) / g.transform("std")).abs()
    top = z.max()
    assert (z == top).sum() == 1
    return {"species": str(i.loc[z.idxmax(), "species"])}

