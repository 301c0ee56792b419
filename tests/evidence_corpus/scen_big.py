"""Scenarios whose cells print megabytes: whole frames printed with to_string(), a training log, a grid search."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pandas as pd

from . import data
from .common import LOAD, Scenario, cell
from .data import csv, csv_rows, dumps, frame_text, shown


@cache
def channels() -> Scenario:
    df = data.sales_big()
    by = df.groupby("channel")["revenue"].agg(["sum", "mean", "count"])
    diff = float(by.loc["Online", "mean"] - by.loc["Retail", "mean"])
    ratio = float(by.loc["Online", "mean"] / by.loc["Retail", "mean"])
    cells = (
        cell(LOAD.format(path="inputs/orders_2023_2024.csv"), shown(df.shape, df.head())),
        cell("print(df.to_string())", shown(frame_text(df))),
        cell("by = df.groupby('channel')['revenue'].agg(['sum', 'mean', 'count'])\nprint(by)\n"
             "diff = by.loc['Online', 'mean'] - by.loc['Retail', 'mean']\n"
             "ratio = by.loc['Online', 'mean'] / by.loc['Retail', 'mean']\n"
             "print(f'Online - Retail revenue per order: {diff:.2f} (ratio {ratio:.3f})')\n"
             "by.assign(diff_vs_retail=by['mean'] - by.loc['Retail', 'mean']).to_csv('outputs/channel_summary.csv')",
             shown(by) + f"Online - Retail revenue per order: {diff:.2f} (ratio {ratio:.3f})\n",
             {"outputs/channel_summary.csv": csv(by.assign(diff_vs_retail=by["mean"] - by.loc["Retail", "mean"]))}),
    )
    return Scenario(task="Which sales channel brings more revenue per order, and by how much?", cells=cells,
                    inputs={"inputs/orders_2023_2024.csv": csv_rows(df)},
                    facts={"by": by, "diff": diff, "ratio": ratio})


@cache
def sensors() -> Scenario:
    df = data.sensors()
    means = df.groupby("sensor")["temp_c"].agg(["mean", "std", "max"])
    z = (means["mean"] - means["mean"].mean()) / means["mean"].std()
    table = means.assign(z=z).sort_values("z", ascending=False)
    cells = (
        cell(LOAD.format(path="inputs/sensor_readings.csv"), shown(df.shape, df.head()), stage=1),
        cell("print(df.to_string())", shown(frame_text(df)), stage=1),
        cell("means = df.groupby('sensor')['temp_c'].agg(['mean', 'std', 'max'])\n"
             "means['z'] = (means['mean'] - means['mean'].mean()) / means['mean'].std()\n"
             "means = means.sort_values('z', ascending=False)\nprint(means.round(3))\n"
             "means.to_csv('outputs/sensor_summary.csv')",
             shown(table.round(3)), {"outputs/sensor_summary.csv": csv(table)}, stage=2),
    )
    return Scenario(task="What is the average temperature of each sensor, and which sensor runs abnormally hot?",
                    cells=cells, inputs={"inputs/sensor_readings.csv": csv_rows(df)},
                    facts={"table": table, "hot": str(table.index[0])})


def _auc(y: np.ndarray, s: np.ndarray) -> float:
    ranks = pd.Series(s).rank().to_numpy()
    pos = y == 1
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum()))


@cache
def training() -> Scenario:
    rng = np.random.default_rng(129)
    lines = []
    for e in range(1, 21):
        steps = np.arange(1, 801)
        loss = 0.69 * np.exp(-0.09 * (e - 1 + steps / 800)) + 0.28 + rng.normal(0, 0.02, 800)
        acc = 1 - loss * 0.42 + rng.normal(0, 0.01, 800)
        lr = 1e-3 * 0.9 ** (e - 1)
        ms = rng.integers(38, 61, 800)
        lines += [f"epoch {e:2d}/20 | step {s:3d}/800 | loss {lo:.4f} | acc {a:.4f} | lr {lr:.2e} | {m} ms/step"
                  for s, lo, a, m in zip(steps, loss, acc, ms, strict=True)]
        val_loss, val_acc = loss[-50:].mean() + 0.03, acc[-50:].mean() - 0.01
        lines.append(f"epoch {e:2d} done | val_loss {val_loss:.4f} | val_acc {val_acc:.4f}")
    y = (rng.random(900) < 0.21).astype(int)
    score = np.clip(rng.normal(0.3 + 0.32 * y, 0.17), 0, 1)
    pred = (score >= 0.5).astype(int)
    tp, fp = int(((pred == 1) & (y == 1)).sum()), int(((pred == 1) & (y == 0)).sum())
    fn, tn = int(((pred == 0) & (y == 1)).sum()), int(((pred == 0) & (y == 0)).sum())
    m = {"accuracy": (tp + tn) / len(y), "precision": tp / (tp + fp), "recall": tp / (tp + fn),
         "f1": 2 * tp / (2 * tp + fp + fn), "auc": _auc(y, score), "n_test": len(y)}
    cm = pd.DataFrame([[tn, fp], [fn, tp]], index=["actual 0", "actual 1"], columns=["pred 0", "pred 1"])
    cells = (
        cell(LOAD.format(path="inputs/customers.csv"), shown(data.churn().shape, data.churn().head()), stage=1),
        cell("from churn_nn import build_mlp, split_features, train\n\n"
             "X_train, X_val, X_test, y_train, y_val, y_test = split_features(df, target='churned', test_size=900)\n"
             "model = build_mlp(X_train.shape[1], hidden=[64, 32], dropout=0.2)\n"
             "history = train(model, X_train, y_train, X_val, y_val, epochs=20, steps_per_epoch=800, log_every=1)",
             "\n".join(lines) + "\n", stage=2),
        cell("import json\nfrom sklearn.metrics import accuracy_score, precision_score, recall_score, f1_score, "
             "roc_auc_score, confusion_matrix\n\nscore = model.predict_proba(X_test)[:, 1]\npred = (score >= 0.5)"
             ".astype(int)\nm = {'accuracy': accuracy_score(y_test, pred), 'precision': precision_score(y_test, "
             "pred),\n     'recall': recall_score(y_test, pred), 'f1': f1_score(y_test, pred), 'auc': "
             "roc_auc_score(y_test, score), 'n_test': len(y_test)}\nprint(confusion_matrix(y_test, pred))\n"
             "print(json.dumps(m, indent=2))\nwith open('outputs/test_metrics.json', 'w') as f:\n"
             "    json.dump(m, f, indent=2)",
             f"[[{tn:3d} {fp:3d}]\n [{fn:3d} {tp:3d}]]\n" + dumps(m) + "\n", {"outputs/test_metrics.json": dumps(m)},
             stage=3),
    )
    return Scenario(task="How accurate is the churn classifier on held-out customers, and what is its AUC?",
                    cells=cells, inputs={"inputs/customers.csv": csv_rows(data.churn())}, facts=m | {"cm": cm})


@cache
def grid() -> Scenario:
    rng = np.random.default_rng(141)
    grid_: dict[str, list[float]] = {
        "colsample_bytree": [0.6, 0.7, 0.8, 1.0], "learning_rate": [0.01, 0.03, 0.05, 0.1, 0.2],
        "max_depth": [2, 3, 4, 6, 8], "min_child_weight": [1, 3, 5, 10],
        "n_estimators": [100, 200, 300, 500, 800, 1200]}
    lines: list[str] = []
    means: dict[tuple[float, ...], float] = {}
    combos = list(product(*grid_.values()))
    for combo in combos:
        cs, lr, md, mcw, ne = combo
        base = 0.84 - 0.5 * (np.log10(lr) + 1.3) ** 2 * 0.1 - 0.004 * abs(md - 4) - 0.002 * abs(cs - 0.8) * 10
        base -= 0.0015 * abs(np.log(ne / 400)) + 0.001 * abs(mcw - 3)
        folds = base + rng.normal(0, 0.006, 5)
        means[combo] = float(np.round(folds, 3).mean())
        params = (f"colsample_bytree={cs}, learning_rate={lr}, max_depth={md}, min_child_weight={mcw}, "
                  f"n_estimators={ne}")
        lines += [f"[CV {k + 1}/5] END {params};, score={f:.3f} total time={rng.uniform(0.3, 9):6.1f}s"
                  for k, f in enumerate(folds)]
    best = max(means, key=means.__getitem__)
    best_params = dict(zip(grid_, best, strict=True))
    head = f"Fitting 5 folds for each of {len(combos)} candidates, totalling {5 * len(combos)} fits\n"
    res = {"best_params": best_params, "best_score": means[best]}
    cells = (
        cell(LOAD.format(path="inputs/customers.csv"), shown(data.churn().shape, data.churn().head()), stage=1),
        cell("from sklearn.model_selection import GridSearchCV\nfrom xgboost import XGBClassifier\n\n"
             f"param_grid = {grid_!r}\n"
             "search = GridSearchCV(XGBClassifier(), param_grid, cv=5, scoring='roc_auc', verbose=3)\n"
             "search.fit(X, y)", head + "\n".join(lines) + "\n", stage=2),
        cell("import json\n\nprint('best params:', search.best_params_)\nprint(f'best CV AUC: "
             "{search.best_score_:.4f}')\nwith open('outputs/best_model.json', 'w') as f:\n"
             "    json.dump({'best_params': search.best_params_, 'best_score': search.best_score_}, f, indent=2)",
             f"best params: {best_params}\nbest CV AUC: {means[best]:.4f}\n", {"outputs/best_model.json": dumps(res)},
             stage=3),
    )
    return Scenario(task="Which hyperparameters give the best cross-validated AUC, and what AUC do they reach?",
                    cells=cells, inputs={"inputs/customers.csv": csv_rows(data.churn())},
                    facts=res | {"n_fits": 5 * len(combos)})
