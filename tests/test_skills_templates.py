"""Every skill template, rendered with real column names and executed on messy generated data.

Each template runs as its own script in its own process with a run directory as cwd (as in the sandbox);
the runs go in parallel once per module, forked from one interpreter that imported the templates' libraries
(tests/script_pool.py), then each test checks one template's JSON result against pandas/scipy computed here.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from agentic_ds.skills import SkillLibrary, default_skills_dir

DATA = "inputs/sales.csv"
TINY = "inputs/tiny.csv"


def make_sales(path: Path) -> pd.DataFrame:
    """240 orders with a region effect, a time trend, a binary outcome and the usual mess."""
    rng = np.random.default_rng(0)
    n = 240
    region = rng.choice(["North", "South", "East", "West"], size=n, p=[0.3, 0.3, 0.2, 0.2])
    units = rng.poisson(20, n).astype(float)
    price = rng.normal(50, 8, n).round(2)
    bump = pd.Series(region).map({"North": 150.0, "South": 0.0, "East": 50.0, "West": -50.0}).to_numpy()
    revenue = units * price + bump + np.arange(n) * 2 + rng.normal(0, 60, n)
    churned = (rng.random(n) < 1 / (1 + np.exp(-(revenue - 1100) / 200))).astype(int)
    frame = pd.DataFrame({
        "order_date": pd.date_range("2022-01-01", periods=n, freq="3D").strftime("%Y-%m-%d"),
        "region": region, "units": units, "price": price.astype(object), "revenue": revenue.round(2),
        "churned": churned, "plan": np.where(churned == 1, "basic", "pro"), "constant": "x",
    })
    frame.loc[[3, 17, 40], "revenue"] = np.nan
    frame.loc[[5, 9], "region"] = np.nan
    frame.loc[7, "price"] = "n/a"
    frame.loc[11, "price"] = "oops"
    frame.loc[20, "price"] = "1,050.00"
    frame.loc[30, "order_date"] = "not a date"
    frame = pd.concat([frame, frame.iloc[[0, 1]]], ignore_index=True)  # two exact duplicate rows
    frame.to_csv(path, index=False)
    return frame


def make_tiny(path: Path) -> None:
    """Three rows, one group, a constant column: every template must say so, not crash."""
    pd.DataFrame(
        {
            "order_date": ["2024-01-01", "2024-01-02", "bad"],
            "region": ["North"] * 3,
            "units": [1.0, None, 1.0],
            "revenue": ["5", "x", "7"],
            "plan": ["a", "a", "a"],
        }
    ).to_csv(path, index=False)


# (skill, template, data file, params) - every template in the library must appear here.
CASES: dict[str, tuple[str, str, str, dict]] = {
    "load_overview": ("loading-and-cleaning", "load_overview", DATA, {"clean_path": "outputs/clean.csv"}),
    "quality_audit": ("data-quality-audit", "quality_audit", DATA, {}),
    "describe": ("descriptive-statistics", "describe", DATA, {}),
    "statistic_mean": (
        "descriptive-statistics",
        "statistic",
        DATA,
        {"column": "price", "stat": "mean", "group_col": "region"},
    ),
    "statistic_p90": (
        "descriptive-statistics",
        "statistic",
        DATA,
        {"column": "revenue", "stat": "percentile", "p": 90},
    ),
    "top_values": ("descriptive-statistics", "top_values", DATA, {"column": "region", "k": 3}),
    "distribution_outliers": ("distributions-and-outliers", "distribution_outliers", DATA, {"column": "revenue"}),
    "correlation_matrix": ("correlation-and-association", "correlation_matrix", DATA, {}),
    "pairwise_numeric": ("correlation-and-association", "pairwise_association", DATA, {"x": "units", "y": "revenue"}),
    "pairwise_mixed": ("correlation-and-association", "pairwise_association", DATA, {"x": "region", "y": "revenue"}),
    "pairwise_few_levels": (
        "correlation-and-association",
        "pairwise_association",
        DATA,
        {"x": "churned", "y": "revenue", "method": "spearman"},
    ),
    "compare_two": ("group-comparisons", "compare_groups", DATA, {"value_col": "revenue", "group_col": "plan"}),
    "compare_many": ("group-comparisons", "compare_groups", DATA, {"value_col": "revenue", "group_col": "region"}),
    "chi_square": ("group-comparisons", "chi_square", DATA, {"col_a": "region", "col_b": "plan"}),
    "ols_regression": (
        "regression",
        "ols_regression",
        DATA,
        {"target": "revenue", "features": ["units", "price", "region"]},
    ),
    "logistic_regression": (
        "regression",
        "logistic_regression",
        DATA,
        {"target": "plan", "features": ["units", "region"], "positive_class": "pro"},
    ),
    "trend_seasonality": (
        "time-series",
        "trend_seasonality",
        DATA,
        {"date_col": "order_date", "value_col": "revenue", "freq": "M"},
    ),
    "kmeans_segments": (
        "clustering-segmentation",
        "kmeans_segments",
        DATA,
        {"features": ["units", "revenue"], "k_max": 4, "assignments_csv": "outputs/segments.csv"},
    ),
    "classification_baseline": (
        "classification",
        "classification_baseline",
        DATA,
        {"target": "plan", "features": ["units", "price", "region"], "cv_folds": 3},
    ),
    "auto_chart": ("visualization", "auto_chart", DATA, {"x": "region", "y": "revenue"}),
    "estimate_with_ci": ("reporting-numbers", "estimate_with_ci", DATA, {"column": "revenue", "group_col": "region"}),
    "estimate_share": (
        "reporting-numbers",
        "estimate_with_ci",
        DATA,
        {"column": "plan", "statistic": "proportion", "event": "pro"},
    ),
    "compute_answers": (
        "direct-answers",
        "compute_answers",
        DATA,
        {
            "asks": [
                {"name": "mean_revenue", "stat": "mean", "column": "revenue", "slots": {"value": "mean_revenue"}},
                {"name": "std_revenue", "stat": "std", "column": "revenue", "slots": {"value": "std_revenue"}},
                {"name": "rho", "stat": "spearman", "column": "units", "second": "revenue"},
                {"name": "far", "stat": "outliers_iqr", "column": "value", "factor": 1.5},
                {
                    "name": "top_region",
                    "stat": "median",
                    "column": "revenue",
                    "group": "region",
                    "extreme": "max",
                    "slots": {"value": "region"},
                },
                {"name": "plans", "stat": "ttest", "column": "revenue", "group": "plan", "slots": {"p_value": "p"}},
            ],
            "filters": [
                {"column": "units", "op": ">=", "value": 15},
                {"column": "region", "op": "!=", "value": "west"},
            ],
            "derived": [{"name": "value", "expression": "price * units"}],
            "dropna": ["revenue"],
            "digits": 3,
        },
    ),
    "compute_answers_join": (
        "direct-answers",
        "compute_answers",
        DATA,
        {
            "asks": [{"name": "by_climate", "stat": "sum", "column": "revenue", "group": "climate"}],
            "joins": [{"path": "inputs/regions.csv", "on": "region"}],
        },
    ),
    "compute_answers_outliers": (
        "direct-answers",
        "compute_answers",
        DATA,
        {
            "asks": [
                {"name": "mean", "stat": "mean", "column": "revenue", "slots": {"value": "mean_revenue"}},
                {
                    "name": "by_region",
                    "stat": "median",
                    "column": "revenue",
                    "group": "region",
                    "slots": {"group:North": "median_north"},
                },
                {"name": "high_units", "stat": "outliers_z", "column": "units", "threshold": 1.5, "side": "upper"},
                {"name": "low_units", "stat": "outliers_z", "column": "units", "threshold": 1.5, "side": "lower"},
                {"name": "no_region", "stat": "missing", "column": "region", "scale": "fraction"},
                {"name": "wide_units", "stat": "outliers_z", "column": "units", "threshold": 1.5, "ddof": 0},
                {"name": "spread", "stat": "std", "column": "revenue", "of": "median", "over": "region"},
            ],
            "filters": [
                {"column": "revenue", "op": "not_outlier", "value": {"rule": "z", "threshold": 2}},
                {"column": "units", "op": "not_outlier", "value": {"rule": "z", "threshold": 2, "side": "lower"}},
            ],
        },
    ),
    "identity_check": ("drivers-analysis", "identity_check", DATA, {"target": "revenue"}),
    "dimension_breakdown": ("drivers-analysis", "dimension_breakdown", DATA, {"target": "revenue"}),
    "joined_drivers": (
        "drivers-analysis",
        "joined_drivers",
        DATA,
        {"target": "revenue", "key": "region", "other_path": "inputs/regions.csv"},
    ),
    "driver_model": ("drivers-analysis", "driver_model", DATA, {"target": "revenue", "folds": 4}),
    # Degenerate data: a clear sentence instead of a crash.
    "tiny_compare": ("group-comparisons", "compare_groups", TINY, {"value_col": "revenue", "group_col": "region"}),
    "tiny_ols": ("regression", "ols_regression", TINY, {"target": "revenue"}),
    "tiny_trend": ("time-series", "trend_seasonality", TINY, {"date_col": "order_date", "value_col": "revenue"}),
    "weekly_trend": ("time-series", "trend_seasonality", "inputs/weeks.csv",
                     {"date_col": "day", "value_col": "revenue", "freq": "W"}),
    "tiny_classification": ("classification", "classification_baseline", TINY, {"target": "plan"}),
}


@dataclass
class Run:
    returncode: int
    output: str
    result: dict | None
    run_dir: Path


@pytest.fixture(scope="module")
def frame(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    root = tmp_path_factory.mktemp("skills-data")
    return root, make_sales(root / "sales.csv")


@pytest.fixture(scope="module")
def runs(frame, tmp_path_factory) -> dict[str, Run]:
    data_root, _ = frame
    library = SkillLibrary.load(default_skills_dir())
    base = tmp_path_factory.mktemp("skills-runs")
    make_tiny(data_root / "tiny.csv")
    # The same revenue every day from a Sunday to a Tuesday: a first week of one day and a last week of two.
    pd.DataFrame({"day": pd.date_range("2023-01-01", "2023-04-04"), "revenue": 100.0}).to_csv(
        data_root / "weeks.csv", index=False)
    pd.DataFrame({"region": ["North", "South", "East", "West"], "staff": [12, 30, 21, 8],
                  "climate": ["cold", "warm", "mild", "mild"]}).to_csv(data_root / "regions.csv", index=False)
    env = {"PATH": os.environ.get("PATH", ""), "MPLBACKEND": "Agg", "HOME": str(base), "PYTHONHASHSEED": "0"}

    def prepare(case: str) -> tuple[str, str, str]:
        skill, template, data_path, params = CASES[case]
        run_dir = base / case
        (run_dir / "inputs").mkdir(parents=True)
        for name in ("sales.csv", "tiny.csv", "regions.csv", "weeks.csv"):
            (run_dir / "inputs" / name).write_bytes((data_root / name).read_bytes())
        code = library.render(skill, template, data_path=data_path, result_path=f"outputs/{case}.json",
                              fig_prefix=f"figures/{case}", **params)
        (run_dir / "script.py").write_text(code, encoding="utf-8")
        return str(run_dir), "script.py", str(base / f"{case}.output")

    jobs = [prepare(case) for case in CASES]
    # Every template in its own process, forked from one that imported what the templates import (the imports are
    # most of a template's CPU): see tests/script_pool.py.
    preload = sorted(imported_modules(Path(folder, script).read_text(encoding="utf-8") for folder, script, _ in jobs))
    pool = subprocess.run([sys.executable, str(Path(__file__).with_name("script_pool.py")),
                           str(max(2, os.cpu_count() or 2)), "120", *preload],
                          input=json.dumps(jobs), cwd=base, env=env, capture_output=True, text=True, timeout=600)
    assert pool.returncode == 0, pool.stderr[-3000:]
    codes = {line["index"]: line["returncode"] for line in map(json.loads, pool.stdout.splitlines())}
    assert sorted(codes) == list(range(len(jobs))), pool.stdout
    runs = {}
    for index, case in enumerate(CASES):
        run_dir = base / case
        result_file = run_dir / "outputs" / f"{case}.json"
        result = json.loads(result_file.read_text()) if result_file.exists() else None
        runs[case] = Run(codes[index], (base / f"{case}.output").read_text(encoding="utf-8"), result, run_dir)
    return runs


def imported_modules(sources: Iterable[str]) -> set[str]:
    """The modules the scripts import (absolute imports, anywhere in them)."""
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
    return found


def result_of(runs: dict[str, Run], case: str) -> dict:
    run = runs[case]
    assert run.returncode == 0, run.output[-3000:]
    assert run.result is not None, f"no result JSON; output:\n{run.output[-2000:]}"
    return run.result


def numeric(series: pd.Series) -> pd.Series:
    return pd.to_numeric(series.astype("string").str.replace(",", "", regex=False), errors="coerce")


def test_every_declared_template_is_exercised():
    library = SkillLibrary.load(default_skills_dir())
    declared = {(skill.name, spec.name) for skill in library.skills() for spec in skill.templates}
    covered = {(skill, template) for skill, template, _, _ in CASES.values()}
    assert declared <= covered, f"templates without a test case: {sorted(declared - covered)}"


@pytest.mark.parametrize("case", list(CASES))
def test_template_runs_and_writes_result_summary_and_figures(runs, case):
    result = result_of(runs, case)
    skill, template, _, _ = CASES[case]
    assert (result["skill"], result["template"]) == (skill, template)
    assert result["summary"] and all(isinstance(s, str) and s for s in result["summary"])
    assert any(ch.isdigit() for ch in " ".join(result["summary"]))
    assert isinstance(result["tables"], dict)
    for figure in result["figures"]:
        assert figure.startswith(f"figures/{case}-") and figure.endswith(".png")
        assert (runs[case].run_dir / figure).stat().st_size > 1000
    if not case.startswith("tiny_"):
        assert result["figures"], "a full-data run must draw at least one figure"
    assert "Traceback" not in runs[case].output


def test_statistic_mean_by_group_matches_pandas(runs, frame):
    _, data = frame
    result = result_of(runs, "statistic_mean")
    price = numeric(data["price"])
    assert result["answer_value"] == pytest.approx(price.mean())
    assert result["n"] == int(price.notna().sum())
    expected = price.groupby(data["region"]).mean()
    assert result["by_group"] == pytest.approx(expected.to_dict())
    assert f"{price.mean():.2f}" in result["summary"][0]


def test_statistic_percentile_matches_pandas(runs, frame):
    _, data = frame
    result = result_of(runs, "statistic_p90")
    assert result["answer_value"] == pytest.approx(data["revenue"].quantile(0.9))
    assert "90th percentile" in result["summary"][0]


def test_compute_answers_matches_pandas_on_the_selected_rows(runs, frame):
    _, data = frame
    result = result_of(runs, "compute_answers")
    rows = data.assign(price=numeric(data["price"]))
    rows = rows[(rows["units"] >= 15) & (rows["region"].str.casefold() != "west")].dropna(subset=["revenue"])
    answers = result["answers"]
    assert result["rows_used"] == len(rows)
    assert answers["mean_revenue"]["value"] == pytest.approx(rows["revenue"].mean())
    assert answers["std_revenue"]["value"] == pytest.approx(rows["revenue"].std())
    assert answers["rho"]["value"] == pytest.approx(stats.spearmanr(rows["units"], rows["revenue"])[0])
    value = (rows["price"] * rows["units"]).dropna()
    q1, q3 = value.quantile([0.25, 0.75])
    assert answers["far"]["value"] == int(((value < q1 - 1.5 * (q3 - q1)) | (value > q3 + 1.5 * (q3 - q1))).sum())
    medians = rows.groupby("region")["revenue"].median()
    assert answers["top_region"]["value"] == medians.idxmax()
    welch = stats.ttest_ind(*(rows.loc[rows["plan"] == p, "revenue"] for p in ("basic", "pro")), equal_var=False)
    assert answers["plans"]["p_value"] == pytest.approx(welch.pvalue)
    text = result["answer_text"]
    assert f"@mean_revenue[{rows['revenue'].mean():.3f}]" in text and f"@region[{medians.idxmax()}]" in text
    # the summary has one sentence per ask (each with its own @name[value]), then the rows and files used
    assert f"@p[{welch.pvalue:.3f}]" in text and " ".join(result["summary"][:len(answers)]) == text
    assert "kept" in result["summary"][len(answers)] and result["files_used"] == [DATA]


def test_compute_answers_drops_outliers_first_counts_one_tail_and_shares_and_fills_per_group_slots(runs, frame):
    _, data = frame
    result = result_of(runs, "compute_answers_outliers")
    z = (data["revenue"] - data["revenue"].mean()) / data["revenue"].std()
    kept = data[z.abs() <= 2]
    low = (kept["units"] - kept["units"].mean()) / kept["units"].std()
    assert (low < -2).any() and (low > 2).any()
    kept = kept[low >= -2]                                   # one tail dropped: the rows far above stay
    assert result["rows_used"] == len(kept)
    units = (kept["units"] - kept["units"].mean()) / kept["units"].std()
    assert result["answers"]["high_units"]["value"] == int((units > 1.5).sum())
    assert result["answers"]["low_units"]["value"] == int((units < -1.5).sum())
    population = (kept["units"] - kept["units"].mean()) / kept["units"].std(ddof=0)
    assert result["answers"]["wide_units"]["value"] == int((population.abs() > 1.5).sum())
    assert kept["region"].isna().any()
    assert result["answers"]["no_region"]["value"] == pytest.approx(kept["region"].isna().mean())   # a share of 1
    assert result["answers"]["mean"]["value"] == pytest.approx(kept["revenue"].mean())
    north = kept.loc[kept["region"] == "North", "revenue"].median()
    assert f"@median_north[{north:.4f}".rstrip("0").rstrip(".") in result["answer_text"]
    # a statistic of the groups' statistics: the sample SD of the per-region medians (spellings merged, as grouped)
    medians = kept.groupby(kept["region"].str.strip().str.casefold())["revenue"].median()
    assert len(medians) >= 3
    assert result["answers"]["spread"] == {"value": pytest.approx(medians.std()), "n": len(medians)}


def test_compute_answers_joins_a_second_table_on_its_key(runs, frame):
    _, data = frame
    result = result_of(runs, "compute_answers_join")
    regions = pd.DataFrame({"region": ["North", "South", "East", "West"], "climate": ["cold", "warm", "mild", "mild"]})
    expected = data.merge(regions, on="region", how="left").groupby("climate")["revenue"].sum()
    assert result["answers"]["by_climate"]["value"] == pytest.approx(expected.to_dict())
    assert result["files_used"] == [DATA, "inputs/regions.csv"]
    matched = int(data["region"].isin(regions["region"]).sum())
    assert f"joined inputs/regions.csv on region ({matched} of {len(data)} rows matched)" in result["summary"][1]


def test_drivers_templates_find_no_false_identity_and_say_what_a_model_is(runs, frame):
    _, data = frame
    identity = result_of(runs, "identity_check")
    assert identity["identity"] is None and "not defined by other columns" in identity["summary"][0]
    dimensions = result_of(runs, "dimension_breakdown")["dimensions"]
    region = next(d for d in dimensions if d["dimension"] == "region")
    revenue = data["revenue"]
    groups = revenue.groupby(data["region"])
    between = (groups.count() * (groups.mean() - revenue[data["region"].notna()].mean()) ** 2).sum()
    total = ((revenue[data["region"].notna()] - revenue[data["region"].notna()].mean()) ** 2).sum()
    assert region["eta_squared"] == pytest.approx(between / total, rel=1e-6)
    joined = result_of(runs, "joined_drivers")
    totals = data.groupby("region")["revenue"].sum()
    staff = pd.Series({"North": 12, "South": 30, "East": 21, "West": 8})
    r = stats.pearsonr(staff[totals.index], totals)[0]
    first = joined["tables"]["attributes"][0]
    assert first["attribute"] == "staff" and first["pearson_r"] == pytest.approx(r)
    model = result_of(runs, "driver_model")
    assert "in-sample" in model["summary"][0] and "cross-validation" in model["summary"][0]
    assert model["r2_cross_validated"] <= model["r2_in_sample"] + 0.05


def test_top_values_match_value_counts(runs, frame):
    _, data = frame
    result = result_of(runs, "top_values")
    counts = data["region"].value_counts()
    assert result["answer_value"] == counts.index[0]
    expected = list(zip(counts.index[:3], counts.values[:3], strict=True))
    assert [(v["value"], v["count"]) for v in result["top_values"]] == expected


def test_load_overview_converts_dedupes_and_writes_the_clean_file(runs, frame):
    _, data = frame
    result = result_of(runs, "load_overview")
    assert result["duplicates_removed"] == 2
    assert "price" in result["converted_to_numeric"] and result["date_columns"] == ["order_date"]
    assert result["constant_columns"] == ["constant"]
    clean = pd.read_csv(runs["load_overview"].run_dir / "outputs" / "clean.csv")
    assert len(clean) == len(data) - 2
    assert clean["price"].max() == pytest.approx(1050.0)


def test_quality_audit_flags_the_planted_problems(runs):
    issues = {(i["column"], i["issue"]) for i in result_of(runs, "quality_audit")["tables"]["issues"]}
    assert {("price", "numbers stored as text"), ("constant", "constant"), ("(all)", "duplicate rows")} <= issues


def test_describe_numeric_table_matches_pandas(runs, frame):
    _, data = frame
    table = {row["column"]: row for row in result_of(runs, "describe")["tables"]["numeric"]}
    assert table["units"]["mean"] == pytest.approx(data["units"].mean(), abs=1e-4)
    assert table["revenue"]["missing"] == int(data["revenue"].isna().sum())


def test_outlier_counts_match_the_iqr_rule(runs, frame):
    _, data = frame
    result = result_of(runs, "distribution_outliers")
    values = data["revenue"].dropna()
    q1, q3 = values.quantile([0.25, 0.75])
    expected = int(((values < q1 - 1.5 * (q3 - q1)) | (values > q3 + 1.5 * (q3 - q1))).sum())
    assert result["iqr_outliers"] == expected
    z = (values - values.mean()) / values.std()
    assert result["z_outliers"] == int((z.abs() > 3).sum())


def test_correlations_match_scipy(runs, frame):
    _, data = frame
    both = data[["units", "revenue"]].dropna()
    r = stats.pearsonr(both["units"], both["revenue"])[0]
    assert result_of(runs, "pairwise_numeric")["answer_value"] == pytest.approx(r)
    top = result_of(runs, "correlation_matrix")["tables"]["top_pairs"][0]
    assert {top["a"], top["b"]} == {"units", "revenue"}
    assert top["pearson"] == pytest.approx(r, abs=1e-4)
    mixed = result_of(runs, "pairwise_mixed")
    assert 0 < mixed["answer_value"] < 1 and mixed["kinds"] == ["categorical", "numeric"]


def test_a_numeric_column_with_two_values_gets_the_correlation_asked_not_eta_squared(runs, frame):
    _, data = frame
    both = data[["churned", "revenue"]].dropna()
    result = result_of(runs, "pairwise_few_levels")
    assert result["kinds"] == ["numeric", "numeric"] and result["method"] == "spearman"
    assert result["answer_value"] == pytest.approx(stats.spearmanr(both["churned"], both["revenue"])[0])
    assert "eta" not in " ".join(result["summary"]).lower()


def test_two_group_comparison_reports_welch_or_mann_whitney_with_effect_size(runs, frame):
    _, data = frame
    result = result_of(runs, "compare_two")
    assert result["test"] in ("Welch t-test", "Mann-Whitney U")
    a = data.loc[data["plan"] == "basic", "revenue"].dropna()
    b = data.loc[data["plan"] == "pro", "revenue"].dropna()
    expected_p = (stats.ttest_ind(a, b, equal_var=False).pvalue if result["test"] == "Welch t-test"
                  else stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    assert result["p_value"] == pytest.approx(expected_p)
    assert result["mean_difference"] == pytest.approx(a.mean() - b.mean())
    assert result["effect_size"]["name"] in ("Cohen's d", "rank-biserial r")
    assert result["significant"] is True


def test_many_group_comparison_reports_anova_family_and_eta_squared(runs, frame):
    _, data = frame
    result = result_of(runs, "compare_many")
    assert result["test"] in ("one-way ANOVA", "Welch ANOVA", "Kruskal-Wallis")
    assert 0 < result["eta_squared"] < 1 and result["significant"] is True
    means = {row["region"]: row["mean"] for row in result["tables"]["groups"]}
    assert means == pytest.approx(data.groupby("region")["revenue"].mean().to_dict(), abs=1e-3)
    assert "posthoc" in result["tables"]


def test_chi_square_matches_scipy(runs, frame):
    _, data = frame
    result = result_of(runs, "chi_square")
    table = pd.crosstab(data["region"], data["plan"])
    chi2 = stats.chi2_contingency(table)[0]
    assert result["chi2"] == pytest.approx(chi2)
    assert result["cramers_v"] == pytest.approx(np.sqrt(chi2 / table.to_numpy().sum()))


def test_ols_recovers_the_planted_effects_with_diagnostics(runs):
    result = result_of(runs, "ols_regression")
    assert result["r_squared"] > 0.4
    assert 35 < result["coefficients"]["units"] < 65  # revenue ~ 50 per unit by construction
    assert result["coefficients"]["region_North"] > 0  # North carries +150 vs the reference East (+50)
    assert result["max_vif"] < 5 and "breusch_pagan_p" in result


def test_logistic_regression_beats_chance(runs):
    result = result_of(runs, "logistic_regression")
    assert result["positive_class"] == "pro"
    assert result["cv_auc"] > 0.6 and result["odds_ratios"]["units"] < 1


def test_trend_finds_the_planted_upward_trend(runs):
    result = result_of(runs, "trend_seasonality")
    assert result["freq"] == "M" and result["trend_slope_per_period"] > 0 and result["trend_p_value"] < 0.05
    assert result["seasonality"]["by"] == "month of year"


def test_weeks_the_data_covers_in_part_are_left_out_of_the_trend(runs):
    """Weeks run Monday to Sunday: the data's first day is a Sunday and its last a Tuesday. Kept in, the one-day
    first week made a flat series look like it grew sevenfold."""
    result = result_of(runs, "weekly_trend")
    assert (result["freq"], result["first_period"], result["last_period"]) == ("W", "2023-01-02", "2023-03-27")
    assert result["periods"] == 13 and result["pct_change"] == 0 and result["first_value"] == 700
    assert any("first week (2022-12-26)" in n for n in result["notes"])
    assert any("last week (2023-04-03)" in n for n in result["notes"])


def test_kmeans_profiles_cover_every_row(runs, frame):
    _, data = frame
    result = result_of(runs, "kmeans_segments")
    assert 2 <= result["k"] <= 4 and sum(result["sizes"]) == len(data)
    segments = pd.read_csv(runs["kmeans_segments"].run_dir / "outputs" / "segments.csv")
    assert len(segments) == len(data) and segments["cluster"].nunique() == result["k"]


def test_classification_beats_the_majority_baseline(runs):
    result = result_of(runs, "classification_baseline")
    majority_share = max(result["classes"].values()) / sum(result["classes"].values())
    assert result["baseline_accuracy"] == pytest.approx(majority_share, abs=0.01)  # mean over folds
    assert result["best_balanced_accuracy"] > 0.55
    assert set(result["feature_importance"]) == {"units", "price", "region"}


def test_auto_chart_and_estimate(runs, frame):
    _, data = frame
    assert result_of(runs, "auto_chart")["chart"] == "bar with CI"
    estimate = result_of(runs, "estimate_with_ci")
    assert estimate["answer_value"] == pytest.approx(data["revenue"].mean())
    assert estimate["ci_low"] < estimate["answer_value"] < estimate["ci_high"]
    share = result_of(runs, "estimate_share")
    assert share["answer_value"] == pytest.approx((data["plan"] == "pro").mean())
    assert share["method"] == "Wilson interval" and share["ci_low"] < share["answer_value"] < share["ci_high"]


@pytest.mark.parametrize("case", [c for c in CASES if c.startswith("tiny_")])
def test_degenerate_data_is_explained_not_crashed(runs, case):
    summary = " ".join(result_of(runs, case)["summary"]).lower()
    assert any(word in summary for word in ("cannot", "not enough", "fewer than", "only", "too few"))
