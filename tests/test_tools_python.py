"""run_python and the tool sets, driven through a real ADK agent with a scripted model."""

from __future__ import annotations

from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.genai import types

from agentic_ds import state
from agentic_ds.config.settings import SandboxSettings
from agentic_ds.sandbox import CodeRunner
from agentic_ds.testing.scripted import ScriptedLlm, call, text
from agentic_ds.tools.toolset import build_tools
from agentic_ds.workspace import Workspace

pytestmark = pytest.mark.sandbox


def list_skills(query: str = "") -> dict:
    """List skills (stand-in for the skills helper's tool)."""
    return {"skills": []}


@pytest.fixture
def ws(tmp_path) -> Workspace:
    (tmp_path / "run" / "inputs").mkdir(parents=True)
    (tmp_path / "run" / "inputs" / "sales.csv").write_text("region,price\nnorth,10\nsouth,30\n")
    return Workspace(tmp_path / "run")


def test_tools_sets_hold_the_fixed_names(ws):
    tools = build_tools(ws, CodeRunner(ws, SandboxSettings()), output_cap=2000, skills_tools=[list_skills])
    read_only = ["read_file", "list_files", "sql_query", "profile_data", "list_skills"]
    assert [t.name for t in tools.read_only] == read_only
    # the coder's set starts with the read-only set, in its order: the declarations a provider sees first are shared
    assert [t.name for t in tools.coder] == [*read_only, "run_python", "write_file"]
    assert [t.name for t in tools.files] == read_only[:2]


async def drive_coder(model: ScriptedLlm, tools: list, runner: CodeRunner) -> tuple[InMemoryRunner, Any]:
    """One turn of a `coding_agent` with `tools`, driven by `model` through ADK; the runner closed after."""
    agent = LlmAgent(name="coding_agent", model=model, instruction="code", tools=tools)
    adk = InMemoryRunner(agent=agent, app_name="t")
    session = await adk.session_service.create_session(app_name="t", user_id="u")
    try:
        async for _ in adk.run_async(
            user_id="u", session_id=session.id, new_message=types.Content(role="user", parts=[types.Part(text="go")])
        ):
            pass
    finally:
        await runner.close()
    return adk, session


async def test_tools_run_python_through_an_adk_agent_records_the_execution(ws):
    runner = CodeRunner(ws, SandboxSettings())
    tools = build_tools(ws, runner, output_cap=2000)
    model = ScriptedLlm(
        name="coder",
        script=[
            call(
                "run_python", code="import pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\nprint(df.price.mean())"
            ),
            call(
                "run_python",
                code="import os\nos.makedirs('outputs', exist_ok=True)\ndf.to_csv('outputs/x.csv')\ndf.nope",
            ),
            text("done"),
        ],
    )
    adk, session = await drive_coder(model, tools.coder, runner)
    model.assert_complete()
    assert "20.0" in model.request_text(1)    # the first cell's output reached the model
    second = model.request_text(2)
    assert "AttributeError" in second and "outputs/x.csv" in second
    saved = await adk.session_service.get_session(app_name="t", user_id="u", session_id=session.id)
    summary = state.ExecutionSummary.model_validate(saved.state[state.LAST_EXECUTION])
    assert not summary.ok and summary.cells == 2 and summary.files == ["outputs/x.csv"]
    assert summary.error.startswith("AttributeError: 'DataFrame' object has no attribute 'nope'")
    assert (ws.root / "stages" / "01-analysis" / "cell_002.py").exists()


async def test_code_rewrites_a_file_the_write_tool_put_in_outputs(ws):
    runner = CodeRunner(ws, SandboxSettings())
    tools = build_tools(ws, runner, output_cap=2000)
    model = ScriptedLlm(name="coder", script=[
        call("write_file", path="outputs/findings.md", content="# draft\n"),
        call("run_python", code="open('outputs/findings.md', 'w').write('# from code\\n')\nprint('rewritten')"),
        text("done"),
    ])
    await drive_coder(model, tools.coder, runner)
    assert "not evidence" in model.request_text(1)          # the tool said what its file is worth
    assert "rewritten" in model.request_text(2) and "PermissionError" not in model.request_text(2)
    assert (ws.root / "outputs" / "findings.md").read_text() == "# from code\n"
