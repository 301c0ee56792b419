"""Claude Agent SDK messages -> ADK events, and a turn's usage and cost -> event metadata.

Every message becomes an event authored by the coder, shaped like the default `LlmAgent` coder's:
assistant text -> text part, thinking -> thought part, tool use -> `function_call`, tool results ->
`function_response` (role `user`, carrying the state changes the tool made). Names of our MCP tools
are shown without their `mcp__agentic_ds__` prefix, so both coders' histories read alike.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from google.adk.events import Event, EventActions
from google.genai import types

from agentic_ds.coders.claude_tools import ToolBridge, adk_tool_name

METADATA_KEY = "claude_code"
RESPONSE_CAP = 20_000  # characters of one tool result kept in the event (the full output is on disk)


def cap_text(text: str, limit: int) -> str:
    """Keep head and tail of an over-long text, saying how much was cut."""
    if len(text) <= limit:
        return text
    head, tail = (limit * 3) // 4, limit // 4
    return f"{text[:head]}\n[... {len(text) - head - tail} characters cut ...]\n{text[-tail:]}"


def merge_actions(target: EventActions, extra: EventActions) -> None:
    """Fold one tool call's state and artifact changes into an event's actions (later writes win).

    Control flow (escalate, transfers) is deliberately not carried over: a coder's tool never ends a loop.
    """
    target.state_delta.update(extra.state_delta)
    target.artifact_delta.update(extra.artifact_delta)


def tool_result_text(content: Any) -> str:
    """`ToolResultBlock.content` (a string or a list of MCP content items) as plain text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for item in content:
        if isinstance(item, dict) and item.get("type") == "text":
            parts.append(str(item.get("text", "")))
        elif isinstance(item, dict):
            parts.append(f"[{item.get('type', 'content')}]")
        else:
            parts.append(str(item))
    return "\n".join(parts)


@dataclass
class EventMapper:
    """Converts the messages of one coder turn; remembers tool calls to name their responses."""

    author: str
    invocation_id: str
    branch: str | None
    bridge: ToolBridge
    _calls: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict, init=False, repr=False)

    def event(self, parts: list[types.Part], *, role: str = "model", actions: EventActions | None = None) -> Event:
        return Event(
            invocation_id=self.invocation_id,
            author=self.author,
            branch=self.branch,
            content=types.Content(role=role, parts=parts) if parts else None,
            actions=actions or EventActions(),
        )

    def text_event(self, text: str, *, actions: EventActions | None = None) -> Event:
        return self.event([types.Part(text=text)], actions=actions)

    def assistant(self, message: Any) -> Event | None:
        """An `AssistantMessage` -> one model event (None when it has nothing to show)."""
        from claude_agent_sdk import TextBlock, ThinkingBlock, ToolUseBlock

        parts: list[types.Part] = []
        for block in message.content:
            if isinstance(block, TextBlock) and block.text:
                parts.append(types.Part(text=block.text))
            elif isinstance(block, ThinkingBlock) and block.thinking:
                parts.append(types.Part(text=block.thinking, thought=True))
            elif isinstance(block, ToolUseBlock):
                name = adk_tool_name(block.name)
                self._calls[block.id] = (name, dict(block.input))
                parts.append(types.Part(function_call=types.FunctionCall(id=block.id, name=name, args=block.input)))
        if message.error and not parts:
            parts.append(types.Part(text=f"[Claude Code API error: {message.error}]"))
        return self.event(parts) if parts else None

    def tool_results(self, message: Any) -> Event | None:
        """A `UserMessage` carrying tool results -> one function-response event with the calls' state changes."""
        from claude_agent_sdk import ToolResultBlock

        if isinstance(message.content, str):
            return None
        parts: list[types.Part] = []
        actions = EventActions()
        for block in message.content:
            if not isinstance(block, ToolResultBlock):
                continue
            name, args = self._calls.pop(block.tool_use_id, ("unknown", {}))
            text = cap_text(tool_result_text(block.content), RESPONSE_CAP)
            response = {"error": text} if block.is_error else {"result": text}
            parts.append(
                types.Part(function_response=types.FunctionResponse(id=block.tool_use_id, name=name, response=response))
            )
            call_actions = self.bridge.take_actions(name, args)
            if call_actions is not None:
                merge_actions(actions, call_actions)
        return self.event(parts, role="user", actions=actions) if parts else None


@dataclass
class TurnUsage:
    """Tokens and cost of one coder turn, as the CLI reports them in its `ResultMessage`.

    `input_tokens` counts every prompt token, cached or not (as ADK's `prompt_token_count` does for
    other models); the breakdown follows, since cache reads are most of Claude Code's input.
    """

    model: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    uncached_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cost_usd: float | None = None
    num_turns: int = 0
    duration_ms: int = 0
    session_id: str | None = None
    models: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_result(cls, result: Any, fallback_model: str | None) -> TurnUsage:
        models = {name: _model_usage(info) for name, info in (result.model_usage or {}).items()}
        # The model that wrote the most did the work (the CLI also makes small side calls).
        main = max(models, key=lambda name: models[name]["output_tokens"], default=None)
        counts = _token_counts(result.usage or {})
        return cls(
            model=main or fallback_model,
            **counts,
            cost_usd=result.total_cost_usd,
            num_turns=result.num_turns,
            duration_ms=result.duration_ms,
            session_id=result.session_id,
            models=models,
        )

    def usage_metadata(self) -> types.GenerateContentResponseUsageMetadata:
        return types.GenerateContentResponseUsageMetadata(
            prompt_token_count=self.input_tokens,
            candidates_token_count=self.output_tokens,
            cached_content_token_count=self.cache_read_input_tokens,
            total_token_count=self.input_tokens + self.output_tokens,
        )

    def custom_metadata(self) -> dict[str, Any]:
        """`{"claude_code": {...}}`: what the run recorder puts into run.json."""
        return {METADATA_KEY: asdict(self)}


def _token_counts(usage: dict[str, Any]) -> dict[str, int]:
    """The API's usage fields (snake_case) -> our counts, with the prompt total."""
    uncached = int(usage.get("input_tokens") or 0)
    cache_read = int(usage.get("cache_read_input_tokens") or 0)
    cache_creation = int(usage.get("cache_creation_input_tokens") or 0)
    return {
        "input_tokens": uncached + cache_read + cache_creation,
        "output_tokens": int(usage.get("output_tokens") or 0),
        "uncached_input_tokens": uncached,
        "cache_read_input_tokens": cache_read,
        "cache_creation_input_tokens": cache_creation,
    }


def _model_usage(info: dict[str, Any]) -> dict[str, Any]:
    """One `model_usage` entry (the CLI's camelCase) -> our counts and cost."""
    counts = _token_counts(
        {
            "input_tokens": info.get("inputTokens"),
            "output_tokens": info.get("outputTokens"),
            "cache_read_input_tokens": info.get("cacheReadInputTokens"),
            "cache_creation_input_tokens": info.get("cacheCreationInputTokens"),
        }
    )
    return {**counts, "cost_usd": float(info.get("costUSD") or 0.0)}
