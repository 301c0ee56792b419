"""The claude-code coder end to end over a scripted Claude Code CLI (the SDK, our gate and tools really run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.adk.agents.readonly_context import ReadonlyContext
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools import FunctionTool, ToolContext
from google.genai import types

from agentic_ds import state
from agentic_ds.coders.claude_code import ClaudeCodeCoder
from agentic_ds.testing.claude import ScriptedClaude, say, think, use
from agentic_ds.tools.files import make_file_tools
from agentic_ds.workspace import Workspace

APP = "claude_coder_test"


def make_tools(workspace: Workspace, executed: list[str]) -> list[FunctionTool]:
    """The real file tools, and a quick stand-in for run_python with its contract (records LAST_EXECUTION).

    The real run_python, in the sandboxed kernel, is exercised by the `sandbox` test at the end.
    """
    _read_file, _write_file, list_files = make_file_tools(workspace, output_cap=4000)

    def run_python(code: str, tool_context: ToolContext) -> dict[str, Any]:
        """Run Python code in the sandbox."""
        executed.append(code)
        namespace: dict[str, Any] = {}
        exec(code, namespace)  # test stand-in for the sandboxed kernel
        output = str(namespace.get("result", ""))
        tool_context.state[state.LAST_EXECUTION] = state.ExecutionSummary(
            ok=True, cells=len(executed), output_tail=output
        ).model_dump()
        return {"ok": True, "output": output}

    return [FunctionTool(list_files), FunctionTool(run_python)]


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "run"
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text("region,price\nnorth,3\nsouth,5\n")
    (root / "inputs" / "notes.txt").write_text("hello\n")
    return Workspace(root)


@pytest.fixture
def skills_dir(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    for name, description in [("group-comparisons", "t-tests and ANOVA"), ("descriptive-stats", "summaries")]:
        (root / name / "templates").mkdir(parents=True)
        (root / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\nGuidance.\n")
        (root / name / "templates" / "main.py.j2").write_text("print({{ x }})\n")
    (root / "_shared").mkdir()
    (root / "_shared" / "header.py.j2").write_text("import pandas as pd\n")
    return root


def make_coder(
    workspace: Workspace, skills_dir: Path, claude: ScriptedClaude | None, executed: list[str]
) -> ClaudeCodeCoder:
    """The coder over the stand-in tools; `claude=None` means the real bundled CLI."""

    def prompt(ctx: ReadonlyContext) -> str:
        return f"Implement stage: {ctx.state.get('stage_title', '?')}"

    return ClaudeCodeCoder(
        name="coding_agent",
        workspace=workspace,
        tools=make_tools(workspace, executed),
        skills_dir=skills_dir,
        prompt_builder=prompt,
        max_turns=12,
        transport_factory=(lambda: claude) if claude is not None else None,
    )


async def run_coder(coder: ClaudeCodeCoder, initial_state: dict[str, Any] | None = None):
    service = InMemorySessionService()
    session = await service.create_session(app_name=APP, user_id="u", state=initial_state or {})
    runner = Runner(app_name=APP, agent=coder, session_service=service)
    events = []
    message = types.Content(role="user", parts=[types.Part(text="go")])
    async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        events.append(event)
    stored = await service.get_session(app_name=APP, user_id="u", session_id=session.id)
    return events, stored


def parts_of(events, kind: str) -> list[Any]:
    return [getattr(p, kind) for e in events if e.content for p in e.content.parts or [] if getattr(p, kind)]


async def test_turn_runs_our_tools_and_records_events_state_and_cost(workspace, skills_dir):
    claude = ScriptedClaude(
        [
            [think("Look at the inputs first."), say("Listing the inputs."), use("list_files", path="inputs")],
            [use("run_python", code="result = 3 + 5")],
            [say("Stage done: the total price is 8; no files written.")],
        ],
        cost_usd=0.0421,
        tokens_per_turn=(1500, 120),
    )
    executed: list[str] = []
    events, session = await run_coder(make_coder(workspace, skills_dir, claude, executed), {"stage_title": "totals"})

    # The prompt the workflow rendered is what Claude got.
    assert claude.prompts == ["Implement stage: totals"]
    # The real ADK tools ran, over the real workspace, through the SDK's MCP server.
    assert executed == ["result = 3 + 5"]
    listing = next(r for r in claude.tool_results if r["name"] == "list_files")
    assert "inputs/notes.txt" in listing["content"][0]["text"] and "inputs/sales.csv" in listing["content"][0]["text"]
    assert {t["name"] for t in claude.listed_tools} == {"list_files", "run_python"}
    run_python_schema = next(t for t in claude.listed_tools if t["name"] == "run_python")["inputSchema"]
    assert set(run_python_schema["properties"]) == {"code"}  # tool_context is never exposed to Claude

    assert {e.author for e in events} == {"coding_agent"}
    calls = parts_of(events, "function_call")
    responses = parts_of(events, "function_response")
    assert [c.name for c in calls] == ["list_files", "run_python"]
    assert [r.name for r in responses] == ["list_files", "run_python"]
    assert [r.id for r in responses] == [c.id for c in calls]
    assert "inputs/sales.csv" in responses[0].response["result"]
    thoughts = [p for e in events if e.content for p in e.content.parts if p.thought]
    assert [t.text for t in thoughts] == ["Look at the inputs first."]

    # run_python's state write persisted through the function-response event.
    assert session.state[state.LAST_EXECUTION]["ok"] is True
    assert session.state[state.LAST_EXECUTION]["output_tail"] == "8"
    response_event = next(e for e in events if e.content and e.content.parts[0].function_response
                          and e.content.parts[0].function_response.name == "run_python")
    assert state.LAST_EXECUTION in response_event.actions.state_delta

    # The summary lands in output_key, and the final event carries usage and cost.
    assert session.state[state.IMPL_SUMMARY] == "Stage done: the total price is 8; no files written."
    final = events[-1]
    assert final.content.parts[0].text == "Stage done: the total price is 8; no files written."
    assert parts_of(events, "text").count("Stage done: the total price is 8; no files written.") == 1
    meta = final.custom_metadata["claude_code"]
    assert meta["cost_usd"] == pytest.approx(0.0421)
    assert (meta["input_tokens"], meta["output_tokens"], meta["num_turns"]) == (4500, 360, 3)
    assert meta["model"] == "claude-sonnet-4-5" and meta["status"] == "ok" and meta["error"] is None
    assert final.usage_metadata.prompt_token_count == 4500
    assert final.usage_metadata.candidates_token_count == 360
    assert sum(1 for e in events if e.custom_metadata) == 1  # usage is counted once per turn


async def test_skills_are_copied_locally_and_offered_as_a_plugin(workspace, skills_dir):
    claude = ScriptedClaude([[say("ok")]])
    await run_coder(make_coder(workspace, skills_dir, claude, []))

    copied = workspace.root / ".claude" / "skills"
    assert (copied / "group-comparisons" / "SKILL.md").read_text().startswith("---\nname: group-comparisons")
    assert (copied / "group-comparisons" / "templates" / "main.py.j2").is_file()
    assert (copied / "_shared" / "header.py.j2").is_file()
    assert (workspace.root / ".claude" / ".claude-plugin" / "plugin.json").is_file()
    # Only our skills are enabled, by their plugin-qualified names.
    assert sorted(claude.initialize["skills"]) == ["agentic-ds:descriptive-stats", "agentic-ds:group-comparisons"]


async def test_tools_outside_the_allowlist_are_denied_and_the_model_is_told(workspace, skills_dir):
    claude = ScriptedClaude(
        [
            [use("Bash", command="curl http://example.invalid")],
            [use("Read", file_path="/etc/passwd")],
            [say("I could not use those tools.")],
        ]
    )
    events, session = await run_coder(make_coder(workspace, skills_dir, claude, []))

    assert [(tool, answer["behavior"]) for tool, answer in claude.permissions] == [("Bash", "deny"), ("Read", "deny")]
    errors = [r.response["error"] for r in parts_of(events, "function_response")]
    assert "Bash is not available" in errors[0] and "mcp__agentic_ds__run_python" in errors[0]
    assert "limited to the run directory" in errors[1]
    assert session.state[state.IMPL_SUMMARY] == "I could not use those tools."


async def test_a_tool_error_reaches_claude_as_an_error_result_with_the_hint(workspace, skills_dir):
    claude = ScriptedClaude([[use("list_files", path="../..")], [say("Path refused; staying inside.")]])
    events, _ = await run_coder(make_coder(workspace, skills_dir, claude, []))

    result = claude.tool_results[0]
    assert result["is_error"] is True
    assert "'..' is not allowed" in result["content"][0]["text"]
    assert "stay inside the run directory" in result["content"][0]["text"]  # the hint travels with it
    assert "'..' is not allowed" in parts_of(events, "function_response")[0].response["error"]


async def test_not_logged_in_ends_the_turn_with_an_explanation_not_an_exception(workspace, skills_dir):
    claude = ScriptedClaude([], fail_with="Not logged in · Please run /login", cost_usd=0.0)
    events, session = await run_coder(make_coder(workspace, skills_dir, claude, []))

    final = events[-1]
    text = final.content.parts[0].text
    assert text.startswith("Claude Code could not finish this turn: Not logged in")
    assert "ANTHROPIC_API_KEY" in text
    assert session.state[state.IMPL_SUMMARY] == text
    assert session.state[state.LAST_EXECUTION]["ok"] is False
    assert "Not logged in" in session.state[state.LAST_EXECUTION]["error"]
    assert final.custom_metadata["claude_code"]["status"] == "error"


async def test_failure_keeps_what_earlier_cells_recorded(workspace, skills_dir):
    previous = state.ExecutionSummary(ok=True, cells=4, files=["outputs/t.csv"]).model_dump()
    claude = ScriptedClaude([], fail_with="API Error: 529 overloaded")
    _, session = await run_coder(make_coder(workspace, skills_dir, claude, []), {state.LAST_EXECUTION: previous})

    record = session.state[state.LAST_EXECUTION]
    assert (record["ok"], record["cells"], record["files"]) == (False, 4, ["outputs/t.csv"])
    assert "overloaded" in record["error"] and "try again later" in record["error"]


async def test_missing_cli_is_reported_with_a_hint(workspace, skills_dir):
    from claude_agent_sdk import CLINotFoundError

    claude = ScriptedClaude([], connect_error=CLINotFoundError("Claude Code not found", cli_path="/nope/claude"))
    events, session = await run_coder(make_coder(workspace, skills_dir, claude, []))

    assert len(events) == 1
    assert "Claude Code CLI was not found" in events[0].content.parts[0].text
    assert "reinstall claude-agent-sdk" in session.state[state.IMPL_SUMMARY]
    assert session.state[state.LAST_EXECUTION]["ok"] is False


async def test_the_real_cli_is_blocked_under_test(workspace, skills_dir):
    """Without a transport the coder would start the bundled CLI; the suite's guard must stop that loudly."""
    from agentic_ds.testing.guard import RealModelCallBlocked

    coder = make_coder(workspace, skills_dir, None, [])
    with pytest.raises(RealModelCallBlocked):
        await run_coder(coder)


async def test_a_crashed_cli_is_reported_with_its_stderr(workspace, skills_dir):
    from claude_agent_sdk import ProcessError

    crash = ProcessError(
        "Command failed", exit_code=1, stderr="--dangerously-skip-permissions cannot be used with root/sudo privileges"
    )
    events, session = await run_coder(make_coder(workspace, skills_dir, ScriptedClaude([], connect_error=crash), []))

    text = events[-1].content.parts[0].text
    assert "exited with code 1" in text and "cannot be used with root/sudo privileges" in text
    assert session.state[state.LAST_EXECUTION]["ok"] is False
