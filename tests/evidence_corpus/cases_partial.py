"""Answers that address only some parts of the question: what they do answer is traced, the rest is missing or
talks past the ask."""

from __future__ import annotations

from .case import Case
from .common import crit, make, num, part, pct, sci, thousand
from .scen_big import sensors, training
from .scen_more import forecast, orders, salaries, traffic
from .scen_sales import drivers, growth
from .scen_tests import ab, churn, houses, trial


def cases() -> list[Case]:
    d, g, h, a, c, t, tr, s, f, o, v, se = (drivers(), growth(), houses(), ab(), churn(), trial(), training(),
                                            salaries(), forecast(), orders(), traffic(), sensors())
    east = g["growth"].loc["East"]
    return [
        make("partial-01-drivers-no-strength", "partial", d, ["what drives revenue", "how strongly"],
             [part("a1", f"Ad spend, discount and price all drive revenue: each is significant in the regression "
                         f"(p = {sci(d['p']['discount_pct'])} for discount, {sci(d['p']['price'])} for price, and "
                         "ad spend's p-value is zero to machine precision).", "outputs/revenue_drivers.csv")],
             answered="TF", addressed="TF", status="incomplete",
             note="Names the drivers with traced p-values but never says how strongly any of them moves revenue."),
        make("partial-02-growth-no-why", "partial", g, ["which region's sales grow fastest", "why"],
             [part("a1", f"East grows fastest, at {pct(east['revenue_growth'], 2)} a month.",
                   "outputs/growth_by_region.csv"),
              part("a2", f"East's monthly growth of {east['revenue_growth']:.4f} is the highest of the five regions.",
                   "outputs/growth_by_region.csv")],
             answered="TF", addressed="TF", status="incomplete",
             note="a2 is marked answered by the model but restates the growth rate; it gives no reason at all."),
        make("partial-03-houses-no-hoods", "partial", h, ["the mean house price", "the median house price",
                                                          "how prices differ by neighbourhood"],
             [part("a1", f"${num(h['mean'])}."), part("a2", f"${num(h['median'])}.")],
             answered="TTF", addressed="TTF", status="incomplete",
             note="Mean and median are traced; the neighbourhood comparison the question asks for is missing."),
        make("partial-04-ab-no-significance", "partial", a, ["whether page B raised conversion", "by how much",
                                                             "whether the change is significant"],
             [part("a1", f"Yes: {pct(a['rate_b'], 2)} against {pct(a['rate_a'], 2)}.", "outputs/ab_result.json"),
              part("a2", f"By {a['diff'] * 100:.2f} percentage points.", "outputs/ab_result.json")],
             answered="TTF", addressed="TTF", status="incomplete",
             task="Did the new checkout page (B) raise conversion, by how much, and is the change significant?",
             note="The test was run and saved, but the answer never says whether the lift is significant."),
        make("partial-05-churn-rate-only", "partial", c, ["which customers churn the most", "the overall churn rate"],
             [part("a2", f"The overall churn rate is {pct(c['overall'])}.")],
             answered="FT", addressed="FT", status="incomplete",
             note="The part for 'which customers' is missing and nothing in the answer says who churns most."),
        make("partial-06-trial-no-test", "partial", t, ["how large the drug's effect is", "whether it is significant"],
             [part("a1", f"The drug lowers systolic pressure {t['difference']:.2f} mmHg more than placebo.",
                   "outputs/trial_result.json")],
             answered="TF", addressed="TF", status="incomplete",
             task="How large is the drug's effect, and is it significant?",
             note="The effect size is traced; significance is never addressed."),
        make("partial-07-training-no-auc", "partial", tr, ["the classifier's accuracy on held-out customers",
                                                           "its AUC"],
             [part("a1", f"It is {pct(tr['accuracy'])} accurate on the test set.", "outputs/test_metrics.json")],
             answered="TF", addressed="TF", status="incomplete",
             note="Accuracy traced in test_metrics.json; the AUC, saved beside it, is never mentioned."),
        make("partial-08-salaries-orchestrated", "partial", s, ["how salaries differ by department",
                                                                "whether there is a gender pay gap"],
             [part("a1", f"Engineering pays most ({thousand(s['by_dept'].loc['Engineering', 'mean'])} on average), "
                         f"Operations least ({thousand(s['by_dept'].loc['Operations', 'mean'])}).",
                   "outputs/salary_by_department.csv")],
             answered="TF", addressed="TF", status="incomplete",
             criteria=[crit("c1", "Salaries are summarised by department",
                            "outputs/salary_by_department.csv has `mean`, `median` and `count` for each department.")],
             note="The criterion holds and the department part is traced; the gender gap is never addressed."),
        make("partial-09-forecast-no-accuracy", "partial", f, ["the expected revenue next month",
                                                               "how accurate the forecast is"],
             [part("a1", f"About {thousand(f['forecast'])} in January 2024.", "outputs/forecast.json"),
              part("a2", "Not assessed: the forecast comes from a log-linear trend with a term for each calendar "
                         "month.", answered=False)],
             answered="TF", addressed="TF", status="incomplete",
             note="The model itself marks a2 unanswered: it describes the method and never says how accurate the "
                  "forecast is, though the holdout MAPE was saved."),
        make("partial-10-orders-no-aov", "partial", o, ["what share of revenue comes from returning customers",
                                                        "how their average order differs from new customers'"],
             [part("a1", f"Returning customers bring {pct(o['share_returning'])} of revenue.",
                   "outputs/customer_types.json")],
             answered="TF", addressed="TF", status="incomplete",
             note="The share is traced; average order values are never compared."),
        make("partial-11-traffic-peak-only", "partial", v, ["which day of the week peaks", "which day is quietest"],
             [part("a1", f"Saturday, with {v['by_day']['Saturday']:,.1f} visits on average.",
                   "outputs/visits_by_weekday.csv")],
             answered="TF", addressed="TF", status="incomplete",
             task="Which day of the week gets the most visits, and which the fewest?",
             note="The quietest day is never named."),
        make("partial-12-sensors-hot-only", "partial", se, ["the average temperature of each sensor",
                                                            "which sensor runs abnormally hot"],
             [part("a2", f"S07 runs hot at {se['table'].loc['S07', 'mean']:.2f} \u00b0C on average.",
                   "outputs/sensor_summary.csv")],
             answered="FT", addressed="FT", status="incomplete",
             note="Only S07's average is given; the other eleven sensors' averages, asked for, are missing."),
    ]
