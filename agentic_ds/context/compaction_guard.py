"""`CompactionGuard`: compacts *before* a model call whose prompt would exceed the budget.

ADK's token trigger (`EventsCompactionConfig.token_threshold`, checked by its compaction request
processor before each call) compares the budget with the prompt size the agent's previous call
reported, falling back to a chars/4 estimate. A large tool result added since that call, or an
agent's first call on a long shared history, therefore goes out over budget. This plugin measures
the request actually about to be sent (`count_tokens`) and, when it is over the App's
`token_threshold`, runs ADK's own token-threshold compaction path at once (same event selection,
summarizer, `EventCompaction` event, and `session_service.append_event`, so it is persisted), then
replaces the compacted history in this request with the summary.

Counters (`calls`, `compactions`, `prompt_tokens`, `over_budget_calls`, `unspliced`) make it easy
to measure. It never raises into the run: on any failure the request goes out unchanged.
"""

from __future__ import annotations

import logging

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.apps.app import EventsCompactionConfig
from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds.context.tokens import count_tokens

logger = logging.getLogger(__name__)


async def _history(ctx: InvocationContext) -> list[types.Content]:
    """The contents ADK builds from the session for this agent now (its contents processor)."""
    from google.adk.flows.llm_flows.context import _contents  # ADK 2.13 internals, pinned in pyproject

    scratch = LlmRequest()
    async for _ in _contents.request_processor.run_async(ctx, scratch):
        pass
    return scratch.contents


def splice(request: list[types.Content], old: list[types.Content], new: list[types.Content]) -> list[types.Content] | None:
    """`request` with its `old` history swapped for `new`, keeping contents others inserted.

    `old` must appear in `request` in order (other contents may sit between). Only the part of
    `old` that differs from `new` (everything before their common tail) is replaced, at the place
    of its first element. None when `old` cannot be found in `request`.
    """
    tail = 0
    while tail < min(len(old), len(new)) and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    replaced, replacement = len(old) - tail, new[: len(new) - tail]
    positions: list[int] = []
    for index, content in enumerate(request):
        if len(positions) < len(old) and content == old[len(positions)]:
            positions.append(index)
    if len(positions) != len(old) or replaced == 0:
        return None
    cut = set(positions[:replaced])
    result: list[types.Content] = []
    for index, content in enumerate(request):
        if index == positions[0]:
            result.extend(replacement)
        if index not in cut:
            result.append(content)
    return result


class CompactionGuard(BasePlugin):
    """Measures every outgoing request and compacts first when it is over the App's token_threshold."""

    def __init__(self, name: str = "compaction_guard") -> None:
        super().__init__(name=name)
        self.calls = 0
        self.compactions = 0              # compactions this guard ran (ADK's own trigger is not counted)
        self.over_budget_calls = 0        # requests still over budget after compacting
        self.unspliced = 0                # compactions persisted but not applied to the current request
        self.prompt_tokens: list[int] = []  # estimated prompt size of every request, in order

    @property
    def max_prompt_tokens(self) -> int:
        return max(self.prompt_tokens, default=0)

    async def before_model_callback(self, *, callback_context: CallbackContext, llm_request: LlmRequest) -> LlmResponse | None:
        try:
            ctx = callback_context.get_invocation_context()
            config = ctx.events_compaction_config
            tokens = count_tokens(llm_request.model, llm_request)
            if config is not None and config.token_threshold is not None and tokens > config.token_threshold:
                if await self._compact(ctx, config, llm_request):
                    tokens = count_tokens(llm_request.model, llm_request)
                if tokens > config.token_threshold:
                    self.over_budget_calls += 1
            self.calls += 1
            self.prompt_tokens.append(tokens)
        except Exception:  # compaction is an optimisation: never fail the call because of it
            logger.exception("compaction guard failed; the request goes out uncompacted")
        return None

    async def _compact(self, ctx: InvocationContext, config: EventsCompactionConfig, llm_request: LlmRequest) -> bool:
        from google.adk.apps.compaction import _run_compaction_for_token_threshold_config  # ADK 2.13

        agent = ctx.agent
        old = await _history(ctx)
        # threshold 1: we already know the request is over budget; ADK picks the events, summarizes, appends
        forced = config.model_copy(update={"token_threshold": 1})
        compacted = await _run_compaction_for_token_threshold_config(
            config=forced,
            session=ctx.session,
            session_service=ctx.session_service,
            agent=agent,
            agent_name=agent.name,
            current_branch=ctx.branch,
            isolation_scope=ctx.isolation_scope,
        )
        if not compacted:
            return False
        self.compactions += 1
        spliced = splice(llm_request.contents, old, await _history(ctx))
        if spliced is None:
            self.unspliced += 1
            logger.info("compaction persisted; it applies from the next request of %s", agent.name)
            return False
        llm_request.contents = spliced
        return True
