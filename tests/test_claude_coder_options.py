"""How the claude-code coder configures the CLI: isolation, permissions, skills, credentials, model strings."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from agentic_ds.coders.claude_code import ClaudeCodeCoder, claude_model, is_claude_code
from agentic_ds.coders.claude_events import TurnUsage, cap_text
from agentic_ds.coders.claude_failures import describe_error_result
from agentic_ds.coders.claude_options import DISABLED_BUILTINS, ToolGate, build_options, install_skills
from agentic_ds.errors import ConfigError

TOOL_IDS = ["mcp__agentic_ds__run_python", "mcp__agentic_ds__list_files"]


def options_for(run_dir: Path, **overrides):
    arguments = dict(
        run_dir=run_dir, model="claude-sonnet-4-5", mcp_server={"type": "sdk", "name": "agentic_ds", "instance": None},
        tool_ids=TOOL_IDS, skill_names=["eda"], max_turns=7,
    )
    arguments.update(overrides)
    return build_options(**arguments)


def test_options_isolate_the_cli_in_the_run_directory(tmp_path):
    options = options_for(tmp_path)

    assert options.cwd == str(tmp_path)
    assert options.setting_sources == []          # no ~/.claude settings, hooks or CLAUDE.md
    assert options.strict_mcp_config is True      # no user or project MCP servers
    assert list(options.mcp_servers) == ["agentic_ds"]
    assert options.model == "claude-sonnet-4-5" and options.max_turns == 7
    assert options.verbatim_prompts is True        # no `@/path` expansion of data-derived prompt text
    assert options.system_prompt["preset"] == "claude_code"
    assert "mcp__agentic_ds__run_python" in options.system_prompt["append"]


def test_permissions_never_bypass_and_only_read_only_builtins_remain(tmp_path):
    options = options_for(tmp_path)

    assert options.permission_mode == "default"
    assert options.permission_mode != "bypassPermissions"
    assert options.tools == ["Read", "Glob", "Grep", "Skill"]
    assert {"Bash", "Write", "Edit", "WebFetch", "WebSearch"} <= set(options.disallowed_tools)
    assert not set(options.tools) & set(DISABLED_BUILTINS)
    # The allowlist lives in the gate: an allowed_tools entry would skip it.
    assert options.allowed_tools == []
    assert isinstance(options.can_use_tool, ToolGate)
    assert options.can_use_tool.allowed == frozenset(TOOL_IDS)


async def test_gate_allows_exactly_our_tools_and_records_denials():
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    gate = ToolGate(allowed=frozenset(TOOL_IDS))
    assert isinstance(await gate("mcp__agentic_ds__run_python", {"code": "1"}, None), PermissionResultAllow)
    denied = await gate("mcp__other__exfiltrate", {"url": "x"}, None)
    outside = await gate("Read", {"file_path": "/root/.ssh/id_rsa"}, None)

    assert isinstance(denied, PermissionResultDeny) and isinstance(outside, PermissionResultDeny)
    assert "not available" in denied.message and "mcp__agentic_ds__list_files" in denied.message
    assert "limited to the run directory" in outside.message
    other_skill = await gate("Skill", {"skill": "deep-research"}, None)
    assert "agentic-ds:<name> skills" in other_skill.message
    assert [name for name, _ in gate.denied] == ["mcp__other__exfiltrate", "Read", "Skill"]


def test_skills_are_enabled_by_plugin_name_only_when_installed(tmp_path):
    skills = tmp_path / "skills"
    (skills / "eda").mkdir(parents=True)
    (skills / "eda" / "SKILL.md").write_text("---\nname: eda\ndescription: explore\n---\n")
    run = tmp_path / "run"
    run.mkdir()

    assert options_for(run).plugins == []          # nothing installed yet: no plugin to point at
    assert install_skills(skills, run) == ["eda"]
    options = options_for(run)
    assert options.plugins == [{"type": "local", "path": str(run / ".claude")}]
    assert options.skills == ["agentic-ds:eda"]
    manifest = json.loads((run / ".claude" / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "agentic-ds"


def test_install_skills_replaces_a_stale_copy_and_skips_hidden_files(tmp_path):
    skills = tmp_path / "skills"
    (skills / "eda").mkdir(parents=True)
    (skills / "eda" / "SKILL.md").write_text("---\nname: eda\n---\nnew\n")
    (skills / "eda" / ".DS_Store").write_text("x")
    (skills / "README.md").write_text("not a skill folder")
    run = tmp_path / "run"
    (run / ".claude" / "skills" / "removed-skill").mkdir(parents=True)

    assert install_skills(skills, run) == ["eda"]
    target = run / ".claude" / "skills"
    assert sorted(p.name for p in target.iterdir()) == ["eda"]
    assert not (target / "eda" / ".DS_Store").exists()
    assert (target / "eda" / "SKILL.md").read_text().endswith("new\n")


def test_cli_environment_adds_no_credentials_and_keeps_telemetry_off(tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    options = options_for(tmp_path)

    # The key reaches the CLI by inheritance (the SDK merges env over ours), never copied into options.
    assert "sk-ant-secret" not in json.dumps(options.env)
    assert options.env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"


@pytest.mark.parametrize(
    ("spec", "model"),
    [("claude-code", None), ("claude-code:claude-sonnet-4-5", "claude-sonnet-4-5"), ("claude-code:opus", "opus")],
)
def test_model_strings(spec, model):
    assert is_claude_code(spec)
    assert claude_model(spec) == model


@pytest.mark.parametrize("spec", ["claude-code:", "anthropic/claude-sonnet-4-5", "claude-codex"])
def test_bad_model_strings_are_config_errors(spec):
    with pytest.raises(ConfigError) as caught:
        claude_model(spec)
    assert caught.value.hint


def test_usage_counts_cached_prompt_tokens_and_picks_the_working_model():
    result = SimpleNamespace(
        usage={"input_tokens": 40, "cache_read_input_tokens": 9000, "cache_creation_input_tokens": 500,
               "output_tokens": 700},
        model_usage={
            "claude-haiku-4-5": {"inputTokens": 30, "outputTokens": 10, "costUSD": 0.0001},
            "claude-sonnet-4-5": {"inputTokens": 10, "outputTokens": 690, "cacheReadInputTokens": 9000,
                                  "cacheCreationInputTokens": 500, "costUSD": 0.0311},
        },
        total_cost_usd=0.0312, num_turns=5, duration_ms=8000, session_id="s1",
    )
    usage = TurnUsage.from_result(result, fallback_model=None)

    assert usage.model == "claude-sonnet-4-5"
    assert (usage.input_tokens, usage.uncached_input_tokens, usage.output_tokens) == (9540, 40, 700)
    assert usage.usage_metadata().prompt_token_count == 9540
    assert usage.usage_metadata().cached_content_token_count == 9000
    meta = usage.custom_metadata()["claude_code"]
    assert meta["cost_usd"] == 0.0312 and meta["num_turns"] == 5
    assert meta["models"]["claude-haiku-4-5"]["cost_usd"] == 0.0001


def test_error_results_get_an_actionable_hint():
    max_turns = SimpleNamespace(errors=["Reached maximum number of turns (7)"], result=None,
                                subtype="error_max_turns", api_error_status=None)
    assert "coder_tool_calls" in describe_error_result(max_turns)
    unauthorized = SimpleNamespace(errors=[], result="Invalid API key", subtype="success", api_error_status=401)
    assert "ANTHROPIC_API_KEY" in describe_error_result(unauthorized)


def test_cap_text_keeps_head_and_tail():
    text = "A" * 600 + "B" * 400
    capped = cap_text(text, 100)
    assert capped.startswith("A" * 75) and capped.endswith("B" * 25)
    assert "900 characters cut" in capped
    assert cap_text("short", 100) == "short"


def test_the_claude_coder_gets_the_runs_call_policy_in_the_clis_terms(tmp_path):
    """Claude Code retries API errors itself: the run's calls.retries / calls.timeout_s become its settings."""
    from agentic_ds.config.models import ModelChoice, RoleModels
    from agentic_ds.config.settings import ROLES, Settings
    from agentic_ds.testing.harness import make_workspace
    from agentic_ds.workflow.assembly import _claude_coder_factory
    from agentic_ds.workflow.runner import RunRequest

    settings = Settings(calls={"timeout_s": 42, "retries": 7})
    choices = {
        r: ModelChoice(r, "claude-code" if r == "coder" else "offline", "claude-code" if r == "coder" else "offline")
        for r in ROLES
    }
    request = RunRequest(task="t", mode="simple", workspace=make_workspace(tmp_path, []), settings=settings,
                         models=RoleModels(choices, "test"))
    coder = _claude_coder_factory(choices["coder"], request.workspace, [], settings)(
        name="coding_agent", context_builder=lambda state: {}, template="Analyse the data.")
    assert isinstance(coder, ClaudeCodeCoder)
    assert coder.cli_env == {"CLAUDE_CODE_MAX_RETRIES": "7", "API_TIMEOUT_MS": "42000"}
    options = options_for(tmp_path, env=coder.cli_env)
    assert options.env["CLAUDE_CODE_MAX_RETRIES"] == "7" and options.env["API_TIMEOUT_MS"] == "42000"
