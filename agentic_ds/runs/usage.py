"""Per-agent accounting (LLM calls, tokens, wall time) as an ADK plugin.

Plugin hooks run for every agent of the tree, so no agent needs its own callbacks for this. Usage per model and
its cost are the budget guard's (`agentic_ds.context.budgets`); Claude Code reports its own usage and cost on its
events' `custom_metadata["claude_code"]`, which `record_event` passes to both.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from google.adk.plugins import BasePlugin

from agentic_ds.schema import AgentUsage, Tokens


class UsagePlugin(BasePlugin):
    def __init__(self, budget: Any = None) -> None:
        super().__init__(name="usage")
        self.budget = budget                # BudgetGuard, told about usage made outside ADK model calls
        self.agents: dict[str, AgentUsage] = {}
        self._agent_started: dict[tuple[str, str], list[float]] = {}

    def preload(self, agents: Mapping[str, AgentUsage]) -> None:
        """Start from what each agent used in earlier attempts of a resumed run (run.json's `agents`)."""
        for name, used in agents.items():
            self.agents[name] = used.model_copy(update={"wall_s": used.wall_s or 0.0})

    def _agent(self, name: str) -> AgentUsage:
        return self.agents.setdefault(name, AgentUsage(wall_s=0.0))

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        key = (callback_context.invocation_id, agent.name)
        self._agent_started.setdefault(key, []).append(time.perf_counter())
        return None

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        starts = self._agent_started.get((callback_context.invocation_id, agent.name))
        if starts:
            record = self._agent(agent.name)
            record.wall_s = (record.wall_s or 0.0) + time.perf_counter() - starts.pop()
        return None

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        if getattr(llm_response, "partial", False):
            return None
        usage = llm_response.usage_metadata
        record = self._agent(callback_context.agent_name)
        record.llm_calls += 1
        record.input_tokens += (usage.prompt_token_count or 0) if usage else 0
        record.output_tokens += (usage.candidates_token_count or 0) if usage else 0
        return None

    def record_event(self, event: Any) -> None:
        """Fold in usage reported by agents that do not go through ADK's model calls (Claude Code)."""
        meta = (event.custom_metadata or {}).get("claude_code") if event.custom_metadata else None
        if not meta:
            return
        tokens_in, tokens_out = int(meta.get("input_tokens") or 0), int(meta.get("output_tokens") or 0)
        turns = int(meta.get("num_turns") or 1)
        record = self._agent(event.author)
        record.llm_calls += turns
        record.input_tokens += tokens_in
        record.output_tokens += tokens_out
        if self.budget is not None:
            model = f"claude-code:{meta.get('model') or 'default'}"
            self.budget.record(model, tokens_in, tokens_out, calls=turns, usd=float(meta.get("cost_usd") or 0.0))

    def totals(self) -> Tokens:
        return Tokens(
            input=sum(a.input_tokens for a in self.agents.values()),
            output=sum(a.output_tokens for a in self.agents.values()),
            llm_calls=sum(a.llm_calls for a in self.agents.values()),
        )

    def agents_record(self) -> dict[str, AgentUsage]:
        """run.json's `agents`: each agent's usage, wall time rounded to the millisecond."""
        return {
            name: usage.model_copy(update={"wall_s": round(usage.wall_s or 0.0, 3)})
            for name, usage in sorted(self.agents.items())
        }
