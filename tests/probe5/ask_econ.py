"""Probe5 questions on the economics and society tables (longley, macrodata, grunfeld, engel, fair, statecrime,
anes96, spector)."""

from __future__ import annotations

from typing import Any

import statsmodels.api as sm

from tests.heldout.registry import Data
from tests.heldout.stats import corr, iqr_outliers, ols, r, ttest, unique_arg, unique_mode
from tests.probe5.registry import q, rejected


@q("stat_filter", "longley", """avg totemp for 1950-55 (both ends incl.), nearest whole number""")
def p5_longley_totemp_5055(d: Data) -> dict[str, Any]:
    lg = d["longley"]
    return {"mean": int(round(lg[(lg["YEAR"] >= 1950) & (lg["YEAR"] <= 1955)]["TOTEMP"].mean()))}


@q("correlation", "longley", """pearson corr of GNP and unemp over all yrs except 1950, 3dp""")
def p5_longley_corr_excl_1950(d: Data) -> dict[str, Any]:
    lg = d["longley"].query("YEAR != 1950")
    return {"r": r(corr(lg["GNP"], lg["UNEMP"], "pearson"), 3)}


@q("regression", "longley", """Total employment regressed on the armed forces size (OLS with intercept); slope
   @slope[value] (3 dp) and @r_squared[value] (4 dp)""")
def p5_longley_reg_armed(d: Data) -> dict[str, Any]:
    lg = d["longley"]
    o = ols(lg["TOTEMP"], lg["ARMED"])
    return {"slope": r(o["slope"], 3), "r_squared": r(o["r2"], 4)}


@q("stat_filter", "macrodata", """mean unemployment rate in the sixties (1960-69, all quarters)
   -> @unemp[value], 3 decimals""")
