"""More scenarios: weekly traffic pattern, salaries by department and gender, returning customers, a forecast."""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from . import data
from .common import LOAD, Scenario, cell
from .data import csv, csv_rows, dumps, shown

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _load(df: pd.DataFrame, path: str):
    return cell(LOAD.format(path=path), shown(df.shape, df.head()))


@cache
def traffic() -> Scenario:
    df = data.traffic()
    by_day = df.groupby("weekday")["visits"].mean().reindex(DAYS)
    overall = float(df["visits"].mean())
    table = pd.DataFrame({"mean_visits": by_day, "index": by_day / overall})
    cells = (
        _load(df, "inputs/visits.csv"),
        cell("days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']\n"
             "by_day = df.groupby('weekday')['visits'].mean().reindex(days)\n"
             "table = pd.DataFrame({'mean_visits': by_day, 'index': by_day / df['visits'].mean()})\n"
             "print(table.round(3))\nprint('overall mean:', round(df['visits'].mean(), 1))\n"
             "table.to_csv('outputs/visits_by_weekday.csv')",
             shown(table.round(3)) + f"overall mean: {round(overall, 1)}\n",
             {"outputs/visits_by_weekday.csv": csv(table)}),
    )
    return Scenario(task="Is there a weekly pattern in site visits, and which day of the week peaks?", cells=cells,
                    inputs={"inputs/visits.csv": csv_rows(df)},
                    facts={"by_day": by_day, "index": table["index"], "overall": overall,
                           "peak": str(by_day.idxmax()), "low": str(by_day.idxmin())})


@cache
def salaries() -> Scenario:
    df = data.salaries()
    by_dept = df.groupby("department")["salary"].agg(["mean", "median", "count"]).sort_values("mean", ascending=False)
    pivot = df.pivot_table(index="department", columns="gender", values="salary", aggfunc="mean")
    pivot["gap_pct"] = (pivot["M"] - pivot["F"]) / pivot["M"] * 100
    overall_gap = float((df.loc[df.gender == "M", "salary"].mean() - df.loc[df.gender == "F", "salary"].mean())
                        / df.loc[df.gender == "M", "salary"].mean() * 100)
    cells = (
        _load(df, "inputs/employees.csv"),
        cell("by_dept = df.groupby('department')['salary'].agg(['mean', 'median', 'count'])"
             ".sort_values('mean', ascending=False)\nprint(by_dept.round(0))\n"
             "by_dept.to_csv('outputs/salary_by_department.csv')",
             shown(by_dept.round(0)), {"outputs/salary_by_department.csv": csv(by_dept)}, stage=2),
        cell("pivot = df.pivot_table(index='department', columns='gender', values='salary', aggfunc='mean')\n"
             "pivot['gap_pct'] = (pivot['M'] - pivot['F']) / pivot['M'] * 100\nprint(pivot.round(1))\n"
             "m, f = df.loc[df.gender == 'M', 'salary'].mean(), df.loc[df.gender == 'F', 'salary'].mean()\n"
             "print(f'overall gap: {(m - f) / m * 100:.2f}%')\npivot.to_csv('outputs/gender_gap.csv')",
             shown(pivot.round(1)) + f"overall gap: {overall_gap:.2f}%\n", {"outputs/gender_gap.csv": csv(pivot)},
             stage=3),
    )
    return Scenario(task="How do salaries differ by department, and is there a gender pay gap?", cells=cells,
                    inputs={"inputs/employees.csv": csv_rows(df)},
                    facts={"by_dept": by_dept, "pivot": pivot, "gap": overall_gap})


