"""Probe4 questions about series over time: co2, elnino, nile, sunspots, flights."""

from __future__ import annotations

from typing import Any

import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg
from tests.probe4.registry import q, rejected

Answer = dict[str, Any]
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _co2(d: Data) -> pd.DataFrame:
    c = d["co2"]
    c["year"] = c["date"].str[:4].astype(int)
    return c


# --- stat -------------------------------------------------------------------------------------------------------

@q("stat", "co2", """How many different CO2 readings are there in the weekly Mauna Loa record? Count distinct
   values, ignoring weeks with no reading.""")
def time_co2_distinct_readings(d: Data) -> Answer:
    return {"answer": int(d["co2"]["co2"].nunique())}


@q("stat", "nile", """Nile flow at Aswan: the year-to-year spread of the annual volume, as a population standard
   deviation (divide by N), one decimal.""")
def time_nile_population_sd(d: Data) -> Answer:
    return {"answer": r(d["nile"]["volume"].std(ddof=0), 1)}


# --- stat_filter ------------------------------------------------------------------------------------------------

@q("stat_filter", "sunspots", """Average yearly sunspot activity over the 19th century, 1801-1900 inclusive, 2dp.""")
def time_sunspots_19th_century(d: Data) -> Answer:
    s = d["sunspots"]
    return {"answer": r(s[s["YEAR"].between(1801, 1900)]["SUNACTIVITY"].mean(), 2)}


@q("stat_filter", "flights", """summer months only (Jun, Jul, Aug), 1955-58 incl., mean passengers (thousands),
   missing months skipped, 1dp -> @summer_mean[value]""")
def time_flights_summer_mid50s(d: Data) -> Answer:
    f = d["flights"]
    sel = f[f["month"].isin(["Jun", "Jul", "Aug"]) & f["year"].between(1955, 1958)]
    return {"summer_mean": r(sel["passengers"].mean(), 1)}


# --- multi_stat -------------------------------------------------------------------------------------------------

@q("multi_stat", "nile", """Nile annual volume: average, middle value, and how far apart they are (average minus
   middle value). @mean_flow[value] @median_flow[value] @gap[value], one decimal each.""")
def time_nile_mean_median_gap(d: Data) -> Answer:
    v = d["nile"]["volume"]
    return {"mean_flow": r(v.mean(), 1), "median_flow": r(v.median(), 1), "gap": r(v.mean() - v.median(), 1)}


@q("multi_stat", "elnino", """For the December sea-surface temperatures, give the coldest, the warmest and the
   sample standard deviation: @coldest[value] @warmest[value] @sd[value] (2dp).""")
def time_elnino_december_summary(d: Data) -> Answer:
    x = d["elnino"]["DEC"]
    return {"coldest": r(x.min(), 2), "warmest": r(x.max(), 2), "sd": r(x.std(ddof=1), 2)}


# --- correlation ------------------------------------------------------------------------------------------------

@q("correlation", "elnino", """Across the years, how strongly do January and July sea temperatures move together?
   Pearson r, 3dp.""")
def time_elnino_jan_jul(d: Data) -> Answer:
    e = d["elnino"]
    return {"answer": r(corr(e["JAN"], e["JUL"], "pearson"), 3)}


@q("correlation", "sunspots", """Is a year's sunspot activity related to the previous year's? Pearson correlation
   between each year's value and the value one year before (lag 1), @lag1_r[value] to 3 decimals.""")
def time_sunspots_lag1(d: Data) -> Answer:
    s = d["sunspots"]["SUNACTIVITY"]
    return {"lag1_r": r(corr(s, s.shift(1), "pearson"), 3)}


# --- test -------------------------------------------------------------------------------------------------------

@q("test", "elnino", """Paired t-test of March against September temperatures, year by year. The t statistic with
   March minus September as the difference, three decimals.""")
def time_elnino_paired_mar_sep(d: Data) -> Answer:
    e = d["elnino"]
    return {"answer": r(stats.ttest_rel(e["MAR"], e["SEP"]).statistic, 3)}


@q("test", "nile", """Hydrologists often split this record at 1898. Welch t-test of annual
   volume, years up to and including 1898 against 1899 onwards: was the mean different at the 1% level?
   Yes or no as @different[answer], and the p-value @p[value] in scientific notation or decimals.""")
