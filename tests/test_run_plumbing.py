"""The per-call plumbing of a run: one toolset with declarations built once, telemetry answers resolved once,
instructions rendered again only when their state changed."""

from __future__ import annotations

import os

import pytest
from google.adk.telemetry import TelemetryConfig
from google.adk.telemetry.context import ContentCapturingMode

from agentic_ds.adk_private import TELEMETRY_ANSWERS as ANSWERS
from agentic_ds.adk_private import DeclaredTool, ResolvedTelemetry
from agentic_ds.tools.toolset import FixedToolset
from agentic_ds.workflow import prompting


def look(path: str) -> dict:
    """Look at a path.

    Args:
        path: relative to the run directory.
    """
    return {"path": path}


def test_a_declared_tool_builds_its_declaration_once_and_matches_adks():
    tool = DeclaredTool(look)
    first = tool._get_declaration()
    assert tool._get_declaration() is first
    from google.adk.tools import FunctionTool

    assert first == FunctionTool(look)._get_declaration()
    assert first.name == "look" and '"path"' in first.model_dump_json()


async def test_a_fixed_toolset_offers_the_same_tools_every_time():
    tools = [DeclaredTool(look)]
    toolset = FixedToolset(tools)
    assert await toolset.get_tools() == tools and await toolset.get_tools(None) == tools
    await toolset.close()


ENVIRONMENTS = [
    {},
    {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "true"},
    {
        "OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
        "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS": "false",
        "ADK_EXPERIMENTAL_TELEMETRY": "true",
    },
]


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_resolved_telemetry_answers_as_adks_config_does(monkeypatch, env):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for fields in ({}, {"capture_message_content": ContentCapturingMode.SPAN_AND_EVENT}):
        resolved, plain = ResolvedTelemetry(**fields), TelemetryConfig(**fields)
        assert {name: getattr(resolved, name) for name in ANSWERS} == {name: getattr(plain, name) for name in ANSWERS}
        assert resolved == plain and hash(resolved) == hash(ResolvedTelemetry(**fields))
        assert resolved.model_dump() == plain.model_dump()


def test_resolved_telemetry_keeps_its_answers_when_the_environment_changes_later(monkeypatch):
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    resolved = ResolvedTelemetry()
    assert resolved.should_add_content_to_logs is False
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    assert resolved.should_add_content_to_logs is False  # as ADK's own config: the environment is read once
    assert os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] == "true"


class _Ctx:
    def __init__(self, state: dict) -> None:
        self.state = state


def test_an_instruction_is_rendered_again_only_when_its_context_changed(monkeypatch, tmp_path):
    (tmp_path / "probe.md.j2").write_text(
        "{% block static %}Task: {{ task }}\n{% endblock %}{% block per_call %}Stage: {{ stage.title }}\n{% endblock %}"
    )
    monkeypatch.setenv("AGENTIC_DS_PROMPTS_DIR", str(tmp_path))
    rendered: list[dict] = []
    real_render = prompting.render_parts

    def counting_render(name, context):
        rendered.append(dict(context))
        return real_render(name, context)

    monkeypatch.setattr(prompting, "render_parts", counting_render)
    prompt = prompting.PromptProviders("probe", lambda state: {"task": state["task"], "stage": state["stage"]})  # type: ignore[typeddict-item]  # a probe's own key
    state = {"task": "find the trend", "stage": {"title": "Load"}}
    assert prompt.instruction(_Ctx(state)) == "Task: find the trend\n"
    assert prompt.per_call(dict(state)) == "Stage: Load\n" and len(rendered) == 1
    assert prompt.instruction(_Ctx(dict(state))) == "Task: find the trend\n" and len(rendered) == 1
    changed = prompt.per_call({**state, "stage": {"title": "Model"}})
    assert changed == "Stage: Model\n" and len(rendered) == 2
