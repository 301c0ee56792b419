"""More correct answers: megabyte outputs, a retry after an error, orchestrated runs whose criteria hold."""

from __future__ import annotations

from .case import Case
from .common import crit, make, num, part, pct, raised, thousand, times_ten
from .scen_big import channels, grid, sensors, training
from .scen_more import forecast, orders, salaries, traffic
from .scen_sales import drivers, regions
from .scen_tests import ab, trial

TRIAL = "outputs/trial_result.json"
CUST = "outputs/customer_types.json"
FC = "outputs/forecast.json"


def _small() -> list[Case]:
    t, v, s, o, f = trial(), traffic(), salaries(), orders(), forecast()
    by_dept, day = s["by_dept"], v["by_day"]
    return [
        make("correct-21-trial-effect", "correct", t, ["how large the drug's effect is relative to placebo",
                                                       "whether the difference is significant"],
             [part("a1", f"The drug lowers systolic pressure by {t['difference']:.2f} mmHg more than placebo "
                         f"(confidence interval {t['ci_low']:.2f} to {t['ci_high']:.2f} mmHg).", TRIAL),
              part("a2", f"Yes, highly significant: Welch's t = {t['t']:.2f}, p = {times_ten(t['p_value'])}.", TRIAL)],
             answered="TT", status="completed",
             task="How large is the drug's effect relative to placebo, and is it significant?",
             note="difference 5.3908, the interval 3.808 to 6.974, t 6.6755 and p 1.72e-10 are all in "
                  "trial_result.json; code computed the difference."),
        make("correct-22-peak-day", "correct", v, ["which day of the week gets the most visits"],
             [part("a1", f"Saturday is the busiest day: {day['Saturday']:,.1f} visits on average, "
                         f"{v['index']['Saturday']:.3f} times the average day.", "outputs/visits_by_weekday.csv")],
             answered="T", status="completed", task="Which day of the week gets the most visits?",
             note="2,022.6 is mean_visits 2022.596 and 1.125 is the index column, both in visits_by_weekday.csv."),
        make("correct-23-quiet-day", "correct", v, ["which day of the week is quietest"],
             [part("a1", f"Friday is the quietest day, averaging {day['Friday']:,.1f} visits against an overall "
                         f"daily mean of {v['overall']:,.1f}.")],
             answered="T", status="completed", task="Which day of the week is quietest?",
             note="Both figures are in the printed table and the printed overall mean; no file is cited."),
        make("correct-24-top-department", "correct", s, ["which department pays the most"],
             [part("a1", f"Engineering pays the most, averaging {thousand(by_dept.loc['Engineering', 'mean'])} a "
                         f"year (median {num(by_dept.loc['Engineering', 'median'])}).",
                   "outputs/salary_by_department.csv")],
             answered="T", status="completed", task="Which department pays the most?",
             note="121.0 thousand is the mean 121014.66 and 120,087 the median in salary_by_department.csv."),
        make("correct-25-gap-words", "correct", s, ["how large the overall gender pay gap is"],
             [part("a1", f"Women earn on average {s['gap']:.2f}% less than men across the company.")],
             answered="T", status="completed", task="How large is the overall gender pay gap?",
             note="The cell printed 'overall gap: 4.92%', the gap as a share of men's mean pay, as the answer says."),
        make("correct-26-returning-share", "correct", o, ["what share of revenue comes from returning customers"],
             [part("a1", f"Returning customers generate {pct(o['share_returning'])} of revenue.", CUST)],
             answered="T", status="completed", task="What share of revenue comes from returning customers?",
             note="45.5% is share_returning 0.45486 in customer_types.json."),
        make("correct-27-aov-difference", "correct", o, ["how the average order of returning customers differs "
                                                         "from new customers'"],
             [part("a1", f"Returning customers spend \u20ac{o['aov_returning']:.2f} per order on average versus "
                         f"\u20ac{o['aov_new']:.2f} for new customers, \u20ac{o['aov_diff']:.2f} more.", CUST)],
             answered="T", status="completed",
             task="How does the average order of returning customers differ from new customers'?",
             note="All three figures are in customer_types.json; the difference aov_diff was computed by code."),
        make("correct-28-customer-count", "correct", o, ["how many distinct customers placed orders"],
             [part("a1", f"{num(o['customers'])} distinct customers placed the {num(o['orders'])} orders.", CUST)],
             answered="T", status="completed", task="How many distinct customers placed orders?",
             note="3,454 and 6,000 are customers and orders in customer_types.json."),
        make("correct-29-forecast-file", "correct", f,
             ["the expected revenue next month", "how accurate the forecast is"],
             [part("a1", f"We expect about {thousand(f['forecast'])} in revenue in January 2024.", FC),
              part("a2", f"On the last six months, held out, the model's mean absolute percentage error was "
                         f"{pct(f['mape_holdout'])}.", FC)],
             answered="TT", status="completed",
             note="104.7 thousand is forecast 104683.16 and 3.4% is mape_holdout 0.0343 in forecast.json."),
        make("correct-30-forecast-printed", "correct", f,
             ["the expected revenue next month", "how accurate the forecast is"],
             [part("a1", f"Expected revenue for January 2024 is roughly {num(f['forecast'])}."),
              part("a2", f"Its average error on the held-out months is {f['mape_holdout']:.3f} (MAPE, as a "
                         "fraction).")],
             answered="TT", status="completed",
             note="The forecast cell printed the JSON with 104683.16 and the MAPE 0.0343; no file is cited."),
        make("correct-31-gap-fraction", "correct", s, ["which department has the widest gender pay gap", "how wide"],
             [part("a1", f"Marketing has the widest gap, {s['pivot'].loc['Marketing', 'gap_pct']:.2f}% (Operations the "
                         f"narrowest, {s['pivot'].loc['Operations', 'gap_pct']:.2f}%).", "outputs/gender_gap.csv"),
              part("a2", f"Women in Marketing earn {s['pivot'].loc['Marketing', 'gap_pct'] / 100:.3f} less than men, "
                         "as a fraction of men's average pay.", "outputs/gender_gap.csv")],
             answered="TT", status="completed",
             task="Which department has the widest gender pay gap, and how wide is it?",
             note="7.98% and 4.52% are gap_pct in gender_gap.csv; a2's 0.080 is the same 7.98 said as a fraction."),
    ]


