"""Token-based compaction with ADK's own mechanism, and the summarizers it uses.

`build_compaction_config` returns ADK's `EventsCompactionConfig`: `token_threshold` is the prompt
budget (an absolute number, or a share of the model's context window), `event_retention_size` the
newest events kept verbatim. A run gives it to `CompactionGuard` (compaction_guard.py), not to the
`App`: ADK's own trigger checks only the prompt size the agent's *previous* call reported and
summarizes the whole session, while the guard measures the outgoing request and compacts only what
that agent is sent. Summaries are ADK `EventCompaction` events appended through the session service,
so they are persisted in `session.db` and ADK renders them natively.

The summarizer is `ExtractiveSummarizer` (deterministic, no model) when the compactor is the offline
model, else ADK's `LlmEventSummarizer` with `COMPACTOR_PROMPT`.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from google.adk.apps.app import EventsCompactionConfig
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
from google.adk.events import Event, EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.models import BaseLlm
from google.genai import types

from agentic_ds.config.settings import ContextSettings

DEFAULT_BUDGET_TOKENS = 32_000        # prompt budget when neither budget_tokens nor a context window is known
# An extractive summary may take a quarter of the budget: numeric text runs ~2 characters per token.
SUMMARY_CHARS_PER_BUDGET_TOKEN = 0.5
SUMMARY_CHARS_RANGE = (1000, 8000)
SUMMARY_HEADER = "Summary of earlier work (older events were compacted):"
UsageCallback = Callable[[str, types.GenerateContentResponseUsageMetadata | None], None]

COMPACTOR_PROMPT = (
    "You compress the history of a data-analysis agent so it can continue its work with a smaller context.\n"
    "Write a factual summary, at most 400 words, in this order:\n"
    "1. The task and the current goal.\n"
    "2. Files: every file path that was read, written or produced (inputs/, outputs/, figures/, stages/), verbatim.\n"
    "3. Numbers: every figure that was computed or reported (counts, means, coefficients, p-values, row counts), "
    "with what it measures, verbatim.\n"
    "4. Errors: each error met, its cause and whether it was fixed.\n"
    "5. Decisions: what was decided or approved, and why; what remains to do.\n"
    "Keep names of tools, columns and files exactly as written. If the history starts with an earlier summary, "
    "carry its facts forward. Do not invent anything.\n\n{conversation_history}"
)


def prompt_budget(settings: ContextSettings, window: int | None) -> int:
    """Tokens one prompt may carry: `budget_tokens`, else `budget_fraction` of `window`, else the default."""
    if settings.budget_tokens is not None:
        return settings.budget_tokens
    if window:
        return max(1000, int(window * settings.budget_fraction))
    return DEFAULT_BUDGET_TOKENS


def build_compaction_config(
    settings: ContextSettings,
    summarizer_llm: BaseLlm | None,
    window: int | None,
    *,
    on_usage: UsageCallback | None = None,
) -> EventsCompactionConfig | None:
    """The App's compaction config (None when compaction is off). `on_usage(model, usage)` books each summary."""
    if not settings.compaction:
        return None
    budget = prompt_budget(settings, window)
    if summarizer_llm is None or summarizer_llm.model.startswith("offline"):
        summarizer: BaseEventsSummarizer = ExtractiveSummarizer(max_chars=summary_chars(budget))
    else:
        summarizer = MeteredLlmSummarizer(summarizer_llm, on_usage=on_usage)
    with warnings.catch_warnings():  # ADK flags compaction [EXPERIMENTAL]; we pin ADK and test it
        warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]", category=UserWarning)
        return EventsCompactionConfig(
            token_threshold=budget,
            event_retention_size=settings.keep_recent_events,
            summarizer=summarizer,
        )


def summary_chars(budget_tokens: int) -> int:
    """Characters an extractive summary may hold so that it stays within a quarter of the prompt budget."""
    low, high = SUMMARY_CHARS_RANGE
    return max(low, min(high, int(budget_tokens * SUMMARY_CHARS_PER_BUDGET_TOKEN)))


class MeteredLlmSummarizer(LlmEventSummarizer):
    """ADK's LLM summarizer with our prompt, reporting each summary's token usage."""

    def __init__(self, llm: BaseLlm, *, on_usage: UsageCallback | None = None) -> None:
        super().__init__(llm=llm, prompt_template=COMPACTOR_PROMPT)
        self.model_name = llm.model
        self._on_usage = on_usage
        self.summaries = 0

    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        event = await super().maybe_summarize_events(events=events)
        if event is not None:
            self.summaries += 1
            if self._on_usage:
                self._on_usage(self.model_name, event.usage_metadata)
        return event


