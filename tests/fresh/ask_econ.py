"""Fresh questions on economic tables: macrodata, longley, grunfeld, engel, statecrime."""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm

from tests.fresh.registry import q, rejected
from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, ttest, unique_arg


def _fit(frame: pd.DataFrame, y: str, xs: list[str]) -> sm.regression.linear_model.RegressionResultsWrapper:
    frame = frame[[y, *xs]].dropna()
    return sm.OLS(frame[y], sm.add_constant(frame[xs])).fit()


# --- macrodata: US quarterly macro series, 1959Q1-2009Q3 ---

@q("stat", "macrodata", "What was the average unemployment rate (unemp) over all the quarters in this table? "
   "Round to 2 decimal places.")
def macro_mean_unemp(d: Data) -> dict:
    return {"mean_unemp": r(d["macrodata"]["unemp"].mean(), 2)}


@q("stat_filter", "macrodata", "Looking only at the 1970s (years 1970 through 1979, all quarters), what was the "
   "median 3-month Treasury bill rate? Answer as @median_tbill[value].")
def macro_median_tbill_70s(d: Data) -> dict:
    m = d["macrodata"]
    return {"median_tbill": m.loc[m["year"].between(1970, 1979), "tbilrate"].median()}


@q("stat_filter", "macrodata", "mean infl in quarters where unemp >= 7, 3 decimals")
def macro_infl_high_unemp(d: Data) -> dict:
    m = d["macrodata"]
    return {"mean_infl": r(m.loc[m["unemp"] >= 7, "infl"].mean(), 3)}


@q("multi_stat", "macrodata", "I need a quick summary of real private investment (realinv): its minimum, its "
   "maximum and its sample standard deviation (ddof=1). Report them as @min_inv[value], @max_inv[value] and "
   "@std_inv[value], the standard deviation rounded to 2 decimals.")
def macro_realinv_summary(d: Data) -> dict:
    v = d["macrodata"]["realinv"]
    return {"min_inv": v.min(), "max_inv": v.max(), "std_inv": r(v.std(ddof=1), 2)}


@q("correlation", "macrodata", "Is there a Phillips-curve pattern in these quarters? Compute the Spearman rank "
   "correlation between the unemployment rate and the inflation rate, to 3 decimal places.")
def macro_spearman_unemp_infl(d: Data) -> dict:
    m = d["macrodata"]
    return {"spearman": r(corr(m["unemp"], m["infl"], "spearman"), 3)}


@q("regression", "macrodata", "Fit an ordinary least squares regression of real consumption (realcons) on real "
   "disposable income (realdpi) and the T-bill rate (tbilrate), with an intercept. Give the coefficient on "
   "realdpi as @coef_dpi[value] (4 decimals) and the R-squared as @r_squared[value] (4 decimals).")
def macro_ols_cons_dpi_tbill(d: Data) -> dict:
    fit = _fit(d["macrodata"], "realcons", ["realdpi", "tbilrate"])
    return {"coef_dpi": r(fit.params["realdpi"], 4), "r_squared": r(fit.rsquared, 4)}


@q("derived", "macrodata", "Consumption's share of output: divide realcons by realgdp for every quarter and "
   "average that ratio over all quarters. Express the result as a percentage with 2 decimals.")
def macro_cons_share(d: Data) -> dict:
    m = d["macrodata"]
    return {"cons_share_pct": r((m["realcons"] / m["realgdp"]).mean() * 100, 2)}


@q("derived", "macrodata", "What was real GDP per head in the first quarter of 2000, computed as realgdp divided "
   "by pop (no unit conversion)? @gdp_per_head[value], 3 decimals.")
def macro_gdp_per_head_2000(d: Data) -> dict:
    m = d["macrodata"]
    row = m[(m["year"] == 2000) & (m["quarter"] == 1)]
    assert len(row) == 1
    return {"gdp_per_head": r((row["realgdp"] / row["pop"]).iloc[0], 3)}


