"""Hold-out cases whose figures executed code did not produce: invented, small integers only, derived by the model,
and answers resting on code that failed."""

from __future__ import annotations

from dataclasses import replace

from . import holdout_data as hd
from .case import Case
from .common import cell, crit, make, million, part, pct, raised
from .data import shown
from .holdout_scen_care import (
    energy,
    lean,
    meter,
    readmission_model_clean,
    readmission_model_unsaved,
    readmission_rates,
)
from .holdout_scen_learn import bootstrap, schools, survey
from .holdout_scen_ops import claims, demand, inventory, latency

PEAK_ONLY = """readings['hour'] = pd.to_datetime(readings['timestamp']).dt.hour
profile = readings.groupby('hour')['kwh'].mean().round(3)
print(profile)
print('Peak hour:', profile.idxmax())"""


def invented_cases() -> list[Case]:
    out: list[Case] = []
    sc = energy()
    e = sc["eui"]
    out.append(make(
        "ho-invented-benchmark", "invented", sc, ["which building type uses the most energy per square metre"],
        [part("a1", f"Hospitals, at a median {e.loc['Hospital', 'median']} kWh/m² a year — about 41% above the typical "
                    "hospital benchmark of 345 kWh/m².")],
        answered="F", status="incomplete", cells=sc.fresh_cells()[:2],
        task="Which building type in inputs/buildings.csv is the most energy-intensive per square metre?",
        note="The benchmark (345) and the 41% comparison come from no executed code."))

    sc = schools()
    res = sc["res"]
    out.append(make(
        "ho-invented-tutoring-ci", "invented", sc,
        ["whether tutored pupils scored higher in maths", "how large and how uncertain the difference is"],
        [part("a1", f"Yes: {res['mean_tutored']} on average with tutoring versus {res['mean_not_tutored']} without.",
              "outputs/tutoring_effect.json"),
         part("a2", f"The difference is {res['difference']} points (95% CI 4.23 to 5.99).",
              "outputs/tutoring_effect.json")],
        answered="TF", status="incomplete", note="No confidence interval was ever computed; the bounds are made up."))

    sc = bootstrap()
    ci = sc["ci"]
    out.append(make(
        "ho-invented-resample-count", "invented", sc,
        ["the estimated maths gap at Brookvale", "a bootstrap confidence interval for the gap"],
        [part("a1", f"The observed gap at Brookvale is {ci['observed_diff']:.2f} points.", "outputs/bootstrap_ci.json"),
         part("a2", f"Based on 50,000 resamples, the interval runs from {ci['ci_low']:.2f} to {ci['ci_high']:.2f} "
                    "points.", "outputs/bootstrap_ci.json")],
        answered="TF", status="incomplete", note="The code drew 20,000 resamples, not 50,000; the count is untraced."))

    sc = claims()
    sm = sc["summary"]
    out.append(make(
        "ho-invented-fraud-rate", "invented", sc,
        ["which policy type is flagged as fraud most often", "that policy type's fraud rate"],
        [part("a1", "Travel is the policy type most often flagged, ahead of Auto "
                    f"({pct(sm.loc['Auto', 'fraud_rate'])}).", "outputs/claims_summary.csv"),
         part("a2", "Travel's fraud-flag rate is 6.8%.", "outputs/claims_summary.csv")],
        answered="TF", status="incomplete",
        task="Which policy type in inputs/claims.csv has the highest fraud rate, and what is it?",
        note="Travel's rate in the file is 0.0475; 6.8% is invented."))

    sc = latency()
    out.append(make(
        "ho-invented-r-squared", "invented", sc, ["whether larger responses are slower"],
        [part("a1", "Only weakly: latency rises with response size, but a regression of latency_ms on resp_bytes "
                    "explains just 3.1% of the variance (R² = 0.031).")],
        answered="F", status="incomplete",
        task="Does response size drive latency in inputs/requests.csv?",
        note="No code related latency to response size; the R² is invented."))

    sc = survey()
    d = sc["dept"]
    out.append(make(
        "ho-invented-dept-score", "invented", sc, ["which department is least engaged and how its score compares"],
        [part("a1", f"Support is the least engaged department, averaging 2.61 out of 5 against "
                    f"{d.loc['HR', 'mean']:.2f} for HR, the most engaged.")],
        answered="F", status="incomplete",
        task="Which department in inputs/engagement_survey.csv is least engaged?",
        note="Support's mean in the outputs is 2.814; 2.61 is not anywhere."))

    sc = demand()
    out.append(make(
        "ho-invented-forecast", "invented", sc, ["a forecast of total demand for next week"],
        [part("a1", f"Using the seasonal naive model (the most accurate baseline, MAPE "
                    f"{pct(sc['scores'].loc['seasonal_naive_168h', 'mape'])}), next week's demand should total about "
                    "2,480 units.")],
        answered="F", status="incomplete", cells=lean(sc)[:3],
        task="Forecast next week's total demand from inputs/hourly_demand.csv.",
        note="Only backtests ran; no forecast of next week was produced, so 2,480 is invented."))

    sc = meter()
    s = sc["summary"]
    out.append(make(
        "ho-invented-orch-baseload", "invented", sc,
        ["when in the day demand peaks", "how large the overnight baseload is compared with the peak"],
        [part("a1", f"Around 11 am, at {s['peak_mean_kwh']:.1f} kWh per interval.", "outputs/load_profile.json"),
         part("a2", f"Overnight the buildings draw {s['overnight_mean_kwh']:.2f} kWh, about 52% of the peak.",
              "outputs/load_profile.json")],
        cells=lean(sc, staged=True), answered="TF", status="incomplete",
        criteria=[crit("c1", "The average daily load profile is computed",
                       "outputs/load_profile.json gives peak_hour 11 with peak_mean_kwh 14.0 and overnight_mean_kwh "
                       "6.814.")],
        note="The criterion holds, but the file's base_to_peak is 0.4867, not 52%."))

    sc = readmission_rates()
    r = sc["rates"]["rate"]
    out.append(make(
        "ho-invented-patient-age", "invented", sc, ["the 30-day readmission rate of each ward",
                                                     "which ward has the highest readmission rate"],
        [part("a1", f"Rates run from {pct(r['Orthopedics'])} in Orthopedics to {pct(r['Oncology'])} in Oncology, "
                    f"with Respiratory {pct(r['Respiratory'])}, Cardiology {pct(r['Cardiology'])} and General "
                    f"Medicine {pct(r['General Medicine'])}.", "outputs/readmission_by_ward.csv"),
         part("a2", "Oncology is highest; its patients are also the oldest, averaging 61.4 years.")],
        cells=lean(sc),
        answered="TF", status="incomplete", note="No code computed mean age by ward; 61.4 is invented."))
    return out


