""""What drives X" on the bundled sample: structure first, then time, every dimension, the joined stores table,
duplicates dropped, and a model that says it is in-sample. Asserted on what the user reads: report.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentic_ds.config.settings import Settings
from agentic_ds.runs.workdir import copy_inputs, create_run_dir
from agentic_ds.skills import SkillLibrary, default_skills_dir
from agentic_ds.testing.harness import offline_models
from agentic_ds.workflow.runner import RunRequest, execute_run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "data"
TASK = "What drives revenue in the retail sales data, and how strongly?"


def run_template(tmp_path: Path, name: str, **params) -> dict:
    (tmp_path / "inputs").mkdir(exist_ok=True)
    for csv in EXAMPLES.glob("*.csv"):
        (tmp_path / "inputs" / csv.name).write_bytes(csv.read_bytes())
    code = SkillLibrary.load(default_skills_dir()).render(
        "drivers-analysis", name, data_path="inputs/retail_sales.csv", result_path=f"outputs/{name}.json",
        fig_prefix=f"figures/{name}", **params)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((tmp_path / "outputs" / f"{name}.json").read_text())


def test_identity_check_finds_the_product_that_defines_revenue(tmp_path):
    result = run_template(tmp_path, "identity_check", target="revenue")
    assert result["identity"] == "revenue = units × unit_price × (1 - discount)"
    assert result["match_share"] == 1.0 and sorted(result["components"]) == ["discount", "unit_price", "units"]
    assert sum(result["variance_shares"].values()) == pytest.approx(1.0)
    assert max(result["variance_shares"], key=result["variance_shares"].get) == "unit_price"


def test_driver_model_leaves_out_what_defines_the_target(tmp_path):
    result = run_template(tmp_path, "driver_model", target="revenue")
    assert set(result["excluded_components"]) == {"units", "unit_price", "discount"}
    assert not set(result["predictors"]) & {"units", "unit_price", "discount"}
    assert "in-sample" in result["headline"] and "held-out" in result["headline"]


@pytest.mark.slow
async def test_what_drives_revenue_report_leads_with_structure_then_time_dimensions_and_stores(tmp_path):
    workspace = create_run_dir(tmp_path, TASK)
    copy_inputs([EXAMPLES], workspace)
    outcome = await execute_run(RunRequest(task=TASK, mode="orchestrated", workspace=workspace,
                                           settings=Settings(workdir=tmp_path), models=offline_models()))
    assert outcome.status == "completed", outcome.reason
    report = (workspace.root / "report.md").read_text()
    answer = report.split("## Key findings")[0]
    bullets = [line for line in answer.splitlines() if line.startswith("- ")]
    assert "revenue = units × unit_price × (1 - discount)" in bullets[0] and "by construction" in bullets[0]
    assert "unit_price accounts for" in bullets[0]
    assert any("trend" in b for b in bullets) and any("category" in b and "eta²" in b for b in bullets)
    assert any("stores.csv" in b and "size_sqm" in b for b in bullets)
    model = next(b for b in bullets if "model" in b)
    assert "in-sample" in model and "held-out" in model and "units" in model.split("leaving out")[1]
    assert "3 exact duplicate row(s) were removed" in report
    plan = json.loads((workspace.root / "plan.json").read_text())
    later = [s for s in plan["stages"][2:]]
    assert all("outputs/clean/retail_sales.csv" in s["description"] for s in later)