@q("hard", "macrodata", "The financial crisis: by what percentage did real GDP change from the fourth quarter "
   "of 2007 to the fourth quarter of 2008? Give the percent change (negative if it fell), 2 decimals.")
def macro_gdp_change_crisis(d: Data) -> dict:
    m = d["macrodata"].set_index(["year", "quarter"])["realgdp"]
    return {"pct_change": r((m[(2008, 4)] / m[(2007, 4)] - 1) * 100, 2)}


@q("argmax", "macrodata", "Which calendar year had the highest T-bill rate on average, averaging its "
   "quarters?", checker="exact")
def macro_year_max_tbill(d: Data) -> dict:
    m = d["macrodata"]
    return {"year": unique_arg(m.groupby("year")["tbilrate"].mean())}


@q("count_share", "macrodata", "In what percentage of quarters was the real interest rate (realint) below zero? "
   "One decimal place, please.")
def macro_share_negative_realint(d: Data) -> dict:
    m = d["macrodata"]
    return {"pct_negative": r((m["realint"] < 0).mean() * 100, 1)}


@q("hard", "macrodata", "Take a rolling 4-quarter mean of inflation (infl), where each value averages a quarter "
   "and the three before it (the first three quarters have no value). What is the highest rolling mean? "
   "Answer as @max_rolling_infl[value], 2 decimals.")
def macro_max_rolling_infl(d: Data) -> dict:
    m = d["macrodata"]
    return {"max_rolling_infl": r(m["infl"].rolling(4).mean().max(), 2)}


@q("outlier", "macrodata", "Using the 1.5*IQR rule (quartiles by linear interpolation), how many quarters have an "
   "outlying inflation rate?")
def macro_iqr_infl(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["macrodata"]["infl"])}


@q("test", "macrodata", "Compare unemployment before 1980 (1959-1979) with 1980 onward using Welch's t-test. "
   "Report the t statistic for the earlier period minus the later one as @t_stat[value] (2 decimals).")
def macro_welch_unemp_1980(d: Data) -> dict:
    m = d["macrodata"]
    t, _ = ttest(m.loc[m["year"] < 1980, "unemp"], m.loc[m["year"] >= 1980, "unemp"], equal_var=False)
    return {"t_stat": r(t, 2)}


@q("hard", "macrodata", "Compute quarter-over-quarter growth of real GDP. In how many quarters did real GDP fall "
   "compared with the quarter before?")
def macro_quarters_gdp_fell(d: Data) -> dict:
    m = d["macrodata"]
    return {"falls": int((m["realgdp"].diff() < 0).sum())}


# --- longley: US employment, 1947-1962 ---

@q("regression", "longley", "Regress total employment (TOTEMP) on GNP with a constant. I want the slope as "
   "@slope[value] (5 decimals) and the intercept as @intercept[value] (1 decimal).")
def longley_totemp_on_gnp(d: Data) -> dict:
    fit = ols(d["longley"]["TOTEMP"], d["longley"]["GNP"])
    return {"slope": r(fit["slope"], 5), "intercept": r(fit["intercept"], 1)}


@q("correlation", "longley", "pearson r between GNP and POP? 4 dp")
def longley_pearson_gnp_pop(d: Data) -> dict:
    lo = d["longley"]
    return {"pearson": r(corr(lo["GNP"], lo["POP"], "pearson"), 4)}


@q("hard", "longley", "Which year saw the biggest increase in total employment over the previous "
   "year?", checker="exact")
def longley_year_max_emp_gain(d: Data) -> dict:
    lo = d["longley"].set_index("YEAR")
    return {"year": unique_arg(lo["TOTEMP"].diff().dropna())}


@q("stat", "longley", "What is the mean size of the armed forces across the years in the table? Give one "
   "decimal.")
def longley_mean_armed(d: Data) -> dict:
    return {"mean_armed": r(d["longley"]["ARMED"].mean(), 1)}


@q("derived", "longley", "Armed forces relative to population: compute ARMED / POP * 100 for each year and "
   "report the average of that percentage over all years as @armed_pct[value], rounded to 3 decimals.")
