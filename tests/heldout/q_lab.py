"""Questions on the stack-loss plant data, Engel's food-expenditure data and Fisher's iris flowers."""

from __future__ import annotations

from tests.heldout.registry import Data, q
from tests.heldout.stats import (
    anova,
    corr,
    iqr_outliers,
    ols,
    r,
    shapiro,
    ttest,
    unique_arg,
    unique_mode,
    yes_no,
    z_outliers,
)

SL, EN, IR = "stackloss", "engel", "iris"


@q("regression", SL, """Fit a simple linear regression of STACKLOSS on AIRFLOW (OLS with intercept). Report
    @slope[value] and @intercept[value], rounded to three decimals.""")
def stackloss_ols_airflow(d: Data) -> dict:
    fit = ols(d[SL].STACKLOSS, d[SL].AIRFLOW)
    return {"slope": r(fit["slope"], 3), "intercept": r(fit["intercept"], 3)}


@q("regression", SL, "What R^2 do you get regressing stack loss on water temperature (WATERTEMP)? 4 decimals.")
def stackloss_r2_watertemp(d: Data) -> dict:
    return {"r2": r(ols(d[SL].STACKLOSS, d[SL].WATERTEMP)["r2"], 4)}


@q("stat", SL, "What is the median acid concentration (ACIDCONC)?")
def stackloss_median_acid(d: Data) -> dict:
    return {"median": d[SL].ACIDCONC.median()}


@q("stat", SL, "Which AIRFLOW value appears most frequently in stackloss.csv?")
def stackloss_mode_airflow(d: Data) -> dict:
    return {"mode": unique_mode(d[SL].AIRFLOW)}


@q("correlation", SL, "Give the Spearman correlation between WATERTEMP and STACKLOSS (3 d.p.).")
def stackloss_spearman(d: Data) -> dict:
    return {"spearman": r(corr(d[SL].WATERTEMP, d[SL].STACKLOSS, "spearman"), 3)}


@q("outlier", SL, """How many STACKLOSS values fall outside the Tukey fences Q1 - 1.5*IQR and Q3 + 1.5*IQR
    (pandas-default quartiles)? Answer as @n_outliers[value].""")
def stackloss_iqr(d: Data) -> dict:
    return {"n_outliers": iqr_outliers(d[SL].STACKLOSS)}


@q("multi_stat", SL, """Report the mean and the sample standard deviation of the cooling water temperature
    (WATERTEMP), to 3 decimals, as @mean[value] and @std[value].""")
def stackloss_watertemp_mean_std(d: Data) -> dict:
    s = d[SL].WATERTEMP
    return {"mean": r(s.mean(), 3), "std": r(s.std(ddof=1), 3)}


@q("regression", EN, """Engel's data: estimate the linear relation foodexp = a + b * income by OLS. What are the
    slope b, the intercept a and the R-squared? Round to 4, 2 and 4 decimals respectively.""")
def engel_ols(d: Data) -> dict:
    fit = ols(d[EN].foodexp, d[EN].income)
    return {"slope": r(fit["slope"], 4), "intercept": r(fit["intercept"], 2), "R-squared": r(fit["r2"], 4)}


@q("correlation", EN, "Kendall's tau between income and foodexp? Answer as @tau[value], 4 decimals.")
def engel_kendall(d: Data) -> dict:
    return {"tau": r(corr(d[EN].income, d[EN].foodexp, "kendall"), 4)}


@q("stat", EN, "Median household income in engel.csv, to two decimals?")
def engel_median_income(d: Data) -> dict:
    return {"median": r(d[EN].income.median(), 2)}


@q("outlier", EN, """Standardise income (z = (x - mean) / std). How many households have |z| > 3? Answer as
    @n_outliers[value].""")
def engel_z_income(d: Data) -> dict:
    return {"n_outliers": z_outliers(d[EN].income)}


@q("outlier", EN, "Count the outliers in foodexp using the 1.5 IQR rule.")
def engel_iqr_foodexp(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[EN].foodexp)}


@q("stat_filter", EN, "What is the mean food expenditure of households whose income is above 1000?")
def engel_mean_food_rich(d: Data) -> dict:
    e = d[EN]
    return {"mean": r(e[e.income > 1000].foodexp.mean(), 2)}


@q("multi_stat", EN, """Compute each household's food share, foodexp / income. What are the mean and the median
    of this share? Give @mean_share[value] and @median_share[value] to 4 decimals.""")
def engel_food_share(d: Data) -> dict:
    share = d[EN].foodexp / d[EN].income
    return {"mean_share": r(share.mean(), 4), "median_share": r(share.median(), 4)}


