"""`UsageLedger`: the run's one account of model calls, tokens (input, cached, output) and cost per agent and model.

Every answered model call is written here once (by `UsagePlugin`, the compactor's summaries, Claude Code's
reported turns); run.json's `ledger`, `agents`, `tokens` and `cost`, the budget guard and the reports all read it,
so they cannot disagree. A resumed run starts from the earlier attempts' entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from google.genai.types import GenerateContentResponseUsageMetadata

from agentic_ds.runs.pricing import Pricing
from agentic_ds.schema import AgentUsage, Cost, LedgerEntry, ModelUsage, RunRecord, Tokens

COMPACTOR = "compactor"         # the agent the context compactor's summaries are booked to
EARLIER = "(earlier attempts)"   # the agent of usage a run.json without a ledger recorded per model only


@dataclass
class Usage:
    calls: int = 0
    input_tokens: int = 0        # every prompt token, cached ones included
    cached_tokens: int = 0       # of which read from the provider's prompt cache
    output_tokens: int = 0
    usd: float = 0.0

    def add(self, other: Usage) -> None:
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class UsageLedger:
    def __init__(self, pricing: Pricing | None = None) -> None:
        self.pricing = pricing or Pricing()
        self._entries: dict[tuple[str, str], Usage] = {}
        self._unpriced: set[str] = set()

    def add(
        self, agent: str, model: str, *, calls: int = 0, input_tokens: int = 0, cached_tokens: int = 0,
        output_tokens: int = 0, usd: float | None = None,
    ) -> None:
        """Book usage; `usd` None: priced from the model's price (a model with none is listed as unpriced)."""
        if usd is None:
            price = self.pricing.price(model)
            if price is None:
                self._unpriced.add(model)
            usd = price.usd(input_tokens, cached_tokens, output_tokens) if price else 0.0
        booked = Usage(calls, input_tokens, min(cached_tokens, input_tokens), output_tokens, usd)
        self._entries.setdefault((agent, model), Usage()).add(booked)

    def book_summary(self, model: str, usage: GenerateContentResponseUsageMetadata | None) -> None:
        """The compactor's summary call (made outside any agent's model callbacks)."""
        usage = usage or GenerateContentResponseUsageMetadata()
        self.add(COMPACTOR, model, calls=1, input_tokens=usage.prompt_token_count or 0,
                 cached_tokens=usage.cached_content_token_count or 0, output_tokens=usage.candidates_token_count or 0)

    # -- sums ----------------------------------------------------------------------------------------
    def total(self) -> Usage:
        return _sum(self._entries.values())

    def by_agent(self) -> dict[str, Usage]:
        return {agent: _sum(u for (a, _), u in self._entries.items() if a == agent)
                for agent in sorted({a for a, _ in self._entries})}

    def by_model(self) -> dict[str, Usage]:
        return {model: _sum(u for (_, m), u in self._entries.items() if m == model)
                for model in sorted({m for _, m in self._entries})}

    @property
    def unpriced(self) -> list[str]:
        """Models used whose cost is unknown (their `usd` counts 0 in every sum)."""
        return sorted(self._unpriced)

    # -- run.json ------------------------------------------------------------------------------------
    def preload(self, record: RunRecord) -> None:
        """Start from what earlier attempts of a resumed run booked (run.json's `ledger`; before it existed, the
        per-model `cost`, booked to one agent named `EARLIER`)."""
        earlier: list[tuple[str, str, ModelUsage]]
        if record.ledger:
            earlier = [(e.agent, e.model, e) for e in record.ledger]
        else:
            earlier = [(EARLIER, model, usage) for model, usage in record.cost.by_model.items()]
        for agent, model, usage in earlier:
            if usage.usd is None:
                self._unpriced.add(model)
            self._entries.setdefault((agent, model), Usage()).add(Usage(
                usage.calls, usage.input_tokens, usage.cached_tokens, usage.output_tokens, usage.usd or 0.0))

    def into(self, record: RunRecord, wall_s: dict[str, float]) -> None:
        """run.json's `ledger`, `agents` (with each agent's wall time), `tokens` and `cost`, all from the entries."""
        record.ledger = [
            LedgerEntry(agent=agent, model=model, **self._recorded(model, usage).model_dump())
            for (agent, model), usage in sorted(self._entries.items())
        ]
        agents = self.by_agent()
        record.agents = {
            name: AgentUsage(llm_calls=u.calls, input_tokens=u.input_tokens, cached_tokens=u.cached_tokens,
                             output_tokens=u.output_tokens, wall_s=round(wall_s.get(name, 0.0), 3))
            for name, u in sorted({**{n: Usage() for n in wall_s}, **agents}.items())
        }
        total = self.total()
        record.tokens = Tokens(input=total.input_tokens, cached=total.cached_tokens, output=total.output_tokens,
                               llm_calls=total.calls)
        record.cost = Cost(
            total_usd=round(total.usd, 6),
            by_model={model: self._recorded(model, u) for model, u in self.by_model().items()},
            unpriced=self.unpriced,
        )

    def _recorded(self, model: str, usage: Usage) -> ModelUsage:
        """As run.json records it: `usd` None for a model with no known price."""
        return ModelUsage(calls=usage.calls, input_tokens=usage.input_tokens, cached_tokens=usage.cached_tokens,
                          output_tokens=usage.output_tokens,
                          usd=None if model in self._unpriced else round(usage.usd, 6))


def _sum(usages: Iterable[Usage]) -> Usage:
    total = Usage()
    for usage in usages:
        total.add(usage)
    return total
