"""Make real model requests impossible: every path to a real provider raises instead.

`block_real_models()` patches the doors out of the process - ADK's LiteLlm and Gemini model classes, ADK's litellm
client, our `PolicyClient.send` (the only place our code calls litellm's network functions), and the Claude Agent
SDK's subprocess transport - and returns a function that undoes it. The test suite turns it on for every test
(tests/conftest.py). A LiteLLM request whose `api_base` is on the loopback interface passes: that is a test double
(the fault-injecting server of tests/support/fault_server.py, or a local llama.cpp server), never a provider.
litellm itself is not imported here: it costs seconds.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse


class RealModelCallBlocked(AssertionError):
    """A test tried to reach a real model provider."""


def is_loopback(api_base: Any) -> bool:
    if not isinstance(api_base, str) or not api_base:
        return False
    host = urlparse(api_base if "://" in api_base else f"http://{api_base}").hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _refuse(door: str) -> Callable[..., Any]:
    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise RealModelCallBlocked(f"real model call blocked under test: {door}")

    return refuse


def _loopback_only(door: str, original: Callable[..., Any], api_base_of: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not is_loopback(api_base_of(*args, **kwargs)):
            raise RealModelCallBlocked(f"real model call blocked under test: {door} (only 127.0.0.1 endpoints pass)")
        return original(*args, **kwargs)

    return guarded


def _lite_llm_base(self: Any, *_args: Any, **_kwargs: Any) -> Any:
    return self._additional_args.get("api_base")


def _kwargs_base(*_args: Any, **kwargs: Any) -> Any:
    return kwargs.get("api_base")


def block_real_models() -> Callable[[], None]:
    from google.adk.models.google_llm import Gemini
    from google.adk.models.lite_llm import LiteLlm, LiteLLMClient

    from agentic_ds.llm.client import PolicyClient

    patches: list[tuple[Any, str, Any]] = [
        (LiteLlm, "generate_content_async",
         _loopback_only("LiteLlm (litellm)", LiteLlm.generate_content_async, _lite_llm_base)),
        (LiteLLMClient, "acompletion", _refuse("litellm.acompletion via ADK")),
        (LiteLLMClient, "completion", _refuse("litellm.completion via ADK")),
        (PolicyClient, "send", _loopback_only("litellm.acompletion via PolicyClient", PolicyClient.send, _kwargs_base)),
        (Gemini, "generate_content_async", _refuse("Gemini (google-genai)")),
    ]
    try:
        from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport

        patches.append((SubprocessCLITransport, "connect", _refuse("Claude Code CLI subprocess")))
    except ImportError:  # pragma: no cover - the SDK is a hard dependency; keep the guard usable without it
        pass

    originals = [(owner, name, owner.__dict__[name]) for owner, name, _ in patches]
    for owner, name, replacement in patches:
        setattr(owner, name, replacement)

    def undo() -> None:
        for owner, name, original in originals:
            setattr(owner, name, original)

    return undo
