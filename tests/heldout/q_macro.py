"""Questions on US quarterly macro data 1959-2009 (statsmodels macrodata) and the Longley table."""

from __future__ import annotations

from tests.heldout.registry import Data, q
from tests.heldout.stats import corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, yes_no, z_outliers

M, L = "macrodata", "longley"


@q("stat", M, """What is the average unemployment rate (unemp) across all quarters?
    Answer as @mean_unemp[value], rounded to two decimals.""")
def macro_mean_unemp(d: Data) -> dict:
    return {"mean_unemp": r(d[M].unemp.mean(), 2)}


@q("stat", M, "Compute the sample standard deviation (ddof=1) of real private investment, realinv. Two decimals.")
def macro_std_realinv(d: Data) -> dict:
    return {"std": r(d[M].realinv.std(ddof=1), 2)}


@q("stat_filter", M, "median 3-month treasury bill rate (tbilrate) for the quarters from 1980 onward?")
def macro_median_tbil_1980(d: Data) -> dict:
    m = d[M]
    return {"median": m[m.year >= 1980].tbilrate.median()}


@q("stat_filter", M, """What was the highest inflation rate (infl) recorded in the 1970s, i.e. years 1970 through
    1979 inclusive? Report it as @max_infl_1970s[value].""")
def macro_max_infl_1970s(d: Data) -> dict:
    m = d[M]
    return {"max_infl_1970s": m[m.year.between(1970, 1979)].infl.max()}


@q("stat_filter", M, "In how many quarters was the real interest rate (realint) negative?")
def macro_count_negative_realint(d: Data) -> dict:
    return {"count": int((d[M].realint < 0).sum())}


@q("multi_stat", M, """Give the minimum, the maximum and the mean of the real interest rate (realint), each rounded
    to 2 decimal places.""")
def macro_realint_summary(d: Data) -> dict:
    s = d[M].realint
    return {"minimum": r(s.min(), 2), "maximum": r(s.max(), 2), "mean": r(s.mean(), 2)}


@q("correlation", M, "What's the Pearson correlation coefficient between unemp and infl? Round to 3 decimals.")
def macro_pearson_unemp_infl(d: Data) -> dict:
    return {"pearson": r(corr(d[M].unemp, d[M].infl, "pearson"), 3)}


@q("correlation", M, """Calculate Kendall's tau between the T-bill rate (tbilrate) and inflation (infl).
    Answer as @kendall_tau[value] rounded to three decimals.""")
def macro_kendall_tbil_infl(d: Data) -> dict:
    return {"kendall_tau": r(corr(d[M].tbilrate, d[M].infl, "kendall"), 3)}


@q("argmax", M, """Which year had the highest average unemployment rate, taking the mean of that year's
    quarterly unemp values? Answer as @year[value].""")
def macro_year_max_unemp(d: Data) -> dict:
    return {"year": unique_arg(d[M].groupby("year").unemp.mean())}


@q("argmax", M, "Which calendar year shows the lowest mean quarterly inflation (infl)?")
def macro_year_min_infl(d: Data) -> dict:
    return {"year": unique_arg(d[M].groupby("year").infl.mean(), largest=False)}


@q("group", M, """Average inflation (infl) by quarter of the year: report the mean for the first quarter as
    @infl_q1[value] and for the fourth quarter as @infl_q4[value], both to two decimals.""")
def macro_infl_by_quarter(d: Data) -> dict:
    means = d[M].groupby("quarter").infl.mean()
    return {"infl_q1": r(means[1], 2), "infl_q4": r(means[4], 2)}


@q("regression", M, """Regress real consumption (realcons) on real disposable income (realdpi) by ordinary least
    squares with an intercept. Report @slope[value] to four decimals and @intercept[value] to two decimals.""")
def macro_ols_cons_dpi(d: Data) -> dict:
    fit = ols(d[M].realcons, d[M].realdpi)
    return {"slope": r(fit["slope"], 4), "intercept": r(fit["intercept"], 2)}


