"""Invented figures: numbers no executed code produced, including ones that a huge unrelated dump happens to hold."""

from __future__ import annotations

import re

from . import data
from .case import Case
from .common import crit, make, num, part, pct, times_ten
from .scen_big import channels, grid, sensors, training
from .scen_more import forecast, traffic
from .scen_sales import drivers, growth, regions
from .scen_tests import ab, churn, houses, trial

# case id -> the invented figure, as stated, that a megabyte dump printed by a cell that ran holds by coincidence
COINCIDENCES: dict[str, str] = {}


def _plain() -> list[Case]:
    d, a, f, t, h, r, c, v = drivers(), ab(), forecast(), trial(), houses(), regions(), churn(), traffic()
    totals = "; ".join(f"{k} {num(x)}" for k, x in r["rev"].items())
    return [
        make("invented-01-discount-r2", "invented", d, ["what drives revenue", "how strongly"],
             [part("a1", "Discount is the main driver of revenue."),
              part("a2", "Revenue rises by +37.5% per 10% of discount, and the model reaches R2 = 0.81.",
                   "outputs/revenue_drivers.csv")],
             answered="FF", status="incomplete",
             note="No cell produced 37.5% or 0.81: the fit's R-squared is 0.439 and discount's coefficient is "
                  "negative. a1 is a bare name; the only figures about it are invented."),
        make("invented-02-no-model", "invented", d, ["what drives revenue"],
             [part("a1", "Ad spend is the strongest driver: each $1k adds 212.4 in revenue (p = 0.003).")],
             answered="F", status="incomplete", cells=d.fresh_cells()[:2], task="What drives revenue?",
             note="Only the load and describe() cells ran; no model was fitted, so 212.4 and p = 0.003 come from "
                  "nowhere."),
        make("invented-03-ab-pvalue", "invented", a, ["whether page B raised conversion significantly"],
             [part("a1", f"Yes: B converted {pct(a['rate_b'])} against {pct(a['rate_a'], 2)} for A, a significant "
                         "lift (p = 0.003).")],
             answered="F", status="incomplete", cells=a.fresh_cells()[:2],
             task="Did the new checkout page (B) raise conversion significantly?",
             note="The rates were printed, but no test ran: the p-value 0.003 is invented, and one invented figure "
                  "is enough."),
        make("invented-04-forecast", "invented", f, ["the expected revenue next month", "how accurate the forecast is"],
             [part("a1", "January 2024 revenue should come in at about 101,250."),
              part("a2", f"On the held-out months the MAPE is {f['mape_holdout']:.4f}.")],
             answered="FT", status="incomplete", cells=f.fresh_cells()[:2],
             note="Only the holdout cell ran (it printed MAPE 0.0343); no forecast for January was computed, so "
                  "101,250 is invented."),
        make("invented-05-trial-ci", "invented", t, ["how large the drug's effect is", "whether it is significant"],
             [part("a1", f"The drug lowers pressure by {t['difference']:.2f} mmHg more than placebo (95% CI 4.1 to "
                         "6.7).", "outputs/trial_result.json"),
              part("a2", f"Yes, p = {times_ten(t['p_value'])}.", "outputs/trial_result.json")],
             answered="FT", status="incomplete", task="How large is the drug's effect, and is it significant?",
             note="The interval in trial_result.json is 3.81 to 6.97; 4.1 to 6.7 is invented, so a1 fails although "
                  "5.39 is right."),
        make("invented-06-hood-median", "invented", h, ["the median price in Lakeside"],
             [part("a1", "Lakeside's median price is $512,000.", "outputs/price_by_neighbourhood.csv")],
             answered="F", status="incomplete", task="What is the median house price in Lakeside?",
             note="The cited file gives Lakeside's median as 496050.0; 512,000 is in no output."),
        make("invented-07-extra-sentence", "invented", r,
             ["the total revenue of each region", "which region earns the most"],
             [part("a1", totals + ".", "outputs/revenue_by_region.csv"),
              part("a2", f"East, with {pct(r['share']['East'])} of revenue.", "outputs/revenue_by_region.csv")],
             answered="TT", status="incomplete",
             answer=f"{totals}. East earns the most, with {pct(r['share']['East'])} of revenue. At this pace revenue "
                    "should grow a further 12.5% next year.",
             note="Both parts are traced, but the whole answer adds a 12.5% growth forecast no code computed: the "
                  "run cannot be completed with an untraced figure in its answer."),
        make("invented-08-one-wrong-figure", "invented", c, ["which contract type churns the most"],
             [part("a1", f"Month-to-month customers churn the most ({pct(c['by']['Month-to-month'])}), against "
                         "9.8% on one-year contracts.", "outputs/churn_by_contract.csv")],
             answered="F", status="incomplete", task="Which contract type churns the most?",
             note="33.7% is in the file, but the one-year rate there is 0.1110 (11.1%); 9.8% is invented and "
                  "every figure must be traced."),
        make("invented-09-median-visits", "invented", v, ["the mean daily visits", "the median daily visits"],
             [part("a1", f"The site gets {v['overall']:,.1f} visits on an average day."),
              part("a2", "The median day sees 1,776 visits.")],
             answered="TF", status="incomplete", task="What are the mean and median daily visits?",
             note="The overall mean 1797.2 was printed; no cell computed a median, so 1,776 is invented."),
        make("invented-10-share-typo", "invented", r, ["East's share of revenue"],
             [part("a1", "East accounts for 31.7% of total revenue.", "outputs/revenue_by_region.csv")],
             answered="F", status="incomplete", task="What share of revenue does East account for?",
             note="The file holds 0.3070 (30.7%); 31.7% is not what any code produced."),
        make("invented-11-logit-fit", "invented", c, ["how well tenure, charges and support calls explain churn"],
             [part("a1", "The model explains churn well: pseudo R-squared 0.21 and 78.4% of churners are identified.",
                   "outputs/churn_logit.csv")],
             answered="F", status="incomplete",
             task="How well do tenure, monthly charges and support calls explain churn?",
             note="The printed pseudo R-squared is 0.05901, and no classification rate was ever computed."),
    ]


