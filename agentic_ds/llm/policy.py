"""One retry policy for every model call: a per-attempt timeout, exponential backoff with jitter, `Retry-After`.

`CallMonitor.call` runs one model call under the policy. It retries 429, 5xx, timeouts and connection errors,
never a 4xx that cannot succeed, says on the live progress what it waits for (also while a call hangs), counts
everything for run.json, and raises `ModelCallFailed` when the call fails for good. Provider SDKs are told not to
retry on their own (see `agentic_ds.llm.client`), so retries do not multiply.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from agentic_ds.agent_names import ROOT
from agentic_ds.llm.capabilities import Capabilities, CapabilityState
from agentic_ds.llm.faults import CallFault, ModelCallFailed, classify
from agentic_ds.schema import CallFailure, CallsSummary, ModelCallsSummary

T = TypeVar("T")
Notice = Callable[[str, str, str], None]          # (kind, text, author)
StepDown = Callable[[CallFault], "str | None"]    # a fault -> what was switched off, or None


@dataclass(frozen=True)
class RetryPolicy:
    timeout_s: float = 120.0
    retries: int = 5
    backoff_s: float = 2.0
    max_backoff_s: float = 60.0

    @classmethod
    def from_settings(cls, calls: Any) -> RetryPolicy:
        return cls(calls.timeout_s, calls.retries, calls.backoff_s, calls.max_backoff_s)

    def delay(self, retry: int, fault: CallFault, rng: random.Random | None = None) -> float:
        """Seconds to wait before retry number `retry` (1-based): the server's Retry-After when it gave one,
        else exponential backoff with "equal jitter" (between half and all of the doubled base)."""
        if fault.retry_after_s is not None:
            return min(fault.retry_after_s, self.max_backoff_s)
        base = min(self.max_backoff_s, self.backoff_s * 2 ** (retry - 1))
        return (rng or random).uniform(base / 2, base)

    def heartbeat_s(self) -> float:
        """How long a silent call runs before the progress says it is still waiting (and how often after)."""
        return max(0.2, min(15.0, self.timeout_s / 3))


@dataclass
class ModelCalls:
    """run.json's count of one model's calls."""

    calls: int = 0                # calls that got an answer
    attempts: int = 0             # requests sent, retries included
    retries: int = 0
    wait_s: float = 0.0           # time spent backing off
    timeouts: int = 0
    failures: int = 0             # calls that failed for good
    step_downs: list[str] = field(default_factory=list)


class CallMonitor:
    """The run's policy, its counters, and where its notices go (events.jsonl and the live progress)."""

    def __init__(self, policy: RetryPolicy, on_notice: Notice | None = None) -> None:
        self.policy = policy
        self.on_notice = on_notice
        self.by_model: dict[str, ModelCalls] = {}
        self.failure: CallFailure | None = None
        self.reply_caps = 0
        self.capabilities: dict[str, CapabilityState] = {}

    def capability_state(self, spec: str, initial: Capabilities) -> CapabilityState:
        """The run's one capability state for `spec` (created with `initial` on first use)."""
        if spec not in self.capabilities:
            self.capabilities[spec] = CapabilityState(spec, initial)
        return self.capabilities[spec]

    def _model(self, model: str) -> ModelCalls:
        return self.by_model.setdefault(model, ModelCalls())

    def notice(self, kind: str, text: str, author: str | None) -> None:
        if self.on_notice is not None:
            self.on_notice(kind, text, author or ROOT)

    def stepped_down(self, model: str, what: str, agent: str | None) -> None:
        self._model(model).step_downs.append(what)
        self.notice("warning", f"warning: {model} {what}", agent)

    async def call(
        self,
        send: Callable[[float], Awaitable[T]],
        *,
        model: str,
        api_base: str | None,
        agent: str | None,
        step_down: StepDown | None = None,
    ) -> T:
        """`send(timeout_s)` under the policy. `step_down` may switch a feature off after a fault naming it; the
        call is then sent again at once, without using a retry."""
        counts = self._model(model)
        attempts = self.policy.retries + 1
        attempt = 1
        while True:
            counts.attempts += 1
            try:
                result = await self._attempt(send, model=model, agent=agent, attempt=attempt, attempts=attempts)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - classified below; anything unknown is not retried
                fault = classify(exc)
                if fault.kind == "timeout":
                    counts.timeouts += 1
                what = step_down(fault) if step_down else None
                if what:
                    self.stepped_down(model, what, agent)
                    continue
                if not fault.retryable or attempt >= attempts:
                    counts.failures += 1
                    failed = ModelCallFailed(model=model, api_base=api_base, agent=agent, fault=fault, attempts=attempt)
                    self.failure = CallFailure(model=model, api_base=api_base, agent=agent, kind=fault.kind,
                                               status=fault.status, message=fault.message, attempts=attempt,
                                               hint=failed.hint)
                    raise failed from exc
                delay = self.policy.delay(attempt, fault)
                after = " (as the server asked)" if fault.retry_after_s is not None else ""
                self.notice(
                    "waiting",
                    f"{agent or 'model'}: waiting for {model} (attempt {attempt + 1}/{attempts}, retrying in "
                    f"{delay:.0f} s{after}: {fault.short()})",
                    agent,
                )
                counts.retries += 1
                counts.wait_s += delay
                await asyncio.sleep(delay)
                attempt += 1
                continue
            counts.calls += 1
            return result

    async def _attempt(
        self, send: Callable[[float], Awaitable[T]], *, model: str, agent: str | None, attempt: int, attempts: int
    ) -> T:
        """One request with the policy's timeout; says so on the progress while the answer is slow to come."""
        timeout = self.policy.timeout_s
        task = asyncio.ensure_future(asyncio.wait_for(send(timeout), timeout))
        started = time.monotonic()
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=self.policy.heartbeat_s())
                if done:
                    return task.result()
                waited = time.monotonic() - started
                self.notice(
                    "waiting",
                    f"{agent or 'model'}: waiting for {model} (attempt {attempt}/{attempts}, no answer for "
                    f"{waited:.0f} s; gives up at {timeout:.0f} s)",
                    agent,
                )
        finally:
            if not task.done():
                task.cancel()

    def summary(self) -> CallsSummary:
        """The `calls` block of run.json."""
        models = {name: ModelCallsSummary(**{**asdict(c), "wait_s": round(c.wait_s, 3)})
                  for name, c in sorted(self.by_model.items())}
        return CallsSummary(
            calls=sum(m.calls for m in models.values()),
            attempts=sum(m.attempts for m in models.values()),
            retries=sum(m.retries for m in models.values()),
            wait_s=round(sum(m.wait_s for m in models.values()), 3),
            timeouts=sum(m.timeouts for m in models.values()),
            failures=sum(m.failures for m in models.values()),
            step_downs=[f"{name}: {what}" for name, m in models.items() for what in m.step_downs],
            replies_capped=self.reply_caps,
            timeout_s=self.policy.timeout_s,
            max_retries=self.policy.retries,
            capabilities={spec: state.caps.describe() for spec, state in sorted(self.capabilities.items())},
            by_model=models,
            failure=self.failure,
        )