def small_cases() -> list[Case]:
    out: list[Case] = []
    sc = readmission_rates()
    task = "How many wards have a 30-day readmission rate above the hospital-wide rate? Use inputs/discharges.csv."
    ask = ["how many wards are above the hospital-wide readmission rate"]
    out.append(make(
        "ho-small-ward-count-uncomputed", "small_integers", sc, ask,
        [part("a1", "3 of the 5 wards — Oncology, Respiratory and Cardiology — sit above the hospital-wide rate.",
              "outputs/readmission_by_ward.csv")],
        answered="F", status="incomplete", task=task, cells=sc.fresh_cells()[:4],
        note="The count 3 is not a value any file holds; ward names are bare words."))
    out.append(make(
        "ho-small-ward-count-json", "small_integers", sc, ask,
        [part("a1", "3 wards are above the hospital-wide rate: Oncology, Respiratory and Cardiology.",
              "outputs/wards_above_overall.json")],
        cells=lean(sc), answered="T", status="completed", task=task,
        note="The cited JSON holds n_wards_above = 3 as the computed value."))

    sc = meter()
    task = "At what hour of the day does electricity demand peak in inputs/meter_readings.csv?"
    out.append(make(
        "ho-small-peak-hour-json", "small_integers", sc, ["the hour of peak demand"],
        [part("a1", "Demand peaks at 11 am on average.", "outputs/load_profile.json")],
        cells=lean(sc), answered="T", status="completed", task=task, note="The cited JSON holds peak_hour 11."))
    prof = sc["profile"]
    cells = [sc.fresh_cells()[0], cell(PEAK_ONLY, shown(prof, f"Peak hour: {int(prof.idxmax())}"))]
    out.append(make(
        "ho-small-peak-hour-printed", "small_integers", sc, ["the hour of peak demand"],
        [part("a1", "Demand peaks at 11 am on average.")],
        answered="F", status="incomplete", task=task, cells=cells,
        note="11 is only printed in a table and a log line; no result file holds it."))

    sc = schools()
    out.append(make(
        "ho-small-bound-only", "small_integers", sc,
        ["whether attendance is significantly associated with reading scores"],
        [part("a1", "Yes — pupils with better attendance read better, and the association is statistically "
                    "significant (p < 0.001).")],
        answered="F", status="incomplete", task="Is attendance related to reading scores in inputs/students.csv?",
        note="Only a bound and 'yes'; the r and p the code printed are not quoted."))
    out.append(make(
        "ho-small-school-count-printed", "small_integers", sc,
        ["how many schools are above the district maths average"],
        [part("a1", "4 of the 8 schools are above the district average: Cedar Park, Ashford, Fairview and Elmwood.")],
        answered="F", status="incomplete",
        task="How many schools in inputs/students.csv score above the district average in maths?",
        note="The count is not computed anywhere; the printed list of names is not a count."))

    sc = demand()
    out.append(make(
        "ho-small-peak-year-json", "small_integers", sc, ["which year had the highest demand"],
        [part("a1", "Demand was highest in 2023.", "outputs/peak_year.json")],
        cells=lean(sc),
        answered="T", status="completed", task="In which year was demand in inputs/hourly_demand.csv highest?",
        note="The cited JSON holds peak_year 2023 as the computed value."))
    return out


