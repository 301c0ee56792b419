"""Our ADK tools as Claude Code sees them: the in-process MCP bridge, and the real toolset in the sandbox."""

from __future__ import annotations

import json
from typing import Any

import pytest
from google.adk.agents.invocation_context import InvocationContext
from google.adk.sessions import InMemorySessionService
from google.adk.tools import FunctionTool, ToolContext

from agentic_ds import state
from agentic_ds.coders.claude_code import ClaudeCodeCoder
from agentic_ds.coders.claude_tools import ToolBridge, input_schema
from agentic_ds.errors import PathEscape
from agentic_ds.testing.claude import ScriptedClaude, say, use
from agentic_ds.workspace import Workspace
from tests.test_claude_coder_turn import parts_of, run_coder


async def invocation_context(agent: Any) -> InvocationContext:
    service = InMemorySessionService()
    session = await service.create_session(app_name="bridge", user_id="u")
    return InvocationContext(session_service=service, invocation_id="inv-1", agent=agent, session=session)


def remember(note: str, tool_context: ToolContext) -> dict[str, Any]:
    """Remember a note in state."""
    tool_context.state["note"] = note
    return {"saved": note}


def escape(path: str) -> dict[str, Any]:
    """Always refuses."""
    raise PathEscape(f"absolute paths are not allowed: {path!r}", hint="use a path relative to the run directory")


def broken() -> dict[str, Any]:
    """Has a bug."""
    raise ZeroDivisionError("division by zero")


@pytest.fixture
async def bridge() -> ToolBridge:
    from google.adk.agents import LlmAgent

    ctx = await invocation_context(LlmAgent(name="holder"))
    return ToolBridge([FunctionTool(remember), FunctionTool(escape), FunctionTool(broken)], ctx)


async def test_bridge_keeps_each_calls_state_changes_until_claimed(bridge):
    text, is_error = await bridge.call("remember", {"note": "north is larger"})

    assert (json.loads(text), is_error) == ({"saved": "north is larger"}, False)
    assert bridge.take_actions("remember", {"note": "other"}) is None
    actions = bridge.take_actions("remember", {"note": "north is larger"})
    assert actions.state_delta == {"note": "north is larger"}
    assert bridge.take_actions("remember", {"note": "north is larger"}) is None   # claimed once


async def test_bridge_turns_failures_into_error_results(bridge):
    refused, refused_error = await bridge.call("escape", {"path": "/etc/passwd"})
    crashed, crashed_error = await bridge.call("broken", {})
    unknown, unknown_error = await bridge.call("rm_rf", {})

    assert refused_error and refused.startswith("error: absolute paths are not allowed")
    assert "hint: use a path relative to the run directory" in refused
    assert crashed_error and "broken failed: ZeroDivisionError" in crashed
    assert unknown_error and "unknown tool 'rm_rf'" in unknown and "remember" in unknown
    assert len(bridge.take_all_actions()) == 2      # unclaimed calls are handed over, not lost
    assert bridge.take_all_actions() == []


def test_schemas_hide_the_tool_context_and_keep_required_arguments():
    schema = input_schema(FunctionTool(remember))
    assert schema["type"] == "object"
    assert list(schema["properties"]) == ["note"]
    assert schema.get("required") == ["note"]


@pytest.mark.sandbox
async def test_real_toolset_runs_claudes_code_in_our_sandbox(tmp_path, monkeypatch):
    from agentic_ds.config.settings import SandboxSettings
    from agentic_ds.sandbox import CodeRunner
    from agentic_ds.skills import SkillLibrary, default_skills_dir
    from agentic_ds.tools.skills import build_skill_tools
    from agentic_ds.tools.toolset import build_tools

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-must-not-leak")   # the CLI's key: invisible to executed code
    root = tmp_path / "run"
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text("region,price\nnorth,10\nsouth,30\nnorth,20\n")
    workspace = Workspace(root)
    runner = CodeRunner(workspace, SandboxSettings())
    tools = build_tools(workspace, runner, output_cap=4000, skills_tools=build_skill_tools(SkillLibrary.load()))
    claude = ScriptedClaude([
        [use("run_python", code=(
            "import os, pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\nos.makedirs('outputs', exist_ok=True)\n"
            "df.groupby('region').price.mean().to_csv('outputs/means.csv')\nprint('total', df.price.sum())"
        ))],
        [use("read_file", path="outputs/means.csv")],
        [use("run_python", code="import os\nprint('keys:', sorted(k for k in os.environ if 'ANTHROPIC' in k))")],
        [say("Mean price by region is in outputs/means.csv; total 60.")],
    ])
    coder = ClaudeCodeCoder(
        name="coding_agent", workspace=workspace, tools=tools.coder, skills_dir=default_skills_dir(),
        prompt_builder=lambda ctx: "Compute mean price by region.", max_turns=8,
        transport_factory=lambda: claude,
    )
    try:
        events, session = await run_coder(coder)
    finally:
        await runner.close()
        tools.close()

    responses = [r.response for r in parts_of(events, "function_response")]
    first = json.loads(responses[0]["result"])
    assert first["ok"] is True and "total 60" in first["output"] and "outputs/means.csv" in first["files"]
    assert "north,15.0" in json.loads(responses[1]["result"])["content"]
    keys = json.loads(responses[2]["result"])["output"]
    assert "keys: []" in keys and "sk-ant" not in keys
    assert (root / "outputs" / "means.csv").read_text().splitlines()[1:] == ["north,15.0", "south,30.0"]
    assert (root / "stages" / "01-analysis" / "cell_001.py").is_file()       # recorded like any coder's cell
    record = session.state[state.LAST_EXECUTION]
    assert record["ok"] is True and record["cells"] == 2
    assert session.state[state.IMPL_SUMMARY] == "Mean price by region is in outputs/means.csv; total 60."
    assert not any("sk-ant-must-not-leak" in p.read_text(errors="ignore") for p in root.rglob("*") if p.is_file())