def longley_armed_share(d: Data) -> dict:
    lo = d["longley"]
    return {"armed_pct": r((lo["ARMED"] / lo["POP"] * 100).mean(), 3)}


# --- grunfeld: investment of 11 US firms, 1935-1954 ---

@q("group", "grunfeld", "For General Motors, US Steel and Chrysler, what was the average annual gross "
   "investment (invest) over 1935-1954? Round each to 1 decimal.")
def grunfeld_mean_invest_three(d: Data) -> dict:
    g = d["grunfeld"].groupby("firm")["invest"].mean()
    return {firm: r(g[firm], 1) for firm in ("General Motors", "US Steel", "Chrysler")}


@q("argmax", "grunfeld", "Among the firms, which one has the smallest total investment summed over all years? "
   "Write the firm's name exactly as in the table.", checker="exact")
def grunfeld_firm_min_total_invest(d: Data) -> dict:
    return {"firm": unique_arg(d["grunfeld"].groupby("firm")["invest"].sum(), largest=False)}


@q("topk", "grunfeld", "List the three firms with the highest average market value (value) across the 20 years.",
   checker="contains")
def grunfeld_top3_value(d: Data) -> dict:
    means = d["grunfeld"].groupby("firm")["value"].mean().sort_values(ascending=False)
    assert means.iloc[2] > means.iloc[3]
    return {f"firm{i + 1}": name for i, name in enumerate(means.index[:3])}


@q("hard", "grunfeld", "First work out each firm's mean investment over the whole period; then tell me the "
   "median of those firm means. @median_of_means[value], 2 decimals.")
def grunfeld_median_firm_means(d: Data) -> dict:
    return {"median_of_means": r(d["grunfeld"].groupby("firm")["invest"].mean().median(), 2)}


@q("stat_filter", "grunfeld", "General Electric's mean yearly investment during the 1940s (1940 to 1949 "
   "inclusive), to 2 decimals?")
def grunfeld_ge_1940s(d: Data) -> dict:
    g = d["grunfeld"]
    sel = (g["firm"] == "General Electric") & g["year"].between(1940, 1949)
    assert sel.sum() == 10
    return {"mean_invest": r(g.loc[sel, "invest"].mean(), 2)}


@q("test", "grunfeld", "Does mean investment differ between firms? Run a one-way ANOVA of invest across firms "
   "and give the F statistic as @f_stat[value] (2 decimals) and whether it is significant at alpha = 0.01 as "
   "@significant[yes or no].")
def grunfeld_anova_invest(d: Data) -> dict:
    from tests.heldout.stats import anova

    f, p = anova(d["grunfeld"], "invest", "firm")
    return {"f_stat": r(f, 2), "significant": rejected(p, 0.01)}


@q("derived", "grunfeld", "For General Motors only, compute investment divided by capital stock for each year. "
   "What's the median of that ratio? 3 decimals.")
def grunfeld_gm_invest_capital(d: Data) -> dict:
    g = d["grunfeld"]
    gm = g[g["firm"] == "General Motors"]
    return {"median_ratio": r((gm["invest"] / gm["capital"]).median(), 3)}


@q("hard", "grunfeld", "What was Westinghouse's cumulative investment from 1935 up to and including 1945?")
def grunfeld_westinghouse_cumulative(d: Data) -> dict:
    g = d["grunfeld"]
    w = g[(g["firm"] == "Westinghouse")].sort_values("year")
    cum = w.set_index("year")["invest"].cumsum()
    return {"cumulative": r(cum[1945], 2)}


@q("regression", "grunfeld", "Pooling all firms and years, estimate invest = b0 + b1*value + b2*capital by OLS. "
   "Report b1 as @b_value[value] and b2 as @b_capital[value], each to 4 decimals.")
def grunfeld_pooled_ols(d: Data) -> dict:
    fit = _fit(d["grunfeld"], "invest", ["value", "capital"])
    return {"b_value": r(fit.params["value"], 4), "b_capital": r(fit.params["capital"], 4)}


