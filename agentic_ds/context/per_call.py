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
from contextvars import ContextVar
from typing import Any

from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds.adk_private import INSTRUCTION_PREAMBLE, OTHER_AGENT_PREAMBLE, label_dynamic_instruction

PerCallProvider = Callable[[Mapping[str, Any]], str]
ContextProvider = Callable[[Mapping[str, Any]], Mapping[str, Any]]
# The values the calling agent's prompt was rendered from, set before each model call: a model that reads data
# rather than text (the offline model) takes them from here. A ContextVar: each agent's task sees its own.
PROMPT_CONTEXT: ContextVar[tuple[str, Mapping[str, Any]] | None] = ContextVar("prompt_context", default=None)
# The same, per agent, for a model answering in another thread of this process (a test server's offline brain).
_LATEST: dict[str, Mapping[str, Any]] = {}


def forget_latest() -> None:
    """Forget every agent's latest values (a test switching to a run in another process)."""
    _LATEST.clear()


def latest_context(agent: str) -> Mapping[str, Any] | None:
    """The values `agent`'s last prompt in this process was rendered from (None before its first call)."""
    return _LATEST.get(agent)


class PerCallInstructions(BasePlugin):
    """Puts the per-call part of an agent's prompt first in its request's contents."""

    def __init__(self) -> None:
        super().__init__(name="per_call_instructions")
        self.providers: dict[str, PerCallProvider] = {}
        self.contexts: dict[str, ContextProvider] = {}

    def register(self, agent: str, provider: PerCallProvider, context: ContextProvider | None = None) -> None:
        self.providers[agent] = provider
        if context is not None:
            self.contexts[agent] = context

    async def before_model_callback(self, *, callback_context: Any, llm_request: LlmRequest) -> LlmResponse | None:
        name = callback_context.agent_name
        context = self.contexts.get(name)
        values = context(callback_context.state) if context is not None else None
        PROMPT_CONTEXT.set((name, values) if values is not None else None)
        if values is not None:
            _LATEST[name] = values
        provider = self.providers.get(name)
        text = provider(callback_context.state) if provider is not None else ""
        if name in self.providers:
            llm_request.contents = own_turn(llm_request.contents)
        if text:
            llm_request.contents.insert(0, per_call_content(text))
        return None


def own_turn(contents: list[types.Content]) -> list[types.Content]:
    """The agent's own current turn: what follows the last message ADK relayed from another agent (a review, a
    coder's summary, a status line). An agent's prompt carries everything it needs from the others, so their
    words relayed again are text sent twice, and its own earlier turns are what its prompt summarises."""
    last = max((i for i, content in enumerate(contents) if _relayed(content)), default=-1)
    return contents[last + 1:]


def _relayed(content: types.Content) -> bool:
    return content.role == "user" and any((part.text or "").startswith(OTHER_AGENT_PREAMBLE)
                                           for part in content.parts or [])


def per_call_content(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=label_dynamic_instruction(text))])


def is_per_call(content: types.Content) -> bool:
    """Whether `content` is a labelled instruction (this plugin's, or ADK's own dynamic instruction): not history."""
    parts = content.parts or []
    return content.role == "user" and len(parts) == 1 and (parts[0].text or "").startswith(INSTRUCTION_PREAMBLE)
