"""Questions on the Grunfeld investment panel (11 firms, 1935-1954) and the Fair extramarital-affairs survey."""

from __future__ import annotations

import pandas as pd

from tests.heldout.registry import Data, q
from tests.heldout.stats import anova, chi2, corr, ols, r, ttest, unique_arg, unique_mode, yes_no, z_outliers

G, F = "grunfeld", "fair"


@q("argmax", G, "Which firm has the highest mean gross investment (invest) over 1935-1954?", checker="exact")
def grunfeld_top_invest_firm(d: Data) -> dict:
    return {"firm": unique_arg(d[G].groupby("firm").invest.mean())}


@q("argmax", G, """Summing the capital stock (capital) over all years, which firm has the smallest total?
    Answer as @firm[value].""", checker="exact")
def grunfeld_min_capital_firm(d: Data) -> dict:
    return {"firm": unique_arg(d[G].groupby("firm").capital.sum(), largest=False)}


@q("group", G, """What is the average annual investment of General Electric, and of Westinghouse? Round each to
    two decimals.""")
def grunfeld_ge_westinghouse(d: Data) -> dict:
    means = d[G].groupby("firm").invest.mean()
    return {"General Electric": r(means["General Electric"], 2), "Westinghouse": r(means["Westinghouse"], 2)}


@q("group", G, "List the firms whose average investment (invest) exceeds 100.", checker="contains")
def grunfeld_firms_invest_above_100(d: Data) -> dict:
    means = d[G].groupby("firm").invest.mean()
    return {f"firm{i}": name for i, name in enumerate(sorted(means[means > 100].index), 1)}


@q("stat_filter", G, "What was US Steel's median market value (value) across its 20 years?")
def grunfeld_us_steel_median_value(d: Data) -> dict:
    g = d[G]
    return {"median": g[g.firm == "US Steel"].value.median()}


@q("stat_filter", G, "How many firm-year rows have investment above 100?")
def grunfeld_count_invest_100(d: Data) -> dict:
    return {"count": int((d[G].invest > 100).sum())}


@q("regression", G, """Pooling all firms and years, fit invest = a + b * value by OLS. Report the slope b as
    @slope[value] (4 decimals) and the R-squared as @r2[value] (3 decimals).""")
def grunfeld_ols_invest_value(d: Data) -> dict:
    fit = ols(d[G].invest, d[G].value)
    return {"slope": r(fit["slope"], 4), "r2": r(fit["r2"], 3)}


@q("correlation", G, "For General Motors only, what is the Pearson correlation between invest and capital?")
def grunfeld_gm_pearson(d: Data) -> dict:
    g = d[G]
    gm = g[g.firm == "General Motors"]
    return {"pearson": corr(gm.invest, gm.capital, "pearson")}


@q("test", G, """Does mean investment differ between Atlantic Refining and Union Oil? Use Welch's t-test and
    alpha = 0.01. Give @p_value[value] rounded to four decimals and @significant[yes/no].""")
def grunfeld_welch_atlantic_union(d: Data) -> dict:
    g = d[G]
    _, p = ttest(g[g.firm == "Atlantic Refining"].invest, g[g.firm == "Union Oil"].invest, equal_var=False)
    return {"p_value": r(p, 4), "significant": yes_no(p < 0.01)}


@q("test", G, """One-way ANOVA: does mean investment differ across the four firms Chrysler, Atlantic Refining,
    Union Oil and Goodyear? Report the F statistic (2 decimals).""")
def grunfeld_anova_four(d: Data) -> dict:
    g = d[G]
    f, _ = anova(g[g.firm.isin(["Chrysler", "Atlantic Refining", "Union Oil", "Goodyear"])], "invest", "firm")
    return {"F": r(f, 2)}


@q("argmax", G, "Which year saw the largest total investment summed over all eleven firms?")
def grunfeld_peak_year(d: Data) -> dict:
    return {"year": unique_arg(d[G].groupby("year").invest.sum())}


