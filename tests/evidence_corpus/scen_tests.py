"""Scenarios with statistical tests and group comparisons: an A/B test, churn, house prices, a drug trial."""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from . import data, stats
from .common import LOAD, Scenario, cell
from .data import csv, csv_rows, dumps, shown


def _load(df: pd.DataFrame, path: str):
    return cell(LOAD.format(path=path), shown(df.shape, df.head()))


@cache
def ab() -> Scenario:
    df = data.ab()
    rates = df.groupby("group")["converted"].agg(["mean", "count", "sum"])
    z, p = stats.prop_ztest(rates["sum"].to_numpy(), rates["count"].to_numpy())
    a, b = float(rates.loc["A", "mean"]), float(rates.loc["B", "mean"])
    res = {"rate_a": a, "rate_b": b, "diff": b - a, "relative_lift": (b - a) / a, "z": float(z), "p_value": float(p)}
    cells = (
        _load(df, "inputs/ab_test.csv"),
        cell("rates = df.groupby('group')['converted'].agg(['mean', 'count', 'sum'])\nprint(rates)", shown(rates),
             stage=2),
        cell("import json\nfrom statsmodels.stats.proportion import proportions_ztest\n\n"
             "z, p = proportions_ztest(rates['sum'], rates['count'])\n"
             "a, b = rates.loc['A', 'mean'], rates.loc['B', 'mean']\n"
             "res = {'rate_a': a, 'rate_b': b, 'diff': b - a, 'relative_lift': (b - a) / a, 'z': z, 'p_value': p}\n"
             "print(f\"B - A = {b - a:.4f} ({(b - a) / a:.1%} relative), z = {z:.3f}, p = {p:.3g}\")\n"
             "with open('outputs/ab_result.json', 'w') as f:\n    json.dump(res, f, indent=2)",
             f"B - A = {b - a:.4f} ({(b - a) / a:.1%} relative), z = {z:.3f}, p = {p:.3g}\n",
             {"outputs/ab_result.json": dumps(res)}, stage=3),
    )
    return Scenario(task="Did the new checkout page (B) raise conversion, and by how much?", cells=cells,
                    inputs={"inputs/ab_test.csv": csv_rows(df)}, facts=res | {"n": rates["count"]})


@cache
def churn() -> Scenario:
    df = data.churn()
    overall = float(df["churned"].mean())
    by = df.groupby("contract")["churned"].mean().sort_values(ascending=False)
    cols = ["tenure_months", "monthly_charges", "support_calls"]
    model = stats.logit(df["churned"], df[cols])
    coefs = pd.DataFrame({"coef": model.params, "odds_ratio": np.exp(model.params), "p_value": model.pvalues})
    cells = (
        _load(df, "inputs/customers.csv"),
        cell("overall = df['churned'].mean()\nby_contract = df.groupby('contract')['churned'].mean()"
             ".sort_values(ascending=False)\nprint('overall churn rate:', round(overall, 4))\n"
             "print(by_contract.round(4))\nby_contract.to_csv('outputs/churn_by_contract.csv')",
             f"overall churn rate: {round(overall, 4)}\n" + shown(by.round(4)),
             {"outputs/churn_by_contract.csv": csv(by)}, stage=2),
        cell("import statsmodels.api as sm\n\nX = sm.add_constant(df[['tenure_months', 'monthly_charges', "
             "'support_calls']])\nlogit = sm.Logit(df['churned'], X).fit(disp=0)\nprint(logit.summary())\n"
             "coefs = pd.DataFrame({'coef': logit.params, 'odds_ratio': np.exp(logit.params), "
             "'p_value': logit.pvalues})\ncoefs.to_csv('outputs/churn_logit.csv')",
             shown(model.summary()), {"outputs/churn_logit.csv": csv(coefs)}, stage=3),
    )
    return Scenario(task="Which customers churn the most, and what is the overall churn rate?", cells=cells,
                    inputs={"inputs/customers.csv": csv_rows(df)},
                    facts={"overall": overall, "by": by, "coef": model.params, "odds": np.exp(model.params),
                           "p": model.pvalues, "n": len(df)})


