"""Correct answers in many wordings: every figure is in a cited file or, citing none, in a cell that ran."""

from __future__ import annotations

from .case import Case
from .common import make, million, num, part, pct, sci, thousand, times_ten
from .scen_sales import drivers, regions
from .scen_tests import ab, churn, houses, trial

REV = "outputs/revenue_by_region.csv"
COEF = "outputs/revenue_drivers.csv"
FIT = "outputs/model_fit.json"
AB = "outputs/ab_result.json"


def _sales_cases() -> list[Case]:
    r, d = regions(), drivers()
    rev, share, coef, p = r["rev"], r["share"], d["coef"], d["p"]
    totals = "; ".join(f"{k} {num(v, 0)}" for k, v in rev.items())
    return [
        make("correct-01-region-totals", "correct", r,
             ["the total revenue of each region", "which region earns the most"],
             [part("a1", f"Total revenue by region: {totals}.", REV),
              part("a2", f"East earns the most, with {num(rev['East'], 0)} in revenue.", REV)],
             answered="TT", status="completed",
             note="Totals rounded to whole units from revenue_by_region.csv (e.g. 4258655.70 -> 4,258,656)."),
        make("correct-02-region-million", "correct", r, ["which region brings in the most revenue"],
             [part("a1", f"The East region leads, bringing in about {million(rev['East'])} in revenue.", REV)],
             answered="T", status="completed", task="Which region brings in the most revenue?",
             note="4.26 million is 4258655.70 rounded to two decimals in millions; the file holds it."),
        make("correct-03-share-percent", "correct", r,
             ["which region contributes the largest share of revenue", "how large that share is"],
             [part("a1", f"East contributes the largest share of revenue ({pct(share['East'])}).", REV),
              part("a2", f"East's share is {pct(share['East'])} of total revenue.", REV)],
             answered="TT", status="completed",
             task="Which region contributes the largest share of revenue, and how large is that share?",
             note="30.7% is the share 0.307049 in revenue_by_region.csv said as a percent."),
        make("correct-04-share-proportion", "correct", r, ["what proportion of revenue the East region contributes"],
             [part("a1", f"The East region contributes a proportion of {share['East']:.3f} of all revenue.")],
             answered="T", status="completed", task="What proportion of revenue does the East region contribute?",
             note="'Proportion 0.307' is the printed share 0.3070 at three decimals; the part cites no file, and the "
                  "printed output holds it."),
        make("correct-05-total-commas", "correct", r, ["the total revenue across all regions"],
             [part("a1", f"Across all regions, revenue adds up to {num(r['total'], 0)}.")],
             answered="T", status="completed", task="What is the total revenue across all regions?",
             note="The cell printed 'total revenue: 13869606.74'; 13,869,607 is that figure rounded to whole units."),
        make("correct-06-thousands", "correct", r, ["how much revenue the East region brings in"],
             [part("a1", f"The East region brought in roughly {thousand(rev['East'])} "
                         f"({num(rev['East'], 2)} exactly).", REV)],
             answered="T", status="completed", task="How much revenue does the East region bring in?",
             note="4,258.7 thousand and 4,258,655.70 are both the file's 4258655.70."),
        make("correct-07-negative-words", "correct", d, ["how discount affects revenue"],
             [part("a1", f"Discounts hurt revenue: it falls by about {abs(coef['discount_pct']):.2f} for every extra "
                         f"percentage point of discount, holding ad spend and price fixed (p = "
                         f"{sci(p['discount_pct'])}).", COEF)],
             answered="T", status="completed", task="How does discount affect revenue?",
             note="'Falls by 6.02' states the coefficient -6.018913 in words; p = 2.3e-07 is the file's 2.33454e-07."),
        make("correct-08-ad-spend", "correct", d, ["how much ad spend lifts revenue"],
             [part("a1", f"Each additional $1k of advertising is associated with an average increase in revenue of "
                         f"{coef['ad_spend']:.2f} per order.", COEF)],
             answered="T", status="completed", task="How much does ad spend lift revenue?",
             note="236.15 is the ad_spend coefficient in revenue_drivers.csv; '$1k' names the unit and is no figure."),
        make("correct-09-r2-percent", "correct", d, ["how much of the variation in revenue the factors explain"],
             [part("a1", f"Together, discount, ad spend and price explain {pct(d['r2'])} of the variance in revenue "
                         f"(R-squared {d['r2']:.3f}).", FIT)],
             answered="T", status="completed",
             task="How much of the variation in revenue do discount, ad spend and price explain?",
             note="43.9% and 0.439 are both r_squared 0.43907 in model_fit.json."),
        make("correct-10-pvalue-times-ten", "correct", d, ["whether price has a significant effect on revenue"],
             [part("a1", f"Yes. The coefficient on price is \u2212{abs(coef['price']):.2f} and it is highly "
                         f"significant (p \u2248 {times_ten(p['price'])}).")],
             answered="T", status="completed", task="Does price have a significant effect on revenue?",
             note="The summary printed -6.2281 and model.pvalues printed 1.075890e-07; the answer cites no file and "
                  "states both at lower precision, with a Unicode minus."),
        make("correct-11-correlation", "correct", d, ["which variable is most correlated with revenue"],
             [part("a1", f"Ad spend, with a correlation of r = {d['corr']['ad_spend']:.2f}; discount and price are "
                         f"barely correlated ({d['corr']['discount_pct']:.3f} and {d['corr']['price']:.3f}).")],
             answered="T", status="completed", task="Which variable is most correlated with revenue?",
             note="All three correlations are in the printed corr series (0.657770, -0.075675, -0.050885)."),
    ]


