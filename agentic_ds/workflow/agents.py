"""Builders for the tree's LLM agents: model from the agent's role, a Jinja2 prompt rendered from state, and
(unless asked otherwise) only the agent's own current turn as history, since its prompt carries the rest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.adk.agents import LlmAgent
from pydantic import BaseModel

from agentic_ds.workflow.prompting import instruction
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.structured import StructuredAgent

ContextBuilder = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def llm_agent(
    services: RunServices, name: str, prompt: str, context: ContextBuilder, *, output_key: str, **kwargs: Any
) -> LlmAgent:
    kwargs.setdefault("include_contents", "none")
    return LlmAgent(
        name=name,
        model=services.model(name),
        instruction=instruction(prompt, context),
        output_key=output_key,
        **kwargs,
    )


def structured_agent(
    services: RunServices,
    name: str,
    prompt: str,
    context: ContextBuilder,
    *,
    schema: type[BaseModel],
    output_key: str,
    **kwargs: Any,
) -> StructuredAgent:
    kwargs.setdefault("include_contents", "none")
    kwargs.setdefault("retries", services.settings.loops.structured_retries)
    return StructuredAgent(
        name=name,
        model=services.model(name),
        instruction=instruction(prompt, context),
        output_schema=schema,
        output_key=output_key,
        **kwargs,
    )
