"""Hold-out cases: right answers in varied words (percent for fraction, rounding, millions, scientific notation,
words for signs), citing files or none, simple and orchestrated."""

from __future__ import annotations

from dataclasses import replace

from .case import Case
from .common import crit, make, million, num, part, pct, times_ten
from .holdout_scen_care import energy, lean, meter, readmission_model_clean, readmission_rates
from .holdout_scen_learn import bootstrap, schools, survey
from .holdout_scen_ops import claims, demand, inventory, latency

WARD_CSV = "outputs/readmission_by_ward.csv"


def ward_list(rates) -> str:
    r = rates["rate"]
    return (f"Oncology {pct(r['Oncology'])}, Respiratory {pct(r['Respiratory'])}, Cardiology {pct(r['Cardiology'])}, "
            f"General Medicine {pct(r['General Medicine'])} and Orthopedics {pct(r['Orthopedics'])}")


def correct_cases() -> list[Case]:
    out: list[Case] = []
    sc = readmission_rates()
    r, overall = sc["rates"], sc["overall"]
    ward_asks = ["the 30-day readmission rate of each ward", "which ward has the highest readmission rate"]
    p1 = part("a1", f"Thirty-day readmission rates by ward: {ward_list(r)}.", WARD_CSV)
    p2 = part("a2", f"Oncology has the highest rate: {pct(r.loc['Oncology', 'rate'])} of its "
                    f"{num(r.loc['Oncology', 'discharges'])} discharges came back within 30 days, well above the "
                    f"hospital-wide {pct(overall, 2)}.")
    out.append(make("ho-correct-ward-rates", "correct", sc, ward_asks, [p1, p2], answered="TT", status="completed",
                    note="Rates cited from the ward file; the overall rate (uncited part) is printed by that cell."))
    out.append(make(
        "ho-correct-orch-ward-rates", "correct", sc, ward_asks, [replace(p1), replace(p2)],
        cells=lean(sc, staged=True), answered="TT",
        status="completed",
        answer="## Readmissions by ward\n\n" + p1.answer + "\n\n" + p2.answer,
        criteria=[crit("c1", "A 30-day readmission rate is computed for every ward",
                       f"{WARD_CSV} has rate and discharges for all five wards, e.g. Oncology rate 0.2321 on 1762 "
                       "discharges and Orthopedics 0.1089."),
                  crit("c2", "The ward with the highest rate is identified",
                       f"{WARD_CSV}, sorted by rate, lists Oncology first at 0.2321.")],
        note="Orchestrated: both criteria quote the ward file exactly; answer figures are all in outputs."))

    sc = readmission_model_clean()
    o = sc["odds"]
    out.append(make(
        "ho-correct-odds-ratios", "correct", sc,
        ["how each additional year of age changes the odds of readmission",
         "how each extra day of stay changes the odds", "how each prior admission changes the odds"],
        [part("a1", f"Each additional year of age multiplies the odds of 30-day readmission by "
                    f"{o.loc['age', 'odds_ratio']:.4f} (confidence interval {o.loc['age', 'ci_low']:.4f}–"
                    f"{o.loc['age', 'ci_high']:.4f}).", "outputs/odds_ratios.csv"),
         part("a2", "Every extra day in hospital raises the odds by a factor of "
                    f"{o.loc['length_of_stay', 'odds_ratio']:.2f} (interval {o.loc['length_of_stay', 'ci_low']:.2f} "
                    f"to {o.loc['length_of_stay', 'ci_high']:.2f}).",
              "outputs/odds_ratios.csv"),
         part("a3", f"Prior admissions matter most: each one carries an odds ratio of "
                    f"{o.loc['prior_admissions', 'odds_ratio']:.2f} ({o.loc['prior_admissions', 'ci_low']:.2f}–"
                    f"{o.loc['prior_admissions', 'ci_high']:.2f}, p < 0.001).", "outputs/odds_ratios.csv")],
        answered="TTT", status="completed", note="Odds ratios and intervals from the saved file, rounded."))

    sc = energy()
    e, c = sc["eui"], sc["coefs"]
    out.append(make(
        "ho-correct-eui-uncited", "correct", sc, ["which building type uses the most energy per square metre"],
        [part("a1", f"Hospitals are by far the most energy-intensive, with a median energy use intensity of "
                    f"{e.loc['Hospital', 'median']} kWh per m² a year (mean {e.loc['Hospital', 'mean']}), ahead of "
                    f"retail at {e.loc['Retail', 'median']} and offices at {e.loc['Office', 'median']}; warehouses "
                    f"are the least intensive at {e.loc['Warehouse', 'median']} kWh/m².")],
        answered="T", status="completed", cells=sc.fresh_cells()[:2],
        task="Which building type in inputs/buildings.csv is the most energy-intensive per square metre?",
        note="Medians and mean quoted from the printed EUI table; no file cited, all found in outputs."))
    ret = ("Yes. Holding age and building type fixed, a retrofit is associated with energy intensity about "
           f"{-c.loc['retrofit', 'coef']:.1f} kWh/m² lower (interval {-c.loc['retrofit', 'ci_high']:.1f} to "
           f"{-c.loc['retrofit', 'ci_low']:.1f} kWh/m² lower).")
    out.append(make(
        "ho-correct-retrofit-words", "correct", sc,
        ["which building type is most energy-intensive per square metre",
         "whether retrofits reduce energy intensity after accounting for age and type"],
        [part("a1", f"Hospitals, with a median of {e.loc['Hospital', 'median']:.0f} kWh/m².",
              "outputs/eui_by_type.csv"),
         part("a2", ret, "outputs/eui_model_coefficients.csv")],
        answered="TT", status="completed",
        note="A negative coefficient and interval said as 'lower' with positive numbers; a reviewer accepts."))
    out.append(make(
        "ho-correct-orch-energy", "correct", sc,
        ["which building type is most energy-intensive per square metre",
         "whether retrofits reduce energy intensity after accounting for age and type"],
        [part("a1", f"Hospital buildings top the list at a median {e.loc['Hospital', 'median']} kWh/m²; warehouses "
                    f"use the least ({e.loc['Warehouse', 'median']}).", "outputs/eui_by_type.csv"),
         part("a2", f"Retrofits help: the model puts the retrofit effect at {c.loc['retrofit', 'coef']:.1f} kWh/m² "
                    f"(CI {c.loc['retrofit', 'ci_low']:.1f} to {c.loc['retrofit', 'ci_high']:.1f}), controlling for "
                    "age and building type.", "outputs/eui_model_coefficients.csv")],
        answered="TT", status="completed",
        criteria=[crit("c1", "Energy intensity (kWh per m²) is computed for each building type",
                       "outputs/eui_by_type.csv lists median and mean EUI per building_type: Hospital median 485.7, "
                       "Warehouse median 94.4."),
                  crit("c2", "The retrofit effect is estimated controlling for building age and type",
                       "outputs/eui_model_coefficients.csv: retrofit coef -31.369 (ci_low -37.909, ci_high -24.829) "
                       "in a model that also has age and the building_type dummies.")],
        note="Orchestrated; criteria quote the files as written; answer rounds the same figures."))

    sc = meter()
    s = sc["summary"]
    out.append(make(
        "ho-correct-meter-profile", "correct", sc,
        ["when in the day demand peaks", "how large the overnight baseload is compared with the peak"],
        [part("a1", f"Demand peaks in the late morning: the 11 am hour averages {s['peak_mean_kwh']:.1f} kWh per "
                    "15-minute interval across the buildings.", "outputs/load_profile.json"),
         part("a2", f"In the small hours the buildings still draw {s['overnight_mean_kwh']:.2f} kWh per interval, "
                    f"about {pct(s['base_to_peak'])} of the peak, which points to a large always-on load.",
              "outputs/load_profile.json")],
        answered="TT", status="completed",
        answer=(f"Demand peaks in the late morning: the 11 am hour averages {s['peak_mean_kwh']:.1f} kWh per 15-minute "
                f"interval. In the small hours the buildings still draw {s['overnight_mean_kwh']:.2f} kWh per "
                f"interval, about {pct(s['base_to_peak'])} of the peak, which points to a large always-on load. "
                "Night-time set-backs for ventilation and lighting are the obvious first saving."),
        note="Peak hour and values from the cited JSON (the hour is held there as computed); 1.45 MB of readings."))

    sc = schools()
    res = sc["res"]
    out.append(make(
        "ho-correct-tutoring-sci", "correct", sc,
        ["whether tutored pupils scored higher in maths", "how large and how significant the difference is"],
        [part("a1", f"Yes — tutored pupils averaged {res['mean_tutored']} in maths against {res['mean_not_tutored']} "
                    "for those without tutoring.", "outputs/tutoring_effect.json"),
         part("a2", f"The gap is {res['difference']} points (Welch t = {res['t_stat']:.2f}, p ≈ "
                    f"{times_ten(res['p_value'])}), so chance is a very unlikely explanation.",
              "outputs/tutoring_effect.json")],
        answered="TT", status="completed", note="p-value written as a power of ten; JSON holds 4.91e-29."))

    sc = bootstrap()
    ci = sc["ci"]
    out.append(make(
        "ho-correct-bootstrap-ci", "correct", sc,
        ["the estimated maths gap at Brookvale", "a bootstrap confidence interval for the gap"],
        [part("a1", f"At Brookvale, tutored pupils outscore the rest by {ci['observed_diff']:.2f} points in maths.",
              "outputs/bootstrap_ci.json"),
         part("a2", f"Across {num(ci['replicates'])} bootstrap resamples the interval runs from {ci['ci_low']:.2f} to "
                    f"{ci['ci_high']:.2f} points, so the gap is clearly above zero.", "outputs/bootstrap_ci.json")],
        answered="TT", status="completed", note="Interval and replicate count from the JSON; the log is 1.5 MB."))

    sc = latency()
    pc, er = sc["pct"], sc["err"]
    out.append(make(
        "ho-correct-latency-checkout", "correct", sc,
        ["the p95 latency of /api/checkout", "which endpoint is slowest at p99"],
        [part("a1", f"/api/checkout has a p95 latency of {pc.loc['/api/checkout', 'p95']} ms (median "
                    f"{pc.loc['/api/checkout', 'p50']} ms).", "outputs/latency_percentiles.csv"),
         part("a2", f"Checkout is also the slowest endpoint in the tail, p99 = {pc.loc['/api/checkout', 'p99']} ms, "
                    f"followed by /api/search at {pc.loc['/api/search', 'p99']} ms.",
              "outputs/latency_percentiles.csv")],
        answered="TT", status="completed",
        task="From the request logs in inputs/requests.csv, what is the p95 latency of /api/checkout, and which "
             "endpoint is slowest at p99?",
        note="Percentiles quoted from the cited CSV; a 2.5 MB printed log sits alongside."))
    out.append(make(
        "ho-correct-error-rate", "correct", sc,
        ["which endpoint has the highest server-error rate", "what that rate is"],
        [part("a1", f"/api/checkout: {er.loc['/api/checkout', 'errors']} of its "
                    f"{num(er.loc['/api/checkout', 'requests'])} requests returned a 5xx status.",
              "outputs/error_rates.csv"),
         part("a2", f"That is a {pct(er.loc['/api/checkout', 'error_rate'], 2)} server-error rate, against "
                    f"{pct(er.loc['/api/product', 'error_rate'], 2)} for /api/product, the most reliable endpoint.",
              "outputs/error_rates.csv")],
        cells=lean(sc),
        answered="TT", status="completed", task="Which endpoint in inputs/requests.csv fails most often with server "
                                                "errors?",
        note="Fractions in the file said as percentages at two decimals."))

    sc = claims()
    sm = sc["summary"]
    tp = sm["total_paid"]
    out.append(make(
        "ho-correct-claims-millions", "correct", sc, ["how much was paid out for each policy type"],
        [part("a1", f"Home policies paid out the most, ${million(tp['Home'], 1)} across "
                    f"{num(sm.loc['Home', 'claims'])} claims, followed by Auto (${million(tp['Auto'], 1)}), "
                    f"Health (${million(tp['Health'], 1)}) and "
                    f"Travel (${million(tp['Travel'])}).", "outputs/claims_summary.csv")],
        answered="T", status="completed", task="How much did we pay out on each policy type last year? The claims "
                                               "are in inputs/claims.csv.",
        note="Totals said in millions; 2.3 MB printed claim table."))
    out.append(make(
        "ho-correct-spearman", "correct", sc,
        ["whether larger claims take longer to settle", "how strong the relationship is"],
        [part("a1", f"Yes. Home claims, the largest on average at ${num(sm.loc['Home', 'mean_claim'], 2)}, also have "
                    f"the longest median settlement time, {sm.loc['Home', 'median_days_to_settle']:.0f} days."),
         part("a2", "The rank correlation between amount and days to settle is strong: Spearman ρ = "
                    f"{sc['rho']:.2f}.")],
        cells=lean(sc),
        answered="TT", status="completed", task="Do bigger claims take longer to settle? See inputs/claims.csv.",
        note="Uncited figures all printed by cells that ran (rho rounded from 0.708)."))

    sc = inventory()
    sv, wh = sc["summary"], sc["by_wh"]
    out.append(make(
        "ho-correct-inventory-risk", "correct", sc,
        ["which SKUs are at risk of stocking out before replenishment", "how the risk is spread across warehouses"],
        [part("a1", "A SKU is at risk when its days of cover are shorter than its supplier lead time; "
                    f"{num(sv['at_risk_skus'])} of the {num(sv['skus'])} SKUs ({pct(sv['at_risk_share'], 2)}) fail "
                    "that test.", "outputs/stock_summary.json"),
         part("a2", f"The risk is concentrated in WH-South, where {pct(wh.loc['WH-South', 'at_risk_share'])} of SKUs "
                    f"({num(wh.loc['WH-South', 'at_risk_skus'])}) are at risk, against "
                    f"{pct(wh.loc['WH-West', 'at_risk_share'], 2)} in WH-West, "
                    f"{pct(wh.loc['WH-North', 'at_risk_share'])} in WH-North and "
                    f"{pct(wh.loc['WH-East', 'at_risk_share'], 2)} in WH-East.",
              "outputs/stock_risk_by_warehouse.csv")],
        answered="TT", status="completed", note="Shares as percentages; 1.9 MB printed inventory table."))
    cells = lean(sc)
    cells.insert(1, replace(sc["broken"], files={}))
    out.append(make(
        "ho-correct-after-retry", "correct", sc, ["how many SKUs are at risk of stocking out"],
        [part("a1", f"{num(sv['at_risk_skus'])} SKUs have fewer days of cover than their supplier lead time — "
                    f"{pct(sv['at_risk_share'], 2)} of all {num(sv['skus'])}.", "outputs/stock_summary.json")],
        answered="T", status="completed", cells=cells,
        note="The first attempt raised a KeyError; the corrected cell ran and wrote the cited JSON."))

    sc = survey()
    fav = sc["fav"]
    out.append(make(
        "ho-correct-survey-alpha", "correct", sc, ["whether the eight statements form an internally consistent scale"],
        [part("a1", f"Yes — Cronbach's alpha across the eight statements is {sc['alpha']:.3f}, which indicates good "
                    "internal consistency, so averaging them into a single engagement index is reasonable.")],
        answered="T", status="completed",
        task="Do the eight statements in inputs/engagement_survey.csv hang together as one engagement scale?",
        note="Alpha quoted as printed; no file cited."))
    items = sorted(fav.index, key=lambda q: -fav[q])
    listing = ", ".join(f"{q} {pct(fav[q])}" for q in items[1:-1])
    out.append(make(
        "ho-correct-survey-favourable", "correct", sc, ["the share of favourable responses on each statement"],
        [part("a1", f"Respect from managers (q4) is the most favourable statement at {pct(fav['q4'])} agreeing or "
                    f"strongly agreeing; then {listing}; fair pay (q5) is lowest at {pct(fav['q5'])}.",
              "outputs/favourable_by_item.csv")],
        answered="T", status="completed", note="Favourable shares (fractions in the file) given as percentages."))

    sc = demand()
    scr, ann = sc["scores"], sc["annual"]
    out.append(make(
        "ho-correct-forecast-mape", "correct", sc,
        ["which baseline forecast is most accurate over the final four weeks", "how accurate it is"],
        [part("a1", f"The seasonal naive forecast (same hour one week earlier) has the lowest MAPE, "
                    f"{pct(scr.loc['seasonal_naive_168h', 'mape'], 2)}, narrowly ahead of the 24-hour rolling mean at "
                    f"{pct(scr.loc['rolling_mean_24h', 'mape'], 2)}.", "outputs/forecast_eval.csv"),
         part("a2", f"Its mean absolute error is {scr.loc['seasonal_naive_168h', 'mae']:.2f} units an hour (MAPE "
                    f"{pct(scr.loc['seasonal_naive_168h', 'mape'])}); the rolling mean actually has the lower MAE, "
                    f"{scr.loc['rolling_mean_24h', 'mae']:.2f}.", "outputs/forecast_eval.csv")],
        answered="TT", status="completed",
        task="Over the last four weeks of inputs/hourly_demand.csv, which simple baseline forecast is most accurate?",
        note="MAPE fractions as percentages; 1.27 MB printed feature table."))
    out.append(make(
        "ho-correct-yoy-decline", "correct", sc, ["whether demand is growing or shrinking", "by how much"],
        [part("a1", f"Shrinking: total demand fell from {num(ann[2023])} units in 2023 to {num(ann[2024])} in 2024.",
              "outputs/annual_totals.csv"),
         part("a2", f"That is a decline of {pct(-sc['yoy'], 2)} year over year.", "outputs/peak_year.json")],
        cells=lean(sc),
        answered="TT", status="completed", task="Is demand in inputs/hourly_demand.csv growing or shrinking?",
        note="A change of -0.0258 written as 'a decline of 2.58%'; the code computed it."))
    out.append(make(
        "ho-correct-orch-forecast", "correct", sc,
        ["how accurate the baseline forecasts are", "how demand is trending"],
        [part("a1", f"Seasonal naive is best, MAPE {pct(scr.loc['seasonal_naive_168h', 'mape'])} (MAE "
                    f"{scr.loc['seasonal_naive_168h', 'mae']:.2f}), then the rolling mean at "
                    f"{pct(scr.loc['rolling_mean_24h', 'mape'])} and the 24-hour naive at "
                    f"{pct(scr.loc['naive_24h', 'mape'])}.", "outputs/forecast_eval.csv"),
         part("a2", f"Demand is drifting down: {num(ann[2024])} units in 2024 against {num(ann[2023])} in 2023, a "
                    f"{pct(-sc['yoy'], 2)} drop.", "outputs/annual_totals.csv", "outputs/peak_year.json")],
        cells=lean(sc, staged=True), answered="TT", status="completed",
        criteria=[crit("c1", "Baselines are evaluated on a held-out final four weeks",
                       "outputs/forecast_eval.csv scores three baselines on the final four weeks: seasonal_naive_168h "
                       "mape 0.3186, rolling_mean_24h 0.3208, naive_24h 0.3367."),
                  crit("c2", "Annual totals are compared to show the trend",
                       "outputs/annual_totals.csv: 2023 units 140157, 2024 units 136544; outputs/peak_year.json "
                       "yoy_change -0.0258.")],
        note="Orchestrated; criteria quote the files exactly; answer figures traced."))
    return out