def p5_macro_unemp_sixties(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    return {"unemp": r(m[(m["year"] >= 1960) & (m["year"] <= 1969)]["unemp"].mean(), 3)}


@q("argmax", "macrodata", """which yr had the highest avg 3-month T-bill rate (mean of its quarters)?""")
def p5_macro_argmax_tbill(d: Data) -> dict[str, Any]:
    return {"year": int(unique_arg(d["macrodata"].groupby("year")["tbilrate"].mean()))}


@q("derived", "macrodata", """real GDP per person: realgdp is in billions and pop in millions, so convert to dollars
   per person; then average it over the quarters of 2000 through 2009 (nearest dollar)""")
def p5_macro_gdp_per_person(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    m = m[(m["year"] >= 2000) & (m["year"] <= 2009)]
    return {"dollars": int(round((m["realgdp"] * 1e9 / (m["pop"] * 1e6)).mean()))}


@q("hard", "macrodata", """annual mean realgdp per yr (avg of the quarters), then yr-over-yr % growth of that; which
   year has the lowest growth? (growth for year Y = mean(Y)/mean(Y-1) - 1)""")
def p5_macro_hard_worst_growth(d: Data) -> dict[str, Any]:
    a = d["macrodata"].groupby("year")["realgdp"].mean()
    g = a.pct_change().dropna()
    return {"year": int(unique_arg(g, largest=False))}


@q("group", "grunfeld", """groupby firm -> max of invest. Only need two of them: @GE[value] for General Electric
   and @USS[value] for US Steel""")
def p5_grun_group_max(d: Data) -> dict[str, Any]:
    m = d["grunfeld"].groupby("firm")["invest"].max()
    return {"GE": float(m["General Electric"]), "USS": float(m["US Steel"])}


@q("hard", "grunfeld", """median of the firms' mean gross investment (mean per firm over all years first, then the
   median across the firms), 2 dp""")
def p5_grun_hard_median_of_means(d: Data) -> dict[str, Any]:
    return {"median": r(d["grunfeld"].groupby("firm")["invest"].mean().median(), 2)}


@q("topk", "grunfeld", """top 3 firms by total invest summed over 1950-54 -> @first[firm] @second[firm]
   @third[firm] (names as in the data)""", checker="exact")
def p5_grun_top3_firms(d: Data) -> dict[str, Any]:
    g = d["grunfeld"]
    s = g[(g["year"] >= 1950) & (g["year"] <= 1954)].groupby("firm")["invest"].sum().sort_values(ascending=False)
    assert s.iloc[2] > s.iloc[3]
    return {"first": s.index[0], "second": s.index[1], "third": s.index[2]}


@q("regression", "engel", """food exp on income, simple OLS w/ const. slope to 4 dp""")
def p5_engel_slope(d: Data) -> dict[str, Any]:
    e = d["engel"]
    return {"slope": r(ols(e["foodexp"], e["income"])["slope"], 4)}


@q("derived", "engel", """median share of income spent on food @pct[value]
   (foodexp/income per household, as a %, 2dp)""")
def p5_engel_food_share(d: Data) -> dict[str, Any]:
    e = d["engel"]
    return {"pct": r((100 * e["foodexp"] / e["income"]).median(), 2)}


@q("stat", "fair", """the mode of yrs_married (most common value)?""")
def p5_fair_mode_yrs(d: Data) -> dict[str, Any]:
    return {"mode": unique_mode(d["fair"]["yrs_married"])}


@q("count_share", "fair", """among women rating their marriage 5 (the top rating), what percent had affairs > 0?
   1 decimal, as a %""")
def p5_fair_happy_affairs_pct(d: Data) -> dict[str, Any]:
    f = d["fair"].query("rate_marriage == 5")
    return {"pct": r(100 * (f["affairs"] > 0).mean(), 1)}


@q("group", "fair", """avg affairs measure by religiousness level (1-4), three decimals each:
   - @rel1[value]
   - @rel2[value]
   - @rel3[value]
   - @rel4[value]""")
def p5_fair_group_religious(d: Data) -> dict[str, Any]:
    m = d["fair"].groupby("religious")["affairs"].mean()
    return {f"rel{k}": r(m[k], 3) for k in (1, 2, 3, 4)}


@q("derived", "statecrime", """murders per 100 violent crimes (100*murder/violent) for every state, apart from the
   District of Columbia; the average of that, 3 dp""")
def p5_state_murder_share(d: Data) -> dict[str, Any]:
    s = d["statecrime"].query("state != 'District of Columbia'")
    return {"mean": r((100 * s["murder"] / s["violent"]).mean(), 3)}


@q("argmax", "statecrime", """Other than DC, which state has the highest poverty rate? @state[name]""",
   checker="exact")
def p5_state_argmax_poverty(d: Data) -> dict[str, Any]:
    s = d["statecrime"].query("state != 'District of Columbia'").set_index("state")
    return {"state": unique_arg(s["poverty"])}


@q("outlier", "statecrime", """IQR outliers in the murder rate column (1.5x IQR, linear quartiles, strictly outside)
   -- how many, all 51 rows incl. DC? @outliers[value]""")
def p5_state_outlier_murder(d: Data) -> dict[str, Any]:
    return {"outliers": iqr_outliers(d["statecrime"]["murder"])}


@q("correlation", "statecrime", """spearman rank corr poverty vs hs_grad, excl. DC. 3dp""")
def p5_state_spearman(d: Data) -> dict[str, Any]:
    s = d["statecrime"].query("state != 'District of Columbia'")
    return {"rho": r(corr(s["poverty"], s["hs_grad"], "spearman"), 3)}


@q("count_share", "anes96", """no. of respondents who watch TV news on all 7 days of the week AND are under 30
   (age strictly less than 30)""")
def p5_anes_tv7_young(d: Data) -> dict[str, Any]:
    a = d["anes96"]
    return {"count": int(((a["TVnews"] == 7) & (a["age"] < 30)).sum())}


@q("test", "anes96", """Welch t-test: self-placement on the liberal-conservative scale (selfLR), vote==1 group vs
   vote==0 group. @t[value] (vote 1 minus vote 0 direction, 2dp) @significant_at_1pct[yes or no]""")
def p5_anes_welch_selflr(d: Data) -> dict[str, Any]:
    a = d["anes96"]
    t, p = ttest(a.loc[a["vote"] == 1, "selfLR"], a.loc[a["vote"] == 0, "selfLR"], equal_var=False)
    return {"t": r(t, 2), "significant_at_1pct": rejected(p, 0.01)}


@q("count_share", "spector", """in the PSI program (PSI=1) what fraction got GRADE = 1? fraction, 3 dp""")
def p5_spector_psi_grade(d: Data) -> dict[str, Any]:
    s = d["spector"].query("PSI == 1")
    return {"fraction": r((s["GRADE"] == 1).mean(), 3)}


@q("multi_stat", "spector", """GPA of the students whose GRADE is 1 --
   * mean (3dp) -> @mean_gpa[value]
   * median (2dp) -> @median_gpa[value]
   * the lowest one -> @min_gpa[value]""")
def p5_spector_multi_gpa(d: Data) -> dict[str, Any]:
    s = d["spector"].query("GRADE == 1")["GPA"]
    return {"mean_gpa": r(s.mean(), 3), "median_gpa": r(s.median(), 2), "min_gpa": float(s.min())}


@q("multi_stat", "macrodata", """for the inflation rate (infl) over 1970 to 1979 inclusive give me the mean, the
   sample standard deviation and the max, each to 2 decimals: @mean[value] @sd[value] @max[value]""")
def p5_macro_infl_70s(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    s = m[(m["year"] >= 1970) & (m["year"] <= 1979)]["infl"]
    return {"mean": r(s.mean(), 2), "sd": r(s.std(ddof=1), 2), "max": r(s.max(), 2)}


@q("regression", "grunfeld", """invest ~ value + capital, OLS with constant, General Motors rows only. coefficient
   of capital (4 dp)?""")
def p5_grun_gm_multi(d: Data) -> dict[str, Any]:
    g = d["grunfeld"].query("firm == 'General Motors'")
    fit = sm.OLS(g["invest"], sm.add_constant(g[["value", "capital"]])).fit()
    return {"capital": r(fit.params["capital"], 4)}


@q("stat", "anes96", """avg age of the respondents (1 decimal)""")
def p5_anes_mean_age(d: Data) -> dict[str, Any]:
    return {"mean_age": r(d["anes96"]["age"].mean(), 1)}


@q("outlier", "fair", """yrs_married, women aged 30 or younger only: how many outliers by the 1.5*IQR rule
   (linear-interpolated quartiles of that subset, strictly beyond)?""")
def p5_fair_outlier_young_yrs(d: Data) -> dict[str, Any]:
    f = d["fair"].query("age <= 30")
    return {"outliers": iqr_outliers(f["yrs_married"])}


@q("hard", "statecrime", """States (DC excluded) whose urban % is above the median urban % of those 50 states: what
   is their avg violent crime rate minus the avg of the remaining states? 2 dp""")
def p5_state_hard_urban_gap(d: Data) -> dict[str, Any]:
    s = d["statecrime"].query("state != 'District of Columbia'")
    med = s["urban"].median()
    assert not (s["urban"] == med).any()
    hi = s[s["urban"] > med]["violent"].mean()
    lo = s[s["urban"] <= med]["violent"].mean()
    return {"gap": r(hi - lo, 2)}


@q("stat_filter", "macrodata", """For the Q3 board deck I need one number: average real investment (realinv) over
   every quarter of 2005 through 2007, one decimal.""")
def p5_macro_realinv_q3_deck(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    return {"mean": r(m[(m["year"] >= 2005) & (m["year"] <= 2007)]["realinv"].mean(), 1)}


@q("count_share", "macrodata", """what share of the quarters in the 1980s (1980-89) had a negative real interest rate
   (realint strictly below 0)? as a %, one decimal""")
def p5_macro_neg_realint_80s(d: Data) -> dict[str, Any]:
    m = d["macrodata"]
    m = m[(m["year"] >= 1980) & (m["year"] <= 1989)]
    return {"pct": r(100 * (m["realint"] < 0).mean(), 1)}
