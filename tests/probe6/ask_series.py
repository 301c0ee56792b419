"""Questions on the time series: airline passengers, Mauna Loa CO2, the Nile's flow, sunspots and El Nino sea
temperatures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, ttest, unique_arg, z_outliers
from tests.probe6.registry import q, rejected

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _top3_index(series: pd.Series, largest: bool = True) -> list[Any]:
    ordered = series.dropna().sort_values(ascending=not largest)
    values = ordered.iloc[:4].to_numpy()
    assert len(set(values)) == 4, f"a tie in the top four: {values}"
    return list(ordered.index[:3])


# --- flights ----------------------------------------------------------------------------------------------------


@q("count_share", "flights", "How many months have no passenger figure recorded?")
def flights_missing_months(d: Data) -> dict[str, Any]:
    return {"count": int(d["flights"]["passengers"].isna().sum())}


@q("group", "flights",
   "Summer months: what's the mean passengers for Jun, for Jul and for Aug, each averaged over all years "
   "(skip months without a figure)?")
def flights_summer_month_means(d: Data) -> dict[str, Any]:
    f = d["flights"]
    means = f.groupby("month")["passengers"].mean()
    return {m: means[m] for m in ("Jun", "Jul", "Aug")}


@q("hard", "flights",
   "By how many percent did the annual mean of passengers grow from 1957 to 1958? Average each year over the "
   "months it has a figure for. @growth_pct[percent, 2 dp]")
def flights_growth_1957_1958(d: Data) -> dict[str, Any]:
    f = d["flights"]
    annual = f.groupby("year")["passengers"].mean()
    return {"growth_pct": r(100 * (annual[1958] / annual[1957] - 1), 2)}


@q("argmax", "flights",
   "Which calendar month is busiest on average over the whole period? Answer with the three-letter abbreviation "
   "used in the month column.", checker="exact")
def flights_busiest_calendar_month(d: Data) -> dict[str, Any]:
    return {"month": unique_arg(d["flights"].groupby("month")["passengers"].mean())}


@q("topk", "flights",
   "The three single months with the most passengers, highest first, as YYYY-MM-DD: "
   "@first[date] @second[date] @third[date]", checker="exact")
def flights_top3_months(d: Data) -> dict[str, Any]:
    f = d["flights"].set_index("date")
    first, second, third = _top3_index(f["passengers"])
    return {"first": first, "second": second, "third": third}


@q("stat_filter", "flights", "median passengers across Jun-Aug of 1955, 1956 and 1957?")
def flights_summer_median_55_57(d: Data) -> dict[str, Any]:
    f = d["flights"]
    rows = f[f["year"].between(1955, 1957) & f["month"].isin(["Jun", "Jul", "Aug"])]
    return {"median": rows["passengers"].median()}


@q("derived", "flights",
   "month-on-month change = this month's passengers minus last month's. What was the biggest increase? "
   "(a change next to a missing month doesn't count)")
def flights_biggest_monthly_jump(d: Data) -> dict[str, Any]:
    change = d["flights"]["passengers"].diff()
    top = change.max()
    assert (change == top).sum() == 1
    return {"max_change": top}


@q("outlier", "flights",
   "Looking at the month-to-month differences of passengers (changes touching a missing month dropped), how many "
   "have an absolute z-score above 2.5? @n_extreme[count]")
def flights_change_z(d: Data) -> dict[str, Any]:
    return {"n_extreme": z_outliers(d["flights"]["passengers"].diff(), 2.5)}


@q("multi_stat", "flights",
   """1960 passengers:
   1) lowest month @low[..]
   2) highest month @high[..]
   3) total for the year @total[..]""")
def flights_1960_summary(d: Data) -> dict[str, Any]:
    f = d["flights"]
    p = f.loc[f["year"] == 1960, "passengers"]
    assert p.notna().all()
    return {"low": p.min(), "high": p.max(), "total": p.sum()}


@q("count_share", "flights", "In how many months did passengers top 400 (strictly more than 400)?")
def flights_months_over_400(d: Data) -> dict[str, Any]:
    return {"count": int((d["flights"]["passengers"] > 400).sum())}


@q("correlation", "flights",
   "lag-1 autocorrelation: Pearson r between each month's passengers and the previous month's, over pairs where "
   "both are recorded, 4 dp")
def flights_lag1_corr(d: Data) -> dict[str, Any]:
    p = d["flights"]["passengers"]
    return {"r": r(corr(p, p.shift(1), "pearson"), 4)}


@q("regression", "flights",
   "Log-linear trend: let t = 0 for Jan 1949, 1 for Feb 1949 and so on. Regress ln(passengers) on t by OLS, "
   "dropping missing months. @slope[per month, 5 dp]")
def flights_log_trend(d: Data) -> dict[str, Any]:
    f = d["flights"]
    t = pd.Series(np.arange(len(f)), index=f.index)
    return {"slope": r(ols(np.log(f["passengers"]), t)["slope"], 5)}


# --- co2 --------------------------------------------------------------------------------------------------------


@q("stat", "co2", "What's the average co2 reading? (skip weeks with no reading)")
def co2_mean(d: Data) -> dict[str, Any]:
    return {"mean": d["co2"]["co2"].mean()}


@q("stat_filter", "co2", "Mean CO2 over the weeks dated in calendar year 1990, @mean_1990[ppm, 2 dp]")
def co2_mean_1990(d: Data) -> dict[str, Any]:
    c = d["co2"]
    return {"mean_1990": r(c.loc[c["date"].str.startswith("1990"), "co2"].mean(), 2)}


@q("argmax", "co2",
   "Seasonality: averaging every week by calendar month over all years, which month has the highest CO2? "
   "Full English month name.", checker="exact")
def co2_peak_month(d: Data) -> dict[str, Any]:
    c = d["co2"]
    month = pd.to_datetime(c["date"]).dt.month_name()
    return {"month": unique_arg(c.groupby(month)["co2"].mean())}


@q("hard", "co2",
   "How much higher (in ppm) was the annual mean CO2 in 2000 than in 1960? Annual mean = mean of that year's "
   "weekly readings, missing weeks skipped. 2 decimals.")
def co2_rise_1960_2000(d: Data) -> dict[str, Any]:
    c = d["co2"]
    annual = c.groupby(c["date"].str[:4])["co2"].mean()
    return {"rise": r(annual["2000"] - annual["1960"], 2)}


@q("count_share", "co2", "what percentage of the weekly rows have co2 missing? %, 2dp")
def co2_missing_pct(d: Data) -> dict[str, Any]:
    return {"pct": r(100 * d["co2"]["co2"].isna().mean(), 2)}


@q("group", "co2",
   "annual mean co2 for 1970 / 1980 / 1990 -> @y1970[..] @y1980[..] @y1990[..] (ppm, 2 decimals)")
def co2_decade_years(d: Data) -> dict[str, Any]:
    c = d["co2"]
    annual = c.groupby(c["date"].str[:4])["co2"].mean()
    return {f"y{y}": r(annual[str(y)], 2) for y in (1970, 1980, 1990)}


# --- nile -------------------------------------------------------------------------------------------------------


@q("stat", "nile", "Average annual Nile volume?")
def nile_mean(d: Data) -> dict[str, Any]:
    return {"mean": d["nile"]["volume"].mean()}


@q("test", "nile",
   "The Aswan dam story says the flow dropped around 1899. Welch t-test of volume, years 1871-1898 versus "
   "1899-1970: @t[t statistic, earlier minus later] @p_value[..] @reject_at_5pct[yes/no]")
def nile_welch_before_after(d: Data) -> dict[str, Any]:
    n = d["nile"]
    t, p = ttest(n.loc[n["year"] <= 1898, "volume"], n.loc[n["year"] >= 1899, "volume"], equal_var=False)
    return {"t": t, "p_value": p, "reject_at_5pct": rejected(p, 0.05)}


@q("outlier", "nile", "Are there any 1.5-IQR outliers in the Nile volume? How many? (linear interpolation quartiles)")
def nile_iqr(d: Data) -> dict[str, Any]:
    return {"count": iqr_outliers(d["nile"]["volume"])}


@q("topk", "nile",
   "Three driest years (lowest volume), lowest first: @first[year] @second[year] @third[year]")
def nile_three_driest(d: Data) -> dict[str, Any]:
    first, second, third = _top3_index(d["nile"].set_index("year")["volume"], largest=False)
    return {"first": int(first), "second": int(second), "third": int(third)}


@q("hard", "nile",
   "Compute a trailing 10-year moving average of volume (a window needs all 10 years). What's its highest value, "
   "and in which year does that window end? @max_ma[..] @end_year[..]")
def nile_max_rolling(d: Data) -> dict[str, Any]:
    n = d["nile"].set_index("year")
    ma = n["volume"].rolling(10).mean()
    return {"max_ma": ma.max(), "end_year": int(unique_arg(ma.dropna()))}


@q("correlation", "nile", "kendall tau between year and volume? (tau-b, 3 dp)")
def nile_kendall_trend(d: Data) -> dict[str, Any]:
    n = d["nile"]
    return {"tau": r(stats.kendalltau(n["year"], n["volume"]).statistic, 3)}


# --- sunspots ---------------------------------------------------------------------------------------------------


@q("stat", "sunspots",
   "90th percentile of SUNACTIVITY (linear interpolation between order statistics) -> @p90[value]")
def sun_p90(d: Data) -> dict[str, Any]:
    return {"p90": d["sunspots"]["SUNACTIVITY"].quantile(0.9)}


@q("argmax", "sunspots", "Within the 1800s (1800-1899 inclusive), which year had the most sunspot activity?")
def sun_peak_1800s(d: Data) -> dict[str, Any]:
    s = d["sunspots"]
    s = s[s["YEAR"].between(1800, 1899)].set_index("YEAR")
    return {"year": int(unique_arg(s["SUNACTIVITY"]))}


@q("stat_filter", "sunspots",
   "avg SUNACTIVITY for 1900-1950 incl., leaving out the quiet years where activity was below 10 (a year at "
   "exactly 10 stays in). Round to 2 dp.")
def sun_active_years_mean(d: Data) -> dict[str, Any]:
    s = d["sunspots"]
    rows = s[s["YEAR"].between(1900, 1950) & (s["SUNACTIVITY"] >= 10)]
    return {"mean": r(rows["SUNACTIVITY"].mean(), 2)}


@q("group", "sunspots",
   """Mean yearly activity by century, 2 dp:
   - 18th century (1700-1799): @c18[..]
   - 19th century (1800-1899): @c19[..]
   - 20th century (1900-1999): @c20[..]""")
def sun_by_century(d: Data) -> dict[str, Any]:
    s = d["sunspots"]
    means = s.groupby(s["YEAR"] // 100)["SUNACTIVITY"].mean()
    return {"c18": r(means[17], 2), "c19": r(means[18], 2), "c20": r(means[19], 2)}


@q("count_share", "sunspots", "Percent of years with SUNACTIVITY strictly above 100?")
def sun_pct_over_100(d: Data) -> dict[str, Any]:
    return {"pct": 100 * (d["sunspots"]["SUNACTIVITY"] > 100).mean()}


@q("outlier", "sunspots",
   "z-scores of SUNACTIVITY using the population sd (ddof=0): how many years have z > 2.5 (upper tail only)?")
def sun_z_upper(d: Data) -> dict[str, Any]:
    s = d["sunspots"]["SUNACTIVITY"]
    z = (s - s.mean()) / s.std(ddof=0)
    assert not np.isclose(z, 2.5).any()
    return {"count": int((z > 2.5).sum())}


# --- elnino -----------------------------------------------------------------------------------------------------


@q("argmax", "elnino",
   "Average the twelve monthly columns for each YEAR. Which year was warmest on that annual mean? @year[YYYY]")
def elnino_warmest_year(d: Data) -> dict[str, Any]:
    e = d["elnino"].set_index("YEAR")
    return {"year": int(unique_arg(e[MONTHS].mean(axis=1)))}


@q("derived", "elnino",
   "seasonal swing per year = warmest month minus coldest month of that year. Mean swing across all years, 3 dp?")
def elnino_mean_swing(d: Data) -> dict[str, Any]:
    e = d["elnino"][MONTHS]
    return {"swing": r((e.max(axis=1) - e.min(axis=1)).mean(), 3)}


@q("multi_stat", "elnino", "DEC column: mean, sample standard deviation and median -> @mean[..] @sd[..] @median[..]")
def elnino_dec_summary(d: Data) -> dict[str, Any]:
    x = d["elnino"]["DEC"]
    return {"mean": x.mean(), "sd": x.std(ddof=1), "median": x.median()}


@q("test", "elnino",
   "Paired t-test, JAN vs JUL over the same years. t statistic as JAN minus JUL, 3 decimal places?")
def elnino_paired_jan_jul(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    return {"t": r(stats.ttest_rel(e["JAN"], e["JUL"]).statistic, 3)}


@q("correlation", "elnino",
   "Does a warm December carry into the next January? Pearson correlation between each year's DEC and the "
   "following year's JAN (the last year has no following January). @r[3 dp]")
def elnino_dec_next_jan(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    return {"r": r(corr(e["DEC"], e["JAN"].shift(-1), "pearson"), 3)}


@q("regression", "elnino",
   "Trend in AUG temperatures: fit AUG on YEAR by OLS and report the slope in degrees per decade (10 x the "
   "per-year slope).")
def elnino_aug_trend(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    return {"slope_per_decade": 10 * ols(e["AUG"], e["YEAR"])["slope"]}


@q("hard", "elnino",
   "From 1970 onward, how many years had an annual mean (average of the 12 months) above the mean of ALL the "
   "annual means (every year in the table)?")
def elnino_warm_years_since_1970(d: Data) -> dict[str, Any]:
    e = d["elnino"].set_index("YEAR")
    annual = e[MONTHS].mean(axis=1)
    grand = annual.mean()
    assert not np.isclose(annual, grand).any()
    return {"count": int((annual[annual.index >= 1970] > grand).sum())}


@q("test", "elnino",
   "Levene's test (center = median, i.e. Brown-Forsythe) for equal variance of MAR vs SEP. p-value, and do you "
   "reject equal variances at 5%? @levene_p[..] @reject[yes/no]")
def elnino_levene_mar_sep(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    p = float(stats.levene(e["MAR"], e["SEP"], center="median").pvalue)
    return {"levene_p": p, "reject": rejected(p, 0.05)}
