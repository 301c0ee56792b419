"""Assemble one run: models per agent, sandbox and tools, skills, the agent tree, plugins and the ADK App."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from google.adk.agents import RunConfig

from agentic_ds.adk_private import ResolvedTelemetry
from agentic_ds.agent_names import CODING_AGENT, ROOT
from agentic_ds.agent_table import AGENTS, llm_agents
from agentic_ds.state import typed
from agentic_ds.workflow.prompting import ContextBuilder
from agentic_ds.workflow.services import CoderFactory, RunServices

if TYPE_CHECKING:
    from google.adk.agents import BaseAgent
    from google.adk.apps.app import App
    from google.adk.models import BaseLlm
    from google.adk.tools import BaseTool

    from agentic_ds.config.models import ModelChoice
    from agentic_ds.config.settings import Settings
    from agentic_ds.context.budgets import BudgetGuard
    from agentic_ds.context.compaction_guard import CompactionGuard
    from agentic_ds.context.loop_guard import LoopGuard
    from agentic_ds.llm.policy import CallMonitor
    from agentic_ds.runs.ledger import UsageLedger
    from agentic_ds.runs.usage import UsagePlugin
    from agentic_ds.tools.toolset import ToolSet
    from agentic_ds.workflow.runner import RunRequest
    from agentic_ds.workspace import Workspace

ContextCounts = dict[str, int | float | None]   # run.json's `context`: the prompt budget, compactions, loop responses


@dataclass
class Assembled:
    app: App
    root: BaseAgent                      # the app's root agent, the tree `workflow/tree.py` writes out
    run_config: RunConfig
    services: RunServices
    usage: UsagePlugin
    toolset: ToolSet
    budget: BudgetGuard
    loops: LoopGuard
    calls: CallMonitor
    compaction_guard: CompactionGuard | None = None
    warning: str | None = None

    def context_json(self) -> ContextCounts:
        """How the run stayed inside its context: the prompt budget and what compaction and the loop guard did."""
        out: ContextCounts = {}
        guard = self.compaction_guard
        if guard is not None and guard.config is not None:
            out.update(
                budget_tokens=guard.config.token_threshold,
                max_prompt_tokens=guard.max_prompt_tokens,
                compactions=guard.compactions,
                over_budget_calls=guard.over_budget_calls,
            )
        out.update(loop_divergences=self.loops.divergences, loop_stops=self.loops.stops)
        return out

    def extra_warnings(self) -> list[str]:
        out: list[str] = list(self.loops.warnings)
        out.extend(self.services.code_runner.findings)   # links planted by executed code, never followed
        return out


class _RoleLlms:
    """Builds each role's model once, on first use, under the run's call policy."""

    def __init__(self, request: RunRequest, calls: CallMonitor, reply_cap_chars: int) -> None:
        self.request = request
        self.calls = calls
        self.reply_cap_chars = reply_cap_chars
        self.built: dict[str, BaseLlm] = {}

    def get(self, role: str) -> BaseLlm:
        if role not in self.built:
            choice = self.request.models.choices[role]
            if choice.kind in ("litellm", "gemini"):
                # ADK's LiteLlm and Gemini classes (which it subclasses) cost about 0.7 CPU-s to import: only for them
                from agentic_ds.llm.models import build_managed_llm

                self.built[role] = build_managed_llm(choice, self.request.settings, self.calls, self.reply_cap_chars)
            else:
                from agentic_ds.config.models import build_llm

                self.built[role] = build_llm(choice, self.request.settings)
        return self.built[role]


def _prompt_window(request: RunRequest) -> int | None:
    """The smallest context window among the run's chat models (None when none is known)."""
    from agentic_ds.context.tokens import context_window

    windows = [
        context_window(choice.spec, request.settings.model_options)
        for choice in request.models.choices.values()
        if choice.kind in ("litellm", "gemini")
    ]
    return min((w for w in windows if w), default=None)


def _call_monitor(request: RunRequest) -> tuple[CallMonitor, int]:
    """The run's call policy and counters, and how many characters one model reply may hold."""
    from agentic_ds.context.compaction import prompt_budget
    from agentic_ds.llm.policy import CallMonitor, RetryPolicy

    settings = request.settings
    budget = prompt_budget(settings.context, _prompt_window(request))
    # About 4 characters per token of English prose: the cap is a share of the budget, not an exact count.
    reply_cap = max(2000, int(budget * settings.calls.reply_cap_share * 4))
    return CallMonitor(RetryPolicy.from_settings(settings.calls)), reply_cap


def _models_for_agents(request: RunRequest, overrides: dict[str, BaseLlm], llms: _RoleLlms) -> dict[str, BaseLlm]:
    models: dict[str, BaseLlm] = {}
    for agent, role in llm_agents().items():
        if agent in overrides:
            models[agent] = overrides[agent]
        elif request.models.choices[role].kind != "claude-code":  # the Claude coder is an agent (coder_factory)
            models[agent] = llms.get(role)
    return models


@dataclass
class _Guards:
    budget: BudgetGuard
    loops: LoopGuard
    compaction: CompactionGuard | None