# -- extractive summary -----------------------------------------------------------------------------
# `(?<![\w./-])`: a match starts where a path-like token starts, so a long token is scanned once, not once
# per position (quadratic on a line of 20 KB without a break).
_FILE = re.compile(
    r"(?<![\w./-])[\w./-]*\w\.(?:csv|tsv|json|jsonl|parquet|xlsx?|png|jpe?g|svg|pdf|py|ipynb|md|html|txt|sql|db|pkl|yaml|yml)\b"
)
_ERROR = re.compile(r"\b\w*(?:Error|Exception)\b|Traceback|\bfailed\b|\berror\b", re.IGNORECASE)
_DECISION = re.compile(
    r"\b(?:decid\w*|approved?|reject\w*|conclu\w*|chose|chosen|will use|instead|next step|exit)\b", re.IGNORECASE
)
_NUMBER = re.compile(r"\d")
_CALL = re.compile(r"^\S+ called \w+\(")
_LINE_CHARS = 240
_NUMERIC_LINES_PER_EVENT = 8


@dataclass
class _Line:
    text: str
    priority: int
    carried: bool   # from an earlier summary
    order: int


def _flatten(value: object, prefix: str = "") -> list[str]:
    """A tool response as lines: `key: value` for scalars, one line per line of text values; empty values
    (`"error": ""`) give no line."""
    if value is None or value == "" or value == [] or value == {}:
        return []
    if isinstance(value, dict):
        return [line for key, item in value.items() for line in _flatten(item, f"{prefix}{key}: ")]
    if isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            return [f"{prefix}{json.dumps(value, default=str)}"]
        return [line for item in value for line in _flatten(item, prefix)]
    lines = str(value).splitlines() or [""]
    return [f"{prefix}{lines[0]}", *lines[1:]]


def _event_lines(event: Event) -> list[str]:
    lines: list[str] = []
    for part in (event.content.parts if event.content and event.content.parts else []):
        if part.text and not part.thought:
            lines.extend(part.text.splitlines())
        if part.function_call:
            lines.append(
                f"{event.author} called {part.function_call.name}({json.dumps(part.function_call.args, default=str)})"
            )
        if part.function_response:
            lines.extend(
                f"{part.function_response.name} -> {line}" for line in _flatten(part.function_response.response)
            )
    return lines


@functools.lru_cache(maxsize=4096)  # a rolling summary carries its lines into every later summary
def _priority(line: str) -> int:
    if _CALL.match(line):  # what was tried ranks below what came of it (its results carry the names again)
        return 1 if _NUMBER.search(line) or _FILE.search(line) else 0
    if _ERROR.search(line) or _DECISION.search(line):
        return 3
    if _FILE.search(line):
        return 2
    if _NUMBER.search(line):
        return 1
    return 0


class ExtractiveSummarizer(BaseEventsSummarizer):
    """Deterministic summary: the lines of the compacted events that carry file names, numbers,
    errors or decisions, deduplicated, each cut to 240 chars, within `max_chars` in total.

    When lines must be dropped, lines with only numbers go first, then file names, then errors and
    decisions; within a kind, the earlier summary's lines go last, so its facts are carried forward
    without freezing the summary (its numeric-only lines make room for a later file name).
    Numeric-only lines are capped per event so one big table cannot crowd out the rest. Lines are
    kept in their original order.
    """

    def __init__(self, max_chars: int = 4000) -> None:
        self.max_chars = max_chars
        self.summaries = 0

    def summarize_text(self, events: list[Event]) -> str:
        candidates: list[_Line] = []
        seen: set[str] = set()
        order = 0
        for event in events:
            is_previous_summary = bool(
                event.content and event.content.parts and (event.content.parts[0].text or "").startswith(SUMMARY_HEADER)
            )
            numeric = 0
            for raw in _event_lines(event):
                line = " ".join(raw.split())
                if not line or line == SUMMARY_HEADER or line in seen:
                    continue
                text = line if len(line) <= _LINE_CHARS else line[: _LINE_CHARS - 3] + "..."
                # Ranked on what the summary keeps: a file name past the cut would not be in it anyway.
                priority = max(_priority(text), 1) if is_previous_summary else _priority(text)
                if priority == 0:
                    continue
                if priority == 1:
                    numeric += 1
                    if numeric > _NUMERIC_LINES_PER_EVENT:
                        continue
                seen.add(line)
                candidates.append(_Line(text, priority, is_previous_summary, order))
                order += 1
        budget = self.max_chars - len(SUMMARY_HEADER) - 1
        chosen: list[_Line] = []
        for candidate in sorted(candidates, key=lambda c: (-c.priority, not c.carried, c.order)):
            if len(candidate.text) + 1 <= budget:
                chosen.append(candidate)
                budget -= len(candidate.text) + 1
        chosen.sort(key=lambda c: c.order)
        return "\n".join([SUMMARY_HEADER, *(c.text for c in chosen)])

    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        if not events:
            return None
        self.summaries += 1
        summary = types.Content(role="model", parts=[types.Part(text=self.summarize_text(events))])
        compaction = EventCompaction(
            start_timestamp=events[0].timestamp, end_timestamp=events[-1].timestamp, compacted_content=summary
        )
        return Event(author="user", invocation_id=Event.new_id(), actions=EventActions(compaction=compaction))