def _big() -> list[Case]:
    ch, se, tr, gr = channels(), sensors(), training(), grid()
    by, tab = ch["by"], se["table"]
    each = "; ".join(f"{k} {v:.2f} \u00b0C" for k, v in tab["mean"].sort_index().items())
    best = gr["best_params"]
    return [
        make("correct-32-channel-big", "correct", ch, ["which channel brings more revenue per order", "by how much"],
             [part("a1", f"Online orders bring more: {by.loc['Online', 'mean']:,.2f} per order against "
                         f"{by.loc['Retail', 'mean']:,.2f} for retail.", "outputs/channel_summary.csv"),
              part("a2", f"About {ch['diff']:.2f} more per order, {ch['ratio']:.3f} times the retail figure.")],
             answered="TT", status="completed",
             note="The means are in channel_summary.csv; a2 cites nothing and its 223.20 and 1.081 were printed by "
                  "the cell that computed them (next to a 1.8 MB dump of the whole frame)."),
        make("correct-33-sensor-big", "correct", se, ["the average temperature of each sensor",
                                                      "which sensor runs abnormally hot"],
             [part("a1", f"Average temperature by sensor: {each}.", "outputs/sensor_summary.csv"),
              part("a2", f"{se['hot']} runs abnormally hot: {tab['mean'].iloc[0]:.1f} \u00b0C on average, a z-score "
                         f"of {tab['z'].iloc[0]:.2f} against the other sensors.", "outputs/sensor_summary.csv")],
             answered="TT", status="completed",
             note="Every mean and S07's z-score 3.175 are in sensor_summary.csv; the 1.4 MB printed frame is beside "
                  "the point."),
        make("correct-34-training-big", "correct", tr, ["the classifier's accuracy on held-out customers",
                                                        "its AUC"],
             [part("a1", f"It classifies {pct(tr['accuracy'])} of the {tr['n_test']} held-out customers correctly.",
                   "outputs/test_metrics.json"),
              part("a2", f"Its AUC on the test set is {tr['auc']:.3f}.", "outputs/test_metrics.json")],
             answered="TT", status="completed",
             note="accuracy 0.8344, n_test 900 and auc 0.88499 are in test_metrics.json; the 1.3 MB training log "
                  "only shows training-batch figures."),
        make("correct-35-grid-big", "correct", gr, ["which hyperparameters give the best cross-validated AUC",
                                                    "what AUC they reach"],
             [part("a1", f"learning_rate {best['learning_rate']}, max_depth {best['max_depth']}, n_estimators "
                         f"{best['n_estimators']}, min_child_weight {best['min_child_weight']} and colsample_bytree "
                         f"{best['colsample_bytree']}.", "outputs/best_model.json"),
              part("a2", f"That setting reaches a mean cross-validated AUC of {gr['best_score']:.3f}.",
                   "outputs/best_model.json")],
             answered="TT", status="completed",
             note="The best parameters and best_score 0.842 are in best_model.json, after 12,000 logged fits."),
    ]


