"""Hold-out cases: criteria whose evidence misstates the files (orchestrated) and open questions of several parts,
all answered."""

from __future__ import annotations

from .case import Case
from .common import crit, make, million, num, part, pct
from .holdout_correct import ward_list
from .holdout_scen_care import energy, lean, readmission_model, readmission_rates
from .holdout_scen_learn import QUESTIONS, schools, survey
from .holdout_scen_ops import claims, demand, inventory, latency

CLAIM_ASKS = ["how much was paid out for each policy type", "how long claims take to settle by policy type",
              "how often each policy type is flagged as fraud"]
INV_ASKS = ["which SKUs are at risk of stocking out before replenishment", "how the risk is spread across warehouses"]
ENERGY_ASKS = ["which building type is most energy-intensive per square metre",
               "whether retrofits reduce energy intensity after accounting for age and type"]


def claim_parts(sc) -> list:
    sm = sc["summary"]
    tp, days, fr = sm["total_paid"], sm["median_days_to_settle"], sm["fraud_rate"]
    return [
        part("a1", f"Home paid out the most (${million(tp['Home'])}), then Auto (${million(tp['Auto'])}), Health "
                   f"(${million(tp['Health'])}) and Travel (${million(tp['Travel'])}).", "outputs/claims_summary.csv"),
        part("a2", f"Median time to settle: Home {days['Home']:.0f} days, Health {days['Health']:.0f}, Auto "
                   f"{days['Auto']:.0f} and Travel {days['Travel']:.0f}.", "outputs/claims_summary.csv"),
        part("a3", f"Travel claims are flagged as fraud most often ({pct(fr['Travel'], 2)}), then Auto "
                   f"({pct(fr['Auto'], 2)}), Home ({pct(fr['Home'], 2)}) and Health ({pct(fr['Health'], 2)}).",
             "outputs/claims_summary.csv"),
    ]


def inv_parts(sc) -> list:
    sv, wh = sc["summary"], sc["by_wh"]
    return [part("a1", f"{num(sv['at_risk_skus'])} SKUs ({pct(sv['at_risk_share'], 2)}) have fewer days of cover "
                       "than their supplier lead time.", "outputs/stock_summary.json"),
            part("a2", f"WH-South carries the most risk: {pct(wh.loc['WH-South', 'at_risk_share'])} of its SKUs, "
                       f"versus {pct(wh.loc['WH-East', 'at_risk_share'], 2)} in WH-East.",
                 "outputs/stock_risk_by_warehouse.csv")]


def energy_parts(sc) -> list:
    e, c = sc["eui"], sc["coefs"]
    return [part("a1", f"Hospitals (median {e.loc['Hospital', 'median']} kWh/m²).", "outputs/eui_by_type.csv"),
            part("a2", f"Yes: about {-c.loc['retrofit', 'coef']:.1f} kWh/m² less with a retrofit, other things equal.",
                 "outputs/eui_model_coefficients.csv")]


