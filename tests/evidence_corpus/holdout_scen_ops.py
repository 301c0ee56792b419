"""Hold-out scenarios: hourly demand, web request latency, insurance claims and warehouse inventory. Each prints its
whole input table once (1 MB or more), as an agent exploring the data sometimes does."""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from . import holdout_data as hd
from .common import Scenario, cell, raised
from .data import csv, csv_rows, dumps, frame_text, shown
from .holdout_scen_care import DUMP, load_cell

# ---------------------------------------------------------------- hourly demand
FEATURES = """feat = df.copy()
dt = pd.to_datetime(feat['timestamp'])
feat['hour'] = dt.dt.hour
feat['dow'] = dt.dt.day_of_week
feat['lag_24'] = feat['units'].shift(24)
feat['lag_168'] = feat['units'].shift(168)
feat['roll_mean_24'] = feat['units'].shift(1).rolling(24).mean().round(3)
feat = feat.dropna().reset_index(drop=True)
pd.set_option('display.max_rows', None)
print(feat.to_string())"""

EVAL = """test = feat.tail(24 * 28)
rows = []
for name, col in [('seasonal_naive_168h', 'lag_168'), ('naive_24h', 'lag_24'), ('rolling_mean_24h', 'roll_mean_24')]:
    err = test['units'] - test[col]
    rows.append({'model': name, 'mae': round(err.abs().mean(), 3),
                 'mape': round((err.abs() / test['units']).mean(), 4)})
scores = pd.DataFrame(rows).sort_values('mape')
scores.to_csv('outputs/forecast_eval.csv', index=False)
print(scores.to_string(index=False))"""

ANNUAL = """import json
df['year'] = pd.to_datetime(df['timestamp']).dt.year
annual = df.groupby('year')['units'].sum()
yoy = annual.pct_change().iloc[-1]
print(annual)
print(f'Year-over-year change: {yoy:.2%}')
annual.to_csv('outputs/annual_totals.csv')
with open('outputs/peak_year.json', 'w') as f:
    json.dump({'peak_year': int(annual.idxmax()), 'peak_units': int(annual.max()), 'yoy_change': round(yoy, 4)},
              f, indent=2)"""

WEEKDAY = """days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
weekday = (df.groupby(pd.to_datetime(df['timestamp']).dt.day_name())['units'].mean()
             .reindex(days).round(2))
weekday.to_csv('outputs/weekday_means.csv')
print(weekday)"""


@cache
def demand() -> Scenario:
    df = hd.demand().copy()
    feat = df.copy()
    dt = pd.to_datetime(feat["timestamp"])
    feat["hour"], feat["dow"] = dt.dt.hour, dt.dt.day_of_week
    feat["lag_24"] = feat["units"].shift(24)
    feat["lag_168"] = feat["units"].shift(168)
    feat["roll_mean_24"] = feat["units"].shift(1).rolling(24).mean().round(3)
    feat = feat.dropna().reset_index(drop=True)
    test = feat.tail(24 * 28)
    rows = []
    for name, col in [("seasonal_naive_168h", "lag_168"), ("naive_24h", "lag_24"),
                      ("rolling_mean_24h", "roll_mean_24")]:
        err = test["units"] - test[col]
        rows.append({"model": name, "mae": round(float(err.abs().mean()), 3),
                     "mape": round(float((err.abs() / test["units"]).mean()), 4)})
    scores = pd.DataFrame(rows).sort_values("mape")
    year = dt.dt.year.rename("year")
    annual = df.groupby(year)["units"].sum()
    yoy = float(annual.pct_change().iloc[-1])
    peak_year = annual.idxmax()
    assert isinstance(peak_year, (int, np.integer))
    peak = {"peak_year": int(peak_year), "peak_units": int(annual.max()), "yoy_change": round(yoy, 4)}
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    weekday = df.groupby(dt.dt.day_name())["units"].mean().reindex(days).round(2)
    weekday.index.name = "timestamp"
    cells = (
        load_cell("inputs/hourly_demand.csv", df),
        cell(FEATURES, frame_text(feat) + "\n"),
        cell(EVAL, scores.to_string(index=False) + "\n", {"outputs/forecast_eval.csv": csv(scores, index=False)},
             stage=2),
        cell(ANNUAL, shown(annual, f"Year-over-year change: {yoy:.2%}"),
             {"outputs/annual_totals.csv": csv(annual), "outputs/peak_year.json": dumps(peak)}, stage=3),
        cell(WEEKDAY, shown(weekday), {"outputs/weekday_means.csv": csv(weekday)}, stage=3),
    )
    return Scenario(
        task="inputs/hourly_demand.csv has hourly unit demand for one product over 2023-2024. How accurate are "
             "simple baseline forecasts over the final four weeks, and how is demand trending?",
        cells=cells, inputs={"inputs/hourly_demand.csv": csv_rows(df)},
        facts={"scores": scores.set_index("model"), "annual": annual, "yoy": yoy, "peak": peak, "lean": (
                   cells[0], cell(FEATURES.rsplit("\npd.set_option", 1)[0]), *cells[2:]),
               "weekday": weekday, "feat_rows": len(feat)},
    )


