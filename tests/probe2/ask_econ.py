"""Questions about economies and firms: US macro data, Longley, Grunfeld, Engel, Spector, stack loss."""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from tests.heldout.registry import Data
from tests.heldout.stats import corr, ols, r, unique_arg, z_outliers
from tests.probe2.registry import q, rejected

# ---------------------------------------------------------------- macrodata


@q("stat_filter", "macrodata",
   "Average unemployment rate during the sixties (every quarter of 1960 to 1969), 2 decimals.")
def macro_mean_unemp_sixties(d: Data) -> dict:
    m = d["macrodata"]
    return {"mean": r(m.loc[m["year"].between(1960, 1969), "unemp"].mean(), 2)}


@q("derived", "macrodata",
   "Real consumption as a percentage of real GDP, quarter by quarter; what is its average over 1990-99? "
   "Percent, 2 decimals, as @cons_share[value].")
def macro_cons_share_nineties(d: Data) -> dict:
    m = d["macrodata"]
    rows = m[m["year"].between(1990, 1999)]
    return {"cons_share": r((100 * rows["realcons"] / rows["realgdp"]).mean(), 2)}


@q("hard", "macrodata",
   "Average real GDP over the four quarters of each year, using complete years only (a year missing a quarter "
   "is dropped). Which year had the largest percentage growth over the year before? Answer with the year.")
def macro_year_fastest_growth(d: Data) -> dict:
    m = d["macrodata"]
    full = m.groupby("year").filter(lambda g: len(g) == 4)
    annual = full.groupby("year")["realgdp"].mean()
    growth = annual.pct_change().dropna()
    assert (np.diff(annual.index) == 1).all()
    return {"year": int(unique_arg(growth))}


@q("argmax", "macrodata",
   "In which quarter was the 3-month Treasury bill rate at its highest? Answer as @year[value] and "
   "@quarter[value].")
def macro_quarter_peak_tbill(d: Data) -> dict:
    m = d["macrodata"]
    row = m.loc[m["tbilrate"].idxmax()]  # type: ignore[call-overload]  # an index label typed as Hashable
    assert (m["tbilrate"] == m["tbilrate"].max()).sum() == 1
    return {"year": int(row["year"]), "quarter": int(row["quarter"])}


@q("correlation", "macrodata",
   "Pearson correlation between inflation and the T-bill rate for 1970-79 only (all four quarters of each of "
   "those years). @r[value] to 3 decimals.")
def macro_pearson_infl_tbill_seventies(d: Data) -> dict:
    m = d["macrodata"]
    s = m[m["year"].between(1970, 1979)]
    return {"r": r(corr(s["infl"], s["tbilrate"], "pearson"), 3)}


@q("regression", "macrodata",
   "What is the marginal propensity to consume out of real disposable income? That is, the slope of real "
   "consumption regressed on real disposable income over all quarters, OLS with intercept, 4 decimals.")
def macro_mpc_slope(d: Data) -> dict:
    m = d["macrodata"]
    return {"slope": r(ols(m["realcons"], m["realdpi"])["slope"], 4)}


@q("multi_stat", "macrodata",
   "From 1980 through 1989: lowest and highest quarterly unemployment rate, and how many quarters were at or "
   "above 9 percent. @min_unemp[value] @max_unemp[value] @quarters_9plus[value]")
def macro_eighties_unemp(d: Data) -> dict:
    m = d["macrodata"]
    s = m.loc[m["year"].between(1980, 1989), "unemp"]
    return {"min_unemp": r(s.min(), 2), "max_unemp": r(s.max(), 2), "quarters_9plus": int((s >= 9).sum())}


@q("count_share", "macrodata",
   "How many quarters between 1970 and 1985 inclusive had a negative real interest rate?")
def macro_quarters_negative_realint(d: Data) -> dict:
    m = d["macrodata"]
    s = m.loc[m["year"].between(1970, 1985), "realint"]
    return {"quarters": int((s < 0).sum())}


@q("stat", "macrodata", "std dev of the quarterly inflation rate, all quarters, sample sd, 3dp")
def macro_sd_infl(d: Data) -> dict:
    return {"sd": r(d["macrodata"]["infl"].std(ddof=1), 3)}



# ---------------------------------------------------------------- longley

@q("stat", "longley",
   "Over the 16 years of the Longley data, what was the average number of unemployed (the UNEMP column as "
   "stored)? Nearest whole number.")
def longley_mean_unemp(d: Data) -> dict:
    v = d["longley"]["UNEMP"].mean()
    assert abs(v - round(v)) != 0.5
    return {"mean": int(round(v))}


@q("regression", "longley",
   "Total employment regressed on GNP (simple OLS): @r2[value] to 4 decimals and @slope[value] to 5 decimals.")
def longley_totemp_on_gnp(d: Data) -> dict:
    x = d["longley"]
    fit = ols(x["TOTEMP"], x["GNP"])
    return {"r2": r(fit["r2"], 4), "slope": r(fit["slope"], 5)}


@q("derived", "longley",
   "Armed forces per 1,000 of population (ARMED divided by POP, times 1,000), averaged over 1950 through 1955. "
   "Two decimals.")
def longley_armed_per_1000_early_fifties(d: Data) -> dict:
    x = d["longley"]
    s = x[x["YEAR"].between(1950, 1955)]
    return {"mean": r((1000 * s["ARMED"] / s["POP"]).mean(), 2)}



# ---------------------------------------------------------------- grunfeld

@q("argmax", "grunfeld",
   "Which firm invested the most in total over 1940 to 1949 (both included)? Firm name as in the data.",
   checker="exact")
