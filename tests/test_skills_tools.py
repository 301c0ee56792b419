"""The ADK tools over the skills library: list_skills and load_skill."""

from __future__ import annotations

import pytest
from google.adk.models import LlmRequest
from google.adk.tools import FunctionTool

from agentic_ds.skills import SkillLibrary, default_skills_dir
from agentic_ds.tools.skills import build_skill_tools


@pytest.fixture(scope="module")
def tools() -> dict[str, FunctionTool]:
    return {tool.name: tool for tool in build_skill_tools(SkillLibrary.load(default_skills_dir()))}


def test_tools_have_the_fixed_names_and_schemas(tools):
    assert set(tools) == {"list_skills", "load_skill"}
    request = LlmRequest()
    request.append_tools([tools["load_skill"], tools["list_skills"]])
    declarations = request.config.tools[0].function_declarations
    assert declarations is not None
    load, listing = declarations
    assert load.parameters_json_schema["required"] == ["name"]
    assert "query" in listing.parameters_json_schema["properties"]


async def test_list_skills_ranks_by_query_and_lists_all_without_one(tools):
    ranked = await tools["list_skills"].run_async(args={"query": "compare revenue between regions"}, tool_context=None)
    assert ranked["skills"][0]["name"] == "group-comparisons"
    assert 1 <= len(ranked["skills"]) <= 5
    assert all(set(entry) == {"name", "description"} for entry in ranked["skills"])
    everything = await tools["list_skills"].run_async(args={}, tool_context=None)
    assert everything["count"] >= 12
    unmatched = await tools["list_skills"].run_async(args={"query": "zzzz"}, tool_context=None)
    assert "no skill matched" in unmatched["note"] and unmatched["count"] >= 12


async def test_load_skill_returns_guidance_and_templates(tools):
    skill = await tools["load_skill"].run_async(args={"name": "group-comparisons"}, tool_context=None)
    assert "Welch" in skill["body"] and "Cohen" in skill["body"]
    names = [template["name"] for template in skill["templates"]]
    assert names == ["compare_groups", "chi_square"]
    assert "value_col" in skill["templates"][0]["params"]


async def test_load_skill_unknown_name_returns_error_with_close_names(tools):
    answer = await tools["load_skill"].run_async(args={"name": "timeseries"}, tool_context=None)
    assert set(answer) == {"error", "hint"}
    assert "timeseries" in answer["error"]
    assert "time-series" in answer["hint"]
