"""Fresh questions on time series and small experiment tables: flights, co2, nile, sunspots, elnino, stackloss."""

from __future__ import annotations

import statsmodels.api as sm
from scipy import stats

from tests.fresh.registry import q, rejected
from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, shapiro, ttest, unique_arg, z_outliers

# --- flights (generated: monthly airline passengers in thousands, 1949-1960, three months missing) ---


@q("stat", "flights", "Total passengers carried in 1955 (sum of the twelve monthly figures)?")
def flights_total_1955(d: Data) -> dict:
    f = d["flights"]
    sel = f["year"] == 1955
    assert f.loc[sel, "passengers"].notna().sum() == 12
    return {"total": f.loc[sel, "passengers"].sum()}


@q("hard", "flights", "Year-over-year growth: by how many percent did the annual passenger total rise from "
   "1959 to 1960? Both years are complete. @growth_pct[value], 2 decimals.")
def flights_growth_1960(d: Data) -> dict:
    f = d["flights"]
    total = f.groupby("year")["passengers"].agg(["sum", "count"])
    assert total.loc[1959, "count"] == total.loc[1960, "count"] == 12
    return {"growth_pct": r((total.loc[1960, "sum"] / total.loc[1959, "sum"] - 1) * 100, 2)}


@q("argmax", "flights", "Averaged over all years (skipping months with no count), which calendar month is the "
   "busiest? Answer with the three-letter month abbreviation used in the month column.", checker="exact")
def flights_busiest_month(d: Data) -> dict:
    return {"month": unique_arg(d["flights"].groupby("month")["passengers"].mean())}


@q("hard", "flights", "What is the 12-month moving average of passengers at December 1960, i.e. the mean of "
   "the twelve months January-December 1960? 2 decimals, as @ma12[value].")
def flights_ma12_dec_1960(d: Data) -> dict:
    f = d["flights"]
    ma = f["passengers"].rolling(12).mean()
    return {"ma12": r(ma[f["date"] == "1960-12-01"].iloc[0], 2)}


@q("stat_filter", "flights", "Mean monthly passengers over the summer months (Jun, Jul, Aug) of 1957 through "
   "1960, skipping any month without a count: 1 decimal.")
def flights_summer_late(d: Data) -> dict:
    f = d["flights"]
    sel = f["month"].isin(["Jun", "Jul", "Aug"]) & f["year"].between(1957, 1960)
    return {"mean": r(f.loc[sel, "passengers"].mean(), 1)}


@q("regression", "flights", "Trend check. Regress monthly passengers on the year column (OLS with intercept, "
   "months with a missing count dropped). What's the slope per year? @slope[value], 3 decimals.")
def flights_trend_slope(d: Data) -> dict:
    f = d["flights"]
    return {"slope": r(ols(f["passengers"], f["year"])["slope"], 3)}


@q("count_share", "flights", "In how many months did passenger numbers exceed 400 (thousand)?")
def flights_months_over_400(d: Data) -> dict:
    return {"count": int((d["flights"]["passengers"] > 400).sum())}


@q("stat", "flights", "How many monthly passenger figures are missing from the flights table? "
   "@n_missing[value]")
def flights_missing(d: Data) -> dict:
    return {"n_missing": int(d["flights"]["passengers"].isna().sum())}


# --- co2: weekly Mauna Loa CO2 (ppm), 1958-2001, some weeks missing ---


@q("stat", "co2", "How many weekly CO2 readings are missing?")
def co2_missing(d: Data) -> dict:
    return {"n_missing": int(d["co2"]["co2"].isna().sum())}


@q("hard", "co2", "Compute the mean CO2 concentration of each calendar year (over the weeks with a reading). By "
   "how many ppm does the 1990 mean exceed the 1980 mean? @increase_ppm[value], 2 decimals.")
def co2_increase_1980_1990(d: Data) -> dict:
    c = d["co2"]
    yearly = c.groupby(c["date"].str[:4].astype(int))["co2"].mean()
    return {"increase_ppm": r(yearly[1990] - yearly[1980], 2)}


@q("stat_filter", "co2", "highest weekly co2 reading during 1975?")
def co2_max_1975(d: Data) -> dict:
    c = d["co2"]
    return {"max": c.loc[c["date"].str.startswith("1975"), "co2"].max()}


