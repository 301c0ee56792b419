"""`--help` everywhere (with examples and exit codes), `--version`, and a help path that stays light."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from agentic_ds import __version__
from agentic_ds.cli.main import main

COMMANDS = [[], ["run"], ["config"], ["config", "show"], ["list"], ["show"], ["open"]]
HEAVY_MODULES = ["google.adk", "google.genai", "litellm", "claude_agent_sdk", "pandas", "duckdb", "numpy", "pydantic"]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "agentic-ds")
def test_help_has_examples(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert "Examples:\n    agentic-ds " in result.stdout or "Examples:\n  agentic-ds " in result.stdout


@pytest.mark.parametrize("command", [[], ["run"]], ids=["agentic-ds", "run"])
def test_help_documents_exit_codes(command):
    out = CliRunner().invoke(main, [*command, "--help"]).stdout
    for line in ("0    completed", "3    incomplete", "1    failed at run time", "2    usage", "130  interrupted"):
        assert line in out


def test_every_registered_command_answers_help():
    def walk(group, path):
        for name, command in group.commands.items():
            yield [*path, name]
            if hasattr(command, "commands"):
                yield from walk(command, [*path, name])

    for command in walk(main, []):
        result = CliRunner().invoke(main, [*command, "-h" if command[0] in ("run", "config") else "--help"])
        assert result.exit_code == 0, (command, result.output)
        assert result.stdout.startswith(f"Usage: agentic-ds {' '.join(command)}")


def test_version():
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"agentic-ds {__version__}\n")


def test_no_arguments_shows_help():
    result = CliRunner().invoke(main, [])
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: agentic-ds [OPTIONS] COMMAND")


def test_help_path_imports_no_heavy_library_and_sets_litellm_offline_cost_map():
    code = (
        "import json, os, sys\n"
        "from agentic_ds.cli.main import main\n"
        "main(['--help'], standalone_mode=False)\n"
        f"heavy = [m for m in {HEAVY_MODULES!r} if any(k == m or k.startswith(m + '.') for k in sys.modules)]\n"
        "print(json.dumps({'heavy': heavy, 'cost_map': os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP')}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    assert facts == {"heavy": [], "cost_map": "True"}


def test_python_dash_m_is_the_same_command():
    done = subprocess.run([sys.executable, "-m", "agentic_ds", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"agentic-ds {__version__}\n")
