"""Inputs in other encodings are read in their own codec on every path of the offline model: the main file, a file
joined to answer a question, the other table of a drivers analysis, and the cleaned copy a stage writes (in UTF-8).
Asserted on the plan's bound params and on what the user reads (the answer, the joined table's values)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from agentic_ds.config.settings import Settings
from agentic_ds.offline.planner.plan import plan_for
from agentic_ds.profiling import profile_inputs
from agentic_ds.runs.workdir import copy_inputs, create_run_dir
from agentic_ds.skills import SkillLibrary, default_skills_dir
from agentic_ds.testing.harness import offline_models
from agentic_ds.workflow.runner import RunRequest, execute_run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "data"
STORE_TYPES = {"High street": "Hauptstraße", "Mall": "Galerie “Süd”", "Retail park": "Fachmarktzentrum Köln"}
DRIVERS = "What drives revenue in the retail sales data, and how strongly?"
ACROSS_FILES = "Which store_type has the highest total revenue?"


@pytest.fixture
def encoded(tmp_path: Path) -> Path:
    """The bundled sample with sales in Latin-1 and stores in cp1252 (curly quotes exist only there)."""
    folder = tmp_path / "data"
    folder.mkdir()
    sales = (EXAMPLES / "retail_sales.csv").read_text().replace("Grocery", "Épicerie")
    (folder / "retail_sales.csv").write_bytes(sales.encode("latin-1"))
    stores = (EXAMPLES / "stores.csv").read_text()
    for old, new in STORE_TYPES.items():
        stores = stores.replace(f",{old}\n", f",{new}\n")
    (folder / "stores.csv").write_bytes(stores.encode("cp1252"))
    return folder


def plan_params(folder: Path, task: str) -> list[dict]:
    run = folder.parent / "run"
    (run / "inputs").mkdir(parents=True, exist_ok=True)
    for path in folder.iterdir():
        (run / "inputs" / path.name).write_bytes(path.read_bytes())
    profile = profile_inputs(sorted((run / "inputs").iterdir()), base=run)
    assert {f.path: f.encoding for f in profile.files} == {"inputs/retail_sales.csv": "latin-1",
                                                            "inputs/stores.csv": "cp1252"}
    return [step.method.params for step in plan_for(task, profile, SkillLibrary.load()).steps]


def test_each_stage_is_bound_to_the_codec_of_the_file_it_reads(encoded):
    drivers = plan_params(encoded, DRIVERS)
    originals = [p for p in drivers if p["data_path"] == "inputs/retail_sales.csv"]
    cleaned = [p for p in drivers if p["data_path"] == "outputs/clean/retail_sales.csv"]
    assert originals and all(p["encoding"] == "latin-1" for p in originals)
    assert cleaned and all("encoding" not in p for p in cleaned)          # pandas wrote the copy in UTF-8
    assert [p["other_encoding"] for p in drivers if "other_path" in p] == ["cp1252"]

    (answer,) = [p for p in plan_params(encoded, ACROSS_FILES) if "joins" in p]
    assert answer["encoding"] == "latin-1"
    assert answer["joins"] == [{"path": "inputs/stores.csv", "on": "store_id", "encoding": "cp1252"}]


def test_the_joined_table_of_a_drivers_analysis_is_read_in_its_own_codec(encoded, tmp_path):
    run = tmp_path / "template"
    (run / "inputs").mkdir(parents=True)
    for path in encoded.iterdir():
        (run / "inputs" / path.name).write_bytes(path.read_bytes())
    code = SkillLibrary.load(default_skills_dir()).render(
        "drivers-analysis", "joined_drivers", data_path="inputs/retail_sales.csv", encoding="latin-1",
        result_path="outputs/joined.json", fig_prefix="figures/joined", target="revenue", key="store_id",
        other_path="inputs/stores.csv", other_encoding="cp1252")
    done = subprocess.run([sys.executable, "-c", code], cwd=run, capture_output=True, text=True, timeout=120,
                          env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin", "HOME": str(run)})
    assert done.returncode == 0, done.stderr[-2000:]
    text = (run / "outputs" / "joined.json").read_text(encoding="utf-8")
    by_type = next(a for a in json.loads(text)["tables"]["attributes"] if a["attribute"] == "store_type")
    assert {by_type["highest"], by_type["lowest"]} <= set(STORE_TYPES.values())
    assert "\ufffd" not in text


@pytest.mark.slow
async def test_a_question_across_two_files_in_other_encodings_names_the_value_as_written(encoded, tmp_path):
    sales = pd.read_csv(encoded / "retail_sales.csv", encoding="latin-1")
    stores = pd.read_csv(encoded / "stores.csv", encoding="cp1252")
    expected = sales.merge(stores, on="store_id").groupby("store_type")["revenue"].sum().idxmax()
    workspace = create_run_dir(tmp_path, ACROSS_FILES)
    copy_inputs([encoded], workspace)
    outcome = await execute_run(RunRequest(task=ACROSS_FILES, mode="simple", workspace=workspace,
                                           settings=Settings(workdir=tmp_path), models=offline_models()))
    assert outcome.status == "completed", outcome.reason
    answer = json.loads((workspace.root / "run.json").read_text())["final_answer"]["answer"]
    assert expected == "Fachmarktzentrum Köln" and expected in answer
    assert "\ufffd" not in (workspace.root / "report.md").read_text()
