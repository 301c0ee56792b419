"""`UsagePlugin`: books every answered model call of every agent into the run's `UsageLedger`, and times agents.

Plugin hooks run for every agent of the tree, so no agent needs its own callbacks for this. Tokens come from the
response's `usage_metadata` (cached prompt tokens from `cached_content_token_count`), estimated with
`count_tokens` when a model reports none. Claude Code reports its own usage and cost on its events'
`custom_metadata["claude_code"]`, which `record_event` books.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from google.adk.plugins import BasePlugin

from agentic_ds.context.tokens import count_tokens
from agentic_ds.runs.ledger import UsageLedger
from agentic_ds.schema import AgentUsage


class UsagePlugin(BasePlugin):
    def __init__(self, ledger: UsageLedger | None = None) -> None:
        super().__init__(name="usage")
        self.ledger = ledger or UsageLedger()
        self.wall_s: dict[str, float] = {}
        self._agent_started: dict[tuple[str, str], list[float]] = {}
        self._in_flight: dict[str, tuple[str, Any]] = {}

    def preload(self, agents: Mapping[str, AgentUsage]) -> None:
        """Start from each agent's wall time in earlier attempts of a resumed run (run.json's `agents`)."""
        for name, used in agents.items():
            self.wall_s[name] = self.wall_s.get(name, 0.0) + (used.wall_s or 0.0)

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        key = (callback_context.invocation_id, agent.name)
        self._agent_started.setdefault(key, []).append(time.perf_counter())
        self.wall_s.setdefault(agent.name, 0.0)
        return None

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        starts = self._agent_started.get((callback_context.invocation_id, agent.name))
        if starts:
            self.wall_s[agent.name] = self.wall_s.get(agent.name, 0.0) + time.perf_counter() - starts.pop()
        return None

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        self._in_flight[callback_context.agent_name] = (llm_request.model or "unknown", llm_request)
        return None

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        if getattr(llm_response, "partial", False):
            return None
        agent = callback_context.agent_name
        model, request = self._in_flight.pop(agent, ("unknown", None))
        usage = llm_response.usage_metadata
        if usage is not None and usage.prompt_token_count is not None:
            input_tokens, output_tokens = usage.prompt_token_count, usage.candidates_token_count or 0
            cached_tokens = usage.cached_content_token_count or 0
        else:
            input_tokens = count_tokens(model, request) if request is not None else 0
            parts = llm_response.content.parts if llm_response.content else None
            output_text = "".join(p.text or "" for p in parts or [])
            output_tokens, cached_tokens = (count_tokens(model, output_text) if output_text else 0), 0
        self.ledger.add(agent, model, calls=1, input_tokens=input_tokens, cached_tokens=cached_tokens,
                        output_tokens=output_tokens)
        return None

    def record_event(self, event: Any) -> None:
        """Book usage reported by agents that do not go through ADK's model calls (Claude Code)."""
        meta = (event.custom_metadata or {}).get("claude_code") if event.custom_metadata else None
        if not meta:
            return
        cost = meta.get("cost_usd")
        self.ledger.add(
            event.author, f"claude-code:{meta.get('model') or 'default'}", calls=int(meta.get("num_turns") or 1),
            input_tokens=int(meta.get("input_tokens") or 0),
            cached_tokens=int(meta.get("cache_read_input_tokens") or 0),
            output_tokens=int(meta.get("output_tokens") or 0), usd=float(cost) if cost is not None else None,
        )
