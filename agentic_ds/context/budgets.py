"""`BudgetGuard`: per-run limits on LLM calls, tokens and cost, as an ADK plugin.

It reads the run's `UsageLedger` (which `UsagePlugin`, registered before it, books every answered model call
into), so the limits count exactly what run.json and the reports show, earlier attempts of a resumed run included.

When a limit is reached the run stops cleanly rather than failing: `exhausted` says why, session
state gets the stop `{status: incomplete, reason: "budget reached: ..."}` (a ceiling on the status), and every later
model call is answered with a final text without calling the model, so each agent ends its turn at
once. Agents named in `allow_after_exhausted` (e.g. the report writer) may still call their model.
"""

from __future__ import annotations

import logging

from google.adk.agents.callback_context import CallbackContext
from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds import state
from agentic_ds.config.settings import BudgetSettings
from agentic_ds.runs.ledger import UsageLedger
from agentic_ds.schema import RunStatus

logger = logging.getLogger(__name__)


class BudgetGuard(BasePlugin):
    """Stops the run cleanly at the first budget reached (calls, tokens or USD)."""

    def __init__(
        self,
        settings: BudgetSettings | None = None,
        *,
        ledger: UsageLedger,
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
        self.ledger = ledger
        self._status_written = False

    # -- what the ledger holds ---------------------------------------------------------------------
    @property
    def calls(self) -> int:
        return self.ledger.total().calls

    @property
    def tokens(self) -> int:
        return self.ledger.total().tokens

    @property
    def usd(self) -> float:
        return self.ledger.total().usd

    def check_limits(self) -> None:
        if self.exhausted:
            return
        total = self.ledger.total()
        if total.calls >= self.max_llm_calls:
            self.exhausted = f"max LLM calls ({self.max_llm_calls}) used"
        elif self.max_tokens is not None and total.tokens >= self.max_tokens:
            self.exhausted = f"max tokens ({self.max_tokens}) used: {total.tokens}"
        elif self.max_cost_usd is not None and total.usd >= self.max_cost_usd:
            self.exhausted = f"max cost (${self.max_cost_usd:.2f}) used: ${total.usd:.4f}"
        if self.exhausted:
            logger.warning("budget reached: %s", self.exhausted)

    def _write_status(self, context: CallbackContext) -> None:
        if self.exhausted and not self._status_written:
            context.state[state.STOP] = {"status": RunStatus.INCOMPLETE, "reason": f"budget reached: {self.exhausted}"}
            self._status_written = True

    # -- ADK hooks ---------------------------------------------------------------------------------
    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        self.check_limits()   # usage booked outside agent calls (summaries, Claude Code) counts too
        agent = callback_context.agent_name
        if self.exhausted and agent not in self.allow_after_exhausted:
            self._write_status(callback_context)
            self.short_circuited += 1
            text = f"Stopped without calling the model: budget reached: {self.exhausted}."
            return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))
        return None

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        if llm_response.partial:
            return None
        self.check_limits()
        self._write_status(callback_context)
        return None
