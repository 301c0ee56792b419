"""Probe7 questions on the US quarterly macro data, Longley, the Grunfeld firms, the state crime table, Engel's
food budgets and the stack-loss plant."""

from __future__ import annotations

import statsmodels.formula.api as smf
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, unique_arg, z_outliers
from tests.probe7.registry import q, rejected

# ---------------------------------------------------------------- stat


@q("stat", "macrodata", "What was the average unemployment rate (unemp) over the whole sample? 3 dp")
def macro_mean_unemp(d: Data) -> dict:
    return {"mean_unemp": r(d["macrodata"]["unemp"].mean(), 3)}


@q("stat", "statecrime", "Population standard deviation (divide by n, not n-1) of the poverty column across the "
                         "51 rows — @pop_sd[value], 4 decimals.")
def statecrime_pop_sd_poverty(d: Data) -> dict:
    return {"pop_sd": r(d["statecrime"]["poverty"].std(ddof=0), 4)}


@q("stat", "engel", "geometric mean of household income in the Engel data? round to 2 decimals")
def engel_geomean_income(d: Data) -> dict:
    return {"gmean": r(stats.gmean(d["engel"]["income"]), 2)}


# ---------------------------------------------------------------- stat_filter


@q("stat_filter", "macrodata", "Median realint for the quarters from 1980 through 1989 (both years in), leaving "
                               "every first quarter out. 3 decimals.")
def macro_median_realint_80s_no_q1(d: Data) -> dict:
    m = d["macrodata"]
    sub = m[m["year"].between(1980, 1989) & (m["quarter"] != 1)]
    return {"median_realint": r(sub["realint"].median(), 3)}


@q("stat_filter", "grunfeld", "Mean invest of the firms other than General Motors and IBM, in years after 1945 "
                              "(1945 excluded), 2 dp")
def grunfeld_mean_invest_excl(d: Data) -> dict:
    g = d["grunfeld"]
    sub = g[~g["firm"].isin(["General Motors", "IBM"]) & (g["year"] > 1945)]
    return {"mean_invest": r(sub["invest"].mean(), 2)}


@q("stat_filter", "statecrime", "max murder rate among states where urban is below 50 and hs_grad is at least 85?")
def statecrime_max_murder_rural_grad(d: Data) -> dict:
    s = d["statecrime"]
    return {"max_murder": float(s.loc[(s["urban"] < 50) & (s["hs_grad"] >= 85), "murder"].max())}


# ---------------------------------------------------------------- multi_stat


@q("multi_stat", "longley", "Longley table: minimum, maximum and median of UNEMP. Slots: @min_unemp[value] "
                            "@max_unemp[value] @median_unemp[value]")
def longley_unemp_summary(d: Data) -> dict:
    u = d["longley"]["UNEMP"]
    return {"min_unemp": float(u.min()), "max_unemp": float(u.max()), "median_unemp": float(u.median())}


@q("multi_stat", "stackloss", "for STACKLOSS, need the mean, the sample variance (ddof 1) and the 90th percentile "
                              "(linear interp.), 3 dp each: @mean_sl[value], @var_sl[value], @p90_sl[value]")
def stackloss_summary(d: Data) -> dict:
    s = d["stackloss"]["STACKLOSS"]
    return {"mean_sl": r(s.mean(), 3), "var_sl": r(s.var(ddof=1), 3), "p90_sl": r(s.quantile(0.9), 3)}


# ---------------------------------------------------------------- correlation


@q("correlation", "statecrime", "Spearman correlation between 'single' and 'violent' across states, excluding "
                                "the District of Columbia. 3 d.p.")
def statecrime_spearman_single_violent(d: Data) -> dict:
    s = d["statecrime"].query("state != 'District of Columbia'")
    return {"rho": r(corr(s["single"], s["violent"], "spearman"), 3)}


@q("correlation", "macrodata", "Correlation (Pearson) of quarter-on-quarter changes: diff of realcons vs diff of "
                               "realdpi, first difference of each series, first row dropped. Answer "
                               "@r_diff[value] to 4 dp.")
def macro_corr_diffs(d: Data) -> dict:
    m = d["macrodata"]
    return {"r_diff": r(corr(m["realcons"].diff(), m["realdpi"].diff(), "pearson"), 4)}


