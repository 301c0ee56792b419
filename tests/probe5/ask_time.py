"""Probe5 questions on the time-series and plant tables (flights, co2, nile, sunspots, elnino, stackloss)."""

from __future__ import annotations

from typing import Any

import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, shapiro, unique_arg, z_outliers
from tests.probe5.registry import q, rejected


@q("stat_filter", "flights", """total no. of passengers (in thousands) in 1954, summing the months that are on record
   (a missing month counts as nothing)""")
def p5_flights_total_1954(d: Data) -> dict[str, Any]:
    f = d["flights"].query("year == 1954")
    return {"total": float(f["passengers"].sum())}


@q("argmax", "flights", """which calendar month (Jan..Dec) has the highest avg passengers over all yrs? answer
   with the 3-letter month name: @month[Mon]""", checker="exact")
def p5_flights_argmax_month(d: Data) -> dict[str, Any]:
    return {"month": unique_arg(d["flights"].groupby("month")["passengers"].mean())}


@q("hard", "flights", """by what % did the average monthly passenger count grow from 1958 to 1959? use the mean of the
   months on record in each yr (1959 over 1958, minus 1, times 100); 2 decimals""")
def p5_flights_hard_growth(d: Data) -> dict[str, Any]:
    a = d["flights"].groupby("year")["passengers"].mean()
    return {"growth_pct": r(100 * (a[1959] / a[1958] - 1), 2)}


@q("count_share", "flights", """@count[value]: no. of months with at least 400 thousand passengers
   (400 itself counts)""")
def p5_flights_count_400(d: Data) -> dict[str, Any]:
    return {"count": int((d["flights"]["passengers"] >= 400).sum())}


@q("topk", "flights", """In the 1950s (1950-1959), excluding July and August, the 3 busiest months by passengers:
   @first[YYYY-MM] @second[YYYY-MM] @third[YYYY-MM]""", checker="exact")
def p5_flights_top3_no_summer(d: Data) -> dict[str, Any]:
    f = d["flights"]
    f = f[(f["year"] >= 1950) & (f["year"] <= 1959) & ~f["month"].isin(["Jul", "Aug"])].dropna()
    s = f.sort_values("passengers", ascending=False)
    assert s["passengers"].iloc[2] > s["passengers"].iloc[3]
    return {k: s["date"].iloc[i][:7] for i, k in enumerate(("first", "second", "third"))}


@q("stat_filter", "co2", """avg co2 concentration during 1970 -- weekly readings, skipping the ones that are blank;
   2 dp""")
def p5_co2_mean_1970(d: Data) -> dict[str, Any]:
    c = d["co2"]
    return {"mean": r(c[c["date"].str.startswith("1970")]["co2"].mean(), 2)}


@q("multi_stat", "co2", """co2 readings in the 1990s (1990 through 1999): @lowest[value] @highest[value] and how many
   weeks are missing a reading @n_missing[value]""")
def p5_co2_multi_90s(d: Data) -> dict[str, Any]:
    c = d["co2"]
    s = c.loc[c["date"].str[:3] == "199", "co2"]
    return {"lowest": float(s.min()), "highest": float(s.max()), "n_missing": int(s.isna().sum())}


@q("hard", "co2", """annual mean co2 for 2000 minus annual mean for 1980 (means of the weekly values present), 2 dp""")
def p5_co2_hard_diff(d: Data) -> dict[str, Any]:
    c = d["co2"]
    yr = c["date"].str[:4].astype(int)
    a = c.groupby(yr)["co2"].mean()
    return {"diff": r(a[2000] - a[1980], 2)}


@q("stat", "nile", """median annual flow volume of the Nile? (whole number)""")
def p5_nile_median(d: Data) -> dict[str, Any]:
    return {"median": int(round(d["nile"]["volume"].median()))}


@q("outlier", "nile", """How many years of Nile volume are more than 2 standard deviations from the mean (|z| > 2,
   population sd, ddof=0)?""")
def p5_nile_z2(d: Data) -> dict[str, Any]:
    return {"count": z_outliers(d["nile"]["volume"], 2.0, ddof=0)}


@q("hard", "nile", """count years where the volume was strictly lower than the previous yr's volume (first year has
   no previous so it doesn't count) => @drops[value]""")
def p5_nile_hard_drops(d: Data) -> dict[str, Any]:
    v = d["nile"].sort_values("year")["volume"]
    return {"drops": int((v.diff() < 0).sum())}


@q("correlation", "nile", """lag-1 autocorrelation of the volume: pearson corr between each year's volume and the
   next year's (99 pairs), 3 dp""")
def p5_nile_lag1(d: Data) -> dict[str, Any]:
    v = d["nile"].sort_values("year")["volume"].reset_index(drop=True)
    return {"r": r(corr(v.iloc[:-1].reset_index(drop=True), v.iloc[1:].reset_index(drop=True), "pearson"), 3)}


@q("argmax", "sunspots", """which yr from 1800 thru 1850 had the max sun activity? @year[value]""")
def p5_sun_argmax_1800s(d: Data) -> dict[str, Any]:
    s = d["sunspots"].query("1800 <= YEAR <= 1850").set_index("YEAR")
    return {"year": int(unique_arg(s["SUNACTIVITY"]))}


@q("derived", "sunspots", """year-to-year change in sunspot activity (this yr minus last yr): the mean absolute value
   of those changes over the whole series, 2dp""")
