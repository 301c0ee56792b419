"""Questions about series over time: airline passengers, the Nile, sunspots, Mauna Loa CO2, El Nino."""

from __future__ import annotations

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg
from tests.probe2.registry import q, rejected

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _flights_filled(d: Data) -> pd.DataFrame:
    f = d["flights"]
    f["passengers"] = f["passengers"].interpolate(method="linear")
    return f


# ---------------------------------------------------------------- flights

@q("count_share", "flights",
   "In the monthly airline passenger series, how many months have no passenger figure? @missing_months[value]")
def flights_count_missing(d: Data) -> dict:
    return {"missing_months": int(d["flights"]["passengers"].isna().sum())}


@q("hard", "flights",
   "Fill the missing monthly passenger counts by linear interpolation between the neighbouring months, then "
   "total the passengers for 1950. Thousands of passengers, one decimal.")
def flights_total_1950_interpolated(d: Data) -> dict:
    f = _flights_filled(d)
    return {"total": r(f.loc[f["year"] == 1950, "passengers"].sum(), 1)}


@q("argmax", "flights",
   "Averaged over the years (gaps skipped), which calendar month carries the most passengers? Give the month "
   "abbreviation as written in the month column.", checker="exact")
def flights_busiest_month(d: Data) -> dict:
    return {"month": unique_arg(d["flights"].groupby("month")["passengers"].mean())}


@q("hard", "flights",
   "After filling gaps by linear interpolation, compute each year's total passengers and its growth on the "
   "previous year in percent. Which year grew the least? @year[value] @growth_percent[value] (1 decimal)")
def flights_slowest_growth_year(d: Data) -> dict:
    f = _flights_filled(d)
    growth = 100 * f.groupby("year")["passengers"].sum().pct_change().dropna()
    return {"year": int(unique_arg(growth, largest=False)), "growth_percent": r(growth.min(), 1)}


@q("stat_filter", "flights",
   "Mean number of passengers in July, 1955-60, to the nearest whole number (thousands).")
def flights_mean_july_late_fifties(d: Data) -> dict:
    f = d["flights"]
    v = f.loc[(f["month"] == "Jul") & f["year"].between(1955, 1960), "passengers"].mean()
    assert abs(v - round(v)) != 0.5
    return {"mean": int(round(v))}



# ---------------------------------------------------------------- nile

@q("stat", "nile", "What is the sample standard deviation of the Nile's annual flow volume? Round to 1 decimal and "
   "write it as @sd[value].")
def nile_sd_volume(d: Data) -> dict:
    return {"sd": r(d["nile"]["volume"].std(ddof=1), 1)}


@q("stat_filter", "nile",
   "The Aswan dam question: mean annual Nile flow for the years after 1898 (1899 onwards). @mean_flow[value], "
   "1 decimal")
def nile_mean_after_1898(d: Data) -> dict:
    n = d["nile"]
    return {"mean_flow": r(n.loc[n["year"] > 1898, "volume"].mean(), 1)}


@q("test", "nile",
   "Welch t-test: Nile flow up to and including 1898 vs from 1899 on. Give the t statistic (earlier period minus "
   "later period) to 2 decimals as @t_stat[value], and whether it is significant at the 1% level as "
   "@significant[yes or no].")
def nile_welch_break(d: Data) -> dict:
    n = d["nile"]
    res = stats.ttest_ind(n.loc[n["year"] <= 1898, "volume"], n.loc[n["year"] > 1898, "volume"], equal_var=False)
    return {"t_stat": r(res.statistic, 2), "significant": rejected(res.pvalue, 0.01)}


@q("topk", "nile",
   "List the three lowest-flow years of the Nile, lowest first, as @first[year] @second[year] @third[year].")
def nile_three_lowest_years(d: Data) -> dict:
    s = d["nile"].set_index("year")["volume"].sort_values()
    assert s.iloc[0] < s.iloc[1] < s.iloc[2] < s.iloc[3]
    return {"first": int(s.index[0]), "second": int(s.index[1]), "third": int(s.index[2])}


@q("hard", "nile",
   "Take the 10-year trailing moving average of the Nile flow (a year's value averages it and the 9 years "
   "before it; the first 9 years have none). Which year's moving average is the lowest?")
def nile_lowest_rolling10(d: Data) -> dict:
    n = d["nile"].set_index("year")["volume"]
    roll = n.rolling(10).mean().dropna()
    return {"year": int(unique_arg(roll, largest=False))}


# ---------------------------------------------------------------- sunspots

@q("outlier", "sunspots",
   "How many yearly sunspot numbers are outliers by Tukey's fences (1.5 IQR beyond the quartiles, linear "
   "interpolation)? @outliers[value]")
