"""Probe7 questions on the series: airline passengers (flights), Mauna Loa CO2, El Nino sea temperatures, the Nile's
volume and the yearly sunspots."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe7.registry import q, rejected

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

# ---------------------------------------------------------------- stat


@q("stat", "sunspots", "Median SUNACTIVITY over all years in the file?")
def sunspots_median(d: Data) -> dict:
    return {"median": float(d["sunspots"]["SUNACTIVITY"].median())}


@q("stat", "co2", "mean co2 concentration across the weekly readings, skipping the blank weeks. "
                  "3 decimal places")
def co2_mean(d: Data) -> dict:
    return {"co2_mean": r(d["co2"]["co2"].mean(), 3)}


# ---------------------------------------------------------------- stat_filter


@q("stat_filter", "nile", "Average Nile volume between 1900 and 1930, 1900 included but 1930 not. One decimal.")
def nile_mean_1900_1929(d: Data) -> dict:
    n = d["nile"]
    return {"mean_volume": r(n.loc[(n["year"] >= 1900) & (n["year"] < 1930), "volume"].mean(), 1)}


@q("stat_filter", "flights", "what's the sample std dev of passengers for the summer months (Jun, Jul, Aug) from "
                             "1955 onward? Missing months just skipped. 2dp -> @summer_sd[value]")
def flights_summer_sd_late(d: Data) -> dict:
    f = d["flights"]
    sub = f[f["month"].isin(["Jun", "Jul", "Aug"]) & (f["year"] >= 1955)]
    return {"summer_sd": r(sub["passengers"].std(ddof=1), 2)}


# ---------------------------------------------------------------- multi_stat


@q("multi_stat", "elnino", "For the DEC column of the El Nino table I'd like min, mean and max (2 dp): "
                           "@dec_min[value] @dec_mean[value] @dec_max[value]")
def elnino_dec_summary(d: Data) -> dict:
    s = d["elnino"]["DEC"]
    return {"dec_min": r(s.min(), 2), "dec_mean": r(s.mean(), 2), "dec_max": r(s.max(), 2)}


# ---------------------------------------------------------------- correlation


@q("correlation", "sunspots", "Lag-1 autocorrelation of SUNACTIVITY: the Pearson correlation between each year's "
                              "value and the previous year's. 4 d.p.")
def sunspots_lag1(d: Data) -> dict:
    s = d["sunspots"].sort_values("YEAR")["SUNACTIVITY"]
    return {"r_lag1": r(corr(s, s.shift(1), "pearson"), 4)}


@q("correlation", "elnino", "Pearson correlation, across years, between the MAR and the SEP sea temperatures. "
                            "Format @r_mar_sep[value], three decimals.")
def elnino_mar_sep(d: Data) -> dict:
    e = d["elnino"]
    return {"r_mar_sep": r(corr(e["MAR"], e["SEP"], "pearson"), 3)}


# ---------------------------------------------------------------- test


@q("test", "nile", "Welch t-test comparing Nile volume before 1899 (years 1871-1898) with 1899 onwards. Give "
                   "the t statistic (early minus late) to 3 dp in @t_welch[value], and say whether p < 0.01 in "
                   "@below_001[yes/no].")
def nile_welch_shift(d: Data) -> dict:
    n = d["nile"]
    res = stats.ttest_ind(n.loc[n["year"] < 1899, "volume"], n.loc[n["year"] >= 1899, "volume"], equal_var=False)
    return {"t_welch": r(res.statistic, 3), "below_001": rejected(float(res.pvalue), 0.01)}


@q("test", "flights", "Levene test (scipy default, center = median, i.e. Brown-Forsythe) for equal variance of "
                      "passengers across the 12 calendar months, missing months dropped. Statistic to 4 dp.")
def flights_levene_months(d: Data) -> dict:
    f = d["flights"].dropna(subset=["passengers"])
    res = stats.levene(*[g["passengers"] for _, g in f.groupby("month")])
    return {"w": r(res.statistic, 4)}


@q("test", "elnino", "Kruskal-Wallis H test comparing JAN, MAY and SEP temperatures (three samples, one value per "
                     "year each). H statistic, 3 decimals? And is it significant at 5%? -> @h_stat[value] "
                     "@kw_significant[yes/no]")
def elnino_kruskal(d: Data) -> dict:
    e = d["elnino"]
    res = stats.kruskal(e["JAN"], e["MAY"], e["SEP"])
    return {"h_stat": r(res.statistic, 3), "kw_significant": rejected(float(res.pvalue), 0.05)}


# ---------------------------------------------------------------- outlier


@q("outlier", "sunspots", "Number of years whose SUNACTIVITY is an IQR outlier (outside 1.5 IQR fences, linear "
                          "quartiles).")
def sunspots_iqr(d: Data) -> dict:
    return {"n": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


@q("outlier", "flights", "Take the month-to-month change in passengers (diff of consecutive rows, a change is "
                         "missing when either month is). How many changes have |z| > 2.5, with z from the mean and "
                         "sample SD of the changes? @n_jumps[value]")
def flights_change_z(d: Data) -> dict:
    ch = d["flights"]["passengers"].diff()
    return {"n_jumps": z_outliers(ch, 2.5, ddof=1)}


# ---------------------------------------------------------------- group


@q("group", "flights", "Mean passengers per year for 1950, 1954 and 1958, skipping the unrecorded months; "
                       "2 decimals each: @y1950[value] @y1954[value] @y1958[value]")
def flights_year_means_gap_years(d: Data) -> dict:
    m = d["flights"].groupby("year")["passengers"].mean()
    return {f"y{k}": r(m[k], 2) for k in (1950, 1954, 1958)}


# ---------------------------------------------------------------- argmax


@q("argmax", "elnino", "Which calendar month is warmest on average over all years? Answer with the month's "
                       "three-letter column name.", checker="exact")
def elnino_warmest_month(d: Data) -> dict:
    return {"month": unique_arg(d["elnino"][MONTHS].mean())}


@q("argmax", "nile", "the lowest-volume year of the Nile between 1920 and 1960 (both inclusive)?")
def nile_min_year_window(d: Data) -> dict:
    n = d["nile"].query("1920 <= year <= 1960").set_index("year")
    return {"year": int(unique_arg(n["volume"], largest=False))}


@q("argmax", "co2", "Which year saw the biggest rise in annual mean co2 over the year before? (annual means of "
                    "the weekly readings, blank weeks skipped; compare only the full years 1959-2001) -> "
                    "@year[YYYY]")
def co2_biggest_annual_increase(d: Data) -> dict:
    c = d["co2"]
    c["year"] = c["date"].str[:4].astype(int)
    m = c.groupby("year")["co2"].mean().loc[1959:2001]
    return {"year": int(unique_arg(m.diff().dropna()))}


# ---------------------------------------------------------------- regression


@q("regression", "co2", "Linear trend of co2 on decimal time: regress co2 on t = year + (day of year - 1)/365.25 "
                        "using the dated weekly readings, blanks dropped. Slope in ppm per year, 4 dp?")
def co2_trend_slope(d: Data) -> dict:
    c = d["co2"]
    dt = pd.to_datetime(c["date"])
    t = dt.dt.year + (dt.dt.day_of_year - 1) / 365.25
    return {"slope": r(ols(c["co2"], t)["slope"], 4)}


@q("regression", "flights", "Fit log(passengers) = a + b*k, with k = 0 for Jan 1949 and counting months up to "
                            "143, missing months dropped (natural log). Report 100*b (percent per month, "
                            "approximately) as @b_monthly_pct[value] to 3 dp and R-squared as @rsq_log[value] to 4 dp.")
def flights_log_trend(d: Data) -> dict:
    f = d["flights"]
    fit = ols(np.log(f["passengers"]), pd.Series(np.arange(len(f)), index=f.index))
    return {"b_monthly_pct": r(100 * fit["slope"], 3), "rsq_log": r(fit["r2"], 4)}


# ---------------------------------------------------------------- derived


@q("derived", "elnino", "Each year's seasonal swing = hottest month minus coldest month (over JAN..DEC). What's "
                        "the mean swing across years? 3 dp")
def elnino_mean_swing(d: Data) -> dict:
    e = d["elnino"][MONTHS]
    return {"swing": r((e.max(axis=1) - e.min(axis=1)).mean(), 3)}


# ---------------------------------------------------------------- count_share


@q("count_share", "nile", "How many years had a volume under 800?")
def nile_count_low(d: Data) -> dict:
    n = d["nile"]
    assert not (n["volume"] == 800).any()
    return {"n": int((n["volume"] < 800).sum())}


@q("count_share", "co2", "what share of the weekly rows have no co2 reading? answer in percent (not a 0-1 "
                         "fraction), 2 dp, @missing_pct[value]")
def co2_missing_percent(d: Data) -> dict:
    return {"missing_pct": r(100 * d["co2"]["co2"].isna().mean(), 2)}


# ---------------------------------------------------------------- topk


@q("topk", "sunspots", "Give the three years with the most sunspot activity, most active first: @first[year] "
                       "@second[year] @third[year]")
def sunspots_top3_years(d: Data) -> dict:
    s = d["sunspots"].sort_values("SUNACTIVITY", ascending=False)
    v = s["SUNACTIVITY"].tolist()
    assert v[0] > v[1] > v[2] > v[3]
    y = s["YEAR"].tolist()
    return {"first": y[0], "second": y[1], "third": y[2]}


# ---------------------------------------------------------------- hard


@q("hard", "sunspots", "Compute an 11-year trailing (not centred) rolling mean of SUNACTIVITY (window of 11 "
                       "years ending at each year, full windows only). What is its highest value, and in which "
                       "year does that window end? @peak_mean[value] (2 dp) @end_year[YYYY]")
def sunspots_rolling_peak(d: Data) -> dict:
    s = d["sunspots"].sort_values("YEAR").set_index("YEAR")["SUNACTIVITY"]
    roll = s.rolling(11).mean().dropna()
    return {"peak_mean": r(roll.max(), 2), "end_year": int(unique_arg(roll))}


@q("hard", "flights", "Growth of the annual average: mean passengers in 1960 divided by mean passengers in 1949, "
                      "minus one, in percent (1 decimal). Missing months just aren't in the averages.")
def flights_growth_1949_1960(d: Data) -> dict:
    m = d["flights"].groupby("year")["passengers"].mean()
    return {"growth_pct": r(100 * (m[1960] / m[1949] - 1), 1)}


@q("hard", "nile", "How many years were drier than the year before by more than 100 (volume dropped by over 100 "
                   "from the previous year)?")
def nile_big_drops(d: Data) -> dict:
    ch = d["nile"].sort_values("year")["volume"].diff()
    assert not (ch == -100).any()
    return {"n": int((ch < -100).sum())}
