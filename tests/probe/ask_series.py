"""Probe questions about series over time: airline passengers (flights), the Nile's flow (nile), sunspots,
weekly CO2 at Mauna Loa (co2) and monthly sea temperatures of El Nino (elnino)."""

from __future__ import annotations

from typing import Any

from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import iqr_outliers, ols, r, shapiro, ttest, unique_arg
from tests.probe.registry import q, rejected

MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

# --- flights: monthly airline passengers in thousands, 1949-1960; three months were not recorded ---------------


@q("stat_filter", "flights", """One month of 1950 was not recorded. Adding up only the months that were, how many
   passengers (in thousands) flew in 1950?""")
def flights_total_1950_recorded_months(d: Data) -> dict[str, Any]:
    f = d["flights"].query("year == 1950")
    assert f["passengers"].isna().sum() == 1
    return {"value": float(f["passengers"].sum())}


@q("argmax", "flights", """Which month of 1955 had the most airline passengers? Answer with the month's
   three-letter abbreviation as in the data.""", checker="exact")
def flights_busiest_month_1955(d: Data) -> dict[str, Any]:
    f = d["flights"].query("year == 1955").set_index("month")
    return {"month": unique_arg(f["passengers"])}


@q("hard", "flights", """By how much did July traffic grow from 1959 to 1960? Give the percentage change in
   passengers, July 1960 over July 1959, as @growth_pct[value] rounded to two decimals.""")
def flights_july_growth_1960(d: Data) -> dict[str, Any]:
    f = d["flights"].query("month == 'Jul'").set_index("year")["passengers"]
    return {"growth_pct": r(100 * (f[1960] / f[1959] - 1), 2)}


@q("count_share", "flights", """In how many of the recorded months did the airline carry more than 400 thousand
   passengers (the passengers column is in thousands)?""")
def flights_months_over_four_hundred(d: Data) -> dict[str, Any]:
    p = d["flights"]["passengers"]
    assert not (p == 400).any()
    return {"value": int((p > 400).sum())}


@q("hard", "flights", """Fill each missing month by linear interpolation between the months on either side of it,
   then give the mean monthly passenger count over the whole table, rounded to two decimals.""")
def flights_mean_after_interpolation(d: Data) -> dict[str, Any]:
    p = d["flights"]["passengers"]
    assert p.iloc[0] == p.iloc[0] and p.iloc[-1] == p.iloc[-1]
    return {"value": r(p.interpolate(method="linear").mean(), 2)}


@q("group", "flights", """What was the average number of passengers per month in 1949, 1954 and 1960? Months
   without a figure are left out of the average. Reply @y1949[value], @y1954[value] and @y1960[value], two
   decimals.""")
def flights_monthly_mean_three_years(d: Data) -> dict[str, Any]:
    means = d["flights"].groupby("year")["passengers"].mean()
    return {f"y{y}": r(means[y], 2) for y in (1949, 1954, 1960)}


@q("regression", "flights", """Fit a straight-line trend to the yearly passenger totals: regress each year's total
   (sum of its recorded months) on the year, OLS with an intercept. What is the slope, in thousands of passengers
   per year? Two decimals.""")
def flights_trend_of_yearly_totals(d: Data) -> dict[str, Any]:
    totals = d["flights"].groupby("year")["passengers"].sum()
    return {"value": r(ols(totals, totals.index.to_series())["slope"], 2)}


# --- nile: annual flow of the Nile at Aswan, 1871-1970 -----------------------------------------------------------


@q("test", "nile", """The Aswan dam works began in 1898. Compare the Nile's annual flow for the years up to and
   including 1898 with the years after it, using Welch's t-test (earlier period minus later). Give the t
   statistic as @t[value], to two decimals.""")
def nile_welch_before_after_1898(d: Data) -> dict[str, Any]:
    n = d["nile"]
    t, _ = ttest(n[n["year"] <= 1898]["volume"], n[n["year"] > 1898]["volume"], equal_var=False)
    return {"t": r(t, 2)}


@q("count_share", "nile", """In how many years was the Nile's flow lower than in the year before? The first year
   has no year before it.""")
def nile_years_lower_than_previous(d: Data) -> dict[str, Any]:
    return {"value": int((d["nile"]["volume"].diff() < 0).sum())}


@q("multi_stat", "nile", """Give the lower and upper quartiles of the Nile's annual flow, with linear
   interpolation, as @q1[value] and @q3[value], and the mean as @mean[value] to two decimals.""")
def nile_quartiles_and_mean(d: Data) -> dict[str, Any]:
    v = d["nile"]["volume"]
    return {"q1": r(v.quantile(0.25), 2), "q3": r(v.quantile(0.75), 2), "mean": r(v.mean(), 2)}


@q("test", "nile", """Does the Nile's annual flow look normally distributed? Run a Shapiro-Wilk test on all years
   and answer @normal_rejected[yes or no] at the 0.05 level, with the W statistic as @W[value] (four
   decimals).""")
def nile_shapiro(d: Data) -> dict[str, Any]:
    w, p = shapiro(d["nile"]["volume"])
    return {"normal_rejected": rejected(p, 0.05), "W": r(w, 4)}


