"""Hold-out cases: answers that address only some parts of the question."""

from __future__ import annotations

from .case import Case
from .common import crit, make, num, part, pct
from .holdout_mixed import CLAIM_ASKS, ENERGY_ASKS, claim_parts
from .holdout_scen_care import energy, lean, readmission_rates
from .holdout_scen_learn import survey
from .holdout_scen_ops import claims, demand, latency


def partial_cases() -> list[Case]:
    out: list[Case] = []
    sc = latency()
    pc, reg = sc["pct"], sc["reg"]
    task = ("For the API logs in inputs/requests.csv, give me the p50/p95/p99 latency for each endpoint, the "
            "server-error rate for each endpoint, and tell me which region is slowest.")
    rows = "; ".join(f"{ep} {pc.loc[ep, 'p50']} / {pc.loc[ep, 'p95']} / {pc.loc[ep, 'p99']} ms" for ep in pc.index)
    out.append(make(
        "ho-partial-no-errors", "partial", sc, ["p50, p95 and p99 latency for each endpoint",
                                                 "the server-error rate of each endpoint", "which region is slowest"],
        [part("a1", f"Latency (p50 / p95 / p99): {rows}.", "outputs/latency_percentiles.csv"),
         part("a3", f"ap-south is slowest (p95 {reg['ap-south']} ms).", "outputs/p95_by_region.csv")],
        cells=lean(sc), answered="TFT", addressed="TFT", status="incomplete", task=task,
        note="Error rates were computed but the answer never reports them."))

    sc = survey()
    fav = sc["fav"]
    out.append(make(
        "ho-partial-no-department", "partial", sc,
        ["the share of favourable responses on each statement", "which department is least engaged",
         "whether the statements form a reliable scale"],
        [part("a1", "Favourable shares: " + ", ".join(f"{q} {pct(fav[q])}" for q in fav.index) + ".",
              "outputs/favourable_by_item.csv"),
         part("a2", "Department-level results are not broken out here.", answered=False),
         part("a3", f"The scale is reliable (alpha {sc['alpha']:.3f}).")],
        answered="TFT", addressed="TFT", status="incomplete",
        task="Summarise inputs/engagement_survey.csv: favourable share per statement, the least engaged department, "
             "and whether the statements form a reliable scale.",
        note="The department ask is explicitly left unanswered."))

    sc = readmission_rates()
    out.append(make(
        "ho-partial-overall-only", "partial", sc,
        ["the 30-day readmission rate of each ward", "which ward has the highest readmission rate"],
        [part("a1", f"The 30-day readmission rate is {pct(sc['overall'])} across all 15,000 discharges."),
         part("a2", "Oncology has the highest rate.")],
        cells=lean(sc), answered="FF", addressed="FT", status="incomplete",
        note="Only the overall rate is given, not each ward's; the 'highest' part states no figure."))

    sc = energy()
    e = sc["eui"]
    hosp = (f"Hospitals are the most energy-intensive (median {e.loc['Hospital', 'median']} kWh/m²), warehouses the "
            f"least ({e.loc['Warehouse', 'median']}).")
    out.append(make(
        "ho-partial-no-retrofit", "partial", sc, ENERGY_ASKS, [part("a1", hosp, "outputs/eui_by_type.csv")],
        answered="TF", addressed="TF", status="incomplete",
        answer=hosp + " I also fitted a regression of intensity on age, retrofit status and building type (R² = "
                      f"{sc['fit'].rsquared:.3f}).",
        note="The regression is mentioned (its R² is printed) but whether retrofits reduce intensity is never said."))

    sc = demand()
    scr, ann = sc["scores"], sc["annual"]
    out.append(make(
        "ho-partial-no-weekday", "partial", sc,
        ["how accurate the baseline forecasts are", "how demand is trending", "which days of the week are busiest"],
        [part("a1", f"The best baseline (seasonal naive) has MAPE {pct(scr.loc['seasonal_naive_168h', 'mape'])}.",
              "outputs/forecast_eval.csv"),
         part("a2", f"Demand fell from {num(ann[2023])} to {num(ann[2024])} units.", "outputs/annual_totals.csv"),
         part("a3", "The weekday pattern was not analysed.", answered=False)],
        cells=lean(sc), answered="TTF", addressed="TTF", status="incomplete",
        task="inputs/hourly_demand.csv has hourly demand for 2023-2024. How accurate are baseline forecasts over the "
             "final four weeks, how is demand trending, and which days of the week are busiest?",
        note="Weekday means were saved but the answer says they were not analysed."))

    sc = claims()
    parts = claim_parts(sc)
    out.append(make(
        "ho-partial-orch-no-settle", "partial", sc, CLAIM_ASKS, [parts[0], parts[2]],
        cells=lean(sc, staged=True), answered="TFT", addressed="TFT", status="incomplete",
        criteria=[crit("c1", "Total payouts are computed per policy type",
                       "outputs/claims_summary.csv: total_paid per policy_type, Home highest at 55648666.63."),
                  crit("c2", "Fraud rates are compared across policy types",
                       "outputs/claims_summary.csv fraud_rate: Travel 0.0475, Health 0.0158.")],
        note="Orchestrated; criteria hold but the settlement-time ask is never answered."))
    return out
