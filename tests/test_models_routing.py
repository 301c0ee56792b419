"""Model strings, role assignment, credential checks and the credential-based automatic default."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentic_ds.config.models import (
    NO_KEY_REASON,
    ROLES,
    ModelChoice,
    build_llm,
    export_dotenv_credentials,
    litellm_kwargs,
    model_kind,
    model_overrides,
    parse_model_flags,
    resolve_models,
)
from agentic_ds.config.settings import load_settings
from agentic_ds.errors import ConfigError, UsageError


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.claude login from the machine


def settings_with(models: dict[str, str] | None = None, yaml: str | None = None):
    if yaml:
        Path("agentic-ds.yaml").write_text(yaml, encoding="utf-8")
    return load_settings(overrides={"models": models or {}})


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ("offline", "offline"),
        ("claude-code", "claude-code"),
        ("claude-code:claude-sonnet-4-5", "claude-code"),
        ("gemini-2.5-flash", "gemini"),
        ("openai/gpt-4.1", "litellm"),
        ("anthropic/claude-sonnet-4-5", "litellm"),
        ("gemini/gemini-2.5-flash", "litellm"),
        ("ollama_chat/llama3.1:8b", "litellm"),
        ("openrouter/anthropic/claude-sonnet-4.5", "litellm"),
        ("hosted_vllm/Qwen/Qwen2.5-7B", "litellm"),
    ],
)
def test_every_kind_of_model_string(spec, kind):
    assert model_kind(spec) == kind


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt4", "unknown model string 'gpt4'"),
        ("claude-code:", "unknown model string 'claude-code:'"),
        ("openai/", "unknown model string 'openai/'"),
        ("opneai/gpt-4.1", "unknown model provider 'opneai'"),
        ("", "unknown model string ''"),
    ],
)
def test_unknown_model_strings_are_config_errors(spec, message):
    with pytest.raises(ConfigError, match=message) as err:
        model_kind(spec)
    assert err.value.exit_code == 2
    assert "offline" in err.value.hint


def test_model_flags_alone_and_by_role():
    flags = parse_model_flags(["openai/gpt-4.1", "coder=claude-code", "Compactor=openai/gpt-4.1-mini"])
    assert flags == {"default": "openai/gpt-4.1", "coder": "claude-code", "compactor": "openai/gpt-4.1-mini"}


def test_model_flag_with_unknown_role():
    with pytest.raises(UsageError, match="unknown role 'writer' in --model writer=offline"):
        parse_model_flags(["writer=offline"])


def test_model_flag_with_role_but_no_model():
    with pytest.raises(UsageError, match="names no model"):
        parse_model_flags(["coder="])


def test_model_flag_validates_the_model_string():
    with pytest.raises(ConfigError, match="unknown model string 'nonsense'"):
        parse_model_flags(["coder=nonsense"])


def test_model_alone_on_the_command_line_beats_role_settings_from_the_config_file():
    settings = settings_with(model_overrides({"default": "offline"}), yaml="models:\n  coder: openai/gpt-4.1\n")
    models = resolve_models(settings, env={})
    assert {models.spec(role) for role in ROLES} == {"offline"}


def test_role_flag_beats_model_alone():
    settings = settings_with(model_overrides({"default": "offline", "coder": "ollama_chat/llama3"}))
    models = resolve_models(settings, env={})
    assert models.spec("coder") == "ollama_chat/llama3"
    assert models.spec("planner") == "offline"


def test_default_role_fills_roles_left_empty():
    models = resolve_models(settings_with(yaml="models:\n  default: offline\n  coder: ollama_chat/llama3\n"), env={})
    assert models.spec("coder") == "ollama_chat/llama3"
    assert models.spec("reviewer") == "offline"
    assert models.reason == "as configured"


def test_no_credentials_means_offline_everywhere_and_says_why():
    models = resolve_models(settings_with(), env={})
    assert all(choice.spec == "offline" and choice.automatic for choice in models.choices.values())
    assert models.reason == NO_KEY_REASON
    assert models.describe() == (
        "offline for every role (no API key found: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or "
        "OPENROUTER_API_KEY, or pass --model)"
    )


@pytest.mark.parametrize(
    ("env_var", "main", "cheap", "kind"),
    [
        ("ANTHROPIC_API_KEY", "anthropic/claude-sonnet-4-5", "anthropic/claude-haiku-4-5", "litellm"),
        ("OPENAI_API_KEY", "openai/gpt-4.1", "openai/gpt-4.1-mini", "litellm"),
        ("GEMINI_API_KEY", "gemini-2.5-pro", "gemini-2.5-flash", "gemini"),
        ("GOOGLE_API_KEY", "gemini-2.5-pro", "gemini-2.5-flash", "gemini"),
        (
            "OPENROUTER_API_KEY",
            "openrouter/anthropic/claude-sonnet-4.5",
            "openrouter/anthropic/claude-haiku-4.5",
            "litellm",
        ),
    ],
)
def test_automatic_default_per_provider_key(env_var, main, cheap, kind):
    models = resolve_models(settings_with(), env={env_var: "secret"})
    for role in ("planner", "reviewer", "coder", "summarizer"):
        assert models.choices[role] == ModelChoice(role, main, kind, automatic=True)
    assert models.spec("compactor") == cheap
    assert models.reason == f"chosen automatically because {env_var} is set"
    roles = "planner, reviewer, judge, coder, summarizer"
    assert models.describe().startswith(f"{main} for {roles}; {cheap} for compactor")


def test_first_provider_in_order_wins_when_several_keys_are_set():
    models = resolve_models(settings_with(), env={"OPENROUTER_API_KEY": "a", "OPENAI_API_KEY": "b"})
    assert models.spec("planner") == "openai/gpt-4.1"


def test_empty_key_counts_as_unset():
    assert resolve_models(settings_with(), env={"OPENAI_API_KEY": ""}).spec("coder") == "offline"


def test_one_configured_role_and_automatic_others():
    models = resolve_models(settings_with({"coder": "claude-code"}), env={"ANTHROPIC_API_KEY": "k"})
    assert models.spec("coder") == "claude-code" and not models.choices["coder"].automatic
    assert models.spec("planner") == "anthropic/claude-sonnet-4-5"
    assert models.reason == "coder as configured; other roles chosen automatically because ANTHROPIC_API_KEY is set"


@pytest.mark.parametrize(
    ("spec", "needed"),
    [
        ("openai/gpt-4.1", "OPENAI_API_KEY"),
        ("anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
        ("groq/llama-3.3-70b", "GROQ_API_KEY"),
        ("gemini/gemini-2.5-flash", "GEMINI_API_KEY or GOOGLE_API_KEY"),
        ("gemini-2.5-flash", "GEMINI_API_KEY or GOOGLE_API_KEY"),
        ("openrouter/openai/gpt-4.1", "OPENROUTER_API_KEY"),
    ],
)
def test_explicit_provider_without_its_credential(spec, needed):
    with pytest.raises(ConfigError) as err:
        resolve_models(settings_with({"default": spec}), env={})
    assert err.value.message == f"{spec} (for the planner) needs {needed}, which is not set"
    assert err.value.exit_code == 2
    assert "--model offline" in err.value.hint


def test_claude_code_coder_needs_a_credential_or_a_login(tmp_path):
    settings = settings_with({"default": "offline", "coder": "claude-code"})
    with pytest.raises(
        ConfigError, match=r"claude-code \(for the coder\) needs ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN"
    ):
        resolve_models(settings, env={"HOME": str(tmp_path)})
    assert resolve_models(settings, env={"ANTHROPIC_API_KEY": "k"}).spec("coder") == "claude-code"
    (tmp_path / ".claude").mkdir()
    assert resolve_models(settings, env={"HOME": str(tmp_path)}).spec("coder") == "claude-code"


def test_claude_code_outside_the_coder_role():
    with pytest.raises(ConfigError, match="claude-code can only be the coder, not the planner"):
        resolve_models(settings_with({"default": "claude-code"}), env={"ANTHROPIC_API_KEY": "k"})


def test_providers_without_a_known_key_are_not_checked():
    models = resolve_models(settings_with({"default": "ollama_chat/llama3"}), env={})
    assert models.spec("summarizer") == "ollama_chat/llama3"


def test_gemini_through_vertex_needs_no_api_key():
    models = resolve_models(settings_with({"default": "gemini-2.5-pro"}), env={"GOOGLE_GENAI_USE_VERTEXAI": "true"})
    assert models.spec("planner") == "gemini-2.5-pro"


LOCAL_SERVER = 'model_options:\n  "openai/qwen":\n    api_base: http://127.0.0.1:8000/v1\n'


def test_local_api_base_skips_the_credential_check():
    settings = settings_with({"default": "openai/qwen"}, yaml=LOCAL_SERVER)
    assert resolve_models(settings, env={}).spec("coder") == "openai/qwen"
    # litellm refuses to send without a key, even to a server that ignores it.
    assert litellm_kwargs("openai/qwen", settings, env={}) == {
        "api_base": "http://127.0.0.1:8000/v1",
        "api_key": "not-needed",
    }


def test_remote_api_base_still_needs_the_key():
    yaml = 'model_options:\n  "openai/qwen":\n    api_base: https://llm.example.com/v1\n'
    with pytest.raises(ConfigError, match="needs OPENAI_API_KEY"):
        resolve_models(settings_with({"default": "openai/qwen"}, yaml=yaml), env={})


def test_api_key_env_is_required_when_configured_and_passed_as_api_key():
    yaml = LOCAL_SERVER + "    api_key_env: VLLM_KEY\n    extra:\n      temperature: 0\n"
    settings = settings_with({"default": "openai/qwen"}, yaml=yaml)
    with pytest.raises(ConfigError, match=r"openai/qwen \(for the planner\) needs VLLM_KEY.*api_key_env"):
        resolve_models(settings, env={})
    resolve_models(settings, env={"VLLM_KEY": "abc"})
    assert litellm_kwargs("openai/qwen", settings, env={"VLLM_KEY": "abc"}) == {
        "temperature": 0,
        "api_base": "http://127.0.0.1:8000/v1",
        "api_key": "abc",
    }


def test_dotenv_in_cwd_counts_for_the_default_and_the_check(monkeypatch):
    Path(".env").write_text("OPENAI_API_KEY=sk-from-dotenv\n", encoding="utf-8")
    models = resolve_models(settings_with())  # env=None: process environment over ./.env
    assert models.spec("planner") == "openai/gpt-4.1"
    resolve_models(settings_with({"default": "openai/gpt-4.1"}))  # no ConfigError: the key is in .env


def test_process_env_beats_dotenv_for_the_default(monkeypatch):
    Path(".env").write_text("OPENAI_API_KEY=sk-from-dotenv\n", encoding="utf-8")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    assert resolve_models(settings_with()).spec("planner") == "anthropic/claude-sonnet-4-5"


def test_export_dotenv_credentials_never_overrides(monkeypatch):
    Path(".env").write_text(
        "OPENAI_API_KEY=from-dotenv\nANTHROPIC_API_KEY=from-dotenv\nUNRELATED=x\n", encoding="utf-8"
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    monkeypatch.setenv("OPENAI_API_KEY", "")  # empty counts as unset; monkeypatch restores it afterwards
    monkeypatch.delenv("UNRELATED", raising=False)
    assert export_dotenv_credentials() == ["OPENAI_API_KEY"]
    assert os.environ["OPENAI_API_KEY"] == "from-dotenv"
    assert os.environ["ANTHROPIC_API_KEY"] == "from-env"
    assert "UNRELATED" not in os.environ


def test_build_llm_for_litellm_and_gemini():
    from google.adk.models.google_llm import Gemini
    from google.adk.models.lite_llm import LiteLlm

    settings = settings_with(yaml=LOCAL_SERVER)
    llm = build_llm(ModelChoice("coder", "openai/qwen", "litellm"), settings)
    assert isinstance(llm, LiteLlm) and llm.model == "openai/qwen"
    assert llm._additional_args["api_base"] == "http://127.0.0.1:8000/v1"
    gemini = build_llm(ModelChoice("planner", "gemini-2.5-flash", "gemini"), settings)
    assert isinstance(gemini, Gemini) and gemini.model == "gemini-2.5-flash"


def test_build_llm_refuses_claude_code():
    with pytest.raises(ValueError, match="the workflow builds the Claude coder"):
        build_llm(ModelChoice("coder", "claude-code", "claude-code"), settings_with())


def test_build_llm_offline_is_the_builtin_model():
    from google.adk.models import BaseLlm

    from agentic_ds.offline import OfflineLlm

    llm = build_llm(ModelChoice("planner", "offline", "offline"), settings_with())
    assert isinstance(llm, OfflineLlm) and isinstance(llm, BaseLlm)
