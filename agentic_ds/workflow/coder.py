"""`coding_agent` in either mode: an `LlmAgent` with the coder's tools, or Claude Code when the coder model is
`claude-code`; its prompt context is the stage's (orchestrated) or the task's with earlier attempts (simple)."""

from __future__ import annotations

from google.adk.agents import BaseAgent

from agentic_ds import agent_names as A
from agentic_ds.agent_table import Mode, agent
from agentic_ds.workflow.agents import llm_agent, turn_call_limit
from agentic_ds.workflow.implementation import coder_context
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.simple import simple_coder_context

NAME = A.CODING_AGENT


def build_coder(services: RunServices, mode: Mode) -> BaseAgent:
    context = coder_context(services) if mode == "orchestrated" else simple_coder_context(services)
    if services.coder_factory is not None:
        return services.coder_factory(name=NAME, context_builder=context, template=agent(NAME).prompt_for(mode))
    # The prompt carries everything the coder needs (stage, map, summaries, feedback, its earlier code); its
    # history is only its own current turn, so no plan, criteria or other stage's transcript leaks in.
    return llm_agent(services, NAME, mode, context,
                     before_model_callback=turn_call_limit(services.settings.loops.coder_tool_calls))
