"""`LoopGuard`: an ADK plugin that watches every LLM agent for loops and breaks them.

Register it on the App (`App(plugins=[LoopGuard(...)])`). Per agent and branch it feeds a `LoopDetector` with
the agent's responses (text and function calls) and its tool results (a raised tool error, or a
result dict with a truthy "error" key, counts as an error).

- First detection of a kind for an agent: the agent's next model request gets an instruction (appended
  to its system instruction) naming what repeats and asking for a different approach. It goes there, not
  into the contents, so a request's contents stay exactly the history ADK built, which the compaction
  guard (registered after this plugin) compacts and counts as they are.
- The same kind detected again before the agent broke the repetition: the agent's turn is ended by
  a text-only response (ADK ends an LlmAgent's turn on a response with no function call), the
  warning goes to `warnings` and to session state under `state.WARNINGS`, and the run goes on.

Streaming: partial responses are fed as they arrive; a loop found mid-stream is acted on at the
final response (ADK gives callbacks no way to cut a stream short).

The guard never raises into the run: a failure inside it is logged and ignored.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.models import LlmRequest, LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from agentic_ds import state
from agentic_ds.context.loop_detector import (
    DEFAULT_MIN_CHARS,
    DEFAULT_PAGES,
    DEFAULT_REPEATS,
    LoopDetector,
    LoopKind,
    LoopSignal,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")
P = ParamSpec("P")

_ADVICE: dict[LoopKind, str] = {
    "repeated_text": "Do not write that passage again. Say something new, or give your final answer.",
    "repeated_tool_call": "Calling it again with the same arguments will return the same result. Change the "
    "arguments or the code, use another tool, or answer with what you already have.",
    "repeated_error": "Repeating the same approach will fail the same way. Read the error, change the cause "
    "(different code, another column or file, a simpler method), or explain the blocker in your final answer.",
    "repeated_reading": "Paging through the whole file will not fit in your context. Use what you have read, query "
    "the file for what you need (sql_query, run_python, profile_data), or answer with what you already know.",
}


def divergence_instruction(agent: str, signal: LoopSignal) -> str:
    return (
        f"LOOP DETECTED ({agent}): you produced {signal.describe()}\n"
        f"{_ADVICE[signal.kind]} Take a different approach now; if you repeat it again your turn will be ended."
    )


def stop_message(agent: str, signal: LoopSignal) -> str:
    return f"Agent '{agent}' was stopped for looping: {signal.describe()}"


def _key(context: CallbackContext | ToolContext) -> tuple[str, str]:
    return context.branch or "", context.agent_name


@dataclass
class _Watch:
    """What the guard knows about one agent."""

    detector: LoopDetector
    warned: set[str] = field(default_factory=set)
    pending_instruction: str | None = None
    stop_signal: LoopSignal | None = None
    streamed_text: bool = False


def _never_raise(hook: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T | None]]:
    @functools.wraps(hook)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T | None:
        try:
            return await hook(*args, **kwargs)
        except Exception:  # the guard must never end a run
            logger.exception("loop guard: %s failed; ignored", hook.__name__)
            return None

    return wrapper


class LoopGuard(BasePlugin):
    """Detects loops per agent; first asks for divergence, then ends the agent's turn."""

    def __init__(
        self, *, repeats: int = DEFAULT_REPEATS, min_chars: int = DEFAULT_MIN_CHARS, pages: int = DEFAULT_PAGES,
        name: str = "loop_guard",
    ) -> None:
        super().__init__(name=name)
        self.repeats = repeats
        self.min_chars = min_chars
        self.pages = pages
        self.warnings: list[str] = []
        self.divergences = 0           # instructions injected
        self.stops = 0                 # turns ended
        # One watch per agent and branch (stages under way at once run agents of the same name); each run of the
        # agent counts its calls afresh (`before_agent_callback`).
        self._watches: dict[tuple[str, str], _Watch] = {}

    def _watch(self, context: CallbackContext | ToolContext) -> _Watch:
        key = _key(context)
        if key not in self._watches:
            self._watches[key] = _Watch(LoopDetector(self.min_chars, self.repeats, self.pages))
        return self._watches[key]

    # -- reacting to a signal ----------------------------------------------------------------------
    def _on_signal(self, agent: str, watch: _Watch, signal: LoopSignal) -> bool:
        """Record a signal; True when the loop persisted and the turn must end."""
        if signal.kind not in watch.warned:
            watch.warned.add(signal.kind)
            watch.pending_instruction = divergence_instruction(agent, signal)
            self.divergences += 1
            logger.info("loop guard: %s repeats %s; asking for a different approach", agent, signal.kind)
            return False
        watch.stop_signal = signal
        return True

    def _stop(self, agent: str, context: CallbackContext | ToolContext) -> LlmResponse:
        watch = self._watches.pop(_key(context))  # a fresh watch if the agent runs again later
        signal = watch.stop_signal
        assert signal is not None
        message = stop_message(agent, signal)
        self.warnings.append(message)
        self.stops += 1
        context.state[state.WARNINGS] = [*(context.state.get(state.WARNINGS) or []), message]
        logger.warning("loop guard: %s", message)
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=message)]))

    # -- ADK hooks ---------------------------------------------------------------------------------
    @_never_raise
    async def before_agent_callback(self, *, agent: BaseAgent, callback_context: CallbackContext) -> None:
        """A new run of an agent: its calls are counted afresh (see `LoopDetector.new_run`)."""
        watch = self._watches.get(_key(callback_context))
        if watch is not None:
            watch.detector.new_run()
            watch.warned -= {"repeated_tool_call", "repeated_reading"}

    @_never_raise
    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        agent = callback_context.agent_name
        watch = self._watch(callback_context)
        if watch.stop_signal is not None:
            return self._stop(agent, callback_context)
        if watch.pending_instruction:
            llm_request.append_instructions([watch.pending_instruction])
            watch.pending_instruction = None
        return None

    @_never_raise
    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        agent = callback_context.agent_name
        watch = self._watch(callback_context)
        detector = watch.detector
        parts = llm_response.content.parts if llm_response.content and llm_response.content.parts else []
        texts = [part.text for part in parts if part.text and not part.thought]
        signals: list[LoopSignal | None] = []
        if llm_response.partial:
            watch.streamed_text = True
            signals += [detector.on_text(text) for text in texts]
        else:
            if not watch.streamed_text:  # the final response of a stream repeats the streamed text
                signals += [detector.on_text(text) for text in texts]
            watch.streamed_text = False
            signals.append(detector.end_text())
            if not detector.text.looping:
                watch.warned.discard("repeated_text")
            calls = [(p.function_call.name or "", p.function_call.args or {}) for p in parts if p.function_call]
            if calls:
                call_signal = detector.on_tool_calls(calls)
                if call_signal is None:
                    watch.warned.discard("repeated_tool_call")
                signals.append(call_signal)
            for name, args in calls:
                read_signal = detector.on_read(name, args)
                if read_signal is None:
                    watch.warned.discard("repeated_reading")
                signals.append(read_signal)
        stop = False
        for signal in dict.fromkeys(s for s in signals if s):  # one reaction per distinct signal
            stop = self._on_signal(agent, watch, signal) or stop
        if stop and not llm_response.partial:
            return self._stop(agent, callback_context)
        return None

    async def _on_tool_result(self, tool: BaseTool, tool_context: ToolContext, error: str | None) -> None:
        agent = tool_context.agent_name
        watch = self._watch(tool_context)
        signal = watch.detector.on_tool_result(tool.name, error)
        if signal is None:
            watch.warned.discard("repeated_error")
        else:
            self._on_signal(agent, watch, signal)  # a persisting loop ends the turn at the next model call

    @_never_raise
    async def after_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, result: dict[str, Any]
    ) -> dict[str, Any] | None:
        error = result.get("error") if isinstance(result, dict) else None
        await self._on_tool_result(tool, tool_context, str(error) if error else None)
        return None

    @_never_raise
    async def on_tool_error_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, error: Exception
    ) -> dict[str, Any] | None:
        await self._on_tool_result(tool, tool_context, f"{type(error).__name__}: {error}")
        return None
