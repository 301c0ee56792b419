"""Orchestrated runs whose criteria evidence misstates what it cites: a figure or column the file lacks, a file
that was never written, or one written by a cell that raised. The answers themselves are mostly sound."""

from __future__ import annotations

from .case import Case, CriterionCase
from .common import crit, make, part, pct, raised
from .scen_big import sensors
from .scen_more import forecast, salaries
from .scen_sales import drivers, regions
from .scen_tests import ab, churn, houses, trial

# case id -> (the figure as the evidence quotes it, the same figure with its true sign as the cited file holds it)
SIGN_FLIPS: dict[str, tuple[str, str]] = {"misquoted-07-sign-flipped": ("+6.019", "-6.0189")}

REV, COEF, FIT = "outputs/revenue_by_region.csv", "outputs/revenue_drivers.csv", "outputs/model_fit.json"


def _drivers_parts() -> list:
    d = drivers()
    c = d["coef"]
    return [part("a1", f"Ad spend drives revenue most (coefficient {c['ad_spend']:.2f}); discount "
                       f"({c['discount_pct']:.2f}) and price ({c['price']:.2f}) pull it down.", COEF),
            part("a2", f"Each $1k of ad spend adds {c['ad_spend']:.1f} per order; the three factors explain "
                       f"{pct(d['r2'])} of the variance.", COEF, FIT)]


def _coef_crit() -> CriterionCase:
    c = drivers()["coef"]
    return crit("c1", "A regression of revenue on discount, ad spend and price is fitted",
                f"outputs/revenue_drivers.csv lists `coef` for discount_pct ({c['discount_pct']:.3f}), ad_spend "
                f"({c['ad_spend']:.3f}) and price ({c['price']:.3f}).")


def _region_parts() -> list:
    r = regions()
    return [part("a1", "; ".join(f"{k} {v:,.0f}" for k, v in r["rev"].items()) + ".", REV),
            part("a2", f"East, with {pct(r['share']['East'])} of the total.", REV)]