@q("argmax", "co2", "Within each full calendar year from 1959 to 2001, take the range of the weekly readings "
   "(max minus min). Which year has the widest range?", checker="exact")
def co2_year_widest_range(d: Data) -> dict:
    c = d["co2"]
    year = c["date"].str[:4].astype(int)
    c = c[year.between(1959, 2001)]
    g = c.groupby(c["date"].str[:4].astype(int))["co2"]
    return {"year": unique_arg(g.max() - g.min())}


# --- nile: annual flow of the Nile at Aswan, 1871-1970 ---


@q("test", "nile", "The Aswan dam story says the flow dropped around 1899. Compare annual volume for 1871-1898 "
   "against 1899-1970 with Welch's t-test: @t_stat[value] (earlier minus later, 2 decimals) and "
   "@significant[yes or no] at alpha 0.05.")
def nile_welch_1899(d: Data) -> dict:
    n = d["nile"]
    t, p = ttest(n.loc[n["year"] <= 1898, "volume"], n.loc[n["year"] >= 1899, "volume"], False)
    return {"t_stat": r(t, 2), "significant": rejected(p, 0.05)}


@q("stat", "nile", "Population standard deviation (ddof = 0) of the Nile's annual volume; round to 2 decimals.")
def nile_pop_std(d: Data) -> dict:
    return {"std": r(d["nile"]["volume"].std(ddof=0), 2)}


@q("hard", "nile", "Smooth the Nile volume with a trailing 10-year rolling mean (each value averages that year "
   "and the nine before). What is the lowest value of the smoothed series? One decimal.")
def nile_min_rolling10(d: Data) -> dict:
    return {"min_rolling": r(d["nile"]["volume"].rolling(10).mean().min(), 1)}


@q("outlier", "nile", "Flag years whose volume has |z| > 2, using the sample standard deviation (ddof=1). "
   "How many years are flagged?")
def nile_z2_count(d: Data) -> dict:
    return {"outliers": z_outliers(d["nile"]["volume"], threshold=2.0, ddof=1)}


# --- sunspots: yearly sunspot activity, 1700-2008 ---


@q("argmax", "sunspots", "In which year was sunspot activity at its highest? @year[value]", checker="exact")
def sunspots_max_year(d: Data) -> dict:
    s = d["sunspots"]
    return {"year": unique_arg(s.set_index("YEAR")["SUNACTIVITY"])}


@q("topk", "sunspots", "List the five years with the greatest sunspot activity.", checker="contains")
def sunspots_top5(d: Data) -> dict:
    s = d["sunspots"].sort_values("SUNACTIVITY", ascending=False)
    assert s["SUNACTIVITY"].iloc[4] > s["SUNACTIVITY"].iloc[5]
    return {f"year{i + 1}": str(y) for i, y in enumerate(s["YEAR"].iloc[:5])}


@q("stat_filter", "sunspots", "Average yearly sunspot activity over the 20th century, counted as the years 1901 "
   "to 2000 inclusive. Give @mean_activity[value] to 2 decimals.")
def sunspots_20th_century(d: Data) -> dict:
    s = d["sunspots"]
    return {"mean_activity": r(s.loc[s["YEAR"].between(1901, 2000), "SUNACTIVITY"].mean(), 2)}


@q("count_share", "sunspots", "Quiet years: how many years recorded sunspot activity below 10?")
def sunspots_quiet_years(d: Data) -> dict:
    return {"count": int((d["sunspots"]["SUNACTIVITY"] < 10).sum())}


@q("hard", "sunspots", "If you rank all years by sunspot activity with the most active year as rank 1, what "
   "rank does 1989 get?")
def sunspots_rank_1989(d: Data) -> dict:
    s = d["sunspots"].set_index("YEAR")["SUNACTIVITY"]
    assert s[s >= s[1989]].is_unique, "a tie at or above 1989 makes the rank depend on the tie rule"
    return {"rank": int(s.rank(ascending=False)[1989])}


@q("outlier", "sunspots", "Apply the 1.5 x IQR fence rule (linear-interpolation quartiles) to yearly sunspot "
   "activity. How many years lie outside the fences? Answer as @outliers[value].")
def sunspots_iqr(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["sunspots"]["SUNACTIVITY"])}


# --- elnino: monthly sea surface temperatures (deg C), one row per year 1950-2010 ---


