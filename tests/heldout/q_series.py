"""Questions on yearly and weekly series: sunspots, the Nile's flow, Mauna Loa CO2 and El Nino temperatures."""

from __future__ import annotations

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data, q
from tests.heldout.stats import corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, yes_no, z_outliers

S, N, C, E = "sunspots", "nile", "co2", "elnino"
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _co2(d: Data) -> pd.DataFrame:
    frame = d[C]
    frame["date"] = pd.to_datetime(frame["date"])
    return frame


@q("argmax", S, "Which year had the highest yearly sunspot activity (SUNACTIVITY)?")
def sunspots_year_max(d: Data) -> dict:
    return {"year": unique_arg(d[S].set_index("YEAR").SUNACTIVITY)}


@q("stat_filter", S, """What was the mean sunspot number during the 20th century (years 1900 to 1999 inclusive)?
    Answer as @mean_20th[value], two decimals.""")
def sunspots_mean_20th(d: Data) -> dict:
    s = d[S]
    return {"mean_20th": r(s[s.YEAR.between(1900, 1999)].SUNACTIVITY.mean(), 2)}


@q("stat_filter", S, "How many years in sunspots.csv recorded no sunspot activity at all (SUNACTIVITY equal to 0)?")
def sunspots_zero_years(d: Data) -> dict:
    return {"count": int((d[S].SUNACTIVITY == 0).sum())}


@q("stat", S, """Find the 90th percentile of SUNACTIVITY, computed with linear interpolation between order
    statistics (the pandas/numpy default). Report it as @p90[value] rounded to 1 decimal.""")
def sunspots_p90(d: Data) -> dict:
    return {"p90": r(d[S].SUNACTIVITY.quantile(0.9), 1)}


@q("outlier", S, """Count the years whose sunspot activity is an outlier under Tukey's fences: strictly outside
    [Q1 - 1.5 IQR, Q3 + 1.5 IQR], with quartiles from linear interpolation.""")
def sunspots_iqr(d: Data) -> dict:
    return {"outliers": iqr_outliers(d[S].SUNACTIVITY)}


@q("group", S, """Group the years by century (1700-1799, 1800-1899, 1900-1999) and compute the average sunspot
    activity of each. Answer as @mean_1700s[value], @mean_1800s[value] and @mean_1900s[value], to 2 decimals.""")