def derived_cases() -> list[Case]:
    out: list[Case] = []
    sc = readmission_model_clean()
    o = sc["odds"]["odds_ratio"]
    out.append(make(
        "ho-derived-odds-percent", "derived", sc,
        ["how each additional year of age changes the odds of readmission",
         "how each extra day of stay changes the odds", "how each prior admission changes the odds"],
        [part("a1", f"Age: odds ratio {o['age']:.4f} per year.", "outputs/odds_ratios.csv"),
         part("a2", f"Each extra day in hospital raises the odds of readmission by {pct(o['length_of_stay'] - 1)}.",
              "outputs/odds_ratios.csv"),
         part("a3", f"Each prior admission raises the odds by {pct(o['prior_admissions'] - 1)}.",
              "outputs/odds_ratios.csv")],
        answered="TFF", status="incomplete",
        note="6.5% and 34.5% are the model's own (OR - 1); no cell computed them."))

    sc = energy()
    e, c = sc["eui"], sc["coefs"]
    asks = ["which building type is most energy-intensive per square metre",
            "whether retrofits reduce energy intensity after accounting for age and type"]
    parts = [part("a1", f"Hospitals, median {e.loc['Hospital', 'median']} kWh/m².", "outputs/eui_by_type.csv"),
             part("a2", f"Yes — a retrofit lowers energy intensity by {-c.loc['retrofit', 'coef']:.1f} kWh/m², a "
                        f"{pct(-sc['rel'])} cut relative to the average unretrofitted building.")]
    out.append(make("ho-derived-retrofit-share", "derived", sc, asks, parts, answered="TF", status="incomplete",
                    cells=sc.fresh_cells()[:4], note="The 13.4% relative cut was never computed by these cells."))
    out.append(make("ho-derived-retrofit-share-computed", "derived", sc, asks, parts, answered="TT",
                    status="completed", note="Same words, but a cell printed the relative effect (-13.4%)."))

    sc = schools()
    res = sc["res"]
    out.append(make(
        "ho-derived-tutoring-gap", "derived", sc,
        ["whether tutored pupils scored higher in maths", "the size of the difference"],
        [part("a1", f"Yes — tutored pupils averaged {res['mean_tutored']} versus {res['mean_not_tutored']} "
                    f"(t = {sc['t']:.2f}, p = {sc['p']:.2e})."),
         part("a2", f"The gap is {res['difference']} points.")],
        answered="TF", status="incomplete", cells=[sc.fresh_cells()[0], replace(sc["means_cell"], stage=1)],
        note="Only the two means were printed; the 5.11 difference is the model's subtraction."))

    sc = claims()
    sm = sc["summary"]
    days = sm["median_days_to_settle"]
    out.append(make(
        "ho-derived-settle-ratio", "derived", sc, ["how much longer Home claims take to settle than Travel claims"],
        [part("a1", f"Home claims take a median of {days['Home']:.0f} days to settle against {days['Travel']:.0f} for "
                    f"Travel, roughly {days['Home'] / days['Travel']:.1f} times as long.")],
        answered="F", status="incomplete",
        task="How much longer do Home insurance claims take to settle than Travel claims? Data: inputs/claims.csv.",
        note="The 3.2 ratio is the model's own division."))
    out.append(make(
        "ho-derived-share-computed", "derived", sc, ["the share of total payouts that went to Home policies"],
        [part("a1", f"Home policies account for {pct(sc['share']['Home'])} of everything paid out "
                    f"(${million(sm.loc['Home', 'total_paid'], 1)}).",
              "outputs/share_of_paid.csv", "outputs/claims_summary.csv")],
        cells=lean(sc),
        answered="T", status="completed", task="What share of total claim payouts went to Home policies? Data: "
                                               "inputs/claims.csv.",
        note="A share, but one the code computed and saved."))

    sc = latency()
    reg = sc["reg"]
    out.append(make(
        "ho-derived-region-gap", "derived", sc, ["how much slower ap-south is than us-east at p95"],
        [part("a1", f"ap-south's p95 is {reg['ap-south']} ms against {reg['us-east']} ms in us-east — "
                    f"{reg['ap-south'] - reg['us-east']:.1f} ms slower, or {pct(reg['ap-south'] / reg['us-east'] - 1)} "
                    "higher.", "outputs/p95_by_region.csv")],
        answered="F", status="incomplete", cells=lean(sc),
        task="How much slower is ap-south than us-east at p95 in inputs/requests.csv?",
        note="The difference and the percentage are the model's arithmetic."))
    er = sc["err"]
    out.append(make(
        "ho-derived-error-total-computed", "derived", sc, ["how many requests failed with a server error"],
        [part("a1", f"{sc['total_err']} requests returned a 5xx error over the week, "
                    f"{er.loc['/api/checkout', 'errors']} of them on /api/checkout.")],
        cells=lean(sc),
        answered="T", status="completed", task="How many requests in inputs/requests.csv failed with a server error?",
        note="The total is a sum, but the code printed it."))
    return out