@q("hard", "grunfeld", "Add up investment across all firms for each year. Which year had the largest increase "
   "in that total compared with the year before (in absolute terms, not percent)?", checker="exact")
def grunfeld_year_max_total_gain(d: Data) -> dict:
    total = d["grunfeld"].groupby("year")["invest"].sum()
    return {"year": unique_arg(total.diff().dropna())}


# --- engel: household income and food expenditure ---

@q("derived", "engel", "Food budget share: foodexp / income per household. Mean share as a fraction (not a "
   "percentage), 4 decimals.")
def engel_food_share(d: Data) -> dict:
    e = d["engel"]
    return {"mean_share": r((e["foodexp"] / e["income"]).mean(), 4)}


@q("regression", "engel", "Estimate the income elasticity of food spending: regress the natural log of foodexp "
   "on the natural log of income (OLS with intercept) and give the slope, 4 decimals, as @elasticity[value].")
def engel_log_log_slope(d: Data) -> dict:
    e = d["engel"]
    return {"elasticity": r(ols(np.log(e["foodexp"]), np.log(e["income"]))["slope"], 4)}


@q("outlier", "engel", "how many households have an income more than three standard deviations away from "
   "the mean income (absolute z-score above three)?")
def engel_z_income(d: Data) -> dict:
    from tests.heldout.stats import z_outliers

    return {"outliers": z_outliers(d["engel"]["income"])}


@q("stat", "engel", "Median household income in the Engel data, rounded to two decimals.")
def engel_median_income(d: Data) -> dict:
    return {"median_income": r(d["engel"]["income"].median(), 2)}


# --- statecrime: US states (and DC), crime and demographics ---

@q("argmax", "statecrime", "Which state has the lowest share of high-school graduates? Give the name as it "
   "appears in the state column (without trailing spaces).", checker="exact")
def statecrime_min_hs_grad(d: Data) -> dict:
    s = d["statecrime"]
    return {"state": unique_arg(s.set_index(s["state"].str.strip())["hs_grad"], largest=False)}


@q("topk", "statecrime", "Top three by murder rate: which rows are they? Give the names as written in the state "
   "column.", checker="contains")
def statecrime_top3_murder(d: Data) -> dict:
    s = d["statecrime"].assign(state=lambda f: f["state"].str.strip()).sort_values("murder", ascending=False)
    assert s["murder"].iloc[2] > s["murder"].iloc[3]
    return {f"state{i + 1}": name for i, name in enumerate(s["state"].iloc[:3])}


@q("stat_filter", "statecrime", "Among the rows (the states and DC) with a poverty rate of at least 15 percent, "
   "what is the average violent crime rate? @mean_violent[value] with 1 decimal.")
def statecrime_violent_high_poverty(d: Data) -> dict:
    s = d["statecrime"]
    return {"mean_violent": r(s.loc[s["poverty"] >= 15, "violent"].mean(), 1)}


@q("correlation", "statecrime", "Kendall's tau (tau-b) between the poverty rate and the share of single-parent "
   "households across the rows of this table: 3 decimals.")
def statecrime_kendall_poverty_single(d: Data) -> dict:
    s = d["statecrime"]
    return {"kendall": r(corr(s["poverty"], s["single"], "kendall"), 3)}


@q("count_share", "statecrime", "Count the rows (states plus DC) whose urban percentage is greater than 70.")
def statecrime_count_urban(d: Data) -> dict:
    return {"count": int((d["statecrime"]["urban"] > 70).sum())}


@q("hard", "statecrime", "Rank the rows by violent crime rate, highest first (rank 1 = most violent). What rank "
   "does Texas get?")
def statecrime_rank_texas(d: Data) -> dict:
    frame = d["statecrime"]
    s = frame.set_index(frame["state"].str.strip())["violent"]
    assert s[s >= s["Texas"]].is_unique, "a tie at or above Texas makes the rank depend on the tie rule"
    return {"rank": int(s.rank(ascending=False)["Texas"])}


