"""A scripted model double: replays responses, records every request, fails loudly.

Give each agent its own `ScriptedLlm`. A step is a `LlmResponse`, or a callable that receives the
`LlmRequest` and returns one (to answer from what the agent was actually sent). Use the helpers
`text()`, `call()` and `as_json()` to build steps.

    coder = ScriptedLlm(name="coder", script=[call("run_python", code="print(1)"), text("done")])
    ...run...
    coder.assert_complete()
    assert "feedback" in coder.request_text(1)
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from typing import Any

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.models.base_llm import LlmCapabilities
from google.genai import types
from pydantic import Field, PrivateAttr

Step = LlmResponse | Callable[[LlmRequest], LlmResponse]


class ScriptExhausted(AssertionError):
    """The agent called its model more often than the script allows."""


class ScriptNotConsumed(AssertionError):
    """The run ended with scripted steps left over: the agent was called less than expected."""


class ScriptedLlm(BaseLlm):
    """A `BaseLlm` that replays `script` in order and records each request in `requests`."""

    model: str = "scripted"
    name: str = "scripted"
    script: list[Any] = Field(default_factory=list)
    _requests: list[LlmRequest] = PrivateAttr(default_factory=list)
    _position: int = PrivateAttr(default=0)

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities(output_schema_and_tools=True)

    @property
    def requests(self) -> list[LlmRequest]:
        return self._requests

    @property
    def remaining(self) -> int:
        return len(self.script) - self._position

    def extend(self, *steps: Step) -> None:
        self.script.extend(steps)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self._requests.append(llm_request.model_copy(deep=True))
        if self._position >= len(self.script):
            raise ScriptExhausted(
                f"ScriptedLlm({self.name}): script exhausted after {len(self.script)} steps; "
                f"last request ended with: {_tail(llm_request)!r}"
            )
        step = self.script[self._position]
        self._position += 1
        yield step(llm_request) if callable(step) else step

    def assert_complete(self) -> None:
        if self.remaining:
            raise ScriptNotConsumed(f"ScriptedLlm({self.name}): {self.remaining} scripted step(s) never used")

    def request_text(self, index: int) -> str:
        """Everything the agent sent on call `index`: system instruction plus all contents, as text."""
        return request_text(self._requests[index])


def request_text(request: LlmRequest) -> str:
    parts: list[str] = []
    system = request.config.system_instruction if request.config else None
    if system:
        parts.append(system if isinstance(system, str) else str(system))
    for content in request.contents or []:
        for part in content.parts or []:
            if part.text:
                parts.append(part.text)
            if part.function_call:
                parts.append(f"call {part.function_call.name} {json.dumps(part.function_call.args, default=str)}")
            if part.function_response:
                parts.append(
                    f"response {part.function_response.name} {json.dumps(part.function_response.response, default=str)}"
                )
    return "\n".join(parts)


def _tail(request: LlmRequest, n: int = 200) -> str:
    return request_text(request)[-n:]


def usage(prompt: int = 100, completion: int = 10) -> types.GenerateContentResponseUsageMetadata:
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt, candidates_token_count=completion, total_token_count=prompt + completion
    )


def text(value: str, *, prompt_tokens: int = 100, completion_tokens: int = 10) -> LlmResponse:
    """A final text answer."""
    return LlmResponse(
        content=types.Content(role="model", parts=[types.Part(text=value)]),
        usage_metadata=usage(prompt_tokens, completion_tokens),
    )


def as_json(value: Any, **kwargs: Any) -> LlmResponse:
    """A structured answer (for agents with an output schema)."""
    return text(json.dumps(value), **kwargs)


def call(name: str, *, prompt_tokens: int = 100, completion_tokens: int = 10, **args: Any) -> LlmResponse:
    """A tool call."""
    return LlmResponse(
        content=types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))]),
        usage_metadata=usage(prompt_tokens, completion_tokens),
    )