def misquoted_cases() -> list[Case]:
    out: list[Case] = []
    sc = claims()
    ok_paid = crit("c1", "Total payouts are computed per policy type",
                   "outputs/claims_summary.csv: total_paid per policy_type, Home highest at 55648666.63.")
    ok_fraud = crit("c3", "Fraud rates are compared across policy types",
                    "outputs/claims_summary.csv fraud_rate: Travel 0.0475, Health 0.0158.")
    out.append(make(
        "ho-misq-column-name", "misquoted", sc, CLAIM_ASKS, claim_parts(sc), answered="TTT", status="incomplete",
        criteria=[ok_paid, crit("c2", "Settlement times are compared across policy types",
                                "outputs/claims_summary.csv column avg_settlement_days: Home 35.0, Travel 11.0.",
                                holds=False), ok_fraud],
        note="The file's column is median_days_to_settle; avg_settlement_days does not exist."))

    sc = survey()
    fav = sc["fav"]
    out.append(make(
        "ho-misq-alpha-value", "misquoted", sc,
        ["the share of favourable responses on each statement", "whether the statements form a reliable scale"],
        [part("a1", f"Favourable shares run from {pct(fav['q5'])} on fair pay (q5) to {pct(fav['q4'])} on manager "
                    "respect (q4).", "outputs/favourable_by_item.csv"),
         part("a2", f"Yes, Cronbach's alpha is {sc['rel']['cronbach_alpha']:.2f}.", "outputs/reliability.json")],
        answered="TT", status="incomplete",
        task="Summarise how favourable staff are on each statement of inputs/engagement_survey.csv and check that the "
             "statements form a reliable scale.",
        criteria=[crit("c1", "A favourable share is computed for each statement",
                       "outputs/favourable_by_item.csv: favourable_share from 0.275 (q5) to 0.589 (q4)."),
                  crit("c2", "Scale reliability is assessed", "outputs/reliability.json reports cronbach_alpha = 0.91 "
                       "over the eight items.", holds=False)],
        note="The JSON holds cronbach_alpha 0.8966, not 0.91."))

    sc = inventory()
    ok_risk = crit("c1", "At-risk SKUs are identified", "outputs/stock_summary.json: at_risk_skus 5031 of skus 20000.")
    out.append(make(
        "ho-misq-missing-file", "misquoted", sc, INV_ASKS, inv_parts(sc),
        cells=lean(sc, staged=True), answered="TT", status="incomplete",
        criteria=[ok_risk, crit("c2", "A reorder plan is produced for the at-risk SKUs",
                                "outputs/reorder_plan.csv lists the 5031 at-risk SKUs with suggested order quantities.",
                                holds=False)],
        note="No cell wrote outputs/reorder_plan.csv."))
    out.append(make(
        "ho-misq-percent-scale", "misquoted", sc, INV_ASKS, inv_parts(sc), answered="TT", status="incomplete",
        criteria=[ok_risk, crit("c2", "The spread of risk across warehouses is reported",
                                "outputs/stock_risk_by_warehouse.csv: at_risk_share for WH-South is 0.34%, the highest "
                                "of the four warehouses.", holds=False)],
        note="The file's 0.3354 is 33.5%, not 0.34%: the quote misstates the scale."))

    sc = readmission_model()
    o = sc["odds"]
    out.append(make(
        "ho-misq-failed-cell-file", "misquoted", sc,
        ["how each additional year of age changes the odds of readmission",
         "how each extra day of stay changes the odds", "how each prior admission changes the odds"],
        [part("a1", f"Each year of age: odds × {o.loc['age', 'odds_ratio']:.4f}.", "outputs/readmission_model.json"),
         part("a2", f"Each extra inpatient day: odds × {o.loc['length_of_stay', 'odds_ratio']:.4f}.",
              "outputs/readmission_model.json"),
         part("a3", f"Each prior admission: odds × {o.loc['prior_admissions', 'odds_ratio']:.2f} (CI "
                    f"{o.loc['prior_admissions', 'ci_low']:.2f}–{o.loc['prior_admissions', 'ci_high']:.2f}), the "
                    "strongest of the three.", "outputs/readmission_model.json")],
        answered="TTT", status="incomplete",
        criteria=[crit("c1", "A logistic model of readmission is fitted",
                       "outputs/readmission_model.json: prior_admissions odds_ratio 1.3448 (ci_low 1.2874, ci_high "
                       "1.4049), n 15000."),
                  crit("c2", "Odds ratios with confidence intervals are saved for every factor",
                       "outputs/odds_ratios.csv has odds_ratio, ci_low, ci_high and p_value for age, length_of_stay "
                       "and prior_admissions.", holds=False)],
        note="outputs/odds_ratios.csv was written only by the cell that then raised (plotting without matplotlib)."))

    sc = energy()
    out.append(make(
        "ho-misq-wrong-file", "misquoted", sc, ENERGY_ASKS, energy_parts(sc), answered="TT", status="incomplete",
        criteria=[crit("c1", "Energy intensity is computed for each building type",
                       "outputs/eui_by_type.csv: Hospital median 485.7 kWh/m²."),
                  crit("c2", "The retrofit effect is estimated controlling for age and type",
                       "outputs/eui_by_type.csv shows the retrofit coefficient of -31.369 (CI -37.909 to -24.829).",
                       holds=False)],
        note="The coefficient is in eui_model_coefficients.csv; the cited file has no such figures."))

    sc = demand()
    scr = sc["scores"]
    out.append(make(
        "ho-misq-does-not-show", "misquoted", sc,
        ["how accurate the best baseline forecast is", "whether it meets the MAPE target"],
        [part("a1", f"The best baseline, seasonal naive, has a MAPE of {pct(scr.loc['seasonal_naive_168h', 'mape'])}.",
              "outputs/forecast_eval.csv"),
         part("a2", f"No — at {pct(scr.loc['seasonal_naive_168h', 'mape'], 2)} it misses the target.",
              "outputs/forecast_eval.csv")],
        answered="TT", status="incomplete",
        task="Backtest simple baseline forecasts on the final four weeks of inputs/hourly_demand.csv. Our target is a "
             "MAPE below 30%.",
        criteria=[crit("c1", "The chosen forecast achieves a MAPE below 30% on the final four weeks",
                       "outputs/forecast_eval.csv: seasonal_naive_168h mape 0.3186, the lowest of the three baselines.",
                       holds=False, shows=False)],
        note="The quote is true but 0.3186 is above the 30% the criterion states; the answer itself is honest."))
    return out