@cache
def houses() -> Scenario:
    df = data.houses()
    desc = df["price"].describe()
    med = float(df["price"].median())
    by = df.groupby("neighbourhood")["price"].agg(["mean", "median", "count"]).sort_values("median", ascending=False)
    cells = (
        _load(df, "inputs/houses.csv"),
        cell("print(df['price'].describe())\nprint('median:', df['price'].median())",
             shown(desc) + f"median: {med}\n", stage=2),
        cell("by_hood = df.groupby('neighbourhood')['price'].agg(['mean', 'median', 'count'])"
             ".sort_values('median', ascending=False)\nprint(by_hood.round(0))\n"
             "by_hood.to_csv('outputs/price_by_neighbourhood.csv')",
             shown(by.round(0)), {"outputs/price_by_neighbourhood.csv": csv(by)}, stage=3),
    )
    return Scenario(task="What are the mean and median house prices, and how do they differ by neighbourhood?",
                    cells=cells, inputs={"inputs/houses.csv": csv_rows(df)},
                    facts={"mean": float(desc["mean"]), "median": med, "by": by, "std": float(desc["std"])})


@cache
def trial() -> Scenario:
    df = data.trial()
    agg = df.groupby("arm")["sbp_reduction"].agg(["mean", "std", "count"])
    drug = df.loc[df["arm"] == "drug", "sbp_reduction"]
    placebo = df.loc[df["arm"] == "placebo", "sbp_reduction"]
    t, p = stats.welch(drug, placebo)
    diff = float(drug.mean() - placebo.mean())
    se = float((drug.var() / len(drug) + placebo.var() / len(placebo)) ** 0.5)
    res = {"mean_drug": float(drug.mean()), "mean_placebo": float(placebo.mean()), "difference": diff,
           "ci_low": diff - 1.96 * se, "ci_high": diff + 1.96 * se, "t": float(t), "p_value": float(p)}
    cells = (
        _load(df, "inputs/trial.csv"),
        cell("print(df.groupby('arm')['sbp_reduction'].agg(['mean', 'std', 'count']).round(2))",
             shown(agg.round(2)), stage=2),
        cell("import json\nfrom scipy import stats\n\ndrug = df.loc[df['arm'] == 'drug', 'sbp_reduction']\n"
             "placebo = df.loc[df['arm'] == 'placebo', 'sbp_reduction']\n"
             "t, p = stats.ttest_ind(drug, placebo, equal_var=False)\ndiff = drug.mean() - placebo.mean()\n"
             "se = (drug.var() / len(drug) + placebo.var() / len(placebo)) ** 0.5\n"
             "res = {'mean_drug': drug.mean(), 'mean_placebo': placebo.mean(), 'difference': diff,\n"
             "       'ci_low': diff - 1.96 * se, 'ci_high': diff + 1.96 * se, 't': t, 'p_value': p}\n"
             "print(f'difference in mean reduction: {diff:.2f} mmHg (95% CI {diff - 1.96 * se:.2f} to "
             "{diff + 1.96 * se:.2f})')\nprint(f'Welch t = {t:.3f}, p = {p:.2e}')\n"
             "with open('outputs/trial_result.json', 'w') as f:\n    json.dump(res, f, indent=2)",
             f"difference in mean reduction: {diff:.2f} mmHg (95% CI {res['ci_low']:.2f} to {res['ci_high']:.2f})\n"
             f"Welch t = {t:.3f}, p = {p:.2e}\n", {"outputs/trial_result.json": dumps(res)}, stage=3),
    )
    return Scenario(task="Does the drug lower systolic blood pressure more than placebo, and is the difference "
                         "significant?", cells=cells, inputs={"inputs/trial.csv": csv_rows(df)},
                    facts=res | {"std": agg["std"]})
