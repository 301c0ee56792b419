"""Settings layers, lowest first: defaults < YAML file < .env in the cwd < process env < CLI flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_ds.config.settings import load_settings
from agentic_ds.errors import ConfigError


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def write(path: str, text: str) -> Path:
    Path(path).write_text(text, encoding="utf-8")
    return Path(path)


def test_defaults_without_any_layer():
    settings = load_settings()
    assert settings.workdir == Path("workdirs")
    assert settings.models.default is None
    assert settings.sandbox.mode == "auto"
    assert settings.budgets.max_llm_calls == 1000


def test_yaml_in_cwd_beats_defaults():
    write("agentic-ds.yaml", "sandbox:\n  mode: off\nmodels:\n  coder: openai/gpt-4.1\n")
    settings = load_settings()
    assert settings.sandbox.mode == "off"
    assert settings.models.coder == "openai/gpt-4.1"


def test_explicit_config_file_replaces_the_cwd_one():
    write("agentic-ds.yaml", "sandbox:\n  mode: off\n")
    other = write("team.yaml", "sandbox:\n  mode: require\n")
    assert load_settings(other).sandbox.mode == "require"


def test_dotenv_in_cwd_beats_yaml():
    write("agentic-ds.yaml", "sandbox:\n  mode: off\n")
    write(".env", "AGENTIC_DS_SANDBOX__MODE=require\n")
    assert load_settings().sandbox.mode == "require"


def test_process_env_beats_dotenv_and_yaml(monkeypatch):
    write("agentic-ds.yaml", "budgets:\n  max_llm_calls: 10\n")
    write(".env", "AGENTIC_DS_BUDGETS__MAX_LLM_CALLS=20\n")
    monkeypatch.setenv("AGENTIC_DS_BUDGETS__MAX_LLM_CALLS", "30")
    assert load_settings().budgets.max_llm_calls == 30


def test_cli_flags_beat_every_other_layer(monkeypatch):
    write("agentic-ds.yaml", "workdir: from-yaml\n")
    monkeypatch.setenv("AGENTIC_DS_WORKDIR", "from-env")
    settings = load_settings(overrides={"workdir": "from-flag"})
    assert settings.workdir == Path("from-flag")


def test_unset_flags_leave_lower_layers_alone(monkeypatch):
    monkeypatch.setenv("AGENTIC_DS_SANDBOX__MODE", "off")
    settings = load_settings(overrides={"sandbox": {"mode": None}, "workdir": None, "models": {}})
    assert settings.sandbox.mode == "off"
    assert settings.workdir == Path("workdirs")


def test_malformed_yaml_names_file_and_line():
    bad = write("bad.yaml", "models:\n  coder: [unclosed\n")
    with pytest.raises(ConfigError, match=r"bad.yaml is not valid YAML \(line \d+\)") as err:
        load_settings(bad)
    assert err.value.exit_code == 2


def test_yaml_that_is_not_a_mapping():
    with pytest.raises(ConfigError, match="must hold a mapping"):
        load_settings(write("list.yaml", "- a\n- b\n"))


def test_missing_config_file():
    with pytest.raises(ConfigError, match="config file not found: nope.yaml"):
        load_settings(Path("nope.yaml"))


def test_invalid_value_names_the_setting():
    with pytest.raises(ConfigError, match=r"invalid setting 'sandbox.mode' in x.yaml"):
        load_settings(write("x.yaml", "sandbox:\n  mode: sometimes\n"))


def test_unknown_key_in_a_section_is_refused():
    with pytest.raises(ConfigError, match=r"'loops.plan_iteration'"):
        load_settings(write("x.yaml", "loops:\n  plan_iteration: 3\n"))


def test_readme_configuration_example_is_a_valid_config():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    settings = load_settings(write("readme.yaml", block))
    assert settings.models.coder == "ollama_chat/qwen2.5-coder"
    assert settings.model_options["openai/my-vllm-model"].api_key_env == "VLLM_API_KEY"
    assert settings.budgets.max_cost_usd == 5
