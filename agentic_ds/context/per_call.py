"""The per-call part of each agent's prompt, put at the head of the request's contents (an ADK plugin).

An agent's system instruction holds only what stays the same through a run (role, rules, answer format, task,
data profile: the `static` block of its template, see `prompting`), so the system instruction and the tool
declarations are a prefix identical on every call of that agent: what providers cache (automatically for
OpenAI, DeepSeek, vLLM and llama.cpp; up to the cache marker for Anthropic, `agentic_ds.context.cache_markers`).
The per-call part (current stage, attempt, feedback, earlier results) goes first in the contents, labelled as an
instruction the way ADK labels its own dynamic instructions. It does not change within a turn, so the turn so
far stays a common prefix from one call to the next as well.

The plugin runs before the compaction guard, which counts the request with this part in it and leaves it in
place when it swaps history for a summary (`is_per_call`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds.adk_private import INSTRUCTION_PREAMBLE, label_dynamic_instruction

PerCallProvider = Callable[[Mapping[str, Any]], str]


class PerCallInstructions(BasePlugin):
    """Puts the per-call part of an agent's prompt first in its request's contents."""

    def __init__(self) -> None:
        super().__init__(name="per_call_instructions")
        self.providers: dict[str, PerCallProvider] = {}

    def register(self, agent: str, provider: PerCallProvider) -> None:
        self.providers[agent] = provider

    async def before_model_callback(self, *, callback_context: Any, llm_request: LlmRequest) -> LlmResponse | None:
        provider = self.providers.get(callback_context.agent_name)
        if provider is not None:
            text = provider(callback_context.state)
            if text:
                llm_request.contents.insert(0, per_call_content(text))
        return None


def per_call_content(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=label_dynamic_instruction(text))])


def is_per_call(content: types.Content) -> bool:
    """Whether `content` is a labelled instruction (this plugin's, or ADK's own dynamic instruction): not history."""
    parts = content.parts or []
    return content.role == "user" and len(parts) == 1 and (parts[0].text or "").startswith(INSTRUCTION_PREAMBLE)
