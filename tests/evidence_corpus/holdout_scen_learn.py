"""Hold-out scenarios: school test scores and an employee survey of Likert items."""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
from scipy import special

from . import holdout_data as hd
from .common import Scenario, cell
from .data import csv, dumps, shown
from .holdout_scen_care import load_cell
from .stats import welch

# ---------------------------------------------------------------- school test scores
TTEST = """import json
from scipy import stats
yes = df.loc[df['tutoring'] == 'Yes', 'math_score']
no = df.loc[df['tutoring'] == 'No', 'math_score']
t, p = stats.ttest_ind(yes, no, equal_var=False)
res = {'mean_tutored': round(yes.mean(), 2), 'mean_not_tutored': round(no.mean(), 2),
       'difference': round(yes.mean() - no.mean(), 2), 't_stat': round(float(t), 3),
       'p_value': float(f'{p:.3g}'), 'n_tutored': int(yes.size), 'n_not_tutored': int(no.size)}
with open('outputs/tutoring_effect.json', 'w') as f:
    json.dump(res, f, indent=2)
print(json.dumps(res, indent=2))"""

MEANS = """from scipy import stats
print(df.groupby('tutoring')['math_score'].agg(['mean', 'std', 'count']).round(2))
t, p = stats.ttest_ind(df.loc[df['tutoring'] == 'Yes', 'math_score'],
                       df.loc[df['tutoring'] == 'No', 'math_score'], equal_var=False)
print(f't = {t:.2f}, p = {p:.2e}')"""

CORR = """from scipy import stats
r, p = stats.pearsonr(df['attendance_pct'], df['reading_score'])
print(f'Pearson r = {r:.3f}, p = {p:.2e}, n = {len(df)}')"""

SCHOOLS = """by_school = df.groupby('school')['math_score'].mean().round(2).sort_values(ascending=False)
district = df['math_score'].mean()
by_school.to_csv('outputs/school_math_means.csv')
print(by_school)
print(f'District mean: {district:.2f}')
print('Above district mean:', list(by_school[by_school > district].index))"""

BOOT = """import json
sub = df[df['school'] == 'Brookvale']
t = sub.loc[sub['tutoring'] == 'Yes', 'math_score'].to_numpy()
u = sub.loc[sub['tutoring'] == 'No', 'math_score'].to_numpy()
rng = np.random.default_rng(42)
B = 20000
mt = t[rng.integers(0, t.size, (B, t.size))].mean(axis=1)
mu = u[rng.integers(0, u.size, (B, u.size))].mean(axis=1)
diffs = mt - mu
for i in range(B):
    print(f'replicate {i + 1:05d}/{B}  mean_tutored={mt[i]:.4f}  mean_other={mu[i]:.4f}  diff={diffs[i]:.4f}')
lo, hi = np.percentile(diffs, [2.5, 97.5])
obs = t.mean() - u.mean()
print(f'observed diff = {obs:.3f}; 95% bootstrap CI [{lo:.3f}, {hi:.3f}]')
with open('outputs/bootstrap_ci.json', 'w') as f:
    json.dump({'school': 'Brookvale', 'observed_diff': round(obs, 3), 'ci_low': round(lo, 3),
               'ci_high': round(hi, 3), 'replicates': B}, f, indent=2)"""


