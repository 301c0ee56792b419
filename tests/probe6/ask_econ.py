"""Questions on the US macro series, Longley, the Grunfeld firms, the state crime table, the 1996 election survey and
the stack loss plant."""

from __future__ import annotations

from typing import Any

import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import anova, corr, iqr_outliers, ols, r, unique_arg, unique_mode
from tests.probe6.registry import q, rejected

# --- macrodata --------------------------------------------------------------------------------------------------


@q("stat", "macrodata", "What's the highest unemployment rate in the macro data?")
def macro_max_unemp(d: Data) -> dict[str, Any]:
    return {"max": d["macrodata"]["unemp"].max()}


@q("stat_filter", "macrodata",
   "avg tbilrate over 1970-1979 (both years included) but only quarters 1 to 3, i.e. leave every Q4 out. 3dp")
def macro_tbill_70s_no_q4(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    rows = m[m["year"].between(1970, 1979) & (m["quarter"] != 4)]
    return {"mean": r(rows["tbilrate"].mean(), 3)}


@q("stat_filter", "macrodata",
   "Over the 3 years 2007 to 2009, what was the mean unemp in the third quarter only? @unemp_q3[value, 2dp]")
def macro_unemp_q3_crisis(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    rows = m[m["year"].between(2007, 2009) & (m["quarter"] == 3)]
    return {"unemp_q3": r(rows["unemp"].mean(), 2)}


@q("derived", "macrodata",
   "realgdp is in billions and pop in millions, so realgdp/pop is thousands of dollars per person. Mean of that "
   "per-person figure over the quarters from 2000 on, in thousands, 3 decimals: @gdp_per_head[value]")
def macro_gdp_per_head_2000s(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    m = m[m["year"] >= 2000]
    return {"gdp_per_head": r((m["realgdp"] / m["pop"]).mean(), 3)}


@q("correlation", "macrodata",
   "Phillips curve check for the sixties: Pearson correlation between unemp and infl, 1960 through 1969.")
def macro_phillips_60s(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    m = m[m["year"].between(1960, 1969)]
    return {"r": corr(m["unemp"], m["infl"], "pearson")}


@q("regression", "macrodata",
   "consumption function: regress realcons on realdpi (OLS + constant). @mpc[slope, 4 dp] @r2[R-squared, 4 dp]")
def macro_consumption_function(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    fit = ols(m["realcons"], m["realdpi"])
    return {"mpc": r(fit["slope"], 4), "r2": r(fit["r2"], 4)}


@q("argmax", "macrodata",
   "Average the tbilrate over the four quarters of each year. Which year has the highest average? @year[yyyy]")
def macro_peak_tbill_year(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    return {"year": int(unique_arg(m.groupby("year")["tbilrate"].mean()))}


@q("hard", "macrodata",
   "In how many quarters did realgdp come in lower than in the quarter before it?")
def macro_gdp_drops(d: Data) -> dict[str, Any]:
    g = d["macrodata"]["realgdp"]
    change = g.diff().dropna()
    assert not (change == 0).any()
    return {"count": int((change < 0).sum())}


@q("outlier", "macrodata",
   "infl outliers: 1.5 IQR rule, quartiles by linear interpolation. @count[number of outlying quarters]")
def macro_infl_iqr(d: Data) -> dict[str, Any]:
    return {"count": iqr_outliers(d["macrodata"]["infl"])}


@q("group", "macrodata",
   """Mean unemp per decade:
   * 1960-69 -> @sixties[..]
   * 1970-79 -> @seventies[..]
   * 1980-89 -> @eighties[..]
   * 1990-99 -> @nineties[..]
   (2 decimals)""")
def macro_unemp_by_decade(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    names = {1960: "sixties", 1970: "seventies", 1980: "eighties", 1990: "nineties"}
    means = m.groupby(m["year"] // 10 * 10)["unemp"].mean()
    return {name: r(means[dec], 2) for dec, name in names.items()}


@q("topk", "macrodata",
   "Top 3 years by average quarterly infl (year mean of the infl column), highest first: "
   "@first[year] @second[year] @third[year]")
def macro_top3_infl_years(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    ordered = m.groupby("year")["infl"].mean().sort_values(ascending=False)
    assert ordered.iloc[2] - ordered.iloc[3] > 1e-6 and ordered.iloc[0] > ordered.iloc[1] > ordered.iloc[2]
    return {"first": int(ordered.index[0]), "second": int(ordered.index[1]), "third": int(ordered.index[2])}


@q("multi_stat", "macrodata",
   "realinv - give me min, median and max. @min[..] @median[..] @max[..] (as in the data, no rounding needed)")
def macro_realinv_summary(d: Data) -> dict[str, Any]:
    v = d["macrodata"]["realinv"]
    return {"min": v.min(), "median": v.median(), "max": v.max()}


# --- longley ----------------------------------------------------------------------------------------------------


@q("correlation", "longley", "spearman corr of GNP vs UNEMP in longley, please (3 d.p.)")
def longley_spearman_gnp_unemp(d: Data) -> dict[str, Any]:
    x = d["longley"]
    return {"rho": r(corr(x["GNP"], x["UNEMP"], "spearman"), 3)}


@q("regression", "longley",
   "Regress TOTEMP on GNP and POP together (OLS with an intercept). What's the coefficient on POP?")
def longley_totemp_gnp_pop(d: Data) -> dict[str, Any]:
    x = d["longley"]
    fit = sm.OLS(x["TOTEMP"], sm.add_constant(x[["GNP", "POP"]])).fit()
    return {"coef_pop": fit.params["POP"]}


@q("stat", "longley",
   "Coefficient of variation of ARMED: sample sd (ddof 1) divided by the mean, as a fraction to 4 decimals.")
def longley_armed_cv(d: Data) -> dict[str, Any]:
    a = d["longley"]["ARMED"]
    return {"cv": r(a.std(ddof=1) / a.mean(), 4)}


@q("count_share", "longley", "In how many of the years was UNEMP higher than ARMED?")
def longley_unemp_above_armed(d: Data) -> dict[str, Any]:
    x = d["longley"]
    assert not (x["UNEMP"] == x["ARMED"]).any()
    return {"count": int((x["UNEMP"] > x["ARMED"]).sum())}


# --- grunfeld ---------------------------------------------------------------------------------------------------


@q("argmax", "grunfeld",
   "Leaving General Motors aside, which firm invested the most in total over 1945-1954 (sum of invest, both end "
   "years counted)?", checker="exact")
def grunfeld_top_investor_postwar(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    g = g[(g["firm"] != "General Motors") & g["year"].between(1945, 1954)]
    return {"firm": unique_arg(g.groupby("firm")["invest"].sum())}


@q("hard", "grunfeld",
   "Take each firm's mean invest over all its years, then give the median of those firm means (2 dp).")
def grunfeld_median_of_firm_means(d: Data) -> dict[str, Any]:
    return {"median": r(d["grunfeld"].groupby("firm")["invest"].mean().median(), 2)}


@q("topk", "grunfeld",
   "Which 3 firms had the largest value in 1954? Biggest first, names as written in the firm column. "
   "@first[firm] @second[firm] @third[firm]")
def grunfeld_top3_value_1954(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    v = g[g["year"] == 1954].set_index("firm")["value"].sort_values(ascending=False)
    assert v.iloc[0] > v.iloc[1] > v.iloc[2] > v.iloc[3]
    return {"first": v.index[0], "second": v.index[1], "third": v.index[2]}


@q("stat_filter", "grunfeld",
   "IBM's mean capital from 1940 up to but not including 1950?")
def grunfeld_ibm_capital_40s(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    rows = g[(g["firm"] == "IBM") & (g["year"] >= 1940) & (g["year"] < 1950)]
    return {"mean": rows["capital"].mean()}


@q("correlation", "grunfeld",
   "For US Steel alone, how strongly does invest move with value? Pearson r, @r[value, 3 decimals]")
def grunfeld_us_steel_corr(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    g = g[g["firm"] == "US Steel"]
    return {"r": r(corr(g["invest"], g["value"], "pearson"), 3)}


@q("derived", "grunfeld",
   "General Electric: invest as a percentage of value each year; the average of those yearly percentages? "
   "percent, 2 dp")
def grunfeld_ge_invest_pct(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    g = g[g["firm"] == "General Electric"]
    return {"pct": r((100 * g["invest"] / g["value"]).mean(), 2)}


# --- statecrime -------------------------------------------------------------------------------------------------


@q("stat", "statecrime", "What is the average poverty rate across all the rows of the state crime table?")
def crime_mean_poverty(d: Data) -> dict[str, Any]:
    return {"mean": d["statecrime"]["poverty"].mean()}


@q("hard", "statecrime",
   "What's the mean murder rate of the states whose poverty is strictly above the median poverty (median over all "
   "51 rows, DC included; states sitting exactly on the median are left out)?")
def crime_murder_in_poor_states(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    med = s["poverty"].median()
    return {"mean": s.loc[s["poverty"] > med, "murder"].mean()}


@q("argmax", "statecrime",
   "Murders per 100 violent crimes (murder / violent * 100): which state has the highest? State name as spelled "
   "in the table.", checker="exact")
def crime_top_murder_share(d: Data) -> dict[str, Any]:
    s = d["statecrime"].set_index("state")
    return {"state": unique_arg(100 * s["murder"] / s["violent"])}


@q("outlier", "statecrime",
   "How many states are outliers on violent by the 1.5-IQR rule (Tukey fences, linear quartiles)? "
   "@n[how many]")
def crime_violent_iqr(d: Data) -> dict[str, Any]:
    return {"n": iqr_outliers(d["statecrime"]["violent"])}


@q("regression", "statecrime", "Simple OLS of murder on poverty - slope and intercept?")
def crime_murder_on_poverty(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    fit = ols(s["murder"], s["poverty"])
    return {"slope": fit["slope"], "intercept": fit["intercept"]}


@q("count_share", "statecrime",
   "what fraction of states have hs_grad of 85 or more AND urban below 60? @fraction[as a fraction, 3 dp]")
def crime_grad_rural_fraction(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    return {"fraction": r(((s["hs_grad"] >= 85) & (s["urban"] < 60)).mean(), 3)}


@q("test", "statecrime",
   "Test whether single and murder are correlated (Pearson, two-sided). At the 1% significance level, is the "
   "correlation significant? Put the p-value in @p_value[..] and the decision in @significant_1pct[yes/no].")
def crime_single_murder_test(d: Data) -> dict[str, Any]:
    s = d["statecrime"]
    res = stats.pearsonr(s["single"], s["murder"])
    return {"p_value": float(res.pvalue), "significant_1pct": rejected(float(res.pvalue), 0.01)}


# --- anes96 -----------------------------------------------------------------------------------------------------


@q("count_share", "anes96", "What share of respondents have vote coded as 1? Give it as a percentage.")
def anes_vote1_pct(d: Data) -> dict[str, Any]:
    return {"pct": 100 * (d["anes96"]["vote"] == 1).mean()}


@q("group", "anes96", "mean age for each vote code: @age_vote0[mean age, vote = 0] @age_vote1[mean age, vote = 1]")
def anes_age_by_vote(d: Data) -> dict[str, Any]:
    means = d["anes96"].groupby("vote")["age"].mean()
    return {"age_vote0": means[0], "age_vote1": means[1]}


@q("test", "anes96",
   "One-way ANOVA: does TVnews (days per week watching TV news) differ across the educ levels? p-value please "
   "(@p_value[..]), and is it significant at 0.05? @significant[yes/no]")
def anes_tvnews_by_educ(d: Data) -> dict[str, Any]:
    _, p = anova(d["anes96"], "TVnews", "educ")
    return {"p_value": p, "significant": rejected(p, 0.05)}


@q("stat", "anes96", "most common income code in anes96 (the mode)?")
def anes_modal_income(d: Data) -> dict[str, Any]:
    return {"mode": int(unique_mode(d["anes96"]["income"]))}


# --- stackloss --------------------------------------------------------------------------------------------------


@q("regression", "stackloss",
   "STACKLOSS ~ AIRFLOW + WATERTEMP + ACIDCONC, OLS. Need @acid_coef[ACIDCONC coefficient] and @r2[R^2], 4 dp both.")
def stackloss_full_model(d: Data) -> dict[str, Any]:
    s = d["stackloss"]
    fit = sm.OLS(s["STACKLOSS"], sm.add_constant(s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"acid_coef": r(fit.params["ACIDCONC"], 4), "r2": r(fit.rsquared, 4)}


@q("multi_stat", "stackloss",
   """STACKLOSS column:
   - mean
   - variance (sample, n-1)
   - range (max minus min)
   Format: @mean[..] @variance[..] @range[..]""")
def stackloss_summary(d: Data) -> dict[str, Any]:
    s = d["stackloss"]["STACKLOSS"]
    return {"mean": s.mean(), "variance": s.var(ddof=1), "range": s.max() - s.min()}
