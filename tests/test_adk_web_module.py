"""`adk web` loads agentic-ds: `agentic_ds/agent.py` is what ADK's own loader finds, importing it creates nothing,
and the App it builds is the real one (the tree the design draws, the run's plugins), whose first
message becomes the task."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from agentic_ds.agent_names import ROOT
from tests.tree_shapes import SHAPES, shape_of

REPO = Path(__file__).resolve().parents[1]
CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"


def test_importing_the_module_builds_nothing(tmp_path):
    code = ("import agentic_ds.agent as m, os; print(sorted(os.listdir('.')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "AGENTIC_DS_WORKDIR": str(tmp_path / "w")})
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("mode", ["orchestrated", "simple"])
def test_adks_loader_finds_the_real_app(tmp_path, monkeypatch, mode):
    from google.adk.apps.app import App
    from google.adk.cli.utils.agent_loader import AgentLoader

    (tmp_path / "sales.csv").write_text(CSV, encoding="utf-8")
    monkeypatch.setenv("AGENTIC_DS_ADK_FILES", str(tmp_path / "sales.csv"))
    monkeypatch.setenv("AGENTIC_DS_ADK_MODE", mode)
    monkeypatch.setenv("AGENTIC_DS_WORKDIR", str(tmp_path / "workdirs"))
    monkeypatch.setenv("AGENTIC_DS_MODELS__DEFAULT", "offline")
    module = importlib.import_module("agentic_ds.agent")
    module.build_app.cache_clear()
    try:
        loaded = AgentLoader(str(REPO)).load_agent(ROOT)   # `adk web .` in a checkout
        assert isinstance(loaded, App) and loaded is module.app and loaded.root_agent is module.root_agent
        assert AgentLoader(str(REPO / "agentic_ds")).load_agent(ROOT) is loaded   # `adk web <the package>`
        assert loaded.name == ROOT and loaded.root_agent.name == ROOT
        assert shape_of(loaded.root_agent) == SHAPES[mode]   # every agent, where the design places it
        assert {p.name for p in loaded.plugins} >= {"budget_guard", "loop_guard"}
        [run_dir] = (tmp_path / "workdirs").iterdir()
        assert "adk-web" in run_dir.name and (run_dir / "inputs" / "sales.csv").read_text() == CSV
    finally:
        module.build_app.cache_clear()