@q("test", M, """Compare unemployment (unemp) in quarters before 1985 with quarters from 1985 on using Welch's
    two-sample t-test (unequal variances). Give the p-value as @p_value[value] rounded to 4 decimals and say whether
    the difference is significant at alpha = 0.05 as @significant[yes/no].""")
def macro_welch_unemp_1985(d: Data) -> dict:
    m = d[M]
    _, p = ttest(m[m.year < 1985].unemp, m[m.year >= 1985].unemp, equal_var=False)
    return {"p_value": r(p, 4), "significant": yes_no(p < 0.05)}


@q("outlier", M, """Using the 1.5*IQR rule (quartiles by linear interpolation; outliers lie strictly below
    Q1 - 1.5*IQR or strictly above Q3 + 1.5*IQR), how many quarters have an outlying inflation rate (infl)?""")
def macro_iqr_infl(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[M].infl)}


@q("outlier", M, """How many quarters have a T-bill rate (tbilrate) more than 3 standard deviations away from its
    mean? Answer as @n_extreme[value].""")
def macro_z_tbilrate(d: Data) -> dict:
    return {"n_extreme": z_outliers(d[M].tbilrate)}


@q("test", M, """Run a Shapiro-Wilk normality test on the real interest rate column realint. What is the p-value,
    and can normality be rejected at the 1% level? Answer as @p_value[value] (4 decimals) and @reject[yes/no].""")
def macro_shapiro_realint(d: Data) -> dict:
    _, p = shapiro(d[M].realint)
    return {"p_value": r(p, 4), "reject": yes_no(p < 0.01)}


@q("stat", L, "What is the mean total employment (TOTEMP) over the 16 years in longley.csv?")
def longley_mean_totemp(d: Data) -> dict:
    return {"mean": d[L].TOTEMP.mean()}


@q("stat_filter", L, "Average number of unemployed (UNEMP) in the years after 1955 (YEAR > 1955)?")
def longley_mean_unemp_after_1955(d: Data) -> dict:
    frame = d[L]
    return {"mean": frame[frame.YEAR > 1955].UNEMP.mean()}


@q("argmax", L, "In which year was the size of the armed forces (ARMED) at its largest? Answer as @year[value].")
def longley_year_max_armed(d: Data) -> dict:
    return {"year": unique_arg(d[L].set_index("YEAR").ARMED)}


@q("multi_stat", L, """For the GNP deflator (GNPDEFL), report the sample variance and the sample standard deviation
    (both with ddof = 1), rounded to two decimals.""")
def longley_var_std_gnpdefl(d: Data) -> dict:
    s = d[L].GNPDEFL
    return {"variance": r(s.var(ddof=1), 2), "standard deviation": r(s.std(ddof=1), 2)}


@q("correlation", L, "Find the Spearman rank correlation between ARMED and UNEMP, to 4 d.p.")
def longley_spearman_armed_unemp(d: Data) -> dict:
    return {"spearman": r(corr(d[L].ARMED, d[L].UNEMP, "spearman"), 4)}


@q("regression", L, """How much of the variation in total employment (TOTEMP) does GNP explain on its own? Give the
    R-squared of a simple linear regression of TOTEMP on GNP as @r_squared[value], rounded to four decimals.""")
def longley_r2_totemp_gnp(d: Data) -> dict:
    return {"r_squared": r(ols(d[L].TOTEMP, d[L].GNP)["r2"], 4)}


@q("test", L, """Is total employment (TOTEMP) consistent with a normal distribution? Run a Shapiro-Wilk test and
    report its p-value.""")
def longley_shapiro_totemp(d: Data) -> dict:
    _, p = shapiro(d[L].TOTEMP)
    return {"p_value": r(p, 4)}


@q("stat", L, """Population (POP) coefficient of variation: sample standard deviation divided by the mean,
    expressed as a percentage with two decimals. Answer as @cv_pop[value].""")
def longley_cv_pop(d: Data) -> dict:
    s = d[L].POP
    return {"cv_pop": r(100 * s.std(ddof=1) / s.mean(), 2)}
