"""Questions about series over time: weekly CO2 (co2), sea temperatures by month (elnino), the Nile's flow
(nile), yearly sunspots (sunspots) and monthly airline passengers (flights)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe3.registry import q, rejected

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _co2(d: Data) -> pd.DataFrame:
    frame = d["co2"]
    frame["year"] = frame["date"].str[:4].astype(int)
    return frame


@q("count_share", "co2", "co2 table: number of weekly readings with no CO2 value")
def earth_co2_missing(d: Data) -> dict[str, Any]:
    return {"missing": int(d["co2"]["co2"].isna().sum())}


@q("stat_filter", "co2",
   "Mean atmospheric CO2 concentration over the weeks dated in calendar year 1990, blanks skipped. "
   "@mean_1990[value] (2 dp)")
def earth_co2_mean_1990(d: Data) -> dict[str, Any]:
    frame = _co2(d)
    return {"mean_1990": r(frame.loc[frame["year"] == 1990, "co2"].mean(), 2)}


@q("hard", "co2",
   "Take the yearly mean CO2 (missing weeks skipped) for every full calendar year in the series, 1959 to 2001. "
   "Between which consecutive years did it rise the most? Name the later year of the pair.", checker="exact")
def earth_co2_biggest_rise(d: Data) -> dict[str, Any]:
    frame = _co2(d)
    yearly = frame[frame["year"].between(1959, 2001)].groupby("year")["co2"].mean()
    return {"year": unique_arg(yearly.diff().dropna())}


@q("regression", "co2",
   "Fit a straight-line trend of CO2 on time for 1980 through 1989: regress the weekly CO2 values (blanks dropped) "
   "on the decimal year, where decimal year = year + (day of year - 1) / 365. How many ppm per year does the trend "
   "rise? 3 dp.")
def earth_co2_trend_80s(d: Data) -> dict[str, Any]:
    frame = _co2(d)
    frame = frame[frame["year"].between(1980, 1989)]
    when = pd.to_datetime(frame["date"])
    t = frame["year"] + (when.dt.day_of_year - 1) / 365
    return {"slope": r(ols(frame["co2"], t)["slope"], 3)}


@q("stat", "elnino",
   "Across all the years in the El Nino table, what is the average March sea surface temperature? 3 decimals.")
def earth_mean_march(d: Data) -> dict[str, Any]:
    return {"mean_mar": r(d["elnino"]["MAR"].mean(), 3)}


@q("derived", "elnino",
   "For each year compute how much warmer March is than September (MAR minus SEP). Then give the mean and the "
   "largest of those differences as @mean_gap[value] and @max_gap[value], 2 dp.")
def earth_mar_sep_gap(d: Data) -> dict[str, Any]:
    frame = d["elnino"]
    gap = frame["MAR"] - frame["SEP"]
    return {"mean_gap": r(gap.mean(), 2), "max_gap": r(gap.max(), 2)}


@q("argmax", "elnino",
   "Which year in the El Nino data has the widest spread between its warmest and its coldest month "
   "(max minus min over the twelve monthly columns)?", checker="exact")
def earth_widest_year(d: Data) -> dict[str, Any]:
    frame = d["elnino"].set_index("YEAR")
    spread = frame[MONTHS].max(axis=1) - frame[MONTHS].min(axis=1)
    return {"year": unique_arg(spread)}


@q("correlation", "elnino",
   "Kendall tau between January and July temperatures across the years, @tau[value] 3dp")
def earth_kendall_jan_jul(d: Data) -> dict[str, Any]:
    frame = d["elnino"]
    return {"tau": r(corr(frame["JAN"], frame["JUL"], "kendall"), 3)}


@q("hard", "elnino",
   "Average the twelve months of each year into an annual mean, then tell me how many years have an annual "
   "mean strictly above the mean of those annual means.")
def earth_warm_years(d: Data) -> dict[str, Any]:
    annual = d["elnino"][MONTHS].mean(axis=1)
    assert not np.isclose(annual, annual.mean()).any()
    return {"years": int((annual > annual.mean()).sum())}


@q("derived", "nile",
   "The Nile table has one flow volume per year. How much lower, in percent, was the average flow of 1900-1969 "
   "than the average of 1871-1899? One decimal.")
def earth_nile_drop(d: Data) -> dict[str, Any]:
    frame = d["nile"]
    early = frame.loc[frame["year"].between(1871, 1899), "volume"].mean()
    late = frame.loc[frame["year"].between(1900, 1969), "volume"].mean()
    return {"drop_pct": r((early - late) / early * 100, 1)}


@q("test", "nile",
   "Is the Nile's flow before 1899 (years up to 1898) different from its flow from 1899 onwards? Student's "
   "t-test with pooled variance, earlier minus later. @t[value] 2 dp, @p_value[value].")
def earth_nile_student(d: Data) -> dict[str, Any]:
    frame = d["nile"]
    res = stats.ttest_ind(frame.loc[frame["year"] <= 1898, "volume"], frame.loc[frame["year"] >= 1899, "volume"])
    return {"t": r(res.statistic, 2), "p_value": float(res.pvalue)}


@q("outlier", "nile",
   "nile volume: how many years lie more than 2 standard deviations from the mean (|z| > 2)?")
def earth_nile_z2(d: Data) -> dict[str, Any]:
    return {"years": z_outliers(d["nile"]["volume"], threshold=2.0)}


@q("stat_filter", "sunspots",
   "median yearly sunspot activity in the 19th century (1801 to 1900 inclusive), 1 dp")
def earth_sunspots_19th(d: Data) -> dict[str, Any]:
    frame = d["sunspots"]
    return {"median": r(frame.loc[frame["YEAR"].between(1801, 1900), "SUNACTIVITY"].median(), 1)}


@q("argmax", "sunspots",
   "Group the sunspot years into decades (1700-1709, 1710-1719, and so on; ignore any decade that has fewer "
   "than ten years in the table). Which decade had the lowest mean activity? Give its first year as "
   "@decade_start[value].", checker="exact")
def earth_quietest_decade(d: Data) -> dict[str, Any]:
    frame = d["sunspots"]
    decade = frame["YEAR"] // 10 * 10
    sizes = frame.groupby(decade).size()
    means = frame.groupby(decade)["SUNACTIVITY"].mean()[sizes == 10]
    return {"decade_start": unique_arg(means, largest=False)}


@q("topk", "sunspots", "Three most active sunspot years, most active first.", checker="contains")
def earth_top3_sunspot_years(d: Data) -> dict[str, Any]:
    top = d["sunspots"].sort_values("SUNACTIVITY", ascending=False)
    assert top["SUNACTIVITY"].iloc[2] != top["SUNACTIVITY"].iloc[3]
    years = [str(y) for y in top["YEAR"].iloc[:3]]
    return {"first": years[0], "second": years[1], "third": years[2]}


@q("outlier", "sunspots",
   "Sunspots: using Tukey's fences (1.5 IQR beyond the quartiles, quartiles linearly interpolated), how many "
   "years are flagged as high or low outliers? @outliers[value]")
def earth_sunspot_iqr(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


@q("count_share", "flights",
   "What share of the months in the flights table have a recorded passenger count above 300 thousand? Missing "
   "months count in the denominator as not above. Percentage, one decimal: @pct[value]")
def earth_flights_share_300(d: Data) -> dict[str, Any]:
    passengers = d["flights"]["passengers"]
    assert not (passengers == 300).any()
    return {"pct": r((passengers > 300).sum() / len(passengers) * 100, 1)}


@q("group", "flights",
   "Mean monthly passengers for July and for November across all the years, missing months skipped, one "
   "decimal: give Jul and Nov.")
def earth_flights_jul_nov(d: Data) -> dict[str, Any]:
    frame = d["flights"]
    means = frame.groupby("month")["passengers"].mean()
    return {"Jul": r(means["Jul"], 1), "Nov": r(means["Nov"], 1)}


@q("hard", "flights",
   "Three months have no passenger figure. Fill each gap by straight-line interpolation between its neighbouring "
   "months, then give the total passengers (thousands) for the year 1954 to 1 decimal.")
def earth_flights_1954_filled(d: Data) -> dict[str, Any]:
    frame = d["flights"]
    frame["passengers"] = frame["passengers"].interpolate(method="linear")
    return {"total": r(frame.loc[frame["year"] == 1954, "passengers"].sum(), 1)}


@q("stat_filter", "flights",
   "Average number of passengers in the summer months (June, July, August) of 1958-60, in thousands, "
   "rounded to the nearest whole number. A month with no figure is skipped, not counted as zero.")
def earth_flights_summer(d: Data) -> dict[str, Any]:
    frame = d["flights"]
    chosen = frame[frame["year"].between(1958, 1960) & frame["month"].isin(["Jun", "Jul", "Aug"])]
    assert chosen["passengers"].isna().sum() == 1
    return {"mean": int(round(chosen["passengers"].mean()))}


@q("test", "sunspots",
   "Shapiro-Wilk normality test on the yearly sunspot activity: W to 4 decimals, p-value, and is normality "
   "rejected at the 5% level? @W[value] @p_value[value] @rejected[yes/no]")
def earth_shapiro_sunspots(d: Data) -> dict[str, Any]:
    res = stats.shapiro(d["sunspots"]["SUNACTIVITY"])
    return {"W": r(res.statistic, 4), "p_value": float(res.pvalue), "rejected": rejected(float(res.pvalue), 0.05)}


@q("multi_stat", "nile",
   "nile: min, max and the range of the annual flow volume over 1871-1970, @min[value] @max[value] @range[value]")
def earth_nile_min_max(d: Data) -> dict[str, Any]:
    vol = d["nile"]["volume"]
    return {"min": float(vol.min()), "max": float(vol.max()), "range": float(vol.max() - vol.min())}
