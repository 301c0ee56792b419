"""Anthropic prompt-cache markers, sent only to Claude models through LiteLLM.

Claude caches a prompt only up to a `cache_control` marker; other providers cache the longest common prefix
on their own (OpenAI, DeepSeek, Gemini implicit caching, vLLM and llama.cpp prefix caching) and need nothing.
Every agent's request is laid out so that its prefix stays the same from call to call (`prompting`,
`per_call`): tool declarations, then the system instruction (the static part of the prompt), then the
per-call part and the turn so far. Two markers cover it, the ones ADK's own `ContextCacheConfig` would add:

- on the system message: Anthropic orders a request tools, system, messages, so this caches the tool
  declarations and the static prompt, shared by every call of the agent in the run;
- on the last message: caches the turn so far, which the agent's next call in the same turn repeats.

They go to LiteLLM as `cache_control_injection_points`, which ADK's LiteLlm passes on unchanged when the
model was built with them, rather than App-wide through `ContextCacheConfig`, which would also ask Gemini
models for explicit (billed) caches. A user's own `cache_control_injection_points` in `model_options.<model>
.extra` win; `[]` there turns the markers off.
"""

from __future__ import annotations

from typing import Any

CLAUDE_PROVIDERS = ("anthropic", "bedrock", "vertex_ai")
INJECTION_POINTS_KEY = "cache_control_injection_points"


def wants_cache_markers(spec: str) -> bool:
    """True for a Claude model LiteLLM sends to a provider that caches only what a marker delimits."""
    provider, _, model = spec.partition("/")
    return provider == "anthropic" or (provider in CLAUDE_PROVIDERS and "claude" in model.lower())


def cache_marker_kwargs(spec: str) -> dict[str, Any]:
    """`LiteLlm` keyword arguments for `spec`: the two injection points for Claude models, nothing otherwise."""
    if not wants_cache_markers(spec):
        return {}
    control = {"type": "ephemeral"}
    return {
        INJECTION_POINTS_KEY: [
            {"location": "message", "role": "system", "control": control},
            {"location": "message", "index": -1, "control": control},
        ]
    }
