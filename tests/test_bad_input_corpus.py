"""Every case of the bad-input corpus through `agentic-ds run` with the offline model.

A case refused at validation must exit 2 with the profiler's reason and a hint, before a run
directory exists; a case that runs must end with the expected status, and run.json, data_profile.json
and report.md must say what happened to each input (skipped with its reason, its encoding, its columns).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from tests.bad_input_corpus import CASES, Case

REFUSED = [case for case in CASES if case.exit_code == 2]
RUNS = [case for case in CASES if case.exit_code != 2]


def test_the_corpus_is_big_enough():
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)


def _run_cli(case: Case, cwd: Path, files: list[str]) -> tuple[int, str, str]:
    args = ["run", "--mode", "simple", case.task, *(arg for name in files for arg in ("--files", name))]
    if case.needs_dropped_privileges:
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv is needed to drop root's file-reading capabilities")
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        caps = "-dac_override,-dac_read_search"
        done = subprocess.run(
            ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", sys.executable, "-m", "agentic_ds", *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
        )
        return done.returncode, done.stdout, done.stderr
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        os.chdir(previous)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("case", REFUSED, ids=[case.name for case in REFUSED])
def test_refused_before_the_run_starts(case: Case, tmp_path: Path):
    files = case.build(tmp_path)

    code, out, err = _run_cli(case, tmp_path, files)

    assert code == 2, (out, err)
    error, hint = err.strip().splitlines()[-2:]
    assert error.startswith("error: ") and case.message in error, err
    assert hint.startswith("hint: ")
    workdirs = tmp_path / "workdirs"
    assert not workdirs.exists() or not any(workdirs.iterdir())  # no run directory, so no model was called


@pytest.mark.slow
@pytest.mark.sandbox
@pytest.mark.parametrize("case", RUNS, ids=[case.name for case in RUNS])
def test_runs_and_says_what_happened_to_each_input(case: Case, tmp_path: Path):
    files = case.build(tmp_path)

    code, out, err = _run_cli(case, tmp_path, files)

    status = [line for line in out.splitlines() if line.startswith("status: ")][-1]
    assert code == case.exit_code, (out, err)
    assert status.startswith(f"status: {case.message}"), out
    (run,) = (tmp_path / "workdirs").iterdir()
    record = json.loads((run / "run.json").read_text())
    profile = json.loads((run / "data_profile.json").read_text())
    report = (run / "report.md").read_text()
    html = (run / "report.html").read_text()
    by_path = {item["path"]: item for item in profile["files"]}
    skipped = {item["path"]: item["reason"] for item in record["skipped_inputs"]}
    assert skipped == {item["path"]: item["error"] for item in profile["files"] if item["error"]}
    for path, reason in case.expect.get("skipped", {}).items():
        assert reason in skipped[path]
        assert f"warning: skipped {path}: {skipped[path]}"[:200] in out  # the live output names it
        assert f"`{path}`: {skipped[path]}" in report  # and report.md lists it
        assert f"Input skipped, {path}: " in html  # and report.html, among the caveats
    if "skipped" in case.expect:
        assert set(skipped) == set(case.expect["skipped"])
    for path, codec in case.expect.get("encoding", {}).items():
        assert by_path[path]["encoding"] == codec
        assert f"encoding={codec!r}" in (run / "data_profile.json").read_text() or codec.startswith("utf-8")
    for text in case.expect.get("report_has", []):
        assert text in report, report
    assert "\ufffd" not in report  # no mojibake replacement characters anywhere
    for path, names in case.expect.get("columns", {}).items():
        assert [column["name"] for column in by_path[path]["columns"]] == names
        assert names == [str(c) for c in _pandas_columns(run / path)]  # the names pandas gives the code
    for path, rows in case.expect.get("rows", {}).items():
        assert by_path[path]["rows"] == rows
    for path, count in case.expect.get("columns_not_profiled", {}).items():
        assert len(by_path[path]["columns_not_profiled"]) == count
    if "not_profiled" in case.expect:
        assert len(profile["not_profiled"]) == case.expect["not_profiled"]
    if case.exit_code == 1:  # refused during the run: still before any model call
        assert record["tokens"].get("llm_calls", 0) == 0 and not (run / "plan.md").exists()


def _pandas_columns(path: Path) -> list[object]:
    if path.suffix == ".xlsx":
        return list(pd.read_excel(path).columns)
    if path.suffix == ".json":
        return list(pd.read_json(path, encoding="utf-8-sig").columns)
    return list(pd.read_csv(path).columns)
