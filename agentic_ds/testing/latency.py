"""A model double that waits a fixed time before each answer, as a hosted model's round trip does.

    slow = LatencyLlm(inner=ScriptedLlm(name="coder", script=[...]), delay_s=1.5)

Each call records when it began and ended and on which ADK branch (`calls`), so a test can tell which stages had
a model call in flight at the same time, and in which order stages were worked on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.models.base_llm import LlmCapabilities
from pydantic import PrivateAttr

from agentic_ds.llm.call_scope import current_branch


@dataclass(frozen=True)
class Call:
    branch: str        # the ADK branch of the calling agent ("" for the run's own, stage_orchestrator.<id> in a stage)
    started: float     # time.monotonic()
    ended: float


class LatencyLlm(BaseLlm):
    """Answers as `inner` does, `delay_s` seconds after it is called."""

    model: str = "latency"
    inner: Any
    delay_s: float = 1.5
    _calls: list[Call] = PrivateAttr(default_factory=list)

    @property
    def capabilities(self) -> LlmCapabilities:
        return self.inner.capabilities

    @property
    def calls(self) -> list[Call]:
        return self._calls

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        started = time.monotonic()
        branch = current_branch.get() or ""
        await asyncio.sleep(self.delay_s)
        async for response in self.inner.generate_content_async(llm_request, stream=stream):
            yield response
        self._calls.append(Call(branch, started, time.monotonic()))
