"""ADK model objects that run under the call policy: `ManagedLiteLlm` (any LiteLLM model) and `ManagedGemini`.

`build_managed_llm` is what a run uses for every chat model it builds. Both classes take the name of the agent
calling from ADK's request label (for progress lines and failures); both cap oversized replies.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.models import LlmRequest, LlmResponse
from google.adk.models.base_llm import LlmCapabilities
from google.adk.models.google_llm import Gemini
from google.adk.models.lite_llm import LiteLlm
from google.genai import types
from pydantic import PrivateAttr

from agentic_ds.llm.adapt import cap_text
from agentic_ds.llm.capabilities import CapabilityState
from agentic_ds.llm.client import PolicyClient, current_agent
from agentic_ds.llm.policy import CallMonitor

AGENT_LABEL = "adk_agent_name"   # ADK labels every model request with the calling agent's name


def agent_of(llm_request: LlmRequest) -> str | None:
    labels = llm_request.config.labels if llm_request.config else None
    return (labels or {}).get(AGENT_LABEL)


def calling_agent(llm_request: LlmRequest) -> str | None:
    """Mark the current task as calling for the request's agent. Not reset afterwards: ADK may close the model's
    generator from another context (where a reset token is invalid), and every call sets it anew anyway."""
    agent = agent_of(llm_request)
    current_agent.set(agent)
    return agent


class ManagedLiteLlm(LiteLlm):
    """ADK's LiteLlm with a `PolicyClient` and per-model capabilities.

    With native JSON schema and native tools, ADK decides as usual whether an agent with tools gets the schema as
    `response_format`; otherwise it gives such agents the `set_model_response` tool and the others the schema.
    """

    _state: CapabilityState | None = PrivateAttr(default=None)

    def __init__(self, model: str, *, state: CapabilityState, **kwargs: Any) -> None:
        super().__init__(model=model, **kwargs)
        self._state = state

    @property
    def capabilities(self) -> LlmCapabilities:
        caps = self._state.caps if self._state else None
        if caps is not None and (caps.structured != "json_schema" or caps.tools != "native"):
            return LlmCapabilities(output_schema_and_tools=False)
        return super().capabilities

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        calling_agent(llm_request)
        async for response in super().generate_content_async(llm_request, stream):
            yield response


class ManagedGemini(Gemini):
    """ADK's native Gemini under the same policy. google-genai retries nothing unless `retry_options` is set."""

    _monitor: CallMonitor | None = PrivateAttr(default=None)
    _reply_cap: int | None = PrivateAttr(default=None)

    def __init__(self, *, monitor: CallMonitor, reply_cap_chars: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._monitor = monitor
        self._reply_cap = reply_cap_chars

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        parent = super().generate_content_async

        async def send(_timeout_s: float) -> list[LlmResponse]:
            # The whole (non-streamed) answer is collected, so a failed attempt has yielded nothing yet.
            return [response async for response in parent(llm_request, stream)]

        assert self._monitor is not None
        agent = calling_agent(llm_request)
        responses = await self._monitor.call(send, model=self.model, api_base=None, agent=agent)
        for response in responses:
            yield cap_response(response, self._reply_cap, self._monitor)


def cap_response(response: LlmResponse, limit: int | None, monitor: CallMonitor) -> LlmResponse:
    """The response with any text part longer than `limit` characters cut (head and tail kept)."""
    content = response.content
    parts = content.parts if content and content.parts else []
    if content is None or not limit or not any(p.text and len(p.text) > limit for p in parts):
        return response
    monitor.reply_caps += 1
    capped = [p.model_copy(update={"text": cap_text(p.text, limit)}) if p.text else p for p in parts]
    return response.model_copy(update={"content": types.Content(role=content.role, parts=capped)})


def build_managed_llm(choice: Any, settings: Any, monitor: CallMonitor, reply_cap_chars: int | None) -> Any:
    """The ADK model for a chat-model role (`ModelChoice`), under the run's call policy."""
    from agentic_ds.config.models import build_llm, litellm_kwargs
    from agentic_ds.llm import capabilities

    if choice.kind == "gemini":
        return ManagedGemini(model=choice.spec, monitor=monitor, reply_cap_chars=reply_cap_chars)
    if choice.kind != "litellm":
        return build_llm(choice, settings)
    options = settings.model_options.get(choice.spec)
    state = monitor.capability_state(choice.spec, capabilities.resolve(choice.spec, options))
    kwargs = litellm_kwargs(choice.spec, settings)
    api_base = kwargs.get("api_base")
    client = PolicyClient(
        spec=choice.spec,
        api_base=api_base if isinstance(api_base, str) else None,
        state=state,
        monitor=monitor,
        reply_cap_chars=reply_cap_chars,
    )
    return ManagedLiteLlm(choice.spec, state=state, llm_client=client, **kwargs)
