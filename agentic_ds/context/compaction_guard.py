"""`CompactionGuard`: compacts *before* a model call whose prompt would exceed the budget.

ADK's token trigger (`EventsCompactionConfig.token_threshold`, checked by its compaction request
processor before each call) compares the budget with the prompt size the agent's previous call
reported, falling back to a chars/4 estimate. A large tool result added since that call, or an
agent's first call on a long shared history, therefore goes out over budget. This plugin measures
the request actually about to be sent (`count_tokens`) and, when it is over the config's
`token_threshold`, compacts at once with ADK's own pieces (its event selection and call/response
pairing, the config's summarizer, an `EventCompaction` event appended through
`session_service.append_event`, so it is persisted), then replaces the compacted history in this
request with the summary. It compacts down to about 3/4 of the budget (the newest events that fit stay
verbatim; when not even the newest tool call and its result fit, they come back after the summary in this
request, their long texts cut to the room left), so the turn goes on for a while before the next compaction,
and drops the compacted events from the in-memory session (`session.db` keeps them), so a long turn's per-call
cost stays flat. In a run the guard gets the config itself and the App none, so ADK's own trigger stays off (see
below).

Unlike ADK's session-wide trigger, it compacts only the history this agent is sent: its branch, and for
an agent with `include_contents="none"` its current turn. The summary event is authored by the agent and
carries its branch, so (a) it is no turn start for that agent (ADK authors summaries `user`, which makes
an `include_contents="none"` agent drop the events kept verbatim) and (b) one stage's summary never
reaches another stage's branch.

Counters (`calls`, `compactions`, `prompt_tokens`, `over_budget_calls`, `unspliced`) make it easy
to measure. It never raises into the run: on any failure the request goes out unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from itertools import chain

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.apps.app import EventsCompactionConfig
from google.adk.events import Event
from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.genai import types

from agentic_ds.adk_private import content_history, events_to_compact, in_branch, replace_session_events
from agentic_ds.context.cut import shorter
from agentic_ds.context.per_call import is_per_call
from agentic_ds.context.tokens import count_content, count_tokens
from agentic_ds.workflow.stage_scope import root_session

logger = logging.getLogger(__name__)

# A compaction aims to leave the prompt at most this share of the budget, so the turn can go on for a while
# before the next one (each costs a summary, and a compactor model call when the compactor is a model). What
# the instruction, the tool declarations and a summary (up to a quarter of the budget) leave of it goes to the
# newest events, kept verbatim.
COMPACT_TO_SHARE = 0.75
SUMMARY_SHARE = 0.25


def _contents_are_history(agent: object) -> bool:
    """Whether a request's contents, when plugins see it, are exactly ADK's contents processor output: the
    processors that run after it and edit contents (NL planning, code execution) serve only agents with a
    planner or a code executor, and the only plugin before this one that adds contents adds the per-call part of
    the prompt (`per_call`), which is not history."""
    return getattr(agent, "planner", None) is None and getattr(agent, "code_executor", None) is None


def splice(
    request: list[types.Content], old: list[types.Content], new: list[types.Content]
) -> list[types.Content] | None:
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

    def __init__(self, config: EventsCompactionConfig | None = None, name: str = "compaction_guard") -> None:
        """`config`: budget, retention and summarizer; None reads the App's `events_compaction_config`."""
        super().__init__(name=name)
        self.config = config
        # Compaction events go to the session directly, not through the Runner's stream; whoever logs the run's
        # events (events.jsonl) subscribes here so the log holds them too.
        self.on_event: Callable[[Event], None] | None = None
        self.calls = 0
        self.compactions = 0              # compactions this guard ran (ADK's own trigger is not counted)
        self.over_budget_calls = 0        # requests still over budget after compacting
        self.unspliced = 0                # compactions persisted but not applied to the current request
        self.prompt_tokens: list[int] = []  # estimated prompt size of every request, in order

    @property
    def max_prompt_tokens(self) -> int:
        return max(self.prompt_tokens, default=0)

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        try:
            ctx = callback_context.get_invocation_context()
            config = self.config or ctx.events_compaction_config
            tokens = count_tokens(llm_request.model, llm_request)
            budget = config.token_threshold if config is not None else None
            if config is not None and budget is not None and tokens > budget:
                if await self._compact(ctx, config, budget, llm_request, tokens):
                    tokens = count_tokens(llm_request.model, llm_request)
                if tokens > budget:
                    self.over_budget_calls += 1
            self.calls += 1
            self.prompt_tokens.append(tokens)
        except Exception:  # compaction is an optimisation: never fail the call because of it
            logger.exception("compaction guard failed; the request goes out uncompacted")
        return None

    async def _compact(
        self, ctx: InvocationContext, config: EventsCompactionConfig, budget: int, llm_request: LlmRequest, tokens: int
    ) -> bool:
        """Compact keeping at most `event_retention_size` of the newest events verbatim, as many as fit in the
        room `COMPACT_TO_SHARE` leaves; if the request is still over budget, summarize those too. True when the
        request now carries the summary."""
        model = llm_request.model
        if _contents_are_history(ctx.agent):
            old = [content for content in llm_request.contents if not is_per_call(content)]
        else:
            old = await content_history(ctx)
        history: list[Event] | None = visible_history(ctx)
        last = last_exchange(history or [])
        fixed = tokens - sum(count_content(model, content) for content in llm_request.contents)
        room = int(budget * (COMPACT_TO_SHARE - SUMMARY_SHARE)) - fixed
        kept = retention_within(history or [], model, room, config.event_retention_size or 0)
        spliced = None
        for retention in dict.fromkeys((kept, 0)):
            event = await compact_visible_history(
                ctx, config.model_copy(update={"event_retention_size": retention}), history
            )
            history = None  # a second pass works on the history as the first one left it
            if event is None:
                continue
            self.compactions += 1
            if self.on_event is not None:
                self.on_event(event)
            spliced = splice(llm_request.contents, old, await content_history(ctx))
            if spliced is None:
                self.unspliced += 1
                logger.info("compaction persisted; it applies from the next request of %s", _agent_name(ctx))
                return False
            shrunk = llm_request.model_copy(update={"contents": spliced})
            if count_tokens(llm_request.model, shrunk) <= budget:
                break
        if spliced is None:
            return False
        llm_request.contents = spliced
        if last is not None and last[1] not in spliced:
            llm_request.contents += within(model, budget - count_tokens(model, llm_request), last)
        return True


