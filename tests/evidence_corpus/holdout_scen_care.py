"""Hold-out scenarios: hospital readmissions and building energy use (cells with what their code prints/writes)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import numpy as np
import pandas as pd

from . import holdout_data as hd
from .case import CellCase
from .common import LOAD, Scenario, cell, raised
from .data import csv, csv_rows, dumps, frame_text, shown
from .stats import logit, ols

DUMP = "pd.set_option('display.max_rows', None)\nprint(df.to_string())"


def load_cell(path: str, df: pd.DataFrame, stage: int = 1) -> CellCase:
    return cell(LOAD.format(path=path), shown(df.shape, df.head()), stage=stage)


def lean(sc: Scenario, staged: bool = False) -> list[CellCase]:
    """The scenario as a run that never printed its whole table (the scenario's `lean` cells), copied as
    `Scenario.fresh_cells` copies them."""
    return [replace(c, files=dict(c.files), stage=c.stage if staged else 1) for c in sc["lean"]]


# ---------------------------------------------------------------- hospital readmissions
RATES = """rates = (df.groupby('ward')['readmitted_30d']
           .agg(rate='mean', discharges='size')
           .sort_values('rate', ascending=False))
rates['rate'] = rates['rate'].round(4)
rates.to_csv('outputs/readmission_by_ward.csv')
print(rates)
print('Overall 30-day readmission rate:', round(df['readmitted_30d'].mean(), 4))"""

ABOVE = """import json
overall = df['readmitted_30d'].mean()
above = rates[rates['rate'] > overall].index.tolist()
with open('outputs/wards_above_overall.json', 'w') as f:
    json.dump({'overall_rate': round(overall, 4), 'n_wards_above': len(above), 'wards': above}, f, indent=2)
print(above)"""

DEST = """dest = df.groupby('discharge_to').agg(rate=('readmitted_30d', 'mean'), mean_los=('length_of_stay', 'mean'))
dest = dest.round(4)
dest.to_csv('outputs/readmission_by_destination.csv')
print(dest)"""

LOGIT = """import statsmodels.api as sm
X = sm.add_constant(df[['age', 'length_of_stay', 'prior_admissions']])
model = sm.Logit(df['readmitted_30d'], X).fit(disp=0)
print(model.summary())"""

ODDS_BODY = """ci = model.conf_int()
odds = pd.DataFrame({'odds_ratio': np.exp(model.params), 'ci_low': np.exp(ci[0]),
                     'ci_high': np.exp(ci[1]), 'p_value': model.pvalues}).round(4)
"""
ODDS = ODDS_BODY + "odds.to_csv('outputs/odds_ratios.csv')\nprint(odds)"
ODDS_PLOT = ODDS + """
ax = odds.drop('const').plot.barh(y='odds_ratio', logx=True)
ax.figure.savefig('outputs/odds_ratios.png')"""
ODDS_UNSAVED = LOGIT + "\n" + ODDS_BODY + "print(odds)\nodds.to_csv('output/odds_ratios.csv')"
NO_MPL = 'ImportError: matplotlib is required for plotting when the default backend "matplotlib" is selected.'

MODEL_JSON = """import json
summary = {name: {'odds_ratio': round(float(np.exp(model.params[name])), 4),
                  'ci_low': round(float(np.exp(ci.loc[name, 0])), 4),
                  'ci_high': round(float(np.exp(ci.loc[name, 1])), 4)}
           for name in ['age', 'length_of_stay', 'prior_admissions']}
summary['n'] = int(model.nobs)
with open('outputs/readmission_model.json', 'w') as f:
    json.dump(summary, f, indent=2)
print(json.dumps(summary, indent=2))"""


@cache
def readmission_rates() -> Scenario:
    """Rates by ward, after dumping the whole discharge table (1.6 MB printed); stages 1-3 for orchestrated use."""
    df = hd.discharges()
    rates = df.groupby("ward").agg(rate=("readmitted_30d", "mean"), discharges=("readmitted_30d", "size"))
    rates = rates.sort_values("rate", ascending=False)
    rates["rate"] = rates["rate"].round(4)
    overall = df["readmitted_30d"].mean()
    above = rates[rates["rate"] > overall].index.tolist()
    above_json = {"overall_rate": round(float(overall), 4), "n_wards_above": len(above), "wards": above}
    dest = df.groupby("discharge_to").agg(rate=("readmitted_30d", "mean"), mean_los=("length_of_stay", "mean"))
    dest = dest.round(4)
    cells = (
        load_cell("inputs/discharges.csv", df),
        cell(DUMP, frame_text(df) + "\n"),
        cell(RATES, shown(rates, f"Overall 30-day readmission rate: {round(overall, 4)}"),
             {"outputs/readmission_by_ward.csv": csv(rates)}, stage=2),
        cell(DEST, shown(dest), {"outputs/readmission_by_destination.csv": csv(dest)}, stage=2),
        cell(ABOVE, shown(above), {"outputs/wards_above_overall.json": dumps(above_json)}, stage=3),
    )
    return Scenario(
        task="Using inputs/discharges.csv, work out the 30-day readmission rate for each ward and tell me which "
             "ward has the highest rate.",
        cells=cells, inputs={"inputs/discharges.csv": csv_rows(df)},
        facts={"rates": rates, "overall": float(overall), "above": above, "dest": dest, "lean": cells[:1] + cells[2:],
               "mean_los": float(df["length_of_stay"].mean())},
    )


def _odds(fit) -> pd.DataFrame:
    return pd.DataFrame({"odds_ratio": np.exp(fit.params), "ci_low": np.exp(fit.ci[0]),
                         "ci_high": np.exp(fit.ci[1]), "p_value": fit.pvalues}).round(4)


@cache
def readmission_model() -> Scenario:
    """Logistic model of readmission; a first attempt at saving the odds ratios also plots them and fails (no
    matplotlib), after writing outputs/odds_ratios.csv; a second cell saves them as JSON."""
    df = hd.discharges()
    fit = logit(df["readmitted_30d"], df[["age", "length_of_stay", "prior_admissions"]])
    odds = _odds(fit)
    model_json: dict[str, dict[str, float] | int] = {name: {"odds_ratio": round(float(np.exp(fit.params[name])), 4),
                         "ci_low": round(float(np.exp(fit.ci.loc[name, 0])), 4),
                         "ci_high": round(float(np.exp(fit.ci.loc[name, 1])), 4)}
                  for name in ["age", "length_of_stay", "prior_admissions"]}
    model_json["n"] = fit.nobs
    cells = (
        load_cell("inputs/discharges.csv", df),
        cell(LOGIT, fit.summary() + "\n", stage=2),
        raised(ODDS_PLOT, NO_MPL, 3, printed=shown(odds),
               files={"outputs/odds_ratios.csv": csv(odds)}, line="ax = odds.drop('const').plot.barh(y='odds_ratio', "
               "logx=True)", stage=2),
        cell(MODEL_JSON, json.dumps(model_json, indent=2) + "\n", {"outputs/readmission_model.json":
                                                                   dumps(model_json)}, stage=2),
    )
    return Scenario(
        task="Model 30-day readmission in inputs/discharges.csv on age, length of stay and prior admissions. How "
             "much does each factor change the odds of readmission?",
        cells=cells, inputs={"inputs/discharges.csv": csv_rows(df)}, facts={"fit": fit, "odds": odds},
    )


@cache
def readmission_model_clean() -> Scenario:
    """The same model, odds ratios saved by a cell that ran (the one a careful run would leave)."""
    sc = readmission_model()
    odds = sc["odds"]
    cells = (sc.cells[0], sc.cells[1],
             cell(ODDS, shown(odds), {"outputs/odds_ratios.csv": csv(odds)},
                  stage=2))
    return Scenario(task=sc.task, cells=cells, inputs=sc.inputs, facts=sc.facts)


@cache
def readmission_model_unsaved() -> Scenario:
    """The model printed its odds ratios, then saving them to a directory that does not exist raised."""
    sc = readmission_model()
    fail = raised(ODDS_UNSAVED,
                  "OSError: Cannot save file into a non-existent directory: 'output'", 2,
                  printed=sc.cells[1].output + shown(sc["odds"]), line="odds.to_csv('output/odds_ratios.csv')")
    return Scenario(task=sc.task, cells=(sc.cells[0], fail), inputs=sc.inputs, facts=sc.facts)


# ---------------------------------------------------------------- building energy use
EUI = """df['eui'] = df['annual_kwh'] / df['floor_area_m2']
eui = (df.groupby('building_type')['eui'].agg(['median', 'mean', 'count'])
         .round(1).sort_values('median', ascending=False))
eui.to_csv('outputs/eui_by_type.csv')
print(eui)"""

EUI_OLS = """import statsmodels.api as sm
df['age'] = 2024 - df['year_built']
X = pd.get_dummies(df[['age', 'retrofit', 'building_type']], columns=['building_type'],
                   drop_first=True, dtype=float)
model = sm.OLS(df['eui'], sm.add_constant(X)).fit()
print(model.summary())"""

COEFS = """ci = model.conf_int()
coefs = pd.DataFrame({'coef': model.params, 'ci_low': ci[0], 'ci_high': ci[1],
                      'p_value': model.pvalues}).round(3)
coefs.to_csv('outputs/eui_model_coefficients.csv')
print(coefs.loc[['age', 'retrofit']])"""

RELATIVE = """base = df.loc[df['retrofit'] == 0, 'eui'].mean()
rel = model.params['retrofit'] / base
print(f'Mean EUI without retrofit: {base:.1f} kWh/m2')
print(f'Retrofit effect relative to that mean: {rel:.1%}')"""


@cache
def energy() -> Scenario:
    df = hd.buildings().copy()
    df["eui"] = df["annual_kwh"] / df["floor_area_m2"]
    eui = df.groupby("building_type")["eui"].agg(["median", "mean", "count"]).round(1)
    eui = eui.sort_values("median", ascending=False)
    df["age"] = 2024 - df["year_built"]
    x = pd.get_dummies(df[["age", "retrofit", "building_type"]], columns=["building_type"], drop_first=True,
                       dtype=float)
    fit = ols(df["eui"], x)
    coefs = pd.DataFrame({"coef": fit.params, "ci_low": fit.ci[0], "ci_high": fit.ci[1],
                          "p_value": fit.pvalues}).round(3)
    base = df.loc[df["retrofit"] == 0, "eui"].mean()
    rel = fit.params["retrofit"] / base
    raw = hd.buildings()
    cells = (
        load_cell("inputs/buildings.csv", raw),
        cell(EUI, shown(eui), {"outputs/eui_by_type.csv": csv(eui)}, stage=1),
        cell(EUI_OLS, fit.summary() + "\n", stage=2),
        cell(COEFS, shown(coefs.loc[["age", "retrofit"]]), {"outputs/eui_model_coefficients.csv": csv(coefs)},
             stage=2),
        cell(RELATIVE, shown(f"Mean EUI without retrofit: {base:.1f} kWh/m2",
                             f"Retrofit effect relative to that mean: {rel:.1%}"), stage=3),
    )
    return Scenario(
        task="inputs/buildings.csv lists our buildings with floor area and annual electricity use. Which building "
             "type is the most energy-intensive per square metre, and do retrofits reduce energy intensity once "
             "building age and type are accounted for?",
        cells=cells, inputs={"inputs/buildings.csv": csv(raw, index=False)},
        facts={"eui": eui, "fit": fit, "coefs": coefs, "base": float(base), "rel": float(rel)},
    )


PROFILE = """import json
readings['hour'] = pd.to_datetime(readings['timestamp']).dt.hour
profile = readings.groupby('hour')['kwh'].mean().round(3)
print(profile)
night = profile.loc[1:4].mean()
summary = {'peak_hour': int(profile.idxmax()), 'peak_mean_kwh': float(profile.max()),
           'overnight_mean_kwh': round(float(night), 3), 'base_to_peak': round(float(night / profile.max()), 4)}
with open('outputs/load_profile.json', 'w') as f:
    json.dump(summary, f, indent=2)
print(summary)"""


@cache
def meter() -> Scenario:
    """Fifteen-minute meter readings of 16 buildings, printed whole (1.45 MB), then the daily load profile."""
    readings = hd.meter_readings()
    hour = pd.to_datetime(readings["timestamp"]).dt.hour
    profile = readings.groupby(hour.rename("hour"))["kwh"].mean().round(3)
    night = profile.loc[1:4].mean()
    peak_hour = profile.idxmax()
    assert isinstance(peak_hour, (int, np.integer))
    summary = {"peak_hour": int(peak_hour), "peak_mean_kwh": float(profile.max()),
               "overnight_mean_kwh": round(float(night), 3), "base_to_peak": round(float(night / profile.max()), 4)}
    cells = (
        cell("import pandas as pd\n\nreadings = pd.read_csv('inputs/meter_readings.csv')\nprint(readings.shape)\n"
             "print(readings.to_string())", shown(readings.shape) + frame_text(readings) + "\n"),
        cell(PROFILE, shown(profile, summary), {"outputs/load_profile.json": dumps(summary)}),
    )
    return Scenario(
        task="inputs/meter_readings.csv has 15-minute electricity readings for 16 buildings over two weeks in "
             "January. When in the day does demand peak, and how big is the overnight baseload compared with the "
             "peak?",
        cells=cells, inputs={"inputs/meter_readings.csv": csv_rows(readings)},
        facts={"profile": profile, "summary": summary, "lean": (
            cell("import pandas as pd\n\nreadings = pd.read_csv('inputs/meter_readings.csv')\nprint(readings.shape)\n"
                 "print(readings.head())", shown(readings.shape, readings.head())), cells[1])},
    )
