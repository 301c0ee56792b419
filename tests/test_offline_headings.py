"""The offline model splits each prompt by the headings the prompt templates really write (no copy to drift)."""

from __future__ import annotations

import re

import jinja2
from jinja2 import meta

from agentic_ds import agent_table
from agentic_ds.agent_table import AGENTS
from agentic_ds.offline.prompt_headings import agent_headings, agent_prompts, template_headings
from agentic_ds.offline.request import split_sections
from agentic_ds.workflow.prompting import prompts_dir, render, template_names


class Value(str):
    """A stand-in for any context value: a string whose every attribute is another stand-in."""

    def __getattr__(self, name: str) -> Value:
        return Value(f"<{name}>")


def rendered(name: str) -> str:
    source = (prompts_dir() / f"{name}.md.j2").read_text()
    variables = meta.find_undeclared_variables(jinja2.Environment().parse(source))
    return render(name, {variable: Value(f"<{variable}>") for variable in variables})


def test_the_prompts_an_agent_is_read_with_are_the_ones_the_table_of_agents_gives_it():
    claimed = {name for agent in AGENTS for name in agent_prompts(agent)}
    assert {name.removesuffix(".md.j2") for name in template_names()} == claimed == agent_table.prompts()
    assert agent_prompts("coding_agent") == ("coding_agent", "simple_coder")
    assert agent_prompts("impl_confirmation") == ("confirmation",)
    assert agent_prompts("stage_orchestrator") == () and agent_headings("events_compactor") is None


def test_a_rendered_prompt_splits_into_exactly_the_headings_its_template_writes():
    for agent in AGENTS:
        for name in agent_prompts(agent):
            text = rendered(name)
            written = {m.group(1).strip().lower() for m in re.finditer(r"^## (.+)$", text, re.M)}
            sections = split_sections(text, agent_headings(agent))
            assert set(sections) == template_headings(name), (agent, name)
            assert template_headings(name) <= written, (agent, name)


def test_a_heading_inside_a_value_stays_in_its_section():
    text = rendered("plan_reviewer").replace("<plan>", "## Stages\n### Stage 1: Audit\n## Success criteria\n- done")
    sections = split_sections(text, agent_headings("plan_reviewer"))
    assert "## Stages" in sections["plan"] and "stages" not in sections


def test_a_renamed_section_in_a_prompt_changes_what_the_offline_model_reads(tmp_path, monkeypatch):
    for path in prompts_dir().glob("*.j2"):
        (tmp_path / path.name).write_text(
            path.read_text().replace('m.section("Coder summary"', 'm.section("Coder report"')
        )
    assert "coder summary" in agent_headings("code_reviewer")
    monkeypatch.setenv("AGENTIC_DS_PROMPTS_DIR", str(tmp_path))
    assert "coder report" in agent_headings("code_reviewer") and "coder summary" not in agent_headings("code_reviewer")
