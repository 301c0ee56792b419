"""What a model's tokens cost: the user's `model_options.<model>.price_per_mtok`, else LiteLLM's cost map.

Cached prompt tokens (read from the provider's prompt cache) cost the provider's cache-read price when it is
known (LiteLLM's `cache_read_input_token_cost`, or `price_per_mtok.cached`); otherwise they cost as much as other
input tokens, so a cost is never understated. The offline and scripted models and self-hosted providers (Ollama,
LM Studio, llamafile) cost nothing; Claude Code reports its own cost. Any other model with no price is
*unpriced*: its cost is unknown, not $0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Models whose cost is known without a price: free ones, and Claude Code, which reports what it spent.
_NO_PRICE_NEEDED = ("offline", "scripted", "claude-code")
# Providers that only serve models from the user's own machine or server (LiteLLM prices `ollama/` models at 0).
_SELF_HOSTED_PROVIDERS = ("ollama", "ollama_chat", "lm_studio", "llamafile")


@dataclass(frozen=True)
class Price:
    """USD per million tokens. `cached_per_mtok` None: cached input tokens cost as much as other input tokens."""

    input_per_mtok: float
    output_per_mtok: float
    cached_per_mtok: float | None = None
    source: str = "litellm"          # litellm | model_options | free

    def usd(self, input_tokens: int, cached_tokens: int, output_tokens: int) -> float:
        """The cost of `input_tokens` prompt tokens (of which `cached_tokens` came from the cache) and the output."""
        cached = min(cached_tokens, input_tokens)
        cached_rate = self.input_per_mtok if self.cached_per_mtok is None else self.cached_per_mtok
        return ((input_tokens - cached) * self.input_per_mtok + cached * cached_rate
                + output_tokens * self.output_per_mtok) / 1e6


FREE = Price(0.0, 0.0, 0.0, source="free")


def needs_no_price(model: str) -> bool:
    return (model in _NO_PRICE_NEEDED or model.startswith("claude-code:")
            or model.partition("/")[0] in _SELF_HOSTED_PROVIDERS)


def litellm_price(model: str) -> Price | None:
    """The model's price in LiteLLM's (local) cost map, or None when it has none."""
    from agentic_ds.context.tokens import litellm_knows, load_litellm

    if not litellm_knows(model):
        return None
    info = load_litellm().get_model_info(model)
    per_input, per_output = info.get("input_cost_per_token"), info.get("output_cost_per_token")
    if per_input is None or per_output is None:
        return None
    cached = info.get("cache_read_input_token_cost")
    return Price(per_input * 1e6, per_output * 1e6, None if cached is None else cached * 1e6)


class Pricing:
    """Each model's price, looked up once per run."""

    def __init__(self, model_options: Mapping[str, Any] | None = None) -> None:
        self.model_options = model_options or {}
        self._prices: dict[str, Price | None] = {}

    def price(self, model: str) -> Price | None:
        if model not in self._prices:
            self._prices[model] = self._lookup(model)
        return self._prices[model]

    def _lookup(self, model: str) -> Price | None:
        options = self.model_options.get(model)
        set_by_user = getattr(options, "price_per_mtok", None)
        if set_by_user is not None:
            return Price(set_by_user.input, set_by_user.output, set_by_user.cached, source="model_options")
        if needs_no_price(model):
            return FREE
        return litellm_price(model)

    def unpriced(self, models: list[str]) -> list[str]:
        """The models among `models` whose cost cannot be known, each once, in order."""
        return [m for m in dict.fromkeys(models) if self.price(m) is None]


def price_hint(models: list[str]) -> str:
    """What the user can do about models with no known price."""
    return (f"set model_options.{models[0]}.price_per_mtok: [INPUT, OUTPUT] (USD per million tokens) in "
            "agentic-ds.yaml, or run without --max-cost")


def unpriced_models(models: Any, settings: Any) -> list[str]:
    """The run's models (`RoleModels`) with no known price; `ConfigError` when `--max-cost` is set and there are any,
    since a limit on a cost that cannot be known would never stop the run."""
    from agentic_ds.errors import ConfigError

    unpriced = Pricing(settings.model_options).unpriced([choice.spec for choice in models.choices.values()])
    if unpriced and settings.budgets.max_cost_usd is not None:
        raise ConfigError(
            f"--max-cost cannot be kept: no price is known for {', '.join(unpriced)}", hint=price_hint(unpriced)
        )
    return unpriced