# --- sunspots: yearly sunspot activity, 1700-2008 ---------------------------------------------------------------


@q("stat_filter", "sunspots", """What was the median yearly sunspot activity in the twentieth century, taken as
   the years 1901 to 2000 inclusive?""")
def sunspots_median_twentieth_century(d: Data) -> dict[str, Any]:
    s = d["sunspots"]
    return {"value": r(s[s["YEAR"].between(1901, 2000)]["SUNACTIVITY"].median(), 2)}


@q("hard", "sunspots", """Group the years into decades (1700-1709, 1710-1719, and so on) and keep only complete
   decades of ten years. Which decade had the highest total sunspot activity? Give the decade's first year as
   @decade[value].""")
def sunspots_most_active_decade(d: Data) -> dict[str, Any]:
    s = d["sunspots"]
    s["decade"] = s["YEAR"] // 10 * 10
    full = s.groupby("decade").filter(lambda g: len(g) == 10)
    return {"decade": int(unique_arg(full.groupby("decade")["SUNACTIVITY"].sum()))}


@q("outlier", "sunspots", """How many years are outliers in sunspot activity by the 1.5 x IQR rule (quartiles by
   linear interpolation)? Reply @outliers[value].""")
def sunspots_iqr_outliers(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


@q("argmax", "sunspots", """Which year of the nineteenth century (1801-1900) was the quietest, with the lowest
   sunspot activity? If several years tie, give the earliest. Answer @year[value].""")
def sunspots_quietest_year_nineteenth_century(d: Data) -> dict[str, Any]:
    s = d["sunspots"].query("1801 <= YEAR <= 1900")
    lowest = s[s["SUNACTIVITY"] == s["SUNACTIVITY"].min()]
    return {"year": int(lowest["YEAR"].min())}


# --- co2: weekly CO2 concentration (ppm) at Mauna Loa, 1958-2001, with weeks missing ----------------------------


@q("count_share", "co2", """How many weeks in the CO2 record have no measurement? Answer @missing_weeks[value].""")
def co2_weeks_without_reading(d: Data) -> dict[str, Any]:
    return {"missing_weeks": int(d["co2"]["co2"].isna().sum())}


@q("stat_filter", "co2", """What was the mean CO2 concentration over the weeks of 1990 that have a reading? Two
   decimals.""")
def co2_mean_1990(d: Data) -> dict[str, Any]:
    c = d["co2"]
    return {"value": r(c[c["date"].str.startswith("1990")]["co2"].mean(), 2)}


@q("hard", "co2", """Average the weekly readings within each calendar year (skipping missing weeks) and leave out
   1958, whose record starts in March. From one year to the next, which year saw the largest rise in its yearly
   average? Answer @year[value] and the rise as @rise[value] in ppm, three decimals.""")
def co2_year_largest_annual_rise(d: Data) -> dict[str, Any]:
    c = d["co2"]
    c["year"] = c["date"].str[:4].astype(int)
    yearly = c[c["year"] > 1958].groupby("year")["co2"].mean()
    rise = yearly.diff().dropna()
    year = int(unique_arg(rise))
    return {"year": year, "rise": r(rise[year], 3)}


@q("stat", "co2", """What is the highest weekly CO2 reading in the whole record?""")
def co2_highest_reading(d: Data) -> dict[str, Any]:
    return {"value": float(d["co2"]["co2"].max())}


# --- elnino: monthly sea surface temperatures, one row per year, one column per month -----------------------------


@q("argmax", "elnino", """Average the twelve monthly sea surface temperatures of each year. Which year was
   warmest on that yearly average?""")
def elnino_warmest_year(d: Data) -> dict[str, Any]:
    e = d["elnino"].set_index("YEAR")
    return {"value": int(unique_arg(e[list(MONTHS)].mean(axis=1)))}


@q("argmax", "elnino", """Across all years, which calendar month is coolest on average? Answer with the month's
   column name.""", checker="exact")
def elnino_coolest_month(d: Data) -> dict[str, Any]:
    return {"month": unique_arg(d["elnino"][list(MONTHS)].mean(), largest=False)}


@q("stat", "elnino", """How much do December sea temperatures vary from year to year? Give the sample standard
   deviation (ddof=1) of the December column as @sd_dec[value], three decimals.""")
def elnino_december_sd(d: Data) -> dict[str, Any]:
    return {"sd_dec": r(d["elnino"]["DEC"].std(ddof=1), 3)}


@q("test", "elnino", """Were Januaries warmer than the following Julys? For each year compare its JAN and JUL
   temperatures with a paired t-test (JAN minus JUL). Give @t[value] to two decimals and @warmer[yes or no]: is
   the difference significant at the 1% level with JAN the warmer month?""")
def elnino_paired_jan_jul(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    result = stats.ttest_rel(e["JAN"], e["JUL"])
    verdict = rejected(float(result.pvalue), 0.01) == "yes" and float(result.statistic) > 0
    return {"t": r(result.statistic, 2), "warmer": "yes" if verdict else "no"}