@q("multi_stat", G, """How many distinct firms and how many distinct years does grunfeld.csv cover? Answer as
    @n_firms[value] and @n_years[value].""")
def grunfeld_panel_size(d: Data) -> dict:
    return {"n_firms": d[G].firm.nunique(), "n_years": d[G].year.nunique()}


@q("stat", F, """What percentage of the women in fair.csv report any time spent in extramarital affairs
    (affairs > 0)? Give a percentage with one decimal.""")
def fair_pct_any_affair(d: Data) -> dict:
    return {"percent": r(100 * (d[F].affairs > 0).mean(), 1)}


@q("stat", F, "What's the most common marriage rating (rate_marriage)? Answer as @mode_rating[value].")
def fair_mode_rating(d: Data) -> dict:
    return {"mode_rating": unique_mode(d[F].rate_marriage)}


@q("stat", F, "How many unique values does yrs_married take?")
def fair_nunique_yrs(d: Data) -> dict:
    return {"unique": d[F].yrs_married.nunique()}


@q("argmax", F, """Among the marriage ratings 1-5 (rate_marriage), which one has the highest average affairs
    value? Answer as @rating[value].""")
def fair_rating_max_affairs(d: Data) -> dict:
    return {"rating": int(unique_arg(d[F].groupby("rate_marriage").affairs.mean()))}


@q("group", F, """Compute the mean of affairs for each level of religiousness (religious = 1, 2, 3, 4), rounded
    to 3 decimals, as @affairs_rel1[value], @affairs_rel2[value], @affairs_rel3[value] and @affairs_rel4[value].""")
def fair_affairs_by_religious(d: Data) -> dict:
    means = d[F].groupby("religious").affairs.mean()
    return {f"affairs_rel{k}": r(means[k], 3) for k in (1, 2, 3, 4)}


@q("stat_filter", F, """Among women married for 10 years or more (yrs_married >= 10), what is the mean number of
    children?""")
def fair_children_married_10(d: Data) -> dict:
    f = d[F]
    return {"mean": f[f.yrs_married >= 10].children.mean()}


@q("multi_stat", F, "Report the 25th percentile, the median and the 75th percentile of age.")
def fair_age_quartiles(d: Data) -> dict:
    age = d[F].age
    return {"25th percentile": age.quantile(0.25), "median": age.median(), "75th percentile": age.quantile(0.75)}


@q("correlation", F, "Spearman's rho between yrs_married and age, rounded to 3 decimal places?")
def fair_spearman_yrs_age(d: Data) -> dict:
    return {"spearman": r(corr(d[F].yrs_married, d[F].age, "spearman"), 3)}


@q("correlation", F, """Measure the association between education (educ) and occupation with Kendall's tau-b.
    Answer as @tau[value], 3 decimals.""")
def fair_kendall_educ_occupation(d: Data) -> dict:
    return {"tau": r(corr(d[F].educ, d[F].occupation, "kendall"), 3)}


@q("test", F, """Chi-square test of independence between having any children (children > 0) and religiousness
    (religious). What is the chi-square statistic, and is the association significant at the 5% level? Answer
    @chi2[value] (two decimals) and @significant[yes/no].""")
def fair_chi2_children_religious(d: Data) -> dict:
    f = d[F]
    frame = pd.DataFrame({"kids": f.children > 0, "religious": f.religious})
    stat, p, _ = chi2(frame, "kids", "religious")
    return {"chi2": r(stat, 2), "significant": yes_no(p < 0.05)}


@q("test", F, """Women with and without affairs: compare their mean education (educ) with a Welch two-sample
    t-test (affairs > 0 versus affairs == 0). What's the t statistic? 3 decimals.""")
def fair_welch_educ(d: Data) -> dict:
    f = d[F]
    t, _ = ttest(f[f.affairs > 0].educ, f[f.affairs == 0].educ, equal_var=False)
    return {"t": r(t, 3)}


@q("outlier", F, "Count the observations of affairs with an absolute z-score greater than 3.")
def fair_z_affairs(d: Data) -> dict:
    return {"outliers": z_outliers(d[F].affairs)}