def last_exchange(history: list[Event]) -> tuple[types.Content, types.Content] | None:
    """The newest tool call and its result (two contents), when the history ends with a result."""
    if not history or not history[-1].content or not history[-1].get_function_responses():
        return None
    answered = {r.id for r in history[-1].get_function_responses()}
    for event in reversed(history[:-1]):
        if event.content and any(call.id in answered for call in event.get_function_calls()):
            return event.content, history[-1].content
    return None


def within(model: str | None, room: int, exchange: tuple[types.Content, types.Content]) -> list[types.Content]:
    """The exchange again, its result's long texts cut until it fits `room` tokens (the call's own arguments too,
    only when that is not enough); [] when even short cuts do not fit.

    A summary leaves out what the newest call returned, and an agent that cannot see the result of the call it
    just made makes it again: in this request (not in the session) the call and its result come back after the
    summary, as much of them as the budget still has room for."""
    call, result = exchange
    limits = (None, 4000, 2000, 1000, 500, 250)
    copies = chain(([call, _cut(result, n)] for n in limits), ([_cut(call, n), _cut(result, n)] for n in limits[1:]))
    return next((copy for copy in copies if sum(count_content(model, content) for content in copy) <= room), [])


def _cut(content: types.Content, limit: int | None) -> types.Content:
    """`content` with the strings of its tool calls' arguments and tool results cut to `limit` characters."""
    if limit is None:
        return content
    parts = []
    for part in content.parts or []:
        if part.function_call:
            call = part.function_call.model_copy(update={"args": shorter(part.function_call.args, limit)})
            part = part.model_copy(update={"function_call": call})
        if part.function_response:
            response = part.function_response.model_copy(
                update={"response": shorter(part.function_response.response, limit)})
            part = part.model_copy(update={"function_response": response})
        parts.append(part)
    return content.model_copy(update={"parts": parts})