@q("stat_filter", "statecrime", "Excluding the District of Columbia, what's the mean murder rate of the 50 "
   "states? 2 decimals.")
def statecrime_murder_no_dc(d: Data) -> dict:
    s = d["statecrime"]
    sel = s["state"].str.strip() != "District of Columbia"
    assert sel.sum() == 50
    return {"mean_murder": r(s.loc[sel, "murder"].mean(), 2)}


@q("regression", "statecrime", "Multiple regression: murder on poverty and single (OLS, intercept included). "
   "What's the R-squared? Give @r2[value] to 4 decimal places.")
def statecrime_ols_murder_r2(d: Data) -> dict:
    return {"r2": r(_fit(d["statecrime"], "murder", ["poverty", "single"]).rsquared, 4)}


@q("outlier", "statecrime", "Using the IQR method (beyond 1.5 IQR from the quartiles, quartiles linearly "
   "interpolated), how many rows are outliers in the violent crime rate?")
def statecrime_iqr_violent(d: Data) -> dict:
    return {"outliers": iqr_outliers(d["statecrime"]["violent"])}


@q("hard", "statecrime", "Take the 10 rows with the highest murder rates. How much higher is their mean poverty "
   "rate than the mean poverty rate of all the other rows? Answer in percentage points as "
   "@poverty_gap[value], 2 decimals.")
def statecrime_poverty_gap_top10(d: Data) -> dict:
    s = d["statecrime"].sort_values("murder", ascending=False)
    assert s["murder"].iloc[9] > s["murder"].iloc[10]
    return {"poverty_gap": r(s["poverty"].iloc[:10].mean() - s["poverty"].iloc[10:].mean(), 2)}


@q("multi_stat", "macrodata", "Real government spending (realgovt): what are its mean and its median over all "
   "quarters? Round both to 1 decimal and answer as @mean_govt[value] and @median_govt[value].")
def macro_realgovt_mean_median(d: Data) -> dict:
    v = d["macrodata"]["realgovt"]
    return {"mean_govt": r(v.mean(), 1), "median_govt": r(v.median(), 1)}


@q("topk", "statecrime", "Which three rows of the state table have the lowest poverty rates? Names only, as "
   "written in the state column, please.", checker="contains")
def statecrime_bottom3_poverty(d: Data) -> dict:
    s = d["statecrime"].assign(state=lambda f: f["state"].str.strip()).sort_values("poverty")
    assert s["poverty"].iloc[2] < s["poverty"].iloc[3]
    return {f"state{i + 1}": name for i, name in enumerate(s["state"].iloc[:3])}


@q("topk", "grunfeld", "Name the two firms whose average capital stock over 1935-1954 is the smallest.",
   checker="contains")
def grunfeld_bottom2_capital(d: Data) -> dict:
    means = d["grunfeld"].groupby("firm")["capital"].mean().sort_values()
    assert means.iloc[1] < means.iloc[2]
    return {f"firm{i + 1}": name for i, name in enumerate(means.index[:2])}


@q("group", "grunfeld", "How volatile is each firm's investment? Give the sample standard deviation (ddof=1) of "
   "invest for IBM and for Goodyear, 2 decimals each.")
def grunfeld_std_invest_two(d: Data) -> dict:
    g = d["grunfeld"].groupby("firm")["invest"].std(ddof=1)
    return {"IBM": r(g["IBM"], 2), "Goodyear": r(g["Goodyear"], 2)}


@q("hard", "macrodata", "Average the consumer price index (cpi) over the quarters of each year. Using those "
   "annual averages, what was the percent increase from 1979 to 1980? Two decimals.")
def macro_cpi_yoy_1980(d: Data) -> dict:
    yearly = d["macrodata"].groupby("year")["cpi"].mean()
    return {"pct_increase": r((yearly[1980] / yearly[1979] - 1) * 100, 2)}
