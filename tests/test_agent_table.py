"""Each mode builds the tree the design draws (`tests/tree_shapes.py`, written out by hand), every built agent is
what the table of agents says it is, every prompt, model role, loop setting and offline answer the table names
exists, and adding an agent is one table entry, its prompt, its builder and its line in the tree."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from google.adk.agents import LlmAgent

from agentic_ds import agent_table
from agentic_ds.agent_table import AGENTS, MODES, Agent, Shows, Tools
from agentic_ds.config.settings import ROLES, Settings
from agentic_ds.offline.model import OfflineLlm
from agentic_ds.testing.harness import make_request
from agentic_ds.workflow import tree
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.assembly import assemble
from agentic_ds.workflow.prompting import prompts_dir
from agentic_ds.workflow.runner import execute_run
from agentic_ds.workflow.structured import StructuredAgent
from tests.tree_shapes import SHAPES, parents_of, shape_of

CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"
LLM_ROLES = {entry.role for entry in AGENTS.values() if entry.model_role}


@pytest.fixture
def sales(tmp_path) -> Path:
    path = tmp_path / "sales.csv"
    path.write_text(CSV)
    return path


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_builds_the_tree_the_design_draws(tmp_path, sales, mode):
    assembled = assemble(make_request(tmp_path, "Mean price by region", [sales], mode=mode), {})
    try:
        root = assembled.app.root_agent
        assert shape_of(root) == SHAPES[mode]
        assert tree.parents(root) == parents_of(SHAPES[mode])   # what the live progress panel draws
        services = assembled.services
        for built_agent in tree.walk(root):
            entry = AGENTS[built_agent.name]
            if entry.model_role is None:
                assert not isinstance(built_agent, LlmAgent), built_agent.name
                continue
            assert isinstance(built_agent, LlmAgent) and built_agent.output_key == entry.output_key
            assert isinstance(built_agent, StructuredAgent) == (entry.output_schema is not None)
            assert built_agent.output_schema is entry.output_schema
            assert built_agent.model is services.model(built_agent.name)
            assert built_agent.tools == services.tools(entry.tools), built_agent.name
            assert built_agent.instruction is not None
    finally:
        assembled.toolset.close()


def test_every_agent_of_the_table_is_in_a_tree_and_every_loop_is_a_loop():
    names = {name for shape in SHAPES.values() for name in [shape[0], *parents_of(shape)]}
    assert names == set(AGENTS)
    loops = {name for shape in SHAPES.values() for name, kind in _kinds(shape) if kind == "NonEscalatingLoopAgent"}
    assert loops == {name for name, entry in AGENTS.items() if entry.loop is not None}


def _kinds(shape):
    name, kind, below = shape
    return [(name, kind), *(pair for child in below for pair in _kinds(child))]


def test_every_prompt_the_table_names_exists_and_every_prompt_is_used():
    shipped = {path.name.removesuffix(".md.j2") for path in prompts_dir().glob("*.md.j2")}
    assert agent_table.prompts() <= shipped, agent_table.prompts() - shipped
    assert shipped <= agent_table.prompts(), f"prompts no agent uses: {shipped - agent_table.prompts()}"


def test_model_roles_loop_settings_and_placements_are_real():
    loops = Settings().loops
    for entry in AGENTS.values():
        assert entry.model_role is None or entry.model_role in ROLES, entry.name
        assert (entry.model_role is None) == (entry.prompt is None), entry.name
        if entry.loop is not None:
            assert isinstance(getattr(loops, entry.loop.iterations), int), entry.loop.iterations


def test_the_offline_model_answers_every_role():
    assert set(OfflineLlm().handlers()) == LLM_ROLES


def test_progress_and_event_log_read_the_table():
    assert agent_table.status_authors() == {name for name, e in AGENTS.items() if e.shows is Shows.STATUS}


@pytest.mark.slow
@pytest.mark.sandbox
async def test_adding_an_agent_is_one_table_entry_its_prompt_its_builder_and_its_line(tmp_path, sales, monkeypatch):
    prompts = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), prompts)
    (prompts / "second_opinion.md.j2").write_text("## Task\n{{ task }}\n\n## Rules\nSay whether the result holds.\n")
    monkeypatch.setenv("AGENTIC_DS_PROMPTS_DIR", str(prompts))
    added = Agent("second_opinion", "second_opinion", shows=Shows.TEXT, model_role="reviewer", prompt="second_opinion",
                  tools=Tools.READ_ONLY,
                  output_key="second_opinion")
    table: dict[str, Agent] = {}
    for name, entry in AGENTS.items():
        table[name] = entry
        if name == "code_reviewer":
            table[added.name] = added
    monkeypatch.setattr(agent_table, "AGENTS", table)
    loop_agent = tree.loop_agent

    def with_the_line(services, name, sub_agents, **kwargs):   # the line in `orchestrated_tree`, after the reviewer
        if name == "implementation_loop":
            coder, reviewer, *rest = sub_agents
            second = llm_agent(services, added.name, "orchestrated", lambda state: {"task": state.get("task", "")})
            sub_agents = [coder, reviewer, second, *rest]
        return loop_agent(services, name, sub_agents, **kwargs)

    monkeypatch.setattr(tree, "loop_agent", with_the_line)
    shown: list[dict[str, str]] = []

    seen: list[dict] = []
    request = make_request(tmp_path, "Mean price by region", [sales])
    outcome = await execute_run(request, on_event=seen.append, on_tree=shown.append)

    assert outcome.status in ("completed", "completed_with_warnings"), outcome.reason
    assert shown[0]["second_opinion"] == "implementation_loop"   # the live panel draws it in its place
    record = json.loads(outcome.workspace.file("run.json").read_text())
    assert record["agents"]["second_opinion"]["llm_calls"] >= 1
    spoke = [e for e in seen if e.get("author") == "second_opinion"]
    assert spoke and {e["kind"] for e in spoke} <= {"text", "tool_call", "tool_result", "state"}
    order = [e["author"] for e in seen if e.get("author") in ("code_reviewer", "second_opinion", "impl_confirmation")]
    first = order.index("second_opinion")
    assert order[first - 1] == "code_reviewer" and "impl_confirmation" in order[first:]
