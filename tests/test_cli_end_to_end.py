"""The installed command, for real: the offline model, the sandbox, the workflow; and Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "agentic_ds", *args]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "sales.csv").write_text(CSV, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return tmp_path, env


def test_offline_run_from_the_command_line(project):
    cwd, env = project
    done = subprocess.run(
        command("run", "--mode", "simple", "Mean price by region", "--files", "data", "--json"),
        cwd=cwd, env=env, capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert objects[0]["kind"] == "models" and set(objects[0]["models"].values()) == {"offline"}
    finished = objects[-1]
    assert finished["kind"] == "run_finished" and finished["status"] in ("completed", "completed_with_warnings")
    run_dir = Path(finished["run_dir"])
    assert run_dir.parent == cwd / "workdirs"
    assert (run_dir / "inputs/data/sales.csv").read_text() == CSV
    assert Path(finished["report_path"]).is_file()
    logged = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    assert [o for o in objects[2:-1]] == logged[: len(objects) - 3]


def test_ctrl_c_stops_the_run_with_exit_130_and_keeps_its_directory(project):
    cwd, env = project
    process = subprocess.Popen(
        command("run", "--mode", "orchestrated", "Mean price by region", "--files", "data"),
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # interrupt once the workflow is producing events
        seen.append(line.rstrip("\n"))
        if line.startswith("["):
            break
    process.send_signal(signal.SIGINT)
    rest, _stderr = process.communicate(timeout=120)
    lines = seen + rest.splitlines()
    assert process.returncode == 130, lines
    assert lines[-1].startswith("status: interrupted - stopped by Ctrl-C")
    (run_dir,) = (cwd / "workdirs").iterdir()
    assert (run_dir / "inputs/data/sales.csv").is_file()
    assert (run_dir / "run.json").is_file()
