"""Per-agent and per-model accounting (LLM calls, tokens, wall time) as an ADK plugin.

Plugin hooks run for every agent of the tree, so no agent needs its own callbacks for this. Claude Code's own
usage and cost arrive on its events' `custom_metadata["claude_code"]` and are folded in by `record_event`.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from google.adk.plugins import BasePlugin


@dataclass
class AgentUsage:
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    wall_s: float = 0.0


@dataclass
class ModelUsage:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0


class UsagePlugin(BasePlugin):
    def __init__(self, model_names: dict[str, str], cost_fn: Any = None) -> None:
        super().__init__(name="usage")
        self.model_names = model_names      # agent name -> configured model string
        self.cost_fn = cost_fn              # (model, input_tokens, output_tokens) -> usd
        self.agents: dict[str, AgentUsage] = {}
        self.models: dict[str, ModelUsage] = {}
        self._agent_started: dict[tuple[str, str], list[float]] = {}

    def _agent(self, name: str) -> AgentUsage:
        return self.agents.setdefault(name, AgentUsage())

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        key = (callback_context.invocation_id, agent.name)
        self._agent_started.setdefault(key, []).append(time.perf_counter())
        return None

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        starts = self._agent_started.get((callback_context.invocation_id, agent.name))
        if starts:
            self._agent(agent.name).wall_s += time.perf_counter() - starts.pop()
        return None

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        if getattr(llm_response, "partial", False):
            return None
        name = callback_context.agent_name
        usage = llm_response.usage_metadata
        tokens_in = (usage.prompt_token_count or 0) if usage else 0
        tokens_out = (usage.candidates_token_count or 0) if usage else 0
        self.add(name, self.model_names.get(name, "unknown"), tokens_in, tokens_out)
        return None

    def add(self, agent: str, model: str, tokens_in: int, tokens_out: int, usd: float | None = None, calls: int = 1) -> None:
        record = self._agent(agent)
        record.llm_calls += calls
        record.input_tokens += tokens_in
        record.output_tokens += tokens_out
        by_model = self.models.setdefault(model, ModelUsage())
        by_model.calls += calls
        by_model.input_tokens += tokens_in
        by_model.output_tokens += tokens_out
        if usd is None and self.cost_fn is not None:
            usd = self.cost_fn(model, tokens_in, tokens_out)
        by_model.usd += usd or 0.0

    def record_event(self, event: Any) -> None:
        """Fold in usage reported by agents that do not go through ADK's model calls (Claude Code)."""
        meta = (event.custom_metadata or {}).get("claude_code") if event.custom_metadata else None
        if meta:
            self.add(
                event.author,
                f"claude-code:{meta.get('model') or 'default'}",
                int(meta.get("input_tokens") or 0),
                int(meta.get("output_tokens") or 0),
                usd=float(meta.get("cost_usd") or 0.0),
                calls=int(meta.get("num_turns") or 1),
            )

    def totals(self) -> dict[str, Any]:
        return {
            "input_tokens": sum(a.input_tokens for a in self.agents.values()),
            "output_tokens": sum(a.output_tokens for a in self.agents.values()),
            "llm_calls": sum(a.llm_calls for a in self.agents.values()),
            "usd": round(sum(m.usd for m in self.models.values()), 6),
        }

    def agents_json(self) -> dict[str, Any]:
        return {name: {**asdict(u), "wall_s": round(u.wall_s, 3)} for name, u in sorted(self.agents.items())}

    def models_json(self) -> dict[str, Any]:
        return {name: {**asdict(u), "usd": round(u.usd, 6)} for name, u in sorted(self.models.items())}