@q("correlation", "grunfeld", "Within Chrysler only, what's the Pearson r between invest and capital? 4 decimals")
def grunfeld_chrysler_invest_capital(d: Data) -> dict:
    g = d["grunfeld"].query("firm == 'Chrysler'")
    return {"r": r(corr(g["invest"], g["capital"], "pearson"), 4)}


# ---------------------------------------------------------------- test


@q("test", "macrodata", "Paired t-test: infl vs tbilrate over all quarters (differences infl - tbilrate). At the "
                        "5% level is the mean difference nonzero? t as @t_paired[value] (3 dp), decision as "
                        "@differs[yes/no]")
def macro_paired_infl_tbill(d: Data) -> dict:
    m = d["macrodata"]
    res = stats.ttest_rel(m["infl"], m["tbilrate"])
    return {"t_paired": r(res.statistic, 3), "differs": rejected(float(res.pvalue), 0.05)}


@q("test", "statecrime", "Is the Pearson correlation between poverty and murder significantly different from zero "
                         "(two-sided test, alpha = 0.01)? r to 3 dp as @r_pm[value], verdict as "
                         "@corr_significant[yes or no]")
def statecrime_corr_test(d: Data) -> dict:
    s = d["statecrime"]
    res = stats.pearsonr(s["poverty"], s["murder"])
    return {"r_pm": r(res.statistic, 3), "corr_significant": rejected(float(res.pvalue), 0.01)}


# ---------------------------------------------------------------- outlier


@q("outlier", "grunfeld", "How many 'value' observations lie beyond Q1 - 1.5·IQR or Q3 + 1.5·IQR (linear "
                          "quartiles over all 220 rows)?")
def grunfeld_value_iqr(d: Data) -> dict:
    return {"n": iqr_outliers(d["grunfeld"]["value"])}


@q("outlier", "engel", "Flag foodexp points whose |z| > 2 (z from the mean and the sample SD). How many are "
                       "flagged?")
def engel_foodexp_z2(d: Data) -> dict:
    return {"flagged": z_outliers(d["engel"]["foodexp"], 2.0, ddof=1)}


# ---------------------------------------------------------------- group


@q("group", "macrodata", "Average tbilrate by quarter of the year (1-4), over all years; 3 decimals each. "
                         "@q1[value] @q2[value] @q3[value] @q4[value]")
def macro_tbill_by_quarter(d: Data) -> dict:
    m = d["macrodata"].groupby("quarter")["tbilrate"].mean()
    return {f"q{k}": r(m[k], 3) for k in range(1, 5)}


@q("group", "grunfeld", "Total investment summed over 1935-1954 for each of General Electric, US Steel and "
                        "Westinghouse (one decimal).")
def grunfeld_total_invest_three(d: Data) -> dict:
    g = d["grunfeld"]
    s = g[g["firm"].isin(["General Electric", "US Steel", "Westinghouse"])].groupby("firm")["invest"].sum()
    return {k: r(v, 1) for k, v in s.items()}


# ---------------------------------------------------------------- argmax


@q("argmax", "statecrime", "Which state has the lowest ratio of murders to violent crimes (murder / violent)? "
                           "State name as written.")
def statecrime_lowest_murder_share(d: Data) -> dict:
    s = d["statecrime"].set_index("state")
    return {"state": unique_arg(s["murder"] / s["violent"], largest=False)}


@q("argmax", "grunfeld", "In which year did the 11 firms together invest the most? @peak_year[year]")
def grunfeld_peak_total_year(d: Data) -> dict:
    return {"peak_year": int(unique_arg(d["grunfeld"].groupby("year")["invest"].sum()))}


@q("argmax", "macrodata", "Which year had the largest annual average of the cpi-based inflation column 'infl'?")
def macro_peak_infl_year(d: Data) -> dict:
    return {"year": int(unique_arg(d["macrodata"].groupby("year")["infl"].mean()))}


# ---------------------------------------------------------------- regression


@q("regression", "engel", "Regress foodexp on income (OLS, with constant). Slope to 4 d.p. and R^2 to 4 d.p.: "
                          "@beta[value] @r2[value]")
def engel_food_on_income(d: Data) -> dict:
    e = d["engel"]
    fit = ols(e["foodexp"], e["income"])
    return {"beta": r(fit["slope"], 4), "r2": r(fit["r2"], 4)}


@q("regression", "stackloss", "multiple regression STACKLOSS ~ AIRFLOW + WATERTEMP + ACIDCONC — what's the "
                              "intercept? 3 decimals")