@cache
def orders() -> Scenario:
    df = data.orders()
    rev = df.groupby("customer_type")["order_value"].sum()
    share = rev / rev.sum()
    aov = df.groupby("customer_type")["order_value"].mean()
    res = {"share_returning": float(share["returning"]), "aov_returning": float(aov["returning"]),
           "aov_new": float(aov["new"]), "aov_diff": float(aov["returning"] - aov["new"]),
           "customers": int(df["customer_id"].nunique()), "orders": len(df)}
    cells = (
        _load(df, "inputs/orders.csv"),
        cell("rev = df.groupby('customer_type')['order_value'].sum()\naov = df.groupby('customer_type')"
             "['order_value'].mean()\nprint(pd.DataFrame({'revenue': rev, 'share': rev / rev.sum(), "
             "'avg_order': aov}).round(4))\nprint('customers:', df['customer_id'].nunique())",
             shown(pd.DataFrame({"revenue": rev, "share": share, "avg_order": aov}).round(4))
             + f"customers: {res['customers']}\n"),
        cell("import json\n\nres = {'share_returning': (rev / rev.sum())['returning'], 'aov_returning': "
             "aov['returning'],\n       'aov_new': aov['new'], 'aov_diff': aov['returning'] - aov['new'],\n"
             "       'customers': int(df['customer_id'].nunique()), 'orders': len(df)}\n"
             "with open('outputs/customer_types.json', 'w') as f:\n    json.dump(res, f, indent=2)",
             "", {"outputs/customer_types.json": dumps(res)}),
    )
    return Scenario(task="What share of revenue comes from returning customers, and how does their average order "
                         "differ from new customers'?", cells=cells,
                    inputs={"inputs/orders.csv": csv_rows(df)}, facts=res)


@cache
def forecast() -> Scenario:
    df = data.monthly()
    y = np.log(df["revenue"].to_numpy())
    t = np.arange(len(df))
    month = t % 12

    def design(tt: np.ndarray, mm: np.ndarray) -> np.ndarray:
        return np.column_stack([np.ones(len(tt)), tt] + [(mm == k).astype(float) for k in range(1, 12)])

    train = t < 30
    beta = np.linalg.lstsq(design(t[train], month[train]), y[train], rcond=None)[0]
    pred = np.exp(design(t, month) @ beta)
    test = pd.DataFrame({"month": df["month"][~train], "actual": df["revenue"][~train], "predicted": pred[~train]})
    mape = float((abs(test["actual"] - test["predicted"]) / test["actual"]).mean())
    beta_all = np.linalg.lstsq(design(t, month), y, rcond=None)[0]
    nxt = float(np.exp(design(np.array([36]), np.array([0])) @ beta_all)[0])
    growth = float(np.exp(beta_all[1]) - 1)
    res = {"next_month": "2024-01", "forecast": nxt, "mape_holdout": mape, "monthly_trend": growth}
    cells = (
        _load(df, "inputs/monthly_revenue.csv"),
        cell("y = np.log(df['revenue'].to_numpy())\nt = np.arange(len(df))\nmonth = t % 12\n\n"
             "def design(tt, mm):\n    return np.column_stack([np.ones(len(tt)), tt] + "
             "[(mm == k).astype(float) for k in range(1, 12)])\n\ntrain = t < 30\n"
             "beta = np.linalg.lstsq(design(t[train], month[train]), y[train], rcond=None)[0]\n"
             "pred = np.exp(design(t, month) @ beta)\ntest = pd.DataFrame({'month': df['month'][~train], "
             "'actual': df['revenue'][~train], 'predicted': pred[~train]})\nprint(test.round(2))\n"
             "mape = (abs(test['actual'] - test['predicted']) / test['actual']).mean()\n"
             "print(f'holdout MAPE: {mape:.4f}')",
             shown(test.round(2)) + f"holdout MAPE: {mape:.4f}\n", stage=2),
        cell("import json\n\nbeta_all = np.linalg.lstsq(design(t, month), y, rcond=None)[0]\n"
             "nxt = np.exp(design(np.array([36]), np.array([0])) @ beta_all)[0]\n"
             "res = {'next_month': '2024-01', 'forecast': nxt, 'mape_holdout': mape, "
             "'monthly_trend': np.exp(beta_all[1]) - 1}\nprint(json.dumps(res, indent=2))\n"
             "with open('outputs/forecast.json', 'w') as f:\n    json.dump(res, f, indent=2)",
             dumps(res) + "\n", {"outputs/forecast.json": dumps(res)}, stage=3),
    )
    return Scenario(task="What revenue should we expect next month (January 2024), and how accurate is the "
                         "forecast?", cells=cells,
                    inputs={"inputs/monthly_revenue.csv": csv_rows(df)}, facts=res | {"test": test})