def grunfeld_firm_most_invest_forties(d: Data) -> dict:
    g = d["grunfeld"]
    s = g[g["year"].between(1940, 1949)].groupby("firm")["invest"].sum()
    return {"firm": unique_arg(s)}


@q("topk", "grunfeld",
   "Top three firms by market value in 1954, largest first: @first[firm] @second[firm] @third[firm]",
   checker="exact")
def grunfeld_top3_value_1954(d: Data) -> dict:
    g = d["grunfeld"]
    s = g[g["year"] == 1954].set_index("firm")["value"].sort_values(ascending=False)
    assert s.iloc[2] > s.iloc[3]
    return {"first": s.index[0], "second": s.index[1], "third": s.index[2]}


@q("hard", "grunfeld",
   "For each firm, divide its 1954 investment by its 1935 investment. Which firm has the largest ratio, and "
   "what is it (2 decimals)? @firm[name] @ratio[value]")
def grunfeld_largest_invest_growth(d: Data) -> dict:
    g = d["grunfeld"]
    a = g[g["year"] == 1954].set_index("firm")["invest"]
    b = g[g["year"] == 1935].set_index("firm")["invest"]
    ratio = a / b
    return {"firm": unique_arg(ratio), "ratio": r(ratio.max(), 2)}



@q("group", "grunfeld",
   "What was the average yearly investment of US Steel, General Electric and IBM over all the years? 2 decimals "
   "each.")
def grunfeld_mean_invest_three_firms(d: Data) -> dict:
    m = d["grunfeld"].groupby("firm")["invest"].mean()
    return {"US Steel": r(m["US Steel"], 2), "General Electric": r(m["General Electric"], 2), "IBM": r(m["IBM"], 2)}


@q("correlation", "grunfeld",
   "Within Chrysler's 20 years, what is the Spearman correlation between investment and firm value? 3 decimals.")
def grunfeld_chrysler_spearman(d: Data) -> dict:
    g = d["grunfeld"]
    c = g[g["firm"] == "Chrysler"]
    return {"rho": r(corr(c["invest"], c["value"], "spearman"), 3)}


# ---------------------------------------------------------------- engel

@q("regression", "engel",
   "Estimate the income elasticity of food spending: regress log(food expenditure) on log(income), natural "
   "logs, OLS with intercept. @elasticity[value] to 4 decimals.")
def engel_loglog_elasticity(d: Data) -> dict:
    e = d["engel"]
    return {"elasticity": r(ols(np.log(e["foodexp"]), np.log(e["income"]))["slope"], 4)}


@q("derived", "engel",
   "What share of income goes to food, on average across households (mean of foodexp / income)? As a "
   "percentage with one decimal: @food_share[value]")
def engel_mean_food_share(d: Data) -> dict:
    e = d["engel"]
    return {"food_share": r((100 * e["foodexp"] / e["income"]).mean(), 1)}


@q("outlier", "engel",
   "Income outliers by the 1.5 IQR rule (quartiles by linear interpolation): @low[value] below the lower fence "
   "and @high[value] above the upper fence.")
def engel_iqr_income_split(d: Data) -> dict:
    s = d["engel"]["income"]
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    assert not ((s == lo) | (s == hi)).any()
    return {"low": int((s < lo).sum()), "high": int((s > hi).sum())}


# ---------------------------------------------------------------- spector

@q("test", "spector",
   "Fisher's exact test (two-sided) on the 2x2 table of PSI (new teaching method or not) against GRADE "
   "(improved or not). p-value to 4 decimals.")
def spector_fisher_psi_grade(d: Data) -> dict:
    s = d["spector"]
    res = stats.fisher_exact(pd.crosstab(s["PSI"], s["GRADE"]).to_numpy())
    return {"p_value": r(res.pvalue, 4)}


@q("count_share", "spector",
   "Of the students taught with the new method (PSI = 1), what share improved their grade? Give a fraction with "
   "3 decimals as @share[value].")
def spector_share_improved_psi(d: Data) -> dict:
    s = d["spector"]
    return {"share": r(s.loc[s["PSI"] == 1, "GRADE"].mean(), 3)}


@q("test", "spector",
   "With only 32 students: is mean GPA different between those whose grade improved and those whose didn't? "
   "Student's t-test assuming equal variances, two-sided; reject at 5%? @reject[yes/no]", checker="exact")
def spector_student_t_gpa(d: Data) -> dict:
    s = d["spector"]
    res = stats.ttest_ind(s.loc[s["GRADE"] == 1, "GPA"], s.loc[s["GRADE"] == 0, "GPA"], equal_var=True)
    return {"reject": rejected(res.pvalue, 0.05)}


# ---------------------------------------------------------------- stackloss

@q("regression", "stackloss",
   "Stack loss regressed on air flow, water temperature and acid concentration together. Coefficient of water "
   "temperature, 4 decimals.")
def stackloss_multi_watertemp(d: Data) -> dict:
    s = d["stackloss"]
    fit = sm.OLS(s["STACKLOSS"], sm.add_constant(s[["AIRFLOW", "WATERTEMP", "ACIDCONC"]])).fit()
    return {"coef": r(fit.params["WATERTEMP"], 4)}


@q("outlier", "stackloss",
   "Any stack loss readings more than 2 standard deviations from the mean (sample sd)? How many?")
def stackloss_z2(d: Data) -> dict:
    return {"count": z_outliers(d["stackloss"]["STACKLOSS"], threshold=2.0, ddof=1)}


@q("stat", "stackloss", "What is the median air flow in the stack loss data?")
def stackloss_median_airflow(d: Data) -> dict:
    return {"median": float(d["stackloss"]["AIRFLOW"].median())}