def sunspots_century_means(d: Data) -> dict:
    s = d[S]
    means = s.groupby(s.YEAR // 100).SUNACTIVITY.mean()
    return {"mean_1700s": r(means[17], 2), "mean_1800s": r(means[18], 2), "mean_1900s": r(means[19], 2)}


@q("correlation", S, """How strongly does a year's sunspot activity track the previous year's? Report the Pearson
    correlation between SUNACTIVITY and its value one year earlier (lag 1), to three decimals.""")
def sunspots_lag1(d: Data) -> dict:
    x = d[S].SUNACTIVITY
    return {"lag1_correlation": r(corr(x, x.shift(1), "pearson"), 3)}


@q("multi_stat", S, """Describe the shape of SUNACTIVITY: give its median and its sample skewness (the
    bias-corrected Fisher-Pearson coefficient, pandas' skew()). Round both to 3 decimals.""")
def sunspots_median_skew(d: Data) -> dict:
    x = d[S].SUNACTIVITY
    return {"median": r(x.median(), 3), "skewness": r(x.skew(), 3)}


@q("stat", N, "What is the mean annual flow volume of the Nile in nile.csv?")
def nile_mean(d: Data) -> dict:
    return {"mean": d[N].volume.mean()}


@q("stat", N, "Give the sample standard deviation of the Nile's annual volume, rounded to 2 decimals.")
def nile_std(d: Data) -> dict:
    return {"std": r(d[N].volume.std(ddof=1), 2)}


@q("argmax", N, "In which year was the Nile's flow volume the lowest? Answer as @year[value].")
def nile_year_min(d: Data) -> dict:
    return {"year": unique_arg(d[N].set_index("year").volume, largest=False)}


@q("test", N, """The Nile series is often said to shift around 1899. Test whether the mean volume differs between
    1871-1898 and 1899-1970 with Welch's t-test (unequal variances). Report the t statistic (earlier period minus
    later) as @t_stat[value] (2 decimals) and whether the means differ at the 5% level as @differ[yes/no].""")
def nile_welch_1899(d: Data) -> dict:
    n = d[N]
    t, p = ttest(n[n.year < 1899].volume, n[n.year >= 1899].volume, equal_var=False)
    return {"t_stat": r(t, 2), "differ": yes_no(p < 0.05)}


@q("multi_stat", N, """Report the mean volume for the years before 1899 and the mean volume from 1899 onwards,
    as @mean_before[value] and @mean_after[value], each to one decimal place.""")
def nile_means_split(d: Data) -> dict:
    n = d[N]
    return {"mean_before": r(n[n.year < 1899].volume.mean(), 1), "mean_after": r(n[n.year >= 1899].volume.mean(), 1)}


@q("test", N, """Shapiro-Wilk on the Nile volumes: what's the p-value? At alpha = 0.05 would you reject normality?
    Format: @p_value[value] to three decimals, @reject_normality[yes/no].""")
def nile_shapiro(d: Data) -> dict:
    _, p = shapiro(d[N].volume)
    return {"p_value": r(p, 3), "reject_normality": yes_no(p < 0.05)}


@q("correlation", N, "Spearman correlation between year and volume for the Nile data? Round to 3 decimals.")
def nile_spearman_year(d: Data) -> dict:
    return {"spearman": r(corr(d[N].year, d[N].volume, "spearman"), 3)}


@q("stat", C, "How many missing values are there in the co2 column of co2.csv?")
def co2_missing(d: Data) -> dict:
    return {"missing": int(d[C].co2.isna().sum())}


@q("stat", C, """What is the mean weekly CO2 concentration, ignoring missing weeks? Answer as @mean_co2[value]
    rounded to 2 decimals.""")
def co2_mean(d: Data) -> dict:
    return {"mean_co2": r(d[C].co2.mean(), 2)}


@q("stat", C, "Median of the co2 readings after dropping the missing ones?")
def co2_median(d: Data) -> dict:
    return {"median": d[C].co2.dropna().median()}


@q("stat_filter", C, "What was the highest weekly CO2 reading in calendar year 1990?")
def co2_max_1990(d: Data) -> dict:
    c = _co2(d)
    return {"max": c[c.date.dt.year == 1990].co2.max()}


@q("stat_filter", C, """By how much did the average CO2 level rise from 1960 to 2000? Take the mean of the
    available weekly readings in each of the two calendar years and give the difference (2000 minus 1960) as
    @increase[value], two decimals.""")
def co2_rise_1960_2000(d: Data) -> dict:
    c = _co2(d)
    by_year = c.groupby(c.date.dt.year).co2.mean()
    return {"increase": r(by_year[2000] - by_year[1960], 2)}


@q("argmax", C, """Which calendar month has the highest average CO2 concentration when all years are pooled
    (missing readings ignored)? Answer with the month number, 1-12, as @month[value].""")
def co2_peak_month(d: Data) -> dict:
    c = _co2(d)
    return {"month": int(unique_arg(c.groupby(c.date.dt.month).co2.mean()))}


@q("regression", C, """Fit a straight-line trend of co2 on the calendar year of each reading (an integer, taken from
    the date), by OLS with an intercept, dropping missing readings. What is the slope in ppm per year, to three
    decimals?""")
def co2_trend(d: Data) -> dict:
    c = _co2(d)
    return {"slope": r(ols(c.co2, c.date.dt.year.astype(float))["slope"], 3)}


@q("argmax", E, """Over all years in elnino.csv, which month column has the highest mean sea surface temperature?
    Give the column name.""", checker="exact")
def elnino_warmest_month(d: Data) -> dict:
    return {"month": unique_arg(d[E][MONTHS].mean())}


@q("argmax", E, "Which YEAR had the warmest December (DEC)? Reply as @year[value].")
def elnino_warmest_december(d: Data) -> dict:
    return {"year": unique_arg(d[E].set_index("YEAR").DEC)}


@q("stat", E, "Mean January temperature (JAN) across all years, to 2 decimals?")
def elnino_mean_jan(d: Data) -> dict:
    return {"mean": r(d[E].JAN.mean(), 2)}


@q("correlation", E, """Compute the Pearson correlation between the November (NOV) and December (DEC)
    temperatures. Answer as @r[value] with three decimals.""")
def elnino_pearson_nov_dec(d: Data) -> dict:
    return {"r": r(corr(d[E].NOV, d[E].DEC, "pearson"), 3)}


@q("test", E, """Is March warmer than April on average? Run a paired t-test of MAR against APR (same years) and
    report the t statistic, rounded to two decimals.""")
def elnino_paired_mar_apr(d: Data) -> dict:
    return {"t": r(stats.ttest_rel(d[E].MAR, d[E].APR).statistic, 2)}


@q("multi_stat", E, """Average each year's twelve monthly values to get an annual mean temperature. What are the
    lowest and highest annual means? Answer as @min_annual[value] and @max_annual[value], 2 decimals.""")
def elnino_annual_range(d: Data) -> dict:
    annual = d[E][MONTHS].mean(axis=1)
    return {"min_annual": r(annual.min(), 2), "max_annual": r(annual.max(), 2)}


@q("outlier", E, "How many Decembers have a DEC temperature whose z-score exceeds 3 in absolute value?")
def elnino_z_dec(d: Data) -> dict:
    return {"outliers": z_outliers(d[E].DEC)}


@q("stat_filter", E, "For the years 2000 and later, what's the average August temperature (AUG)?")
def elnino_aug_2000s(d: Data) -> dict:
    e = d[E]
    return {"mean": e[e.YEAR >= 2000].AUG.mean()}