def _orchestrated_and_big() -> list[Case]:
    g, ch, se, tr, gr = growth(), channels(), sensors(), training(), grid()
    tab = g["growth"]
    out = [
        make("invented-12-orchestrated-growth", "invented", g, ["which region's sales grow fastest", "why"],
             [part("a1", "East grows fastest, at 5.2% a month.", "outputs/growth_by_region.csv"),
              part("a2", "Because its ad spend grows 4.6% a month while prices stay flat.",
                   "outputs/growth_by_region.csv")],
             answered="FF", status="incomplete",
             criteria=[crit("c1", "Monthly growth is estimated for every region",
                            f"outputs/growth_by_region.csv has `revenue_growth` for each region; East's is "
                            f"{tab.loc['East', 'revenue_growth']:.4f}.")],
             note="The criterion quotes the file faithfully, but the answer's 5.2% and 4.6% are not the file's "
                  "0.0445 and 0.0390."),
        make("invented-13-channel-cited-file", "invented", ch, ["how much revenue an online order brings on average"],
             [part("a1", "An online order brings 3,104.50 in revenue on average.", "outputs/channel_summary.csv")],
             answered="F", status="incomplete", task="How much revenue does an online order bring on average?",
             note="channel_summary.csv gives Online's mean as 2966.43; 3,104.50 is invented (whatever the 1.8 MB "
                  "dump of the frame may hold)."),
    ]
    sb = data.sales_big()
    near = sb.loc[(sb["revenue"] - 2979).abs().idxmin(), "revenue"]
    fig = f"{near:,.2f}"
    COINCIDENCES["invented-14-dump-revenue"] = fig
    out.append(make("invented-14-dump-revenue", "invented", ch, ["how much revenue an online order brings on average"],
                    [part("a1", f"An online order brings {fig} in revenue on average.")],
                    answered="F", status="incomplete", cells=ch.fresh_cells()[:2],
                    task="How much revenue does an online order bring on average?",
                    note=f"No cell computed a mean; {fig} is one order's revenue in the 1.8 MB printed frame, a "
                         "coincidence a reviewer does not accept as evidence."))
    first = se.cells[1].output.splitlines()
    s07, s04 = first[7].split()[4], first[4].split()[4]
    COINCIDENCES["invented-15-dump-sensor"] = s07
    out.append(make("invented-15-dump-sensor", "invented", se, ["the average temperature of each sensor",
                                                                "which sensor runs abnormally hot"],
                    [part("a1", f"Sensors average about {s04} \u00b0C."),
                     part("a2", f"S07 runs hot, averaging {s07} \u00b0C.")],
                    answered="FF", status="incomplete", cells=se.fresh_cells()[:2],
                    note=f"No average was computed: {s07} and {s04} are single first-minute readings in the 1.4 MB "
                         "printed frame, not averages."))
    last = [ln for ln in tr.cells[1].output.splitlines() if ln.startswith("epoch 20")]
    acc, val = last[-2].split("acc ")[1].split()[0], last[-1].split("val_acc ")[1]
    COINCIDENCES["invented-16-log-accuracy"] = acc
    out.append(make("invented-16-log-accuracy", "invented", tr, ["the classifier's accuracy on held-out customers",
                                                                 "its AUC"],
                    [part("a1", f"Test accuracy is {acc}."), part("a2", f"The AUC is {val}.")],
                    answered="FF", status="incomplete", cells=tr.fresh_cells()[:2],
                    note=f"The model was never evaluated on the test set: {acc} is the last training batch's accuracy "
                         f"and {val} a validation accuracy in the 1.3 MB log, neither an AUC nor a test figure."))
    scores = re.findall(r"END (.*?);, score=(\d\.\d+)", gr.cells[1].output)
    params, top = max(scores, key=lambda s: float(s[1]))
    COINCIDENCES["invented-17-log-best-fold"] = top
    out.append(make("invented-17-log-best-fold", "invented", gr, ["which hyperparameters give the best "
                                                                  "cross-validated AUC", "what AUC they reach"],
                    [part("a1", f"The best setting is {params}."), part("a2", f"It reaches an AUC of {top}.")],
                    answered="FF", status="incomplete", cells=gr.fresh_cells()[:2],
                    note=f"No cell reported the best candidate: {top} is the single highest fold score among 12,000 "
                         "logged fits, not a mean cross-validated AUC; the parameters are that fold's."))
    return out


def cases() -> list[Case]:
    return _plain() + _orchestrated_and_big()
