"""The table of agents is the one source: the built trees are the table, every prompt, model role, loop setting
and offline answer it names exists, and adding an agent is one entry, its prompt and its builder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from google.adk.agents import BaseAgent, LlmAgent

from agentic_ds import agent_table
from agentic_ds.agent_table import AGENTS, MODES, Agent, Shows, Tools, children, parents
from agentic_ds.config.settings import ROLES, Settings
from agentic_ds.offline.model import OfflineLlm
from agentic_ds.testing.harness import make_request, run_scripted
from agentic_ds.workflow import tree
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.assembly import assemble
from agentic_ds.workflow.prompting import prompts_dir
from agentic_ds.workflow.structured import StructuredAgent

CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"
LLM_ROLES = {entry.role for entry in AGENTS.values() if entry.model_role}


@pytest.fixture
def sales(tmp_path) -> Path:
    path = tmp_path / "sales.csv"
    path.write_text(CSV)
    return path


def _walk(agent: BaseAgent, parent: str | None = None) -> list[tuple[BaseAgent, str | None]]:
    return [(agent, parent), *(pair for sub in agent.sub_agents for pair in _walk(sub, agent.name))]


@pytest.mark.parametrize("mode", MODES)
def test_each_built_tree_is_the_table(tmp_path, sales, mode):
    assembled = assemble(make_request(tmp_path, "Mean price by region", [sales], mode=mode), {})
    try:
        built = _walk(assembled.app.root_agent)
        services = assembled.services
        assert {(a.name, parent) for a, parent in built} == {
            (name, entry.parent[mode]) for name, entry in AGENTS.items() if mode in entry.parent
        }
        for built_agent, _ in built:
            assert [sub.name for sub in built_agent.sub_agents] == children(built_agent.name, mode)
            entry = AGENTS[built_agent.name]
            if entry.model_role is None:
                assert not isinstance(built_agent, LlmAgent), built_agent.name
                continue
            assert isinstance(built_agent, LlmAgent) and built_agent.output_key == entry.output_key
            assert isinstance(built_agent, StructuredAgent) == (entry.output_schema is not None)
            assert built_agent.output_schema is entry.output_schema
            assert built_agent.model is services.model(built_agent.name)
            assert built_agent.tools == services.tools(entry.tools), built_agent.name
    finally:
        assembled.toolset.close()


def test_every_agent_has_one_builder_and_containers_are_the_agents_with_children():
    assert set(tree.LEAVES) | set(tree.CONTAINERS) == set(AGENTS)
    assert not set(tree.LEAVES) & set(tree.CONTAINERS)
    with_children = {name for name in AGENTS for mode in MODES if children(name, mode)}
    assert set(tree.CONTAINERS) == with_children


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
        for mode, parent in entry.parent.items():
            assert parent is None or mode in AGENTS[parent].parent, f"{entry.name}: {parent} is not in {mode}"


def test_the_offline_model_answers_every_role():
    assert set(OfflineLlm().handlers()) == LLM_ROLES


def test_progress_and_event_log_read_the_table():
    assert parents("simple")["coding_agent"] == "simple_loop"
    assert parents("orchestrated")["coding_agent"] == "implementation_loop"
    assert agent_table.status_authors() == {name for name, e in AGENTS.items() if e.shows is Shows.STATUS}


@pytest.mark.slow
@pytest.mark.sandbox
async def test_adding_an_agent_is_one_table_entry_its_prompt_and_its_builder(tmp_path, sales, monkeypatch):
    prompts = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), prompts)
    (prompts / "second_opinion.md.j2").write_text("## Task\n{{ task }}\n\n## Rules\nSay whether the result holds.\n")
    monkeypatch.setenv("AGENTIC_DS_PROMPTS_DIR", str(prompts))
    added = Agent("second_opinion", "second_opinion", parent={"orchestrated": "implementation_loop"},
                  shows=Shows.TEXT, model_role="reviewer", prompt="second_opinion", tools=Tools.READ_ONLY,
                  output_key="second_opinion")
    table: dict[str, Agent] = {}
    for name, entry in AGENTS.items():
        table[name] = entry
        if name == "code_reviewer":
            table[added.name] = added
    monkeypatch.setattr(agent_table, "AGENTS", table)
    monkeypatch.setitem(tree.LEAVES, added.name, lambda services, mode: llm_agent(
        services, added.name, mode, lambda state: {"task": state.get("task", "")}))

    seen: list[dict] = []
    outcome, _ = await run_scripted(tmp_path, "Mean price by region", [sales], scripts={}, on_event=seen.append)

    assert outcome.status in ("completed", "completed_with_warnings"), outcome.reason
    assert parents("orchestrated")["second_opinion"] == "implementation_loop"
    record = json.loads(outcome.workspace.file("run.json").read_text())
    assert record["agents"]["second_opinion"]["llm_calls"] >= 1
    spoke = [e for e in seen if e.get("author") == "second_opinion"]
    assert spoke and {e["kind"] for e in spoke} <= {"text", "tool_call", "tool_result", "state"}
    order = [e["author"] for e in seen if e.get("author") in ("code_reviewer", "second_opinion", "impl_confirmation")]
    first = order.index("second_opinion")
    assert order[first - 1] == "code_reviewer" and "impl_confirmation" in order[first:]
