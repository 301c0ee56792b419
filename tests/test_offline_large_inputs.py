"""Large inputs with the offline model: a file of 10,000 columns and a folder of 2,000 files, generated here.

The offline roles read the run's profile from their prompt's values, never by paging `data_profile.json`: each run
ends within a few dozen model calls, answered when the question is about what was profiled, and honestly
`incomplete` when it names a file past the profiling bound. (Once: 127 calls then `failed` on the wide file, and
the validator read the profile 975 times on the folder.)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main

pytestmark = [pytest.mark.early, pytest.mark.slow, pytest.mark.sandbox]
MAX_CALLS = 50
MAX_MODEL_SECONDS = 60        # the run's wall time without profiling (DuckDB's, not the model's)
MAX_WALL_SECONDS = 240        # the whole run, profiling included, on a loaded test machine


def run(tmp_path: Path, mode: str, task: str, data: Path) -> dict:
    workdir = tmp_path / f"runs-{mode}"
    args = ["run", "--mode", mode, task, "-f", str(data), "--model", "offline", "--workdir", str(workdir), "--quiet"]
    CliRunner().invoke(main, args, catch_exceptions=False)
    (folder,) = workdir.iterdir()
    record = json.loads((folder / "run.json").read_text())
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert record["tokens"]["llm_calls"] <= MAX_CALLS, record["agents"]
    assert record["wall_s"] - record["agents"]["file_analyzer"]["wall_s"] < MAX_MODEL_SECONDS, record["agents"]
    assert record["wall_s"] < MAX_WALL_SECONDS
    assert not any("data_profile.json" in str(e.get("text", "")) for e in events if e.get("kind") == "tool_call")
    return record


def test_a_file_of_ten_thousand_columns(tmp_path):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.normal(size=(40, 10_000)).round(3), columns=[f"c{i:05d}" for i in range(10_000)])
    data = tmp_path / "wide.csv"
    frame.to_csv(data, index=False)
    record = run(tmp_path, "orchestrated", "What is the mean of c00042?", data)
    assert record["status"] == "completed", record["reason"]
    assert f"{frame['c00042'].mean():.4f}".rstrip("0") in record["final_answer"]["answer"]


def test_a_folder_of_two_thousand_files(tmp_path):
    rng = np.random.default_rng(4)
    folder = tmp_path / "parts"
    folder.mkdir()
    for i in range(2000):
        pd.DataFrame({"id": range(5), "amount": rng.integers(1, 100, 5)}).to_csv(folder / f"part_{i:04d}.csv",
                                                                                  index=False)
    answered = run(tmp_path, "simple", "What is the mean amount in part_0003.csv?", folder)
    assert answered["status"] == "completed_with_warnings", answered["reason"]     # 1,900 files were not profiled
    expected = pd.read_csv(folder / "part_0003.csv")["amount"].mean()
    assert f"{expected:g}" in answered["final_answer"]["answer"]
    unread = run(tmp_path, "orchestrated", "What is the mean amount in part_1500.csv?", folder)
    assert unread["status"] == "incomplete"
    assert "part_1500.csv, which was not profiled" in unread["reason"]
