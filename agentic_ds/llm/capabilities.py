"""What one model's server accepts: how to ask for structured output and tool calls, how to send content.

Decided per model, not per provider prefix: `model_options.<model>` may say it; what it leaves at `auto` comes from
where the model is served. Known hosted providers (no `api_base`, or one on the provider's own host) get native
features. An `api_base` on a local or unknown host starts from the most compatible settings that still work well
with small local models: plain-string content, tool calls in the text protocol, and `json_object` with the schema
in the prompt. A server that rejects a feature anyway (an HTTP error naming it) makes `step_down` switch it off once
for the rest of the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal
from urllib.parse import urlparse

Structured = Literal["json_schema", "json_object", "text"]
Tools = Literal["native", "text"]
Content = Literal["parts", "string"]

# Providers whose own API (no api_base) has native JSON schema, tools and list content.
HOSTED_NATIVE = frozenset({
    "openai", "anthropic", "gemini", "vertex_ai", "azure", "azure_ai", "bedrock", "groq", "mistral", "deepseek",
    "openrouter", "together_ai", "fireworks_ai", "xai", "cerebras", "deepinfra", "cohere", "cohere_chat",
    "perplexity", "databricks", "sambanova", "nvidia_nim",
})
# Public hosts of those providers: an api_base there is still the hosted API.
_HOSTED_DOMAINS = ("openai.com", "anthropic.com", "googleapis.com", "azure.com", "amazonaws.com", "groq.com",
                   "mistral.ai", "deepseek.com", "openrouter.ai", "together.xyz", "fireworks.ai", "x.ai",
                   "cerebras.ai", "deepinfra.com", "cohere.com", "perplexity.ai")

_STEPS_STRUCTURED: dict[str, Structured] = {"json_schema": "json_object", "json_object": "text"}
_REJECTS_SCHEMA = re.compile(r"json_schema|response_format|'text' or 'json_object'|structured output|"
                             r"response format|json_object|grammar", re.IGNORECASE)
_REJECTS_TOOLS = re.compile(r"tool_choice|\btools?\b|function.?call|tool call", re.IGNORECASE)
_REJECTS_LIST = re.compile(r"can only concatenate str|content.{0,40}(must be a string|should be a valid string|"
                           r"expected string)|'list' object|\(not \"list\"\)", re.IGNORECASE)


@dataclass(frozen=True)
class Capabilities:
    structured: Structured = "json_schema"
    tools: Tools = "native"
    tool_choice: str | None = None      # sent with native tools when the server needs it ("auto")
    content: Content = "parts"
    max_output_tokens: int | None = None

    def describe(self) -> str:
        choice = f", tool_choice {self.tool_choice}" if self.tools == "native" and self.tool_choice else ""
        return f"structured output {self.structured}, tools {self.tools}{choice}, content {self.content}"


class CapabilityState:
    """One model's capabilities for the whole run, shared by every agent using it (a step-down holds for all)."""

    def __init__(self, spec: str, caps: Capabilities) -> None:
        self.spec = spec
        self.caps = caps


def is_hosted(spec: str, api_base: str | None) -> bool:
    provider = spec.split("/", 1)[0] if "/" in spec else ("gemini" if spec.startswith("gemini") else "")
    if provider not in HOSTED_NATIVE:
        return False
    if not api_base:
        return True
    host = urlparse(api_base if "://" in api_base else f"http://{api_base}").hostname or ""
    return any(host == domain or host.endswith("." + domain) for domain in _HOSTED_DOMAINS)


def resolve(spec: str, options: Any | None) -> Capabilities:
    """The capabilities of model `spec` given its `model_options` entry (a `ModelOptions`, or None)."""
    api_base = getattr(options, "api_base", None)
    hosted = is_hosted(spec, api_base)
    base = Capabilities() if hosted else Capabilities(structured="json_object", tools="text", content="string")

    def chosen(name: str, default: Any) -> Any:
        value = getattr(options, name, "auto") if options is not None else "auto"
        return default if value in (None, "auto") else value

    choice = getattr(options, "tool_choice", "omit") if options is not None else "omit"
    return Capabilities(
        structured=chosen("structured_output", base.structured),
        tools=chosen("tool_calling", base.tools),
        tool_choice=None if choice in (None, "omit") else choice,
        content=chosen("message_content", base.content),
        max_output_tokens=getattr(options, "max_output_tokens", None) if options is not None else None,
    )


def step_down(caps: Capabilities, message: str, request: dict[str, Any]) -> tuple[Capabilities, str] | None:
    """The capabilities to retry with after the server rejected `request` with `message`, and what changed;
    None when the message names nothing this request used (the error then stands)."""
    messages = request.get("messages") or []
    has_list = any(isinstance(m.get("content"), list) for m in messages if isinstance(m, dict))
    if caps.content == "parts" and has_list and _REJECTS_LIST.search(message):
        return replace(caps, content="string"), "rejected list content: sending plain strings from now on"
    if request.get("response_format") and caps.structured in _STEPS_STRUCTURED and _REJECTS_SCHEMA.search(message):
        lower = _STEPS_STRUCTURED[caps.structured]
        what = f"rejected structured output {caps.structured}: using {lower} from now on"
        return replace(caps, structured=lower), what
    if request.get("tools") and caps.tools == "native" and _REJECTS_TOOLS.search(message):
        if caps.tool_choice:
            what = f"rejected tool_choice {caps.tool_choice}: not sending it from now on"
            return replace(caps, tool_choice=None), what
        return replace(caps, tools="text"), "rejected native tool calls: using the text protocol from now on"
    if any(m.get("role") == "tool" for m in messages if isinstance(m, dict)) and caps.tools == "native" and (
        "has no attribute" in message or _REJECTS_TOOLS.search(message)
    ):
        return replace(caps, tools="text"), "failed on a tool-result turn: using the text protocol from now on"
    return None