def _agent_name(ctx: InvocationContext) -> str:
    return ctx.agent.name if ctx.agent is not None else ""


def retention_within(history: list[Event], model: str | None, limit_tokens: int, max_events: int) -> int:
    """How many of the newest events of `history` to keep verbatim: at most `max_events`, together at most
    `limit_tokens`. Kept events that would fill the budget on their own would only bring the next compaction
    (or a second pass) closer; what does not fit goes into the summary."""
    kept = tokens = 0
    for event in reversed(history):
        if kept == max_events:
            break
        if event.actions and event.actions.compaction:
            continue
        tokens += count_content(model, event.content)
        if tokens > limit_tokens:
            break
        kept += 1
    return kept


def visible_history(ctx: InvocationContext) -> list[Event]:
    """The session events this agent's request is built from: its isolation scope and branch; for an agent
    with `include_contents="none"`, only its current turn (its own events since another author last spoke)."""
    events = [e for e in ctx.session.events if e.isolation_scope == ctx.isolation_scope and in_branch(ctx.branch, e)]
    if getattr(ctx.agent, "include_contents", "default") != "none":
        return events
    start, name = len(events), _agent_name(ctx)
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.author != name and (event.content or (event.actions and event.actions.compaction)):
            break  # another author spoke (or ADK compacted on its own): the turn starts after it
        start = index
    return events[start:]


async def compact_visible_history(
    ctx: InvocationContext, config: EventsCompactionConfig, history: list[Event] | None = None
) -> Event | None:
    """Summarize the older part of `visible_history` (or of `history`, when given), keeping
    `event_retention_size` events verbatim (and every tool call with its response); persist and return the
    summary event. None when nothing was worth compacting."""
    if config.summarizer is None or config.event_retention_size is None:
        return None
    history = visible_history(ctx) if history is None else history
    chosen = events_to_compact(history, config.event_retention_size)
    if not chosen:
        return None
    event = await config.summarizer.maybe_summarize_events(events=chosen)
    if event is None:
        return None
    event.author, event.branch, event.isolation_scope = _agent_name(ctx), ctx.branch, ctx.isolation_scope
    stored = root_session(ctx.session)   # a stage's or check's context works on a copy of the run's session
    await ctx.session_service.append_event(session=stored, event=event)
    if stored is not ctx.session:
        ctx.session.events.append(event)
    replace_session_events(ctx.session, forget_compacted(ctx.session.events, chosen, event))
    return event


def forget_compacted(events: list[Event], compacted: list[Event], summary: Event) -> list[Event]:
    """`events` without what `summary` now stands for: the compacted events and the earlier summaries of the
    same history it supersedes. The in-memory session is cut to these; `session.db` keeps them all.

    ADK renders a compacted range as its summary, so these events are never sent again, yet it walks the
    in-memory list on every model call (turn detection, call/response pairing, compaction ranges); without
    this, a long turn's per-call cost grows with every event it ever made, compacted or not.
    """
    gone = {id(event) for event in compacted}
    span = summary.actions.compaction

    def superseded(event: Event) -> bool:
        earlier = event.actions.compaction if event.actions else None
        if span is None or earlier is None or event is summary:
            return False
        if (event.author, event.branch) != (summary.author, summary.branch):
            return False
        stamps = (span.start_timestamp, earlier.start_timestamp, earlier.end_timestamp, span.end_timestamp)
        return None not in stamps and list(stamps) == sorted(stamps)  # the earlier range lies within this one

    return [event for event in events if id(event) not in gone and not superseded(event)]