def time_nile_split_welch(d: Data) -> Answer:
    n = d["nile"]
    res = stats.ttest_ind(n[n["year"] <= 1898]["volume"], n[n["year"] >= 1899]["volume"], equal_var=False)
    return {"different": rejected(float(res.pvalue), 0.01), "p": float(res.pvalue)}


# --- outlier ----------------------------------------------------------------------------------------------------

@q("outlier", "sunspots", """Solar cycles make some years look extreme. Over the whole yearly record, how many
   years count as outliers in sunspot activity under the 1.5 IQR rule (linear quartiles)?""")
def time_sunspots_outliers(d: Data) -> Answer:
    return {"answer": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


@q("outlier", "elnino", """January sea temperatures, one per year: how many of those Januaries are unusual by the
   1.5 IQR rule with linear-interpolation quartiles? @n_outliers[value]""")
def time_elnino_january_outliers(d: Data) -> Answer:
    return {"n_outliers": iqr_outliers(d["elnino"]["JAN"])}


# --- group ------------------------------------------------------------------------------------------------------

@q("group", "flights", """Average monthly passengers per year for 1949 and for 1960 (missing months skipped), and
   the ratio of the later to the earlier: @ratio[value], 3dp.""")
def time_flights_growth_ratio(d: Data) -> Answer:
    m = d["flights"].groupby("year")["passengers"].mean()
    return {"ratio": r(m[1960] / m[1949], 3)}


@q("group", "co2", """Mean CO2 reading per decade of the record: the 1960s (1960-1969) and the 1990s (1990-1999),
   weeks with no reading skipped. Two decimals: @mean_1960s[value] @mean_1990s[value]""")
def time_co2_decade_means(d: Data) -> Answer:
    c = _co2(d)
    sixties = c[c["year"].between(1960, 1969)]["co2"].mean()
    nineties = c[c["year"].between(1990, 1999)]["co2"].mean()
    return {"mean_1960s": r(sixties, 2), "mean_1990s": r(nineties, 2)}


# --- argmax -----------------------------------------------------------------------------------------------------

@q("argmax", "elnino", """Which calendar month is coldest on average across all years? Use the table's three-letter
   month header: @month[value]""", checker="exact")
def time_elnino_coldest_month(d: Data) -> Answer:
    e = d["elnino"]
    return {"month": unique_arg(e[list(MONTHS)].mean(), largest=False)}


@q("argmax", "nile", """In which year was the Nile flow lowest?""")
def time_nile_lowest_year(d: Data) -> Answer:
    return {"answer": int(unique_arg(d["nile"].set_index("year")["volume"], largest=False))}


# --- regression -------------------------------------------------------------------------------------------------

@q("regression", "co2", """Linear trend of CO2: regress the weekly reading on the calendar year (as given in the
   date) over 1980-1989, weeks with no reading dropped. How many ppm per year? 3dp.""")
def time_co2_trend_80s(d: Data) -> Answer:
    c = _co2(d)
    c = c[c["year"].between(1980, 1989)]
    return {"answer": r(ols(c["co2"], c["year"])["slope"], 3)}


@q("regression", "flights", """Regress yearly total passengers on the year, 1949-1960, using only years with all 12
   months recorded. Slope in thousands of passengers per year, @slope[value], one decimal.""")
def time_flights_total_trend_complete_years(d: Data) -> Answer:
    f = d["flights"]
    counts = f.groupby("year")["passengers"].count()
    totals = f.groupby("year")["passengers"].sum()[counts == 12]
    return {"slope": r(ols(totals, pd.Series(totals.index, index=totals.index))["slope"], 1)}


# --- derived ----------------------------------------------------------------------------------------------------

@q("derived", "elnino", """For each year, the seasonal swing: warmest month minus coldest month of that year. What is
   the typical (median) swing across years? 2dp.""")
def time_elnino_median_swing(d: Data) -> Answer:
    e = d["elnino"][list(MONTHS)]
    return {"answer": r((e.max(axis=1) - e.min(axis=1)).median(), 2)}


# --- count_share ------------------------------------------------------------------------------------------------

@q("count_share", "sunspots", """In how many years was sunspot activity recorded as exactly zero?""")
def time_sunspots_zero_years(d: Data) -> Answer:
    return {"answer": int((d["sunspots"]["SUNACTIVITY"] == 0).sum())}


@q("count_share", "flights", """From 1956 on, how many months carried more than 400 thousand passengers? Months with
   no count recorded don't count.""")
def time_flights_months_over_400(d: Data) -> Answer:
    f = d["flights"]
    f = f[f["year"] >= 1956]
    assert not (f["passengers"] == 400).any()
    return {"answer": int((f["passengers"] > 400).sum())}


@q("count_share", "co2", """What share of the weeks in the CO2 series have no reading? @pct_missing[value] as a
   percentage with two decimals.""")
def time_co2_missing_share(d: Data) -> Answer:
    return {"pct_missing": r(d["co2"]["co2"].isna().mean() * 100, 2)}


# --- topk -------------------------------------------------------------------------------------------------------

@q("topk", "elnino", """Which three years had the warmest December? Warmest first, years only.""",
   checker="contains")
def time_elnino_top3_december(d: Data) -> Answer:
    e = d["elnino"].sort_values("DEC", ascending=False)
    assert e["DEC"].iloc[2] != e["DEC"].iloc[3]
    return {f"top{i + 1}": str(int(y)) for i, y in enumerate(e["YEAR"].iloc[:3])}


@q("topk", "flights", """Busiest three months of 1958 by passengers, busiest first (month names as in the
   table).""", checker="contains")
def time_flights_top3_1958(d: Data) -> Answer:
    f = d["flights"]
    f = f[f["year"] == 1958].sort_values("passengers", ascending=False)
    assert f["passengers"].iloc[2] != f["passengers"].iloc[3]
    return {f"top{i + 1}": m for i, m in enumerate(f["month"].iloc[:3])}


# --- hard -------------------------------------------------------------------------------------------------------

@q("hard", "nile", """Trailing 10-year moving average of the Nile volume (a window ends at its last year and needs
   all 10 years). What is its lowest value, @low_ma[value] to one decimal, and the last year of that window,
   @end_year[value]?""")
def time_nile_rolling_min(d: Data) -> Answer:
    n = d["nile"].set_index("year")["volume"]
    ma = n.rolling(10).mean().dropna()
    return {"low_ma": r(ma.min(), 1), "end_year": int(unique_arg(ma, largest=False))}


@q("hard", "sunspots", """Group the years into decades (a decade runs from a year ending in 0 through the next year
   ending in 9). Which decade had the highest mean sunspot activity? Give the decade's first year.""")
def time_sunspots_best_decade(d: Data) -> Answer:
    s = d["sunspots"]
    m = s.groupby(s["YEAR"] // 10 * 10)["SUNACTIVITY"].mean()
    return {"answer": int(unique_arg(m))}


@q("hard", "co2", """By how much did the annual mean CO2 of 1990 exceed that of 1960? Annual means over the weeks
   with a reading, difference in ppm to two decimals.""")
def time_co2_1990_minus_1960(d: Data) -> Answer:
    c = _co2(d)
    m = c.groupby("year")["co2"].mean()
    return {"answer": r(m[1990] - m[1960], 2)}


@q("hard", "flights", """Fill the missing passenger months by linear interpolation in date order, then total each
   year. Which year had the biggest increase in passengers over the previous year (in thousands)? @year[value]""")
def time_flights_biggest_yoy(d: Data) -> Answer:
    f = d["flights"].sort_values("date")
    f["passengers"] = f["passengers"].interpolate(method="linear")
    totals = f.groupby("year")["passengers"].sum()
    return {"year": int(unique_arg(totals.diff().dropna()))}


@q("hard", "elnino", """Where does 1965's December sit among all Decembers? Give its rank counting from the warmest
   (the warmest December has rank one).""")
def time_elnino_rank_1965_dec(d: Data) -> Answer:
    e = d["elnino"]
    rank = e["DEC"].rank(ascending=False, method="min")
    dec = e.set_index("YEAR")["DEC"]
    assert (dec == dec[1965]).sum() == 1
    return {"answer": int(rank[e["YEAR"] == 1965].iloc[0])}