def _retry_and_orchestrated() -> list[Case]:
    d, r, a = drivers(), regions(), ab()
    coef = d["coef"]
    failed = raised("import statsmodels.api as sm\n\nX = sm.add_constant(df[['discount', 'ad_spend', 'price']])\n"
                    "model = sm.OLS(df['revenue'], X).fit()", "KeyError: \"['discount'] not in index\"", 2,
                    line="X = sm.add_constant(df[['discount', 'ad_spend', 'price']])")
    retry_cells = [d.fresh_cells()[0], failed, *d.fresh_cells()[3:]]
    rev, share = r["rev"], r["share"]
    return [
        make("correct-36-after-retry", "correct", d, ["what drives revenue"],
             [part("a1", f"Ad spend drives revenue most: each extra $1k adds {coef['ad_spend']:.2f} per order; each "
                         f"point of discount lowers it by {abs(coef['discount_pct']):.2f}.",
                   "outputs/revenue_drivers.csv")],
             answered="T", status="completed", cells=retry_cells, task="What drives revenue?",
             note="The first fit raised a KeyError; the corrected cells ran and wrote revenue_drivers.csv, which "
                  "holds 236.15 and -6.02."),
        make("correct-37-orchestrated-regions", "correct", r, ["the total revenue of each region",
                                                               "which region earns the most"],
             [part("a1", "; ".join(f"{k}: {v:,.0f}" for k, v in rev.items()) + ".", "outputs/revenue_by_region.csv"),
              part("a2", f"East, with {pct(share['East'])} of all revenue.", "outputs/revenue_by_region.csv")],
             answered="TT", status="completed",
             criteria=[crit("c1", "Revenue is totalled for every region",
                            "outputs/revenue_by_region.csv has one row per region with column `revenue`: "
                            + ", ".join(f"{k} {v}" for k, v in rev.items()) + "."),
                       crit("c2", "Each region's share of total revenue is reported",
                            f"outputs/revenue_by_region.csv has a `share` column; East's share is "
                            f"{share['East']:.3f} and West's {share['West']:.3f}.")],
             note="Both criteria quote the file faithfully and the parts state its figures, rounded."),
        make("correct-38-orchestrated-drivers", "correct", d, ["what drives revenue", "how strongly"],
             [part("a1", f"Ad spend is the main driver (coefficient {coef['ad_spend']:.2f}); discount "
                         f"({coef['discount_pct']:.2f}) and price ({coef['price']:.2f}) pull revenue down.",
                   "outputs/revenue_drivers.csv"),
              part("a2", f"Each $1k of ad spend adds {coef['ad_spend']:.1f} per order, each discount point removes "
                         f"{abs(coef['discount_pct']):.2f} and each unit of price {abs(coef['price']):.2f}; the model "
                         f"explains {pct(d['r2'])} of the variance.", "outputs/revenue_drivers.csv",
                   "outputs/model_fit.json")],
             answered="TT", status="completed",
             criteria=[crit("c1", "A regression of revenue on discount, ad spend and price is fitted",
                            f"outputs/revenue_drivers.csv lists `coef`, `std_err` and `p_value` for discount_pct "
                            f"({coef['discount_pct']:.3f}), ad_spend ({coef['ad_spend']:.3f}) and price "
                            f"({coef['price']:.3f})."),
                       crit("c2", "The model's explanatory power is reported",
                            f"outputs/model_fit.json gives r_squared {d['r2']:.4f} and adj_r_squared "
                            f"{d['adj_r2']:.4f} over n = {d['n']} orders.")],
             note="Five cells over four stages; the criteria quote revenue_drivers.csv and model_fit.json as they "
                  "are, and the parts round the same coefficients (236.15, -6.02, -6.23) and R-squared (43.9%)."),
        make("correct-39-orchestrated-ab", "correct", a, ["whether page B raised conversion", "by how much"],
             [part("a1", f"Yes: B converted {pct(a['rate_b'], 2)} of users against {pct(a['rate_a'], 2)} for A "
                         f"(p = {a['p_value']:.4f}).", "outputs/ab_result.json"),
              part("a2", f"By {a['diff'] * 100:.2f} percentage points, a relative lift of {pct(a['relative_lift'])}.",
                   "outputs/ab_result.json")],
             answered="TT", status="completed",
             criteria=[crit("c1", "Conversion rates of both variants are computed",
                            f"outputs/ab_result.json: rate_a {a['rate_a']:.4f}, rate_b {a['rate_b']:.4f}."),
                       crit("c2", "The difference is tested for significance",
                            f"outputs/ab_result.json reports z = {a['z']:.3f} and p_value {a['p_value']:.6f}.")],
             note="Every quoted and stated figure is in ab_result.json; 2.38 points is diff 0.023846, computed by "
                  "code."),
    ]


def cases() -> list[Case]:
    return _small() + _big() + _retry_and_orchestrated()