def _test_cases() -> list[Case]:
    a, c, h, t = ab(), churn(), houses(), trial()
    by = c["by"]
    return [
        make("correct-12-ab-rates", "correct", a, ["the conversion rate of A", "the conversion rate of B"],
             [part("a1", f"Version A converted {pct(a['rate_a'], 2)} of visitors.", AB),
              part("a2", f"Version B converted {pct(a['rate_b'])} of visitors.", AB)],
             answered="TT", status="completed", task="What conversion rates did pages A and B achieve?",
             note="9.95% and 12.3% are rate_a 0.09953 and rate_b 0.12338 in ab_result.json, said as percents."),
        make("correct-13-ab-lift", "correct", a, ["by how much page B changed conversion", "whether it is significant"],
             [part("a1", f"B lifted conversion by {a['diff'] * 100:.1f} percentage points, a "
                         f"{pct(a['relative_lift'])} relative lift over A.", AB),
              part("a2", f"The lift is statistically significant (two-proportion z-test, p = {a['p_value']:.5f}).",
                   AB)],
             answered="TT", status="completed",
             task="By how much did page B change conversion, and is the change significant?",
             note="diff 0.02385 (2.4 points), relative_lift 0.2396 (24.0%) and p_value 0.000327 (0.00033) are all "
                  "in the cited file; code computed the difference, not the model."),
        make("correct-14-churn-rate", "correct", c, ["the overall churn rate"],
             [part("a1", f"About {pct(c['overall'])} of customers churned.")],
             answered="T", status="completed", task="What is the overall churn rate?",
             note="The cell printed 'overall churn rate: 0.213'; 21.3% is the same figure."),
        make("correct-15-churn-contract", "correct", c, ["which contract type churns the most", "its churn rate"],
             [part("a1", f"Month-to-month customers churn the most: {pct(by['Month-to-month'])}, against "
                         f"{pct(by['One year'])} on one-year and {pct(by['Two year'])} on two-year contracts.",
                   "outputs/churn_by_contract.csv"),
              part("a2", f"{pct(by['Month-to-month'])} of month-to-month customers left.",
                   "outputs/churn_by_contract.csv")],
             answered="TT", status="completed", task="Which contract type churns the most, and at what rate?",
             note="33.7%, 11.1% and 5.1% are the file's 0.3368, 0.1110 and 0.0507."),
        make("correct-16-tenure-logodds", "correct", c, ["how tenure relates to churn"],
             [part("a1", f"Longer-tenured customers churn less: each additional month of tenure lowers the log-odds "
                         f"of churning by {abs(c['coef']['tenure_months']):.3f} (odds ratio "
                         f"{c['odds']['tenure_months']:.3f} per month).", "outputs/churn_logit.csv")],
             answered="T", status="completed", task="How does tenure relate to churn?",
             note="'Lowers by 0.023' is coef -0.023477; 0.977 is odds_ratio 0.97680, both in churn_logit.csv."),
        make("correct-17-odds-ratio", "correct", c, ["how support calls relate to churn"],
             [part("a1", f"Every extra support call multiplies the odds of churning by about "
                         f"{c['odds']['support_calls']:.2f}.", "outputs/churn_logit.csv")],
             answered="T", status="completed", task="How do support calls relate to churn?",
             note="1.30 is odds_ratio 1.304527 rounded to two decimals."),
        make("correct-18-house-typical", "correct", h, ["the mean house price", "the median house price"],
             [part("a1", f"The average house sells for about ${num(h['mean'], 0)}."),
              part("a2", f"The typical (median) house sells for ${num(h['median'], 0)}.")],
             answered="TT", status="completed", task="What are the mean and median house prices?",
             note="describe() printed mean 4.326633e+05 and the cell printed 'median: 413350.0'; no file is cited."),
        make("correct-19-house-hood", "correct", h, ["which neighbourhood is most expensive"],
             [part("a1", f"Lakeside is the priciest neighbourhood, with a median price of "
                         f"{thousand(h['by'].loc['Lakeside', 'median'])} dollars.",
                   "outputs/price_by_neighbourhood.csv")],
             answered="T", status="completed", task="Which neighbourhood is the most expensive?",
             note="496.1 thousand is Lakeside's median 496050.0 in price_by_neighbourhood.csv."),
        make("correct-20-trial-means", "correct", t, ["the mean blood-pressure reduction on the drug and on placebo"],
             [part("a1", f"Patients on the drug saw an average drop of {t['mean_drug']:.2f} mmHg, versus "
                         f"{t['mean_placebo']:.2f} mmHg on placebo.", "outputs/trial_result.json")],
             answered="T", status="completed",
             task="What is the average reduction in systolic blood pressure in each arm?",
             note="9.21 and 3.82 are mean_drug 9.2083 and mean_placebo 3.8175 in trial_result.json."),
    ]


def cases() -> list[Case]:
    return _sales_cases() + _test_cases()