def sunspots_iqr(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


@q("argmax", "sunspots",
   "Group the years into decades (the 1820s being 1820-1829, and so on; use only decades with all ten years). "
   "Which decade has the highest mean sunspot activity? Give its first year as @decade[value].")
def sunspots_decade_highest(d: Data) -> dict:
    s = d["sunspots"]
    dec = (s["YEAR"] // 10) * 10
    g = s.groupby(dec)["SUNACTIVITY"].agg(["mean", "size"])
    g = g[g["size"] == 10]
    return {"decade": int(unique_arg(g["mean"]))}


@q("stat_filter", "sunspots",
   "median sunspot activity, years 1800 through 1899, 2 decimals")
def sunspots_median_1800s(d: Data) -> dict:
    s = d["sunspots"]
    return {"median": r(s.loc[s["YEAR"].between(1800, 1899), "SUNACTIVITY"].median(), 2)}


@q("correlation", "sunspots",
   "Lag-1 autocorrelation of sunspot activity: the Pearson correlation between each year's value and the "
   "previous year's value (pairs of consecutive years). 3 decimals.")
def sunspots_lag1_pearson(d: Data) -> dict:
    s = d["sunspots"]["SUNACTIVITY"]
    return {"r": r(corr(s, s.shift(1), "pearson"), 3)}


@q("count_share", "sunspots",
   "Share of years with sunspot activity below 10, as a percent to 1 decimal.")
def sunspots_share_below_10(d: Data) -> dict:
    s = d["sunspots"]["SUNACTIVITY"]
    return {"percent": r(100 * (s < 10).mean(), 1)}


# ---------------------------------------------------------------- co2

@q("count_share", "co2",
   "The Mauna Loa CO2 file has one row per week. How many weekly readings are missing? Then what percentage "
   "of the weeks is that (1 decimal)? @missing[value] @percent[value]")
def co2_missing_and_share(d: Data) -> dict:
    c = d["co2"]["co2"]
    return {"missing": int(c.isna().sum()), "percent": r(100 * c.isna().mean(), 1)}



@q("hard", "co2",
   "Annual means of the weekly CO2 readings (missing weeks skipped), for the complete calendar years 1959 to "
   "2001. Which year had the largest increase over the year before, and by how much in ppm (2 decimals)? "
   "@year[value] @increase[value]")
def co2_largest_annual_increase(d: Data) -> dict:
    c = d["co2"]
    c["year"] = c["date"].str[:4].astype(int)
    annual = c[c["year"].between(1959, 2001)].groupby("year")["co2"].mean()
    diff = annual.diff().dropna()
    return {"year": int(unique_arg(diff)), "increase": r(diff.max(), 2)}


@q("regression", "co2",
   "Linear trend of CO2: regress the weekly concentration on decimal time measured in years since the first "
   "reading (days since 1958-03-29 divided by 365.25), skipping missing weeks. Slope in ppm per year, 3 "
   "decimals.")
def co2_trend_slope(d: Data) -> dict:
    c = d["co2"]
    t = (pd.to_datetime(c["date"]) - pd.Timestamp("1958-03-29")).dt.days / 365.25
    return {"slope": r(ols(c["co2"], t)["slope"], 3)}


# ---------------------------------------------------------------- elnino

@q("derived", "elnino",
   "For each year in the El Nino table, take the range of the twelve monthly sea surface temperatures "
   "(warmest month minus coolest). Average range across all years, 2 decimals.")
def elnino_mean_annual_range(d: Data) -> dict:
    e = d["elnino"]
    rng = e[MONTHS].max(axis=1) - e[MONTHS].min(axis=1)
    return {"mean_range": r(rng.mean(), 2)}


@q("argmax", "elnino",
   "Which year had the warmest annual mean sea surface temperature (mean of its 12 months)?")
def elnino_warmest_year(d: Data) -> dict:
    e = d["elnino"].set_index("YEAR")
    return {"year": int(unique_arg(e[MONTHS].mean(axis=1)))}


@q("multi_stat", "elnino",
   "December temperatures over 1950-2010: @mean[value] @median[value] @max[value], 2 decimals each.")
def elnino_december_stats(d: Data) -> dict:
    s = d["elnino"]["DEC"]
    return {"mean": r(s.mean(), 2), "median": r(s.median(), 2), "max": r(s.max(), 2)}



@q("topk", "elnino",
   "Three coolest Decembers, coolest first: give the years.", checker="contains")
def elnino_three_coolest_decembers(d: Data) -> dict:
    s = d["elnino"].set_index("YEAR")["DEC"].sort_values()
    assert s.iloc[0] < s.iloc[1] < s.iloc[2] < s.iloc[3]
    return {"first": str(s.index[0]), "second": str(s.index[1]), "third": str(s.index[2])}


@q("test", "elnino",
   "Paired t-test of March against September temperatures over the same years (two-sided). I only need the t "
   "statistic, for March minus September, to 2 decimals.")
def elnino_paired_mar_sep(d: Data) -> dict:
    e = d["elnino"]
    return {"t": r(stats.ttest_rel(e["MAR"], e["SEP"]).statistic, 2)}