def stackloss_intercept(d: Data) -> dict:
    fit = smf.ols("STACKLOSS ~ AIRFLOW + WATERTEMP + ACIDCONC", data=d["stackloss"]).fit()
    return {"intercept": r(fit.params["Intercept"], 3)}


@q("regression", "longley", "Simple OLS of TOTEMP on GNP using the years up to and including 1955 only; what TOTEMP "
                            "does that line predict for a GNP of 500000? Nearest whole number.")
def longley_predict_totemp_early_fit(d: Data) -> dict:
    x = d["longley"].query("YEAR <= 1955")
    fit = ols(x["TOTEMP"], x["GNP"])
    return {"predicted": round(fit["intercept"] + fit["slope"] * 500000)}


# ---------------------------------------------------------------- derived


@q("derived", "engel", "Food share of the budget = foodexp / income. What is its median across households, as a "
                       "fraction with 4 decimals?")
def engel_median_food_share(d: Data) -> dict:
    e = d["engel"]
    return {"median_share": r((e["foodexp"] / e["income"]).median(), 4)}


@q("derived", "macrodata", "Saving rate proxy per quarter: (realdpi - realcons) / realdpi * 100. Average it over "
                           "2000-2009 inclusive. @saving_pct[value], 2 dp")
def macro_saving_rate_2000s(d: Data) -> dict:
    m = d["macrodata"].query("2000 <= year <= 2009")
    return {"saving_pct": r(((m["realdpi"] - m["realcons"]) / m["realdpi"] * 100).mean(), 2)}


# ---------------------------------------------------------------- count_share


@q("count_share", "macrodata", "In how many quarters was the real interest rate (realint) negative?")
def macro_negative_realint(d: Data) -> dict:
    return {"n": int((d["macrodata"]["realint"] < 0).sum())}


@q("count_share", "statecrime", "Share of states (of all 51 rows, D.C. included) with poverty above 15 percent, "
                                "as a percentage to 1 dp -> @pct_poor[value]")
def statecrime_share_high_poverty(d: Data) -> dict:
    s = d["statecrime"]
    assert not (s["poverty"] == 15).any()
    return {"pct_poor": r(100 * (s["poverty"] > 15).mean(), 1)}


@q("count_share", "grunfeld", "How many firm-years have invest greater than 10% of value?")
def grunfeld_count_invest_ratio(d: Data) -> dict:
    g = d["grunfeld"]
    return {"n": int((g["invest"] > 0.1 * g["value"]).sum())}


# ---------------------------------------------------------------- topk


@q("topk", "statecrime", "The 3 states with the highest hs_grad, highest first: @s1[state] @s2[state] "
                         "@s3[state] (spelled as in the data)", checker="exact")
def statecrime_top3_hs_grad(d: Data) -> dict:
    s = d["statecrime"].sort_values("hs_grad", ascending=False)
    v = s["hs_grad"].tolist()
    assert v[0] > v[1] > v[2] > v[3], "ties in the top three"
    return {"s1": s["state"].iloc[0], "s2": s["state"].iloc[1], "s3": s["state"].iloc[2]}


# ---------------------------------------------------------------- hard


@q("hard", "grunfeld", "For each firm compute the growth of capital from 1935 to 1954 as a ratio "
                       "(capital 1954 / capital 1935). Which firm grew its capital the least by that ratio?")
def grunfeld_least_capital_growth(d: Data) -> dict:
    g = d["grunfeld"].pivot(index="year", columns="firm", values="capital")
    return {"firm": unique_arg(g.loc[1954] / g.loc[1935], largest=False)}


@q("hard", "macrodata", "Count the quarters in which realgdp fell compared with the previous quarter, then tell "
                        "me how many of those falls happened in the 1970s (1970-1979). Give @total_falls[value] "
                        "and @falls_70s[value].")
def macro_gdp_falls(d: Data) -> dict:
    m = d["macrodata"]
    fell = m["realgdp"].diff() < 0
    return {"total_falls": int(fell.sum()), "falls_70s": int((fell & m["year"].between(1970, 1979)).sum())}


@q("hard", "longley", "Year-over-year growth of GNP in percent, for each year after 1947; what's the largest "
                      "single-year growth? 3 dp")
def longley_max_gnp_growth(d: Data) -> dict:
    x = d["longley"].sort_values("YEAR")
    return {"max_growth": r((x["GNP"].pct_change() * 100).max(), 3)}