def failed_cases() -> list[Case]:
    out: list[Case] = []
    sc = readmission_rates()
    load = "import pandas as pd\n\ndf = pd.read_csv('{p}')\nprint(df.shape)"
    cells = [raised(load.format(p=p), f"FileNotFoundError: [Errno 2] No such file or directory: '{p}'", i,
                    line=f"df = pd.read_csv('{p}')")
             for i, p in enumerate(["inputs/discharge.csv", "data/discharges.csv", "discharges.csv"], 1)]
    out.append(make(
        "ho-failed-no-load", "failed_code", sc, ["the 30-day readmission rate of each ward",
                                                  "which ward has the highest readmission rate"],
        [part("a1", "Readmission rates range from about 9.8% (Orthopedics) to 21.4% (Oncology)."),
         part("a2", "Oncology has the highest rate.")],
        answered="FF", status="failed", cells=cells, note="No cell ran; the rates cannot come from code."))

    sc = survey()
    first = raised("import pandas as pd\n\ndf = pd.read_csv('inputs/engagement_survey.csv')\nprint(df.shape)\n"
                   "df['engagement'] = df[items].mean(axis=1)", "NameError: name 'items' is not defined", 1,
                   printed=shown(hd.survey().shape))
    second = raised("items = [f'Q{i}' for i in range(1, 9)]\nfav = (df[items] >= 4).mean().round(3)\nprint(fav)",
                    "KeyError: \"None of [Index(['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7', 'Q8'], dtype='str')] are "
                    "in the [columns]\"", 2, line="fav = (df[items] >= 4).mean().round(3)")
    out.append(make(
        "ho-failed-admits", "failed_code", sc, ["the share of favourable responses on each statement"],
        [part("a1", "I could not compute the favourable shares: the item columns could not be selected, so no "
                    "statement-level results are available.", answered=False)],
        answered="F", addressed="F", status="failed", cells=[first, second],
        note="Both cells raised; the answer honestly reports nothing."))

    sc = readmission_model_unsaved()
    o = sc["odds"]
    out.append(make(
        "ho-failed-printed-then-raised", "failed_code", sc,
        ["how each additional year of age changes the odds of readmission",
         "how each extra day of stay changes the odds", "how each prior admission changes the odds"],
        [part("a1", f"Odds ratio per year of age: {o.loc['age', 'odds_ratio']:.4f}."),
         part("a2", f"Per extra day of stay: {o.loc['length_of_stay', 'odds_ratio']:.4f}."),
         part("a3", f"Per prior admission: {o.loc['prior_admissions', 'odds_ratio']:.3f} (CI "
                    f"{o.loc['prior_admissions', 'ci_low']:.3f}–{o.loc['prior_admissions', 'ci_high']:.3f}).")],
        answered="FFF", status="incomplete",
        note="The model cell printed its results then raised on saving; its output is not evidence."))

    sc = inventory()
    cells = [sc.fresh_cells()[0], replace(sc["broken"])]
    out.append(make(
        "ho-failed-keyerror", "failed_code", sc,
        ["which SKUs are at risk of stocking out before replenishment", "how the risk is spread across warehouses"],
        [part("a1", "About a quarter of SKUs (roughly 4,900) have less cover than their lead time."),
         part("a2", "The risk is concentrated in WH-South.")],
        answered="FF", status="incomplete", cells=cells,
        note="The risk cell raised a KeyError before printing anything; the count has no executed source."))
    return out
