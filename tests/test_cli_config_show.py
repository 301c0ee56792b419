"""`agentic-ds config show`: effective settings as YAML, secrets masked, models resolved with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from agentic_ds.cli.main import main

SECRET = "sk-proj-THIS-IS-SECRET-1234"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def show(*args: str):
    result = CliRunner().invoke(main, ["config", "show", *args])
    return result, (yaml.safe_load(result.stdout) if result.stdout else None)


def test_defaults_and_offline_models_with_reason():
    result, doc = show()
    assert result.exit_code == 0
    assert doc["config_file"] is None
    assert doc["settings"]["sandbox"]["mode"] == "auto"
    assert doc["models"]["planner"] == {"model": "offline", "via": "offline", "chosen": "automatically"}
    assert doc["models_reason"].startswith("no API key found: set ANTHROPIC_API_KEY")
    assert doc["credentials"] == "none found"


def test_secrets_are_masked_wherever_they_appear(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    Path(".env").write_text("ANTHROPIC_API_KEY=sk-ant-FROM-DOTENV-999\n", encoding="utf-8")
    Path("agentic-ds.yaml").write_text(
        "budgets:\n  max_tokens: 5000\n"
        'model_options:\n  "openai/gpt-4.1":\n    api_key_env: OPENAI_API_KEY\n'
        "    extra:\n      api_key: literal-key-in-yaml\n"
        f"      extra_headers:\n        X-Note: 'Bearer {SECRET}'\n",
        encoding="utf-8",
    )
    result, doc = show()
    assert result.exit_code == 0
    for secret in (SECRET, "literal-key-in-yaml", "sk-ant-FROM-DOTENV-999"):
        assert secret not in result.stdout
    options = doc["settings"]["model_options"]["openai/gpt-4.1"]
    assert options["extra"]["api_key"] == "********"
    assert options["extra"]["extra_headers"]["X-Note"] == "Bearer ********"
    assert options["api_key_env"] == "OPENAI_API_KEY"  # the variable's name is not a secret
    assert doc["settings"]["budgets"]["max_tokens"] == 5000  # a count, not a token
    assert doc["credentials"] == {
        "ANTHROPIC_API_KEY": "******** (from .env)",
        "OPENAI_API_KEY": "******** (from environment)",
    }
    assert doc["config_file"] == "agentic-ds.yaml"
    assert doc["models"]["coder"]["model"] == "anthropic/claude-sonnet-4-5"
    assert doc["models_reason"] == "chosen automatically because ANTHROPIC_API_KEY is set"


def test_model_flags_and_config_file():
    Path("team.yaml").write_text("models:\n  compactor: ollama_chat/llama3\n", encoding="utf-8")
    result, doc = show("--config", "team.yaml", "--model", "offline", "--model", "coder=ollama_chat/qwen")
    assert result.exit_code == 0
    assert doc["config_file"] == "team.yaml"
    assert doc["models"]["coder"] == {"model": "ollama_chat/qwen", "via": "litellm", "chosen": "configured"}
    assert doc["models"]["compactor"]["model"] == "offline"  # --model MODEL sets every role
    assert doc["models_reason"] == "as configured"


def test_models_that_cannot_run_still_show_the_config_and_exit_2():
    result, doc = show("--model", "anthropic/claude-sonnet-4-5")
    assert result.exit_code == 2
    assert doc["models"].startswith("error: anthropic/claude-sonnet-4-5 (for the planner) needs ANTHROPIC_API_KEY")
    assert result.stderr.startswith("error: anthropic/claude-sonnet-4-5 (for the planner) needs ANTHROPIC_API_KEY")


def test_malformed_config_file():
    Path("agentic-ds.yaml").write_text("sandbox: [\n", encoding="utf-8")
    result, _ = show()
    assert result.exit_code == 2
    assert result.stderr.startswith("error: config file agentic-ds.yaml is not valid YAML (line")
    assert "Traceback" not in result.output