# ---------------------------------------------------------------- web request latency
PCTL = """pct = logs.groupby('endpoint')['latency_ms'].quantile([0.5, 0.95, 0.99]).unstack().round(1)
pct.columns = ['p50', 'p95', 'p99']
pct = pct.sort_values('p99', ascending=False)
pct.to_csv('outputs/latency_percentiles.csv')
print(pct)"""

ERRORS = """logs['is_error'] = logs['status'] >= 500
err = logs.groupby('endpoint').agg(requests=('status', 'size'), errors=('is_error', 'sum'),
                                   error_rate=('is_error', 'mean'))
err['error_rate'] = err['error_rate'].round(4)
err.to_csv('outputs/error_rates.csv')
print(err)
print('Total 5xx errors:', int(logs['is_error'].sum()))"""

REGION = """reg = logs.groupby('region')['latency_ms'].quantile(0.95).round(1).sort_values(ascending=False)
reg.to_csv('outputs/p95_by_region.csv')
print(reg)"""


@cache
def latency() -> Scenario:
    logs = hd.requests_log().copy()
    pct = logs.groupby("endpoint")["latency_ms"].quantile([0.5, 0.95, 0.99]).unstack().round(1)
    pct.columns = ["p50", "p95", "p99"]
    pct = pct.sort_values("p99", ascending=False)
    logs["is_error"] = logs["status"] >= 500
    err = logs.groupby("endpoint").agg(requests=("status", "size"), errors=("is_error", "sum"),
                                       error_rate=("is_error", "mean"))
    err["error_rate"] = err["error_rate"].round(4)
    total_err = int(logs["is_error"].sum())
    reg = logs.groupby("region")["latency_ms"].quantile(0.95).round(1).sort_values(ascending=False)
    raw = hd.requests_log()
    cells = (
        cell("import pandas as pd\n\nlogs = pd.read_csv('inputs/requests.csv')\nprint(logs.shape)\n"
             "print(logs.head())", shown(raw.shape, raw.head())),
        cell(DUMP.replace("df.", "logs."), frame_text(raw) + "\n"),
        cell(PCTL, shown(pct), {"outputs/latency_percentiles.csv": csv(pct)}, stage=2),
        cell(ERRORS, shown(err, f"Total 5xx errors: {total_err}"), {"outputs/error_rates.csv": csv(err)}, stage=2),
        cell(REGION, shown(reg), {"outputs/p95_by_region.csv": csv(reg)}, stage=3),
    )
    return Scenario(
        task="inputs/requests.csv is a week of API request logs. Report the latency percentiles for each endpoint "
             "and where the service is slowest.",
        cells=cells, inputs={"inputs/requests.csv": csv_rows(raw)},
        facts={"pct": pct, "err": err, "total_err": total_err, "reg": reg, "n": len(raw),
               "lean": cells[:1] + cells[2:]},
    )


# ---------------------------------------------------------------- insurance claims
CLAIMS = """summary = claims.groupby('policy_type').agg(
    claims=('claim_id', 'size'), total_paid=('claim_amount', 'sum'), mean_claim=('claim_amount', 'mean'),
    median_days_to_settle=('days_to_settle', 'median'), fraud_rate=('fraud_flag', 'mean'),
).round({'total_paid': 2, 'mean_claim': 2, 'fraud_rate': 4})
summary.to_csv('outputs/claims_summary.csv')
print(summary)"""

SPEARMAN = """rho = claims['claim_amount'].corr(claims['days_to_settle'], method='spearman')
print(f'Spearman rho (amount vs days to settle): {rho:.3f}')"""

SHARE = """share = (summary['total_paid'] / summary['total_paid'].sum()).round(4).rename('share_of_paid')
share.to_csv('outputs/share_of_paid.csv')
print(share)"""


