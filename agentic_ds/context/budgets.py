"""`BudgetGuard`: per-run limits on LLM calls, tokens and cost, as an ADK plugin.

Every model call of every agent passes through it. Calls are counted before they are made; tokens
come from the response's `usage_metadata` (estimated with `count_tokens` when a model reports
none); cost from LiteLLM's cost map for models it knows (offline and scripted models cost 0).

When a limit is reached the run stops cleanly rather than failing: `exhausted` says why, session
state gets `RUN_STATUS=RunStatus.INCOMPLETE` and `STATUS_REASON="budget reached: ..."`, and every later
model call is answered with a final text without calling the model, so each agent ends its turn at
once. Agents named in `allow_after_exhausted` (e.g. the report writer) may still call their model.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass

from google.adk.agents.callback_context import CallbackContext
from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds import state
from agentic_ds.config.settings import BudgetSettings
from agentic_ds.context.tokens import count_tokens, litellm_knows, load_litellm
from agentic_ds.schema import ModelUsage as RecordedUsage
from agentic_ds.schema import RunStatus

logger = logging.getLogger(__name__)

CostFunction = Callable[[str, int, int], float]


def litellm_cost(model: str, input_tokens: int, output_tokens: int) -> float:
    """USD for one call from LiteLLM's cost map; 0 for models it does not know (offline, scripted, local)."""
    if not litellm_knows(model):
        return 0.0
    prompt_usd, completion_usd = load_litellm().cost_per_token(
        model=model, prompt_tokens=input_tokens, completion_tokens=output_tokens
    )
    return float(prompt_usd + completion_usd)


@dataclass
class ModelUsage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0


class BudgetGuard(BasePlugin):
    """Stops the run cleanly at the first budget reached (calls, tokens or USD)."""

    def __init__(
        self,
        settings: BudgetSettings | None = None,
        *,
        cost: CostFunction = litellm_cost,
        allow_after_exhausted: frozenset[str] = frozenset(),
        name: str = "budget_guard",
    ) -> None:
        super().__init__(name=name)
        settings = settings or BudgetSettings()
        self.max_llm_calls = settings.max_llm_calls
        self.max_tokens = settings.max_tokens
        self.max_cost_usd = settings.max_cost_usd
        self.allow_after_exhausted = allow_after_exhausted
        self.exhausted: str | None = None
        self.short_circuited = 0          # model calls answered by the guard instead of the model
        self._cost = cost
        self._usage: dict[str, ModelUsage] = {}
        self._in_flight: dict[str, tuple[str, LlmRequest]] = {}
        self._status_written = False

    # -- accounting --------------------------------------------------------------------------------
    @property
    def calls(self) -> int:
        return sum(u.calls for u in self._usage.values())

    @property
    def tokens(self) -> int:
        return sum(u.input_tokens + u.output_tokens for u in self._usage.values())

    @property
    def usd(self) -> float:
        return sum(u.usd for u in self._usage.values())

    def usage_by_model(self) -> dict[str, dict[str, float | int]]:
        """{model: {calls, input_tokens, output_tokens, usd}} for run.json."""
        return {model: asdict(usage) for model, usage in self._usage.items()}

    def preload(self, by_model: Mapping[str, RecordedUsage]) -> None:
        """Count what earlier attempts of a resumed run spent (run.json's `cost.by_model`) against the limits."""
        for model, spent in by_model.items():
            usage = self._usage.setdefault(model, ModelUsage())
            usage.calls += spent.calls
            usage.input_tokens += spent.input_tokens
            usage.output_tokens += spent.output_tokens
            usage.usd += spent.usd or 0.0
        self._check_limits()

    def record(
        self, model: str, input_tokens: int, output_tokens: int, *, calls: int = 0, usd: float | None = None
    ) -> None:
        """Add usage made outside agent model calls too (the compactor's summaries; Claude Code, which
        reports its own `usd`)."""
        usage = self._usage.setdefault(model, ModelUsage())
        usage.calls += calls
        usage.input_tokens += input_tokens
        usage.output_tokens += output_tokens
        try:
            usage.usd += usd if usd is not None else self._cost(model, input_tokens, output_tokens)
        except Exception:  # an unpriced model must not end the run; it counts as free
            logger.warning("no price for model %s; its cost counts as 0", model, exc_info=True)
        self._check_limits()

    def _check_limits(self) -> None:
        if self.exhausted:
            return
        if self.calls >= self.max_llm_calls:
            self.exhausted = f"max LLM calls ({self.max_llm_calls}) used"
        elif self.max_tokens is not None and self.tokens >= self.max_tokens:
            self.exhausted = f"max tokens ({self.max_tokens}) used: {self.tokens}"
        elif self.max_cost_usd is not None and self.usd >= self.max_cost_usd:
            self.exhausted = f"max cost (${self.max_cost_usd:.2f}) used: ${self.usd:.4f}"
        if self.exhausted:
            logger.warning("budget reached: %s", self.exhausted)

    def _write_status(self, context: CallbackContext) -> None:
        if self.exhausted and not self._status_written:
            context.state[state.RUN_STATUS] = RunStatus.INCOMPLETE
            context.state[state.STATUS_REASON] = f"budget reached: {self.exhausted}"
            self._status_written = True

    # -- ADK hooks ---------------------------------------------------------------------------------
    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        agent = callback_context.agent_name
        if self.exhausted and agent not in self.allow_after_exhausted:
            self._write_status(callback_context)
            self.short_circuited += 1
            text = f"Stopped without calling the model: budget reached: {self.exhausted}."
            return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
        model = llm_request.model or "unknown"
        self.record(model, 0, 0, calls=1)
        self._in_flight[agent] = (model, llm_request)
        return None

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        if llm_response.partial:
            return None
        agent = callback_context.agent_name
        model, request = self._in_flight.pop(agent, ("unknown", None))
        usage = llm_response.usage_metadata
        if usage is not None and usage.prompt_token_count is not None:
            input_tokens, output_tokens = usage.prompt_token_count, usage.candidates_token_count or 0
        else:
            input_tokens = count_tokens(model, request) if request is not None else 0
            output_text = (
                "".join(p.text or "" for p in (llm_response.content.parts or [])) if llm_response.content else ""
            )
            output_tokens = count_tokens(model, output_text) if output_text else 0
        self.record(model, input_tokens, output_tokens)
        self._write_status(callback_context)
        return None
