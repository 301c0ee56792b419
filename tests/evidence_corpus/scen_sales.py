"""Scenarios on the sales data: revenue by region, what drives revenue, which region grows fastest."""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from . import data, stats
from .common import LOAD, Scenario, cell
from .data import csv, csv_rows, dumps, shown

SALES = "inputs/sales.csv"


def load_cell(df: pd.DataFrame, path: str = SALES, stage: int = 1):
    return cell(LOAD.format(path=path), shown(df.shape, df.head()), stage=stage)


@cache
def sales_input() -> dict[str, str]:
    return {SALES: csv_rows(data.sales())}


@cache
def regions() -> Scenario:
    df = data.sales()
    by_region = df.groupby("region")["revenue"].sum().sort_values(ascending=False)
    summary = pd.DataFrame({"revenue": by_region, "share": by_region / by_region.sum()})
    total = round(float(by_region.sum()), 2)
    cells = (
        load_cell(df),
        cell("by_region = df.groupby('region')['revenue'].sum().sort_values(ascending=False)\nprint(by_region)",
             shown(by_region), stage=2),
        cell("summary = pd.DataFrame({'revenue': by_region, 'share': by_region / by_region.sum()})\n"
             "summary.to_csv('outputs/revenue_by_region.csv')\nprint(summary.round(4))\n"
             "print('total revenue:', round(by_region.sum(), 2))",
             shown(summary.round(4)) + f"total revenue: {total}\n",
             {"outputs/revenue_by_region.csv": csv(summary)}, stage=2),
    )
    return Scenario(
        task="What is the total revenue by region, and which region earns the most?",
        cells=cells, inputs=sales_input(),
        facts={"rev": by_region, "share": summary["share"], "total": total, "top": by_region.index[0]},
    )


@cache
def drivers() -> Scenario:
    df = data.sales()
    cols = ["discount_pct", "ad_spend", "price"]
    model = stats.ols(df["revenue"], df[cols])
    coefs = pd.DataFrame({"coef": model.params, "std_err": model.bse, "p_value": model.pvalues})
    fit = {"r_squared": model.rsquared, "adj_r_squared": model.info["adj_r2"], "n": model.nobs}
    corr = df[cols + ["revenue"]].corr()["revenue"].drop("revenue").sort_values(ascending=False)
    cells = (
        load_cell(df),
        cell("print(df[['discount_pct', 'ad_spend', 'price', 'revenue']].describe())",
             shown(df[cols + ["revenue"]].describe())),
        cell("corr = df[['discount_pct', 'ad_spend', 'price', 'revenue']].corr()['revenue'].drop('revenue')\n"
             "print(corr.sort_values(ascending=False))", shown(corr), stage=2),
        cell("import statsmodels.api as sm\n\nX = sm.add_constant(df[['discount_pct', 'ad_spend', 'price']])\n"
             "model = sm.OLS(df['revenue'], X).fit()\nprint(model.summary())",
             shown(model.summary()), stage=3),
        cell("import json\n\ncoefs = pd.DataFrame({'coef': model.params, 'std_err': model.bse, "
             "'p_value': model.pvalues})\ncoefs.to_csv('outputs/revenue_drivers.csv')\nprint(model.pvalues)\n"
             "with open('outputs/model_fit.json', 'w') as f:\n"
             "    json.dump({'r_squared': model.rsquared, 'adj_r_squared': model.rsquared_adj, "
             "'n': int(model.nobs)}, f, indent=2)",
             shown(model.pvalues),
             {"outputs/revenue_drivers.csv": csv(coefs), "outputs/model_fit.json": dumps(fit)}, stage=4),
    )
    return Scenario(
        task="What drives revenue, and how strongly?",
        cells=cells, inputs=sales_input(),
        facts={"coef": model.params, "p": model.pvalues, "se": model.bse, "r2": model.rsquared,
               "adj_r2": model.info["adj_r2"], "corr": corr, "n": model.nobs},
    )


def _monthly_growth(s: pd.Series) -> float:
    slope = np.polyfit(np.arange(len(s)), np.log(s.to_numpy()), 1)[0]
    return float(np.exp(slope) - 1)


@cache
def growth() -> Scenario:
    df = data.sales()
    monthly = df.groupby(["region", "month"]).agg(revenue=("revenue", "sum"), units=("units", "sum"),
                                                   ad_spend=("ad_spend", "sum"), price=("price", "mean"))
    wide = monthly["revenue"].unstack(0).round(0)
    rows = {}
    for region, g in monthly.groupby(level=0):
        rows[region] = {c + "_growth": _monthly_growth(g[c]) for c in ["revenue", "units", "ad_spend", "price"]}
    table = pd.DataFrame(rows).T.sort_values("revenue_growth", ascending=False)
    east = monthly.loc["East"]
    r = float(east["revenue"].corr(east["ad_spend"]))
    cells = (
        load_cell(df),
        cell("monthly = df.groupby(['region', 'month']).agg(revenue=('revenue', 'sum'), units=('units', 'sum'),\n"
             "                                            ad_spend=('ad_spend', 'sum'), price=('price', 'mean'))\n"
             "print(monthly['revenue'].unstack(0).round(0))", shown(wide), stage=2),
        cell("def monthly_growth(s):\n    slope = np.polyfit(np.arange(len(s)), np.log(s.to_numpy()), 1)[0]\n"
             "    return np.exp(slope) - 1\n\n"
             "growth = pd.DataFrame({r: {c + '_growth': monthly_growth(g[c]) for c in "
             "['revenue', 'units', 'ad_spend', 'price']}\n"
             "                       for r, g in monthly.groupby(level=0)}).T\n"
             "growth = growth.sort_values('revenue_growth', ascending=False)\n"
             "growth.to_csv('outputs/growth_by_region.csv')\nprint(growth.round(4))",
             shown(table.round(4)), {"outputs/growth_by_region.csv": csv(table)}, stage=3),
        cell("east = monthly.loc['East']\nprint('corr(revenue, ad_spend) in East:', "
             "round(east['revenue'].corr(east['ad_spend']), 3))",
             f"corr(revenue, ad_spend) in East: {round(r, 3)}\n", stage=3),
    )
    return Scenario(
        task="Which region's sales grow fastest, and why?",
        cells=cells, inputs=sales_input(),
        facts={"growth": table, "east_r": r, "wide": wide, "top": table.index[0]},
    )