@q("derived", "elnino", "For each year compute December temperature minus June temperature. What is the "
   "average of that difference across years? 3 decimals.")
def elnino_dec_minus_jun(d: Data) -> dict:
    e = d["elnino"]
    return {"mean_diff": r((e["DEC"] - e["JUN"]).mean(), 3)}


@q("argmax", "elnino", "Which year had the warmest December sea surface temperature?", checker="exact")
def elnino_warmest_dec(d: Data) -> dict:
    e = d["elnino"]
    return {"year": unique_arg(e.set_index("YEAR")["DEC"])}


@q("correlation", "elnino", "Across years, how correlated are January and July temperatures? Pearson "
   "coefficient as @pearson[value], 3 decimals.")
def elnino_pearson_jan_jul(d: Data) -> dict:
    e = d["elnino"]
    return {"pearson": r(corr(e["JAN"], e["JUL"], "pearson"), 3)}


@q("test", "elnino", "Paired t-test of the March temperature against the September temperature of the same "
   "year, over all years. Give the t statistic for March minus September, 2 decimals.")
def elnino_paired_mar_sep(d: Data) -> dict:
    e = d["elnino"]
    return {"t_stat": r(stats.ttest_rel(e["MAR"], e["SEP"]).statistic, 2)}


@q("multi_stat", "elnino", "For the MAR column give me the mean @mean_mar[value] and the sample standard "
   "deviation @std_mar[value] (ddof=1), both 3 decimals.")
def elnino_mar_mean_std(d: Data) -> dict:
    v = d["elnino"]["MAR"]
    return {"mean_mar": r(v.mean(), 3), "std_mar": r(v.std(ddof=1), 3)}


@q("derived", "elnino", "Compute each year's annual mean temperature (mean of its twelve monthly columns). What "
   "is the highest annual mean? 3 decimals.")
def elnino_max_annual_mean(d: Data) -> dict:
    e = d["elnino"]
    months = [c for c in e.columns if c != "YEAR"]
    assert len(months) == 12
    return {"max_annual": r(e[months].mean(axis=1).max(), 3)}


# --- stackloss: ammonia oxidation plant, 21 days ---


@q("regression", "stackloss", "Fit stack loss on air flow, water temperature and acid concentration (all three "
   "together, OLS with intercept). Report the coefficients @airflow[value], @watertemp[value] and "
   "@acidconc[value] to 4 decimals.")
def stackloss_full_ols(d: Data) -> dict:
    s = d["stackloss"]
    fit = sm.OLS(s["STACKLOSS"], sm.add_constant(s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"airflow": r(fit.params["AIRFLOW"], 4), "watertemp": r(fit.params["WATERTEMP"], 4),
            "acidconc": r(fit.params["ACIDCONC"], 4)}


@q("test", "stackloss", "Shapiro-Wilk normality test on STACKLOSS. p-value to 4 decimals as @p_value[value]; "
   "also say @normal[yes or no] (yes if p >= 0.05).")
def stackloss_shapiro(d: Data) -> dict:
    _, p = shapiro(d["stackloss"]["STACKLOSS"])
    return {"p_value": r(p, 4), "normal": ("no" if rejected(p, 0.05) == "yes" else "yes")}


@q("correlation", "stackloss", "Rank correlation please: Spearman between AIRFLOW and STACKLOSS, 3 decimals.")
def stackloss_spearman(d: Data) -> dict:
    s = d["stackloss"]
    return {"spearman": r(corr(s["AIRFLOW"], s["STACKLOSS"], "spearman"), 3)}


@q("stat_filter", "stackloss", "On days when the water temperature was 20 or lower, what was the mean stack "
   "loss? 2 decimals.")
def stackloss_cool_days(d: Data) -> dict:
    s = d["stackloss"]
    return {"mean": r(s.loc[s["WATERTEMP"] <= 20, "STACKLOSS"].mean(), 2)}




@q("hard", "flights", "Month-over-month change: which month had the largest percentage increase in passengers "
   "over the month immediately before it? Skip any pair where either month is missing. Answer with that "
   "month's date exactly as written in the date column.", checker="exact")
def flights_max_mom_increase(d: Data) -> dict:
    f = d["flights"].set_index("date")["passengers"]
    change = (f / f.shift(1) - 1).dropna()
    return {"date": unique_arg(change)}