def pearson(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """scipy.stats.pearsonr(a, b): (r, two-sided p)."""
    r = float(np.corrcoef(a, b)[0, 1])
    n = len(a)
    t = r * math.sqrt((n - 2) / (1 - r * r))
    return r, float(2 * special.stdtr(n - 2, -abs(t)))


@cache
def schools() -> Scenario:
    df = hd.students()
    yes, no = df.loc[df["tutoring"] == "Yes", "math_score"], df.loc[df["tutoring"] == "No", "math_score"]
    t, p = welch(yes, no)
    res = {"mean_tutored": round(yes.mean(), 2), "mean_not_tutored": round(no.mean(), 2),
           "difference": round(yes.mean() - no.mean(), 2), "t_stat": round(t, 3), "p_value": float(f"{p:.3g}"),
           "n_tutored": int(yes.size), "n_not_tutored": int(no.size)}
    r, rp = pearson(df["attendance_pct"].to_numpy(), df["reading_score"].to_numpy())
    by_school = df.groupby("school")["math_score"].mean().round(2).sort_values(ascending=False)
    district = df["math_score"].mean()
    above = list(by_school[by_school > district].index)
    cells = (
        load_cell("inputs/students.csv", df),
        cell(TTEST, json.dumps(res, indent=2) + "\n", {"outputs/tutoring_effect.json": dumps(res)}, stage=2),
        cell(CORR, f"Pearson r = {r:.3f}, p = {rp:.2e}, n = {len(df)}\n", stage=3),
        cell(SCHOOLS, shown(by_school, f"District mean: {district:.2f}", f"Above district mean: {above}"),
             {"outputs/school_math_means.csv": csv(by_school)}, stage=3),
    )
    means = df.groupby("tutoring")["math_score"].agg(["mean", "std", "count"]).round(2)
    means_cell = cell(MEANS, shown(means, f"t = {t:.2f}, p = {p:.2e}"), stage=2)
    return Scenario(
        task="inputs/students.csv has this year's maths and reading scores for 2,400 pupils in eight schools. Did "
             "pupils who received tutoring score higher in maths?",
        cells=cells, inputs={"inputs/students.csv": csv(df, index=False)},
        facts={"res": res, "t": t, "p": p, "r": r, "rp": rp, "by_school": by_school, "district": float(district),
               "above": above, "means": means, "means_cell": means_cell},
    )


@cache
def bootstrap() -> Scenario:
    """A bootstrap of the tutoring gap in one school that logs all 20,000 replicates (1.6 MB printed)."""
    df = hd.students()
    sub = df[df["school"] == "Brookvale"]
    t = sub.loc[sub["tutoring"] == "Yes", "math_score"].to_numpy()
    u = sub.loc[sub["tutoring"] == "No", "math_score"].to_numpy()
    rng = np.random.default_rng(42)
    b = 20000
    mt = t[rng.integers(0, t.size, (b, t.size))].mean(axis=1)
    mu = u[rng.integers(0, u.size, (b, u.size))].mean(axis=1)
    diffs = mt - mu
    lines = [f"replicate {i + 1:05d}/{b}  mean_tutored={x:.4f}  mean_other={y:.4f}  diff={d:.4f}"
             for i, (x, y, d) in enumerate(zip(mt.tolist(), mu.tolist(), diffs.tolist(), strict=True))]
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    obs = t.mean() - u.mean()
    lines.append(f"observed diff = {obs:.3f}; 95% bootstrap CI [{lo:.3f}, {hi:.3f}]")
    ci = {"school": "Brookvale", "observed_diff": round(float(obs), 3), "ci_low": round(float(lo), 3),
          "ci_high": round(float(hi), 3), "replicates": b}
    cells = (load_cell("inputs/students.csv", df),
             cell(BOOT, "\n".join(lines) + "\n", {"outputs/bootstrap_ci.json": dumps(ci)}))
    return Scenario(
        task="Using inputs/students.csv, estimate the maths gap between tutored and untutored pupils at Brookvale "
             "with a bootstrap confidence interval.",
        cells=cells, inputs={"inputs/students.csv": csv(df, index=False)},
        facts={"ci": ci, "diffs": diffs, "n_t": int(t.size), "n_u": int(u.size)},
    )


# ---------------------------------------------------------------- employee survey (Likert 1-5)
FAV = """items = [f'q{i}' for i in range(1, 9)]
fav = (df[items] >= 4).mean().round(3).rename('favourable_share')
fav.to_csv('outputs/favourable_by_item.csv')
print(fav)"""

DEPT = """df['engagement'] = df[items].mean(axis=1)
dept = df.groupby('department')['engagement'].agg(['mean', 'count']).round(3).sort_values('mean')
dept.to_csv('outputs/engagement_by_department.csv')
print(dept)"""

ALPHA = """import json
k = len(items)
item_var = df[items].var(ddof=1).sum()
total_var = df[items].sum(axis=1).var(ddof=1)
alpha = k / (k - 1) * (1 - item_var / total_var)
print(f"Cronbach's alpha: {alpha:.3f}")
with open('outputs/reliability.json', 'w') as f:
    json.dump({'cronbach_alpha': round(alpha, 4), 'items': k, 'n': len(df)}, f, indent=2)"""

QUESTIONS = {
    "q1": "I understand how my work contributes to company goals",
    "q2": "I have the tools I need to do my job well",
    "q3": "My workload is manageable",
    "q4": "My manager treats me with respect",
    "q5": "I am paid fairly for the work I do",
    "q6": "I would recommend this company as a place to work",
    "q7": "I see a path for career growth here",
    "q8": "Senior leadership communicates openly",
}


@cache
def survey() -> Scenario:
    df = hd.survey().copy()
    items = hd.ITEMS
    fav = (df[items] >= 4).mean().round(3).rename("favourable_share")
    df["engagement"] = df[items].mean(axis=1)
    dept = df.groupby("department")["engagement"].agg(["mean", "count"]).round(3).sort_values("mean")
    k = len(items)
    alpha = k / (k - 1) * (1 - df[items].var(ddof=1).sum() / df[items].sum(axis=1).var(ddof=1))
    rel = {"cronbach_alpha": round(float(alpha), 4), "items": k, "n": len(df)}
    raw = hd.survey()
    cells = (
        load_cell("inputs/engagement_survey.csv", raw),
        cell(FAV, shown(fav), {"outputs/favourable_by_item.csv": csv(fav)}, stage=2),
        cell(DEPT, shown(dept), {"outputs/engagement_by_department.csv": csv(dept)}, stage=3),
        cell(ALPHA, f"Cronbach's alpha: {alpha:.3f}\n", {"outputs/reliability.json": dumps(rel)}, stage=4),
    )
    key = "; ".join(f"{q} = {text}" for q, text in QUESTIONS.items())
    return Scenario(
        task="inputs/engagement_survey.csv holds our annual engagement survey (eight statements scored 1 = strongly "
             f"disagree to 5 = strongly agree; {key}). Summarise how favourable staff are on each statement.",
        cells=cells, inputs={"inputs/engagement_survey.csv": csv(raw, index=False)},
        facts={"fav": fav, "dept": dept, "alpha": float(alpha), "rel": rel},
    )