def p5_sun_mean_abs_change(d: Data) -> dict[str, Any]:
    s = d["sunspots"].sort_values("YEAR")["SUNACTIVITY"]
    return {"mean_abs_change": r(s.diff().abs().mean(), 2)}


@q("topk", "sunspots", """Top 3 years by sunspot activity, but ignoring anything before 1900. Years, in order:
   @first[year] @second[year] @third[year]""")
def p5_sun_top3_after_1900(d: Data) -> dict[str, Any]:
    s = d["sunspots"].query("YEAR >= 1900").sort_values("SUNACTIVITY", ascending=False)
    assert s["SUNACTIVITY"].iloc[2] > s["SUNACTIVITY"].iloc[3]
    return {k: int(s["YEAR"].iloc[i]) for i, k in enumerate(("first", "second", "third"))}


@q("derived", "elnino", """the seasonal swing: per year, AUG minus FEB sea temp. avg of that over all years (2dp) --
   negative if Aug is cooler""")
def p5_elnino_aug_minus_feb(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    return {"mean_swing": r((e["AUG"] - e["FEB"]).mean(), 2)}


@q("argmax", "elnino", """Of the 12 month columns, which one has the lowest mean over the years? answer the column
   name as written (3 capital letters)""", checker="exact")
def p5_elnino_argmin_month(d: Data) -> dict[str, Any]:
    e = d["elnino"].drop(columns="YEAR")
    return {"month": unique_arg(e.mean(), largest=False)}


@q("regression", "elnino", """regress the DEC temperature on the JAN temperature of the same yr (OLS, intercept).
   @slope[value] @intercept[value], 3dp each""")
def p5_elnino_reg_dec_jan(d: Data) -> dict[str, Any]:
    e = d["elnino"]
    o = ols(e["DEC"], e["JAN"])
    return {"slope": r(o["slope"], 3), "intercept": r(o["intercept"], 3)}


@q("regression", "stackloss", """stack loss on air flow, water temp and acid conc (all 3 together, OLS with
   constant): coefficient of water temperature to 4 dp""")
def p5_stack_multi_water(d: Data) -> dict[str, Any]:
    s = d["stackloss"]
    fit = sm.OLS(s["STACKLOSS"], sm.add_constant(s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"watertemp": r(fit.params["WATERTEMP"], 4)}


@q("test", "stackloss", """shapiro-wilk normality test of stack loss. @W[value] (4dp) @normal_at_5pct[yes or no]
   where yes means we do NOT reject normality at the 5% level""")
def p5_stack_shapiro(d: Data) -> dict[str, Any]:
    w, p = shapiro(d["stackloss"]["STACKLOSS"])
    return {"W": r(w, 4), "normal_at_5pct": "yes" if rejected(p, 0.05) == "no" else "no"}


@q("stat", "stackloss", """whats the interquartile range of acid conc? (Q3 - Q1, linear interpolation)""")
def p5_stack_iqr_acid(d: Data) -> dict[str, Any]:
    s = d["stackloss"]["ACIDCONC"]
    return {"iqr": float(s.quantile(0.75) - s.quantile(0.25))}


@q("group", "flights", """avg passengers per yr for the first 3 yrs on file; @y1949[value] @y1950[value]
   @y1951[value] to 1 decimal, each over its recorded months""")
def p5_flights_group_early(d: Data) -> dict[str, Any]:
    a = d["flights"].groupby("year")["passengers"].mean()
    return {f"y{y}": r(a[y], 1) for y in (1949, 1950, 1951)}


@q("correlation", "stackloss", """corr (pearson) between air flow and stack loss, but only runs where acid conc was
   no more than 87 -- 3 dp""")
def p5_stack_corr_lowacid(d: Data) -> dict[str, Any]:
    s = d["stackloss"].query("ACIDCONC <= 87")
    return {"r": r(corr(s["AIRFLOW"], s["STACKLOSS"], "pearson"), 3)}


@q("outlier", "co2", """week-to-week change in co2 (this reading minus the previous row's, only where both are
   present): how many changes are outliers by 1.5xIQR (linear quartiles, strictly outside)?""")
def p5_co2_outlier_changes(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["co2"]["co2"].diff())}


@q("test", "sunspots", """paired t-test, sunspot activity: 1900-1949 vs 1950-1999 matched by position in their
   half-century (1900 with 1950, 1901 with 1951 ...). statistic in the earlier-minus-later direction (2dp), and p
   value to 4 dp: @t[value] @p[value]""")
def p5_sun_paired(d: Data) -> dict[str, Any]:
    s = d["sunspots"].set_index("YEAR")["SUNACTIVITY"]
    a = s.loc[1900:1949].to_numpy()
    b = s.loc[1950:1999].to_numpy()
    res = stats.ttest_rel(a, b)
    return {"t": r(res.statistic, 2), "p": r(res.pvalue, 4)}


@q("group", "sunspots", """group the years by century (1700s = 1700-1799, 1800s, 1900s; ignore 2000 and later),
   mean activity of each -> @c1700s[value] @c1800s[value] @c1900s[value], 2dp""")
def p5_sun_group_century(d: Data) -> dict[str, Any]:
    s = d["sunspots"].query("YEAR < 2000")
    m = s.groupby(s["YEAR"] // 100)["SUNACTIVITY"].mean()
    return {"c1700s": r(m[17], 2), "c1800s": r(m[18], 2), "c1900s": r(m[19], 2)}