@q("argmax", IR, "Which species has the largest mean petal length?", checker="exact")
def iris_species_max_petal_length(d: Data) -> dict:
    return {"species": unique_arg(d[IR].groupby("species").petal_length.mean())}


@q("argmax", IR, """Which iris species has the narrowest sepals on average (lowest mean sepal_width)? Answer as
    @species[value].""", checker="exact")
def iris_species_min_sepal_width(d: Data) -> dict:
    return {"species": unique_arg(d[IR].groupby("species").sepal_width.mean(), largest=False)}


@q("group", IR, "Give the average sepal width for each species, to three decimals.")
def iris_sepal_width_by_species(d: Data) -> dict:
    means = d[IR].groupby("species").sepal_width.mean()
    return {name: r(value, 3) for name, value in means.items()}


@q("group", IR, """For each species report the sample standard deviation of petal_width: @sd_setosa[value],
    @sd_versicolor[value], @sd_virginica[value] (3 decimals).""")
def iris_petal_width_sd_by_species(d: Data) -> dict:
    sds = d[IR].groupby("species").petal_width.std(ddof=1)
    return {f"sd_{name}": r(value, 3) for name, value in sds.items()}


@q("stat_filter", IR, "What is the median petal width where species is versicolor?")
def iris_median_petal_width_versicolor(d: Data) -> dict:
    i = d[IR]
    return {"median": i[i.species == "versicolor"].petal_width.median()}


@q("stat_filter", IR, """Among flowers with petal_length greater than 5, how many are virginica? Answer as
    @n_virginica[value].""")
def iris_count_virginica_long_petals(d: Data) -> dict:
    i = d[IR]
    return {"n_virginica": int(((i.petal_length > 5) & (i.species == "virginica")).sum())}


@q("correlation", IR, "Pearson correlation between petal_length and petal_width? Round to 4 decimals.")
def iris_pearson_petals(d: Data) -> dict:
    return {"pearson": r(corr(d[IR].petal_length, d[IR].petal_width, "pearson"), 4)}


@q("correlation", IR, """Across all 150 flowers, compute Kendall's tau between sepal_length and sepal_width.
    Answer as @kendall_tau[value] (3 decimals).""")
def iris_kendall_sepals(d: Data) -> dict:
    return {"kendall_tau": r(corr(d[IR].sepal_length, d[IR].sepal_width, "kendall"), 3)}


@q("test", IR, """Perform a one-way ANOVA of sepal_length across the three species. What is the F statistic? Round to
    two decimals.""")
def iris_anova_sepal_length(d: Data) -> dict:
    f, _ = anova(d[IR], "sepal_length", "species")
    return {"F": r(f, 2)}


@q("test", IR, """Is the sepal width of setosa flowers normally distributed? Apply the Shapiro-Wilk test at
    alpha = 0.05; answer with @p_value[value] (4 decimals) and @normal[yes/no] (yes if normality is not
    rejected).""")
def iris_shapiro_setosa_sepal_width(d: Data) -> dict:
    _, p = shapiro(d[IR][d[IR].species == "setosa"].sepal_width)
    return {"p_value": r(p, 4), "normal": yes_no(p >= 0.05)}


@q("test", IR, """Compare the sepal widths of versicolor and virginica with an independent two-sample t-test that
    assumes equal variances. What is the p-value (4 decimals)?""")
def iris_student_sepal_width(d: Data) -> dict:
    i = d[IR]
    _, p = ttest(i[i.species == "versicolor"].sepal_width, i[i.species == "virginica"].sepal_width, equal_var=True)
    return {"p_value": r(p, 4)}


@q("regression", IR, """Using OLS, regress petal_width on petal_length. Answer as @slope[value], @intercept[value]
    and @r_squared[value], each rounded to 4 decimals.""")
def iris_ols_petals(d: Data) -> dict:
    fit = ols(d[IR].petal_width, d[IR].petal_length)
    return {"slope": r(fit["slope"], 4), "intercept": r(fit["intercept"], 4), "r_squared": r(fit["r2"], 4)}


@q("outlier", IR, """How many flowers have an outlying sepal_width according to the 1.5xIQR rule applied to the whole
    column (all species together)?""")
def iris_iqr_sepal_width(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[IR].sepal_width)}


@q("multi_stat", IR, "Mean and standard deviation (ddof=1) of sepal_length, rounded to 3 decimals?")
def iris_sepal_length_mean_std(d: Data) -> dict:
    s = d[IR].sepal_length
    return {"mean": r(s.mean(), 3), "standard deviation": r(s.std(ddof=1), 3)}


@q("stat", IR, "How many distinct petal_length values are there in iris.csv?")
def iris_nunique_petal_length(d: Data) -> dict:
    return {"unique": d[IR].petal_length.nunique()}