def _context_plugins(
    request: RunRequest, llms: _RoleLlms, overrides: dict[str, BaseLlm], ledger: UsageLedger
) -> _Guards:
    """Budget, loop and compaction guards."""
    from agentic_ds.context import budgets
    from agentic_ds.context.compaction import build_compaction_config
    from agentic_ds.context.compaction_guard import CompactionGuard
    from agentic_ds.context.loop_guard import LoopGuard

    settings = request.settings
    after_budget = frozenset(name for name, entry in AGENTS.items() if entry.after_budget)
    budget = budgets.BudgetGuard(settings.budgets, ledger=ledger, allow_after_exhausted=after_budget)
    loops = LoopGuard(repeats=settings.context.loop_repeats)
    window = _prompt_window(request)
    compactor = overrides.get("compactor") or llms.get("compactor")
    compaction = build_compaction_config(settings.context, compactor, window, on_usage=ledger.book_summary)
    # The guard alone compacts (the App gets no config): ADK's own trigger summarizes the whole session
    # and authors the summary `user`, which include_contents="none" agents take for their turn's start.
    return _Guards(budget, loops, CompactionGuard(compaction) if compaction is not None else None)


def assemble(request: RunRequest, overrides: dict[str, BaseLlm]) -> Assembled:
    from google.adk.apps.app import App

    from agentic_ds.llm.call_scope import call_scope_plugin
    from agentic_ds.runs.ledger import UsageLedger
    from agentic_ds.runs.pricing import Pricing
    from agentic_ds.runs.usage import UsagePlugin
    from agentic_ds.sandbox.runner import CodeRunner
    from agentic_ds.skills import SkillLibrary, default_skills_dir
    from agentic_ds.tools.skills import build_skill_tools
    from agentic_ds.tools.toolset import build_tools
    from agentic_ds.workflow.tree import build_tree

    settings = request.settings
    workspace = request.workspace
    calls, reply_cap = _call_monitor(request)
    llms = _RoleLlms(request, calls, reply_cap)
    models = _models_for_agents(request, overrides, llms)
    code_runner = CodeRunner(workspace, settings.sandbox)
    skills = SkillLibrary.load(default_skills_dir())
    tools = build_tools(
        workspace, code_runner, output_cap=settings.sandbox.output_cap_chars, skills_tools=build_skill_tools(skills)
    )
    coder_factory = None
    coder_choice = request.models.choices["coder"]
    if coder_choice.kind == "claude-code" and CODING_AGENT not in overrides:
        coder_factory = _claude_coder_factory(coder_choice, workspace, tools.coder, settings)
    services = RunServices(
        workspace=workspace,
        settings=settings,
        models=models,
        coder_toolset=tools.coder_toolset,
        read_only_toolset=tools.read_only_toolset,
        files_toolset=tools.files_toolset,
        code_runner=code_runner,
        skills=skills,
        coder_factory=coder_factory,
    )
    root = build_tree(services, request.mode)
    ledger = UsageLedger(Pricing(settings.model_options))
    guards = _context_plugins(request, llms, overrides, ledger)
    usage = UsagePlugin(ledger)   # first: every guard reads the ledger it books into
    # The per-call part of each prompt goes in before the compaction guard counts and compacts the request.
    compaction = [guards.compaction] if guards.compaction is not None else []
    plugins = [call_scope_plugin(), usage, guards.budget, guards.loops, services.per_call, *compaction]
    app = App(name=ROOT, root_agent=root, plugins=plugins)
    # ADK's own cap (default 500) would end long runs with an exception; the budget guard stops them cleanly
    # first, so ADK's cap sits just above it.
    # A telemetry config read from the environment once: without one, ADK builds a new one (and re-reads six
    # environment variables) several times per model call.
    run_config = RunConfig(max_llm_calls=settings.budgets.max_llm_calls + 50, telemetry=ResolvedTelemetry())
    return Assembled(
        app=app, root=root, run_config=run_config, services=services, usage=usage, warning=code_runner.warning,
        toolset=tools, budget=guards.budget, loops=guards.loops, compaction_guard=guards.compaction, calls=calls,
    )


def _claude_coder_factory(
    choice: ModelChoice, workspace: Workspace, tools: list[BaseTool], settings: Settings
) -> CoderFactory:
    from agentic_ds.coders.claude_code import ClaudeCodeCoder, claude_model
    from agentic_ds.coders.claude_options import call_policy_environment
    from agentic_ds.skills import default_skills_dir
    from agentic_ds.workflow.prompting import render

    model = claude_model(choice.spec)

    def factory(*, name: str, context_builder: ContextBuilder, template: str) -> BaseAgent:
        return ClaudeCodeCoder(
            name=name,
            model=model,
            workspace=workspace,
            tools=tools,
            skills_dir=default_skills_dir(),
            prompt_builder=lambda ctx: render(template, context_builder(typed(ctx.state))),
            max_turns=settings.loops.coder_tool_calls,
            max_budget_usd=settings.budgets.max_cost_usd,
            cli_env=call_policy_environment(settings.calls.timeout_s, settings.calls.retries),
        )

    return factory