def cases() -> list[Case]:
    d, r, c, a, f, t, s, h, se = (drivers(), regions(), churn(), ab(), forecast(), trial(), salaries(), houses(),
                                  sensors())
    drv_asks, reg_asks = ["what drives revenue", "how strongly"], ["the total revenue of each region",
                                                                   "which region earns the most"]
    by = c["by"]
    churn_parts = [part("a1", f"Month-to-month customers, {pct(by['Month-to-month'])} of whom churned.",
                        "outputs/churn_by_contract.csv"),
                   part("a2", f"{pct(c['overall'])} overall.")]
    ab_failed = raised(a.cells[2].code + "\nprint(f'95% CI for the lift: {ci_low:.4f} to {ci_high:.4f}')",
                       "NameError: name 'ci_low' is not defined", 3, printed=a.cells[2].output,
                       files=dict(a.cells[2].files), stage=3)
    return [
        make("misquoted-01-r2", "misquoted", d, drv_asks, _drivers_parts(), answered="TT", status="incomplete",
             criteria=[_coef_crit(), crit("c2", "The model's explanatory power is reported",
                                          "outputs/model_fit.json gives r_squared 0.74.", holds=False)],
             note="model_fit.json holds r_squared 0.4391; the quoted 0.74 is not in it, so c2 does not hold."),
        make("misquoted-02-missing-column", "misquoted", r, reg_asks, _region_parts(), answered="TT",
             status="incomplete",
             criteria=[crit("c1", "Revenue and margin are tabulated for every region",
                            "outputs/revenue_by_region.csv has columns `revenue` and `net_margin` for every region.",
                            holds=False)],
             note="The file's columns are region, revenue and share: there is no net_margin column."),
        make("misquoted-03-missing-file", "misquoted", c, ["which customers churn the most", "the overall churn rate"],
             churn_parts, answered="TT", status="incomplete",
             criteria=[crit("c1", "Churn rates by contract are computed",
                            f"outputs/churn_by_contract.csv: Month-to-month {by['Month-to-month']:.4f}, One year "
                            f"{by['One year']:.4f}, Two year {by['Two year']:.4f}."),
                       crit("c2", "The churn model is evaluated",
                            "outputs/model_metrics.json reports an AUC of 0.71 for the logit.", holds=False)],
             note="No cell wrote outputs/model_metrics.json, so c2 rests on a file that does not exist."),
        make("misquoted-04-file-of-failed-cell", "misquoted", a, ["whether page B raised conversion", "by how much"],
             [part("a1", f"Yes: B converted {a['rate_b']:.4f} of users against {a['rate_a']:.4f} for A."),
              part("a2", f"By {a['diff'] * 100:.2f} percentage points (p = {a['p_value']:.6f}).",
                   "outputs/ab_result.json")],
             answered="TF", status="incomplete", cells=[*a.fresh_cells(staged=True)[:2], ab_failed],
             criteria=[crit("c1", "The difference is tested for significance",
                            f"outputs/ab_result.json reports p_value {a['p_value']:.6f}.", holds=False)],
             note="ab_result.json was written by the test cell, which then raised a NameError: neither its file nor "
                  "its printed line is evidence, so c1 fails and a2 (citing the file) is unanswered; a1's rates come "
                  "from the printed rates table of a cell that ran."),
        make("misquoted-05-share-digit", "misquoted", r, reg_asks, _region_parts(), answered="TT",
             status="incomplete",
             criteria=[crit("c1", "Each region's share of revenue is reported",
                            "outputs/revenue_by_region.csv has a `share` column; East's share is 0.317.",
                            holds=False)],
             note="East's share in the file is 0.3070; 0.317 misstates it."),
        make("misquoted-06-other-file", "misquoted", d, drv_asks, _drivers_parts(), answered="TT",
             status="incomplete",
             criteria=[_coef_crit(), crit("c2", "The model's explanatory power is reported",
                                          f"outputs/revenue_drivers.csv shows an r_squared of {d['r2']:.4f}.",
                                          holds=False)],
             note="The R-squared is real but lives in model_fit.json; the cited revenue_drivers.csv does not hold it."),
        make("misquoted-07-sign-flipped", "misquoted", d, drv_asks, _drivers_parts(), answered="TT",
             status="incomplete",
             criteria=[crit("c1", "The effect of discount on revenue is estimated",
                            "outputs/revenue_drivers.csv shows that discount raises revenue: `coef` +6.019 on "
                            "discount_pct.", holds=False)],
             note="The file's coefficient is -6.0189: the evidence turns a fall into a rise."),
        make("misquoted-08-percent-scale", "misquoted", c, ["which customers churn the most", "the overall churn rate"],
             churn_parts, answered="TT", status="incomplete",
             criteria=[crit("c1", "Churn rates by contract are computed",
                            "outputs/churn_by_contract.csv: two-year contracts churn at 0.507%.", holds=False)],
             note="The file holds 0.0507, which is 5.07%; 0.507% is off by a factor of ten."),
        make("misquoted-09-does-not-show", "misquoted", f, ["the expected revenue next month",
                                                            "how accurate the forecast is"],
             [part("a1", f"About {f['forecast']:,.0f}.", "outputs/forecast.json"),
              part("a2", f"A holdout MAPE of {pct(f['mape_holdout'])}.", "outputs/forecast.json")],
             answered="TT", status="incomplete",
             criteria=[crit("c1", "The forecast's accuracy is measured on held-out months",
                            f"outputs/forecast.json gives the January forecast, {f['forecast']:.2f}, and a monthly "
                            f"trend of {f['monthly_trend']:.4f}.", holds=False, shows=False)],
             note="The quote is faithful but shows a forecast and a trend, not a held-out accuracy."),
        make("misquoted-10-unwritten-file", "misquoted", t, ["how large the drug's effect is",
                                                             "whether it is significant"],
             [part("a1", f"{t['difference']:.2f} mmHg more than placebo.", "outputs/trial_result.json"),
              part("a2", f"Yes, Welch's t = {t['t']:.3f}.", "outputs/trial_result.json")],
             answered="TT", status="incomplete",
             criteria=[crit("c1", "The difference is tested for significance",
                            f"outputs/ttest.json gives t = {t['t']:.3f}.", holds=False)],
             note="The t statistic was printed and saved to trial_result.json, but no cell wrote outputs/ttest.json."),
        make("misquoted-11-printed-not-saved", "misquoted", s, ["how salaries differ by department",
                                                                "whether there is a gender pay gap"],
             [part("a1", f"From {s['by_dept']['mean'].min():,.0f} in Operations to {s['by_dept']['mean'].max():,.0f} "
                         "in Engineering on average.", "outputs/salary_by_department.csv"),
              part("a2", f"Yes: women earn {s['gap']:.2f}% less than men overall.")],
             answered="TT", status="incomplete",
             criteria=[crit("c1", "The gender pay gap is quantified",
                            f"outputs/gender_gap.csv gives an overall gap of {s['gap']:.2f}%.", holds=False)],
             note="The overall gap was printed, not saved: gender_gap.csv holds only per-department gaps."),
        make("misquoted-12-column-name", "misquoted", h, ["the mean and median price", "how they differ by "
                                                          "neighbourhood"],
             [part("a1", f"Mean {h['mean']:,.0f}, median {h['median']:,.0f}."),
              part("a2", f"Lakeside is dearest (median {h['by'].loc['Lakeside', 'median']:,.0f}), Old Town cheapest "
                         f"({h['by'].loc['Old Town', 'median']:,.0f}).", "outputs/price_by_neighbourhood.csv")],
             answered="TT", status="incomplete",
             criteria=[crit("c1", "Prices are compared across neighbourhoods",
                            "outputs/price_by_neighbourhood.csv has an `avg_price` column for each neighbourhood.",
                            holds=False)],
             note="The file's columns are mean, median and count; avg_price is not one of them."),
        make("misquoted-13-dump-reading", "misquoted", se, ["the average temperature of each sensor",
                                                            "which sensor runs abnormally hot"],
             [part("a1", "; ".join(f"{k} {v:.2f}" for k, v in se["table"]["mean"].items()) + ".",
                   "outputs/sensor_summary.csv"),
              part("a2", f"S07, z-score {se['table']['z'].iloc[0]:.2f}.", "outputs/sensor_summary.csv")],
             answered="TT", status="incomplete",
             criteria=[crit("c1", "The hot sensor is identified from its average",
                            "outputs/sensor_summary.csv shows S07 with a mean of 83.80.", holds=False)],
             note="83.80 is S07's first reading in the 1.4 MB printed frame; the file's mean is 81.22."),
    ]