def multipart_cases() -> list[Case]:
    out: list[Case] = []
    sc = latency()
    pc, er, reg = sc["pct"], sc["err"], sc["reg"]
    lat_task = ("For the API logs in inputs/requests.csv, give me the p50/p95/p99 latency for each endpoint, the "
                "server-error rate for each endpoint, and tell me which region is slowest.")
    lat_asks = ["p50, p95 and p99 latency for each endpoint", "the server-error rate of each endpoint",
                "which region is slowest"]
    rows = "; ".join(f"{ep} {pc.loc[ep, 'p50']} / {pc.loc[ep, 'p95']} / {pc.loc[ep, 'p99']} ms" for ep in pc.index)
    lat1 = part("a1", f"Latency (p50 / p95 / p99): {rows}.", "outputs/latency_percentiles.csv")
    errs = ", ".join(f"{ep} {pct(er.loc[ep, 'error_rate'], 2)}" for ep in er.index)
    lat2 = part("a2", f"5xx error rates: {errs}.", "outputs/error_rates.csv")
    lat3 = part("a3", f"ap-south is the slowest region, p95 {reg['ap-south']} ms, against {reg['eu-west']} ms in "
                      f"eu-west and {reg['us-east']} ms in us-east.", "outputs/p95_by_region.csv")
    out.append(make("ho-multi-latency", "multipart", sc, lat_asks, [lat1, lat2, lat3], answered="TTT",
                    status="completed", task=lat_task, answer="\n\n".join(f"**{h}**\n{p.answer}" for h, p in zip(
                        ["Latency by endpoint", "Server errors", "Slowest region"], [lat1, lat2, lat3], strict=True)),
                    note="Three parts, each from its cited file; 2.5 MB printed log."))

    sc = survey()
    fav, d = sc["fav"], sc["dept"]
    sv_task = ("Using inputs/engagement_survey.csv: which statements get the most and least favourable responses, "
               "which department is least engaged, and do the statements form a reliable scale?")
    out.append(make(
        "ho-multi-survey", "multipart", sc,
        ["the most favourably rated statement", "the least favourably rated statement", "the least engaged department",
         "whether the statements form a reliable scale"],
        [part("a1", f"'{QUESTIONS['q4']}' (q4), with {pct(fav['q4'])} favourable.", "outputs/favourable_by_item.csv"),
         part("a2", f"'{QUESTIONS['q5']}' (q5): only {pct(fav['q5'])} favourable.", "outputs/favourable_by_item.csv"),
         part("a3", f"Support, with a mean engagement score of {d.loc['Support', 'mean']:.2f} across "
                    f"{d.loc['Support', 'count']} respondents.", "outputs/engagement_by_department.csv"),
         part("a4", f"Yes: Cronbach's alpha = {sc['rel']['cronbach_alpha']}.", "outputs/reliability.json")],
        answered="TTTT", status="completed", task=sv_task,
        answer="Headline results from the engagement survey:\n\n" + "\n".join(
            f"* {h}: {t}" for h, t in [
                ("Most favourable", f"'{QUESTIONS['q4']}' (q4), with {pct(fav['q4'])} favourable."),
                ("Least favourable", f"'{QUESTIONS['q5']}' (q5): only {pct(fav['q5'])} favourable."),
                ("Least engaged department", f"Support, with a mean engagement score of {d.loc['Support', 'mean']:.2f}"
                                             f" across {d.loc['Support', 'count']} respondents."),
                ("Reliability", f"Cronbach's alpha = {sc['rel']['cronbach_alpha']}, so the index is sound.")]),
        note="Four parts, all traced to the cited files."))

    sc = inventory()
    cat = sc["cat"]
    sv, wh = sc["summary"], sc["by_wh"]
    out.append(make(
        "ho-multi-orch-inventory", "multipart", sc, [*INV_ASKS, "which product category is most exposed"],
        [part("a1", f"{num(sv['at_risk_skus'])} SKUs, about {pct(sv['at_risk_share'], 0)} of the range.",
              "outputs/stock_summary.json"),
         part("a2", f"WH-South is worst: {num(wh.loc['WH-South', 'at_risk_skus'])} at-risk SKUs, "
                    f"{pct(wh.loc['WH-South', 'at_risk_share'])} of its range; WH-West "
                    f"{pct(wh.loc['WH-West', 'at_risk_share'])}, WH-North "
                    f"{pct(wh.loc['WH-North', 'at_risk_share'])}, WH-East "
                    f"{pct(wh.loc['WH-East', 'at_risk_share'], 2)}.", "outputs/stock_risk_by_warehouse.csv"),
         part("a3", f"Apparel is the most exposed ({pct(cat['Apparel'])} at risk), though categories differ little: "
                    f"Electronics, the least exposed, is at {pct(cat['Electronics'])}.",
              "outputs/at_risk_by_category.csv")],
        answered="TTT", status="completed",
        task=sc.task + " Which product category is most exposed?",
        criteria=[crit("c1", "At-risk SKUs are counted", "outputs/stock_summary.json: at_risk_skus 5031, "
                                                         "at_risk_share 0.2515."),
                  crit("c2", "Risk is broken down by warehouse", "outputs/stock_risk_by_warehouse.csv: WH-South "
                       "at_risk_share 0.3354 (1609 at_risk_skus), WH-East lowest at 0.1965."),
                  crit("c3", "Risk is broken down by product category", "outputs/at_risk_by_category.csv: Apparel "
                       "0.2574 highest, Electronics 0.2419 lowest.")],
        note="Orchestrated, three parts; every criterion quotes its file exactly."))

    sc = readmission_rates()
    dest = sc["dest"]["rate"]
    out.append(make(
        "ho-multi-hospital", "multipart", sc,
        ["the overall 30-day readmission rate", "how the rate varies by ward", "whether discharge destination matters"],
        [part("a1", f"Overall, {pct(sc['overall'], 2)} of discharges were readmitted within 30 days."),
         part("a2", f"By ward: {ward_list(sc['rates'])}.", "outputs/readmission_by_ward.csv"),
         part("a3", f"Yes — {pct(dest['Home'])} after discharge home, {pct(dest['Home with care'], 2)} home with care "
                    f"and {pct(dest['Skilled nursing'])} after discharge to skilled nursing.",
              "outputs/readmission_by_destination.csv")],
        answered="TTT", status="completed",
        task="From inputs/discharges.csv: what is the overall 30-day readmission rate, how does it vary by ward, and "
             "does discharge destination matter?", note="Three parts; overall rate printed, the rest in cited files."))

    sc = energy()
    c = sc["coefs"]
    out.append(make(
        "ho-multi-energy", "multipart", sc, [*ENERGY_ASKS, "how much each year of building age adds"],
        [*energy_parts(sc),
         part("a3", f"Each additional year of age adds about {c.loc['age', 'coef']:.2f} kWh/m² of annual intensity "
                    f"(interval {c.loc['age', 'ci_low']:.2f} to {c.loc['age', 'ci_high']:.2f}).",
              "outputs/eui_model_coefficients.csv")],
        answered="TTT", status="completed", task=sc.task + " How much does each year of building age add?",
        note="Age effect and its interval from the coefficient file."))

    sc = schools()
    res = sc["res"]
    bs = sc["by_school"]
    out.append(make(
        "ho-multi-schools", "multipart", sc,
        ["whether tutoring raised maths scores", "whether attendance is related to reading scores",
         "which school has the highest average maths score"],
        [part("a1", f"Tutored pupils scored {res['difference']} points higher on average ({res['mean_tutored']} vs "
                    f"{res['mean_not_tutored']}; p = {res['p_value']}).", "outputs/tutoring_effect.json"),
         part("a2", f"Yes, moderately: Pearson r = {sc['r']:.3f} between attendance and reading (p = {sc['rp']:.1e})."),
         part("a3", f"Cedar Park, averaging {bs['Cedar Park']}, against a district mean of {sc['district']:.2f}.")],
        answered="TTT", status="completed",
        task="Using inputs/students.csv: did tutoring raise maths scores, is attendance related to reading scores, "
             "and which school has the highest average maths score?",
        answer=("In short: tutoring is associated with clearly higher maths scores, attendance goes with better "
                "reading, and Cedar Park leads the district.\n\n"
                f"Tutored pupils scored {res['difference']} points higher on average ({res['mean_tutored']} vs "
                f"{res['mean_not_tutored']}; p = {res['p_value']}). Attendance and reading are moderately correlated "
                f"(Pearson r = {sc['r']:.3f}, p = {sc['rp']:.1e}). Cedar Park has the highest average maths score, "
                f"{bs['Cedar Park']}, against a district mean of {sc['district']:.2f}; Dunmore is lowest at "
                f"{bs['Dunmore']}."),
        note="Cited and uncited parts, all traced (p in e-notation, as printed)."))

    sc = claims()
    out.append(make("ho-multi-claims", "multipart", sc, CLAIM_ASKS, claim_parts(sc), cells=lean(sc), answered="TTT",
                    status="completed", note="Three parts from the claims summary; 2.3 MB printed table."))

    sc = demand()
    scr, ann = sc["scores"], sc["annual"]
    parts = [part("a1", f"Seasonal naive wins with MAPE {pct(scr.loc['seasonal_naive_168h', 'mape'])}; the 24-hour "
                        f"naive is worst at {pct(scr.loc['naive_24h', 'mape'])}.", "outputs/forecast_eval.csv"),
             part("a2", f"Down {pct(-sc['yoy'], 2)} year on year ({num(ann[2023])} → {num(ann[2024])} units).",
                  "outputs/annual_totals.csv", "outputs/peak_year.json")]
    out.append(make(
        "ho-multi-untraced-summary", "multipart", sc,
        ["how accurate the baseline forecasts are", "how demand is trending"], parts,
        answered="TT", status="incomplete",
        answer=" ".join(p.answer for p in parts) + " Given the weekend peak, plan for roughly 22.5% more volume on "
                                                   "Saturdays than on a typical weekday.",
        note="Both parts traced, but the closing 22.5% (the model's own ratio of day means) is in no output."))
    return out

