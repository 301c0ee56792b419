"""`PolicyClient`: the one door from ADK's LiteLlm to litellm, with the run's call policy and the model's capabilities.

ADK's `LiteLlm` hands every request to its `llm_client.acompletion(model, messages, tools, **kwargs)`. This client
adapts the request to what the server accepts, sends it under the retry policy with litellm's and the OpenAI SDK's
own retries switched off (so retries never multiply), steps a capability down once when the server rejects it,
turns text-protocol tool calls back into native ones, and caps an oversized reply before it enters any history.
"""

from __future__ import annotations

import contextvars
from typing import Any

from google.adk.models.lite_llm import LiteLLMClient

from agentic_ds.llm import capabilities as caps_mod
from agentic_ds.llm.adapt import adapt_request, cap_text, read_text_calls
from agentic_ds.llm.call_scope import scope_headers
from agentic_ds.llm.faults import CallFault
from agentic_ds.llm.policy import CallMonitor

# The agent whose model call is under way (set by ManagedLiteLlm from ADK's request label), for progress lines.
current_agent: contextvars.ContextVar[str | None] = contextvars.ContextVar("agentic_ds_current_agent", default=None)

_STEP_DOWN_KINDS = {"bad_request", "server_error", "unexpected", "not_found"}


class PolicyClient(LiteLLMClient):
    def __init__(
        self,
        *,
        spec: str,
        api_base: str | None,
        state: caps_mod.CapabilityState,
        monitor: CallMonitor,
        reply_cap_chars: int | None = None,
    ) -> None:
        self.spec = spec
        self.api_base = api_base
        self.state = state
        self.monitor = monitor
        self.reply_cap_chars = reply_cap_chars

    async def acompletion(self, model: str, messages: list[Any], tools: list[Any] | None, **kwargs: Any) -> Any:
        request = {"model": model, "messages": messages, "tools": tools, **kwargs}
        headers = scope_headers(self.spec, self.api_base, current_agent.get())
        if headers:   # a local server (the test relay and replay) is told the calling agent and its branch
            request["extra_headers"] = {**(kwargs.get("extra_headers") or {}), **headers}
        sent: dict[str, Any] = {}
        declared: list[frozenset[str]] = [frozenset()]

        async def send(timeout_s: float) -> Any:
            adapted = adapt_request(request, self.state.caps)
            sent.clear()
            sent.update(adapted.kwargs)
            declared[0] = adapted.text_tools
            return await self.send(timeout_s=timeout_s, **adapted.kwargs)

        def step_down(fault: CallFault) -> str | None:
            if fault.kind not in _STEP_DOWN_KINDS:
                return None
            lowered = caps_mod.step_down(self.state.caps, fault.message, sent)
            if lowered is None:
                return None
            self.state.caps = lowered[0]
            return f"{lowered[1]} (HTTP {fault.status}: {fault.message[:160]})"

        response = await self.monitor.call(
            send, model=self.spec, api_base=self.api_base, agent=current_agent.get(), step_down=step_down
        )
        if not kwargs.get("stream"):
            # A structured answer is validated, not quoted: cut only far past the cap (cutting makes it invalid).
            limit = self.reply_cap_chars and self.reply_cap_chars * (4 if request.get("response_format") else 1)
            self._read_back(response, declared[0], limit)
        return response

    async def send(self, *, timeout_s: float, **kwargs: Any) -> Any:
        """The request itself (the test guard watches this door)."""
        import litellm

        return await litellm.acompletion(**kwargs, timeout=timeout_s, num_retries=0, max_retries=0)

    def _read_back(self, response: Any, declared: frozenset[str], limit: int | None) -> None:
        choices = getattr(response, "choices", None) or []
        for choice in choices:
            message: Any = getattr(choice, "message", None)  # a litellm Message; the response is untyped
            content = getattr(message, "content", None)
            if not isinstance(content, str):
                continue
            if declared and not getattr(message, "tool_calls", None):
                tool_calls, rest = read_text_calls(content, declared)
                if tool_calls:
                    from litellm.types.utils import ChatCompletionMessageToolCall

                    message.tool_calls = [ChatCompletionMessageToolCall(**call) for call in tool_calls]
                    message.content = content = rest
                    choice.finish_reason = "tool_calls"
            if limit and isinstance(content, str) and len(content) > limit:
                message.content = cap_text(content, limit)
                self.monitor.reply_caps += 1
                self.monitor.notice(
                    "warning",
                    f"warning: a reply of {self.spec} was cut to {limit:,} characters "
                    "(calls.reply_cap_share of the prompt budget)",
                    current_agent.get(),
                )
