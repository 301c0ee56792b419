"""Make real model requests impossible: every path to a real provider raises instead.

`block_real_models()` patches the doors out of the process - ADK's LiteLlm and Gemini model
classes, ADK's litellm client (the only place our code reaches litellm's network calls), and the
Claude Agent SDK's subprocess transport - and returns a function that undoes it. The test suite
turns it on for every test (tests/conftest.py). litellm itself is not imported here: it costs
seconds, and nothing of ours calls its completion functions except through ADK's client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class RealModelCallBlocked(AssertionError):
    """A test tried to reach a real model provider."""


def _refuse(door: str) -> Callable[..., Any]:
    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise RealModelCallBlocked(f"real model call blocked under test: {door}")

    return refuse


def block_real_models() -> Callable[[], None]:
    from google.adk.models.google_llm import Gemini
    from google.adk.models.lite_llm import LiteLlm, LiteLLMClient

    patches: list[tuple[Any, str, Any]] = [
        (LiteLlm, "generate_content_async", _refuse("LiteLlm (litellm)")),
        (LiteLLMClient, "acompletion", _refuse("litellm.acompletion via ADK")),
        (LiteLLMClient, "completion", _refuse("litellm.completion via ADK")),
        (Gemini, "generate_content_async", _refuse("Gemini (google-genai)")),
    ]
    try:
        from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport

        patches.append((SubprocessCLITransport, "connect", _refuse("Claude Code CLI subprocess")))
    except ImportError:  # pragma: no cover - the SDK is a hard dependency; keep the guard usable without it
        pass

    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, replacement in patches:
        setattr(owner, name, replacement)

    def undo() -> None:
        for owner, name, original in originals:
            setattr(owner, name, original)

    return undo
