"""Open questions of several parts, every part answered from what executed code printed or saved."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from .case import Case
from .common import Scenario, crit, make, num, part, pct, thousand, times_ten
from .scen_big import channels, grid, sensors, training
from .scen_more import forecast, orders, salaries, traffic
from .scen_sales import drivers, growth, regions
from .scen_tests import ab, churn, houses, trial

COEF, FIT, GROWTH = "outputs/revenue_drivers.csv", "outputs/model_fit.json", "outputs/growth_by_region.csv"


@cache
def pipeline() -> Scenario:
    """Ten cells over four plan stages: totals, drivers, growth."""
    r, d, g = regions().cells, drivers().cells, growth().cells
    staged = [(r[0], 1), (d[1], 1), (r[1], 2), (r[2], 2), (d[2], 2), (d[3], 3), (d[4], 3), (g[1], 4), (g[2], 4),
              (g[3], 4)]
    return Scenario(task="Which region earns the most, what drives revenue and how strongly, and which region "
                         "grows fastest?", cells=tuple(replace(c, stage=s) for c, s in staged),
                    inputs=regions().inputs)


def _sales() -> list[Case]:
    d, g, r, p = drivers(), growth(), regions(), pipeline()
    c, tab = d["coef"], g["growth"]
    east = tab.loc["East"]
    drv = [part("a1", f"Ad spend is the dominant driver (correlation {d['corr']['ad_spend']:.2f} with revenue); "
                      f"discount ({d['corr']['discount_pct']:.3f}) and price ({d['corr']['price']:.3f}) matter little "
                      "on their own."),
           part("a2", f"Per $1k of ad spend revenue rises {c['ad_spend']:.1f}; each discount point lowers it "
                      f"{abs(c['discount_pct']):.2f} and each unit of price {abs(c['price']):.2f}; together they "
                      f"explain {pct(d['r2'])} of the variance.", COEF, FIT)]
    return [
        make("multipart-01-drivers", "multipart", d, ["what drives revenue", "how strongly"], drv, answered="TT",
             status="completed", note="Correlations from the printed series, effects and R-squared from the cited "
                                      "files; 'lowers it' states the negative coefficients in words."),
        make("multipart-02-growth-why", "multipart", g, ["which region's sales grow fastest", "why"],
             [part("a1", f"East, at {pct(east['revenue_growth'], 2)} a month.", GROWTH),
              part("a2", f"East's unit sales grow {pct(east['units_growth'], 2)} a month while its average price "
                         f"barely moves, and its ad spend rises {pct(east['ad_spend_growth'], 2)} a month; its "
                         f"monthly revenue tracks ad spend closely (correlation {g['east_r']:.3f}).")],
             answered="TT", status="completed",
             note="a1 from growth_by_region.csv; a2 cites nothing and every figure is in the printed growth table "
                  "or the printed correlation 0.976."),
        make("multipart-03-pipeline", "multipart", p, ["which region earns the most", "what drives revenue",
                                                       "how strongly", "which region grows fastest"],
             [part("a1", f"East, with {num(r['rev']['East'])} ({pct(r['share']['East'])} of revenue).",
                   "outputs/revenue_by_region.csv"),
              part("a2", f"Ad spend above all (coefficient {c['ad_spend']:.2f}), with discount and price pulling "
                         f"revenue down ({c['discount_pct']:.2f} and {c['price']:.2f}).", COEF),
              part("a3", f"The three factors explain {pct(d['r2'])} of the variance.", FIT),
              part("a4", f"East again, growing {pct(east['revenue_growth'], 2)} a month.", GROWTH)],
             answered="TTTT", status="completed",
             criteria=[crit("c1", "Revenue is totalled for every region",
                            "outputs/revenue_by_region.csv has columns `revenue` and `share` for all five regions."),
                       crit("c2", "Drivers are quantified",
                            f"outputs/revenue_drivers.csv gives `coef` {c['ad_spend']:.3f} for ad_spend; "
                            f"outputs/model_fit.json gives r_squared {d['r2']:.4f}."),
                       crit("c3", "Growth is compared across regions",
                            f"outputs/growth_by_region.csv: East `revenue_growth` {east['revenue_growth']:.4f}, the "
                            "highest.")],
             note="Ten cells over four stages; every part and criterion is backed by the file it cites."),
    ]


def _tests() -> list[Case]:
    a, c, h, t = ab(), churn(), houses(), trial()
    by, hb = c["by"], h["by"]
    hoods = ", ".join(f"{k} {num(hb.loc[k, 'mean'])} / {num(hb.loc[k, 'median'])}" for k in hb.index)
    return [
        make("multipart-04-houses", "multipart", h, ["the mean house price", "the median house price",
                                                     "how prices differ by neighbourhood"],
             [part("a1", f"The mean price is ${num(h['mean'])}."), part("a2", f"The median is ${num(h['median'])}."),
              part("a3", f"Mean / median by neighbourhood: {hoods}; Lakeside is dearest and Old Town cheapest.",
                   "outputs/price_by_neighbourhood.csv")],
             answered="TTT", status="completed",
             note="Mean and median from the printed describe() and median; the neighbourhood figures from the file."),
        make("multipart-05-ab", "multipart", a, ["whether page B raised conversion", "by how much",
                                                 "whether the change is significant"],
             [part("a1", f"Yes: {pct(a['rate_b'], 2)} of B's visitors converted against {pct(a['rate_a'], 2)} of "
                         "A's.", "outputs/ab_result.json"),
              part("a2", f"By {a['diff'] * 100:.2f} percentage points, {pct(a['relative_lift'])} in relative terms.",
                   "outputs/ab_result.json"),
              part("a3", f"Yes, z = {a['z']:.2f} and p = {sci3(a['p_value'])}.", "outputs/ab_result.json")],
             answered="TTT", status="completed",
             task="Did the new checkout page (B) raise conversion, by how much, and is the change significant?",
             note="Every figure is in ab_result.json, the lift included (code computed it)."),
        make("multipart-06-churn", "multipart", c, ["the overall churn rate", "which customers churn the most",
                                                    "how strongly tenure and support calls matter"],
             [part("a1", f"{pct(c['overall'])} of customers churned."),
              part("a2", f"Month-to-month customers ({pct(by['Month-to-month'])}), far above one-year "
                         f"({pct(by['One year'])}) and two-year ({pct(by['Two year'])}) customers.",
                   "outputs/churn_by_contract.csv"),
              part("a3", f"Each month of tenure multiplies the odds of churn by {c['odds']['tenure_months']:.3f}, "
                         f"each support call by {c['odds']['support_calls']:.3f}.", "outputs/churn_logit.csv")],
             answered="TTT", status="completed",
             task="What is the overall churn rate, which customers churn the most, and how strongly do tenure and "
                  "support calls matter?",
             note="Rate printed, contract rates and odds ratios in the cited files."),
        make("multipart-07-trial", "multipart", t, ["the mean reduction on the drug", "the mean reduction on placebo",
                                                    "whether the difference is significant"],
             [part("a1", f"{t['mean_drug']:.2f} mmHg.", "outputs/trial_result.json"),
              part("a2", f"{t['mean_placebo']:.2f} mmHg.", "outputs/trial_result.json"),
              part("a3", f"Yes: the {t['difference']:.2f} mmHg difference has p = {times_ten(t['p_value'], 2)}.",
                   "outputs/trial_result.json")],
             answered="TTT", status="completed",
             task="What is the mean blood-pressure reduction on the drug and on placebo, and is the difference "
                  "significant?",
             note="All in trial_result.json; p = 1.72 × 10^-10 is p_value 1.7242e-10."),
        make("multipart-08-trial-orchestrated", "multipart", t, ["how large the drug's effect is",
                                                                 "whether it is significant"],
             [part("a1", f"{t['difference']:.1f} mmHg more than placebo on average.", "outputs/trial_result.json"),
              part("a2", f"Yes, Welch's t = {t['t']:.2f}, p = {times_ten(t['p_value'])}.")],
             answered="TT", status="completed",
             criteria=[crit("c1", "Both arms' mean reductions are computed",
                            f"outputs/trial_result.json: mean_drug {t['mean_drug']:.3f}, mean_placebo "
                            f"{t['mean_placebo']:.4f}."),
                       crit("c2", "The difference is tested",
                            f"outputs/trial_result.json: t {t['t']:.4f}, p_value {t['p_value']:.3e}.")],
             note="Criteria quote the file faithfully; a2 cites nothing and its figures were printed."),
    ]


def sci3(x: float) -> str:
    return f"{x:.2e}"


def _more() -> list[Case]:
    v, s, o, f = traffic(), salaries(), orders(), forecast()
    idx, pv = v["index"], s["pivot"]
    return [
        make("multipart-09-traffic", "multipart", v, ["whether there is a weekly pattern", "which day peaks",
                                                      "how far above average the peak is"],
             [part("a1", f"Yes: weekends are busier (Saturday's index {idx['Saturday']:.3f}, Sunday's "
                         f"{idx['Sunday']:.3f}) while weekdays run from {idx['Friday']:.3f} (Friday) to "
                         f"{idx['Wednesday']:.3f} (Wednesday).", "outputs/visits_by_weekday.csv"),
              part("a2", f"Saturday, with {v['by_day']['Saturday']:,.1f} visits on average.",
                   "outputs/visits_by_weekday.csv"),
              part("a3", f"{idx['Saturday']:.3f} times the overall daily mean of {v['overall']:,.1f}.")],
             answered="TTT", status="completed",
             task="Is there a weekly pattern in site visits, which day peaks, and how far above average is it?",
             note="The index (day mean over overall mean) was computed by code; all figures traced."),
        make("multipart-10-salaries", "multipart", s, ["how salaries differ by department",
                                                       "whether there is a gender pay gap", "how large it is"],
             [part("a1", f"Engineering averages {thousand(s['by_dept'].loc['Engineering', 'mean'])}, Operations "
                         f"{thousand(s['by_dept'].loc['Operations', 'mean'])}.", "outputs/salary_by_department.csv"),
              part("a2", f"Yes, in every department: from {pv['gap_pct'].min():.1f}% in Operations to "
                         f"{pv['gap_pct'].max():.1f}% in Marketing.", "outputs/gender_gap.csv"),
              part("a3", f"Overall women earn {s['gap']:.1f}% less than men.")],
             answered="TTT", status="completed",
             task="How do salaries differ by department, is there a gender pay gap, and how large is it?",
             note="Department means and per-department gaps from the files; the overall 4.9% from the printed line."),
        make("multipart-11-orders", "multipart", o, ["what share of revenue comes from returning customers",
                                                     "how their average order differs from new customers'"],
             [part("a1", f"{pct(o['share_returning'], 2)} of revenue.", "outputs/customer_types.json"),
              part("a2", f"Their orders average {o['aov_returning']:.2f} against {o['aov_new']:.2f}, "
                         f"{o['aov_diff']:.2f} more.", "outputs/customer_types.json")],
             answered="TT", status="completed", note="All four figures are in customer_types.json."),
        make("multipart-12-forecast", "multipart", f, ["the expected revenue next month",
                                                       "how accurate the forecast is", "the underlying trend"],
             [part("a1", f"About {num(f['forecast'])}.", "outputs/forecast.json"),
              part("a2", f"Its error on six held-out months averages {pct(f['mape_holdout'], 2)} (MAPE).",
                   "outputs/forecast.json"),
              part("a3", f"Revenue trends up about {pct(f['monthly_trend'], 2)} a month.", "outputs/forecast.json")],
             answered="TTT", status="completed",
             task="What revenue should we expect next month, how accurate is the forecast, and what is the trend?",
             note="All from forecast.json, said as percents where the file holds fractions."),
    ]


def _big() -> list[Case]:
    ch, se, tr, gr = channels(), sensors(), training(), grid()
    by, tab = ch["by"], se["table"]
    return [
        make("multipart-13-channels", "multipart", ch, ["which channel brings more revenue per order", "by how much",
                                                        "how many orders each channel had"],
             [part("a1", f"Online ({by.loc['Online', 'mean']:,.2f} per order).", "outputs/channel_summary.csv"),
              part("a2", f"{ch['diff']:.2f} more than retail ({by.loc['Retail', 'mean']:,.2f}).",
                   "outputs/channel_summary.csv"),
              part("a3", f"{num(by.loc['Online', 'count'])} online and {num(by.loc['Retail', 'count'])} retail "
                         "orders.", "outputs/channel_summary.csv")],
             answered="TTT", status="completed",
             task="Which sales channel brings more revenue per order, by how much, and how many orders did each have?",
             note="All in channel_summary.csv (diff_vs_retail 223.20 computed by code); the 1.8 MB dump is noise."),
        make("multipart-14-sensors", "multipart", se, ["the average temperature of each sensor",
                                                       "which sensor runs abnormally hot", "how far it stands out"],
             [part("a1", "; ".join(f"{k} {v:.3f}" for k, v in tab["mean"].items()) + ".",
                   "outputs/sensor_summary.csv"),
              part("a2", f"S07, averaging {tab.loc['S07', 'mean']:.1f} \u00b0C.", "outputs/sensor_summary.csv"),
              part("a3", f"Its z-score is {tab.loc['S07', 'z']:.3f}; every other sensor sits between "
                         f"{tab['z'].min():.3f} and {tab['z'].iloc[1]:.3f}.", "outputs/sensor_summary.csv")],
             answered="TTT", status="completed",
             task="What is the average temperature of each sensor, which runs abnormally hot, and how far does it "
                  "stand out?",
             note="Means and z-scores from sensor_summary.csv, next to a 1.4 MB printed frame."),
        make("multipart-15-training", "multipart", tr, ["the classifier's accuracy", "its AUC",
                                                        "its precision and recall"],
             [part("a1", f"{pct(tr['accuracy'], 2)} on {tr['n_test']} held-out customers.",
                   "outputs/test_metrics.json"),
              part("a2", f"{tr['auc']:.4f}.", "outputs/test_metrics.json"),
              part("a3", f"Precision {tr['precision']:.3f}, recall {tr['recall']:.3f}.", "outputs/test_metrics.json")],
             answered="TTT", status="completed",
             task="How accurate is the churn classifier on held-out customers, what is its AUC, and what are its "
                  "precision and recall?",
             note="All in test_metrics.json; the 1.3 MB training log is beside the point."),
        make("multipart-16-grid", "multipart", gr, ["which hyperparameters work best", "what AUC they reach",
                                                    "how many candidates were tried"],
             [part("a1", f"learning_rate {gr['best_params']['learning_rate']}, n_estimators "
                         f"{gr['best_params']['n_estimators']}, max_depth 4, min_child_weight 3, colsample_bytree "
                         f"{gr['best_params']['colsample_bytree']}.", "outputs/best_model.json"),
              part("a2", f"A cross-validated AUC of {gr['best_score']:.4f}.", "outputs/best_model.json"),
              part("a3", f"{num(gr['n_fits'] // 5)} candidates, {num(gr['n_fits'])} fits in all.")],
             answered="TTT", status="completed",
             task="Which hyperparameters work best, what AUC do they reach, and how many candidates were tried?",
             note="Best parameters and score from best_model.json; the counts from the first line of the 1.6 MB "
                  "search log."),
    ]


def _orchestrated_churn() -> list[Case]:
    c = churn()
    by = c["by"]
    return [make("multipart-17-churn-orchestrated", "multipart", c, ["which customers churn the most",
                                                                     "the overall churn rate"],
                 [part("a1", f"Month-to-month customers: {pct(by['Month-to-month'], 2)} churned, and every extra "
                             f"support call raises the odds by a factor of {c['odds']['support_calls']:.2f}.",
                       "outputs/churn_by_contract.csv", "outputs/churn_logit.csv"),
                  part("a2", f"{c['overall']:.3f}, i.e. {pct(c['overall'])}.")],
                 answered="TT", status="completed",
                 criteria=[crit("c1", "Churn is broken down by contract",
                                f"outputs/churn_by_contract.csv: Month-to-month {by['Month-to-month']:.4f}, Two year "
                                f"{by['Two year']:.4f} (column `churned`)."),
                           crit("c2", "Drivers of churn are modelled",
                                f"outputs/churn_logit.csv has `odds_ratio` {c['odds']['support_calls']:.4f} for "
                                "support_calls.")],
                 note="A part may cite two files; each figure is in one of them.")]


def cases() -> list[Case]:
    return _sales() + _tests() + _more() + _big() + _orchestrated_churn()