@cache
def claims() -> Scenario:
    df = hd.claims()
    summary = df.groupby("policy_type").agg(
        claims=("claim_id", "size"), total_paid=("claim_amount", "sum"), mean_claim=("claim_amount", "mean"),
        median_days_to_settle=("days_to_settle", "median"), fraud_rate=("fraud_flag", "mean"),
    ).round({"total_paid": 2, "mean_claim": 2, "fraud_rate": 4})
    rho = float(df["claim_amount"].rank().corr(df["days_to_settle"].rank()))
    share = (summary["total_paid"] / summary["total_paid"].sum()).round(4).rename("share_of_paid")
    cells = (
        cell("import pandas as pd\n\nclaims = pd.read_csv('inputs/claims.csv')\nprint(claims.shape)\n"
             "print(claims.head())", shown(df.shape, df.head())),
        cell(DUMP.replace("df.", "claims."), frame_text(df) + "\n"),
        cell(CLAIMS, shown(summary), {"outputs/claims_summary.csv": csv(summary)}, stage=2),
        cell(SPEARMAN, f"Spearman rho (amount vs days to settle): {rho:.3f}\n", stage=3),
        cell(SHARE, shown(share), {"outputs/share_of_paid.csv": csv(share)}, stage=3),
    )
    return Scenario(
        task="inputs/claims.csv has last year's insurance claims. Compare the policy types: how much was paid out, "
             "how long claims take to settle and how often they are flagged as fraud.",
        cells=cells, inputs={"inputs/claims.csv": csv_rows(df)},
        facts={"summary": summary, "rho": rho, "share": share, "lean": cells[:1] + cells[2:]},
    )


# ---------------------------------------------------------------- warehouse inventory
RISK = """import json
inv['days_of_cover'] = (inv['on_hand'] / inv['avg_daily_demand']).round(1)
inv['at_risk'] = inv['days_of_cover'] < inv['{lead}']
inv['stock_value'] = inv['on_hand'] * inv['unit_cost']
by_wh = inv.groupby('warehouse').agg(skus=('sku', 'size'), at_risk_skus=('at_risk', 'sum'),
                                     at_risk_share=('at_risk', 'mean'), stock_value=('stock_value', 'sum'))
by_wh = by_wh.round({{'at_risk_share': 4, 'stock_value': 2}})
by_wh.to_csv('outputs/stock_risk_by_warehouse.csv')
print(by_wh)
summary = {{'skus': len(inv), 'at_risk_skus': int(inv['at_risk'].sum()),
           'at_risk_share': round(float(inv['at_risk'].mean()), 4),
           'inventory_value': round(float(inv['stock_value'].sum()), 2)}}
with open('outputs/stock_summary.json', 'w') as f:
    json.dump(summary, f, indent=2)
print(summary)"""

CATEGORY = """cat = inv.groupby('category')['at_risk'].mean().round(4).sort_values(ascending=False)
cat.to_csv('outputs/at_risk_by_category.csv')
print(cat)"""


@cache
def inventory() -> Scenario:
    raw = hd.inventory()
    inv = raw.copy()
    inv["days_of_cover"] = (inv["on_hand"] / inv["avg_daily_demand"]).round(1)
    inv["at_risk"] = inv["days_of_cover"] < inv["lead_time_days"]
    inv["stock_value"] = inv["on_hand"] * inv["unit_cost"]
    by_wh = inv.groupby("warehouse").agg(skus=("sku", "size"), at_risk_skus=("at_risk", "sum"),
                                         at_risk_share=("at_risk", "mean"), stock_value=("stock_value", "sum"))
    by_wh = by_wh.round({"at_risk_share": 4, "stock_value": 2})
    summary = {"skus": len(inv), "at_risk_skus": int(inv["at_risk"].sum()),
               "at_risk_share": round(float(inv["at_risk"].mean()), 4),
               "inventory_value": round(float(inv["stock_value"].sum()), 2)}
    cat = inv.groupby("category")["at_risk"].mean().round(4).sort_values(ascending=False)
    load = cell("import pandas as pd\n\ninv = pd.read_csv('inputs/inventory.csv')\nprint(inv.shape)\n"
                "print(inv.head())", shown(raw.shape, raw.head()))
    cells = (
        load,
        cell(DUMP.replace("df.", "inv."), frame_text(raw) + "\n"),
        cell(RISK.format(lead="lead_time_days"), shown(by_wh, summary),
             {"outputs/stock_risk_by_warehouse.csv": csv(by_wh), "outputs/stock_summary.json": dumps(summary)},
             stage=2),
        cell(CATEGORY, shown(cat), {"outputs/at_risk_by_category.csv": csv(cat)}, stage=3),
    )
    broken = raised(RISK.format(lead="lead_time"), "KeyError: 'lead_time'", 2, line="inv['at_risk'] = "
                    "inv['days_of_cover'] < inv['lead_time']")
    return Scenario(
        task="inputs/inventory.csv lists every SKU in our four warehouses with stock on hand, average daily demand "
             "and supplier lead time. Which SKUs are at risk of stocking out before a replenishment could arrive, "
             "and how is that risk spread across warehouses?",
        cells=cells, inputs={"inputs/inventory.csv": csv_rows(raw)},
        facts={"by_wh": by_wh, "summary": summary, "cat": cat, "broken": broken, "lean": cells[:1] + cells[2:]},
    )

