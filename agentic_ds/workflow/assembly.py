"""Assemble one run: models per agent, sandbox and tools, skills, the agent tree, plugins and the ADK App."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from google.adk.agents import RunConfig

from agentic_ds.workflow.services import AGENT_ROLES, RunServices


@dataclass
class Assembled:
    app: Any
    run_config: RunConfig
    services: RunServices
    usage: Any
    warning: str | None = None
    guards: list[Any] = field(default_factory=list)
    toolset: Any = None

    def extra_warnings(self) -> list[str]:
        out: list[str] = []
        for guard in self.guards:
            out.extend(getattr(guard, "warnings", []) or [])
        return out


def _models_for_agents(request: Any, overrides: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    from agentic_ds.config.models import build_llm

    built: dict[str, Any] = {}
    models: dict[str, Any] = {}
    names: dict[str, str] = {}
    for agent, role in AGENT_ROLES.items():
        choice = request.models.choices[role]
        names[agent] = choice.spec
        if agent in overrides:
            models[agent] = overrides[agent]
            names[agent] = getattr(overrides[agent], "model", choice.spec)
            continue
        if choice.kind == "claude-code":
            continue  # the Claude coder is an agent, not a model (see coder_factory)
        if role not in built:
            built[role] = build_llm(choice, request.settings)
        models[agent] = built[role]
    return models, names


def assemble(request: Any, overrides: dict[str, Any]) -> Assembled:
    from google.adk.apps.app import App

    from agentic_ds.runs.usage import UsagePlugin
    from agentic_ds.sandbox.runner import CodeRunner
    from agentic_ds.skills import SkillLibrary, default_skills_dir
    from agentic_ds.tools.skills import build_skill_tools
    from agentic_ds.tools.toolset import build_tools
    from agentic_ds.workflow.tree import ROOT_NAME, build_orchestrated_tree, build_simple_tree

    settings = request.settings
    workspace = request.workspace
    models, names = _models_for_agents(request, overrides)
    code_runner = CodeRunner(workspace, settings.sandbox)
    skills = SkillLibrary.load(default_skills_dir())
    tools = build_tools(
        workspace, code_runner, output_cap=settings.sandbox.output_cap_chars, skills_tools=build_skill_tools(skills)
    )
    coder_factory = None
    coder_choice = request.models.choices["coder"]
    if coder_choice.kind == "claude-code" and "coding_agent" not in overrides:
        coder_factory = _claude_coder_factory(coder_choice, workspace, tools.coder, settings)
    services = RunServices(
        workspace=workspace,
        settings=settings,
        models=models,
        coder_tools=tools.coder,
        read_only_tools=tools.read_only,
        code_runner=code_runner,
        skills=skills,
        coder_factory=coder_factory,
    )
    root = build_orchestrated_tree(services) if request.mode == "orchestrated" else build_simple_tree(services)
    usage = UsagePlugin(names)
    app = App(name=ROOT_NAME, root_agent=root, plugins=[usage])
    run_config = RunConfig(max_llm_calls=settings.budgets.max_llm_calls)
    return Assembled(
        app=app, run_config=run_config, services=services, usage=usage, warning=code_runner.warning, toolset=tools
    )


def _claude_coder_factory(choice: Any, workspace: Any, tools: list[Any], settings: Any):
    from agentic_ds.coders.claude_code import ClaudeCodeCoder
    from agentic_ds.skills import default_skills_dir
    from agentic_ds.workflow.prompting import render

    model = choice.spec.split(":", 1)[1] if ":" in choice.spec else None

    def factory(*, name: str, context_builder: Any, template: str = "coding_agent") -> Any:
        return ClaudeCodeCoder(
            name=name,
            model=model,
            workspace=workspace,
            tools=tools,
            skills_dir=default_skills_dir(),
            prompt_builder=lambda ctx: render(template, context_builder(ctx.state)),
            max_turns=settings.loops.coder_tool_calls,
        )

    return factory
