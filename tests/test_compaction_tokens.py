"""Token-based compaction: triggers on prompt size (not event count), before the call, persisted."""

from __future__ import annotations

import random

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.events import Event, EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types

from agentic_ds.config.settings import ContextSettings
from agentic_ds.context.compaction import SUMMARY_HEADER, ExtractiveSummarizer, build_compaction_config
from agentic_ds.context.compaction_guard import CompactionGuard, forget_compacted, retention_within
from agentic_ds.context.tokens import count_tokens
from agentic_ds.testing.scripted import ScriptedLlm, call, text

BUDGET = 4000


def table(seed: int, rows: int) -> str:
    rng = random.Random(seed)
    return "\n".join(
        f"{i:4d} {rng.uniform(0, 1e4):10.3f} {rng.uniform(-5, 5):8.4f} {rng.randint(0, 10**6):8d}" for i in range(rows)
    )


def run_python(code: str) -> dict:
    """Runs code; prints a numeric table of `code`-dependent size."""
    step = int(code.split("_")[1])
    return {"output": f"wrote outputs/step_{step}.csv with {1000 + step} rows\n" + table(step, int(code.split("_")[2]))}


def honest(step_fn):
    """A scripted step that reports the prompt size it was actually sent (as a real model would)."""
    return lambda request: step_fn(prompt_tokens=count_tokens(None, request))


def coder_script(calls: int, rows: int):
    steps = [honest(lambda i=i, **kw: call("run_python", code=f"step_{i}_{rows}", **kw)) for i in range(calls)]
    return steps + [honest(lambda **kw: text("all stages done", **kw))]


async def run(script, *, guard: bool, service=None, settings=None):
    model = ScriptedLlm(name="coder", script=script)
    agent = LlmAgent(name="coder", model=model, instruction="You analyse data.", tools=[run_python])
    settings = settings or ContextSettings(budget_tokens=BUDGET, keep_recent_events=2)
    compaction = build_compaction_config(settings, None, None)
    plugins = [CompactionGuard()] if guard else []
    app = App(name="ctx", root_agent=agent, plugins=plugins, events_compaction_config=compaction)
    runner = Runner(app=app, session_service=service or InMemorySessionService())
    session = await runner.session_service.create_session(app_name="ctx", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="analyse inputs/sales.csv")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    model.assert_complete()
    return model, app, runner, session.id


def compactions(session):
    return [e for e in session.events if e.actions and e.actions.compaction]


async def test_large_tool_outputs_trigger_compaction_before_the_call_that_would_exceed_the_budget():
    model, app, runner, session_id = await run(coder_script(10, rows=45), guard=True)
    sizes = [count_tokens(None, r) for r in model.requests]
    assert max(sizes) <= BUDGET, sizes
    guard = app.plugins[0]
    assert guard.compactions >= 2 and guard.over_budget_calls == 0
    assert guard.max_prompt_tokens <= BUDGET
    # the history the model saw was replaced by the summary, which kept the early facts
    last = model.request_text(len(model.requests) - 1)
    assert SUMMARY_HEADER in last and "outputs/step_0.csv" in last and "1000 rows" in last


async def test_without_the_guard_adk_alone_sends_an_over_budget_prompt():
    # ADK compares the budget with the previous call's reported size: a big tool result goes out first
    model, app, runner, session_id = await run(coder_script(10, rows=45), guard=False)
    sizes = [count_tokens(None, r) for r in model.requests]
    assert max(sizes) > BUDGET
    session = await runner.session_service.get_session(app_name="ctx", user_id="u", session_id=session_id)
    assert compactions(session), "ADK's own trigger still fires, one call late"


async def test_many_small_events_under_the_budget_are_not_compacted():
    model, app, runner, session_id = await run(coder_script(25, rows=1), guard=True)
    session = await runner.session_service.get_session(app_name="ctx", user_id="u", session_id=session_id)
    assert len(session.events) > 50
    assert compactions(session) == [] and app.plugins[0].compactions == 0


async def test_compaction_events_are_persisted_in_sqlite(tmp_path):
    db = tmp_path / "session.db"
    _, app, _, session_id = await run(coder_script(8, rows=45), guard=True, service=SqliteSessionService(str(db)))
    assert app.plugins[0].compactions >= 1
    reopened = await SqliteSessionService(str(db)).get_session(app_name="ctx", user_id="u", session_id=session_id)
    stored = compactions(reopened)
    assert len(stored) == app.plugins[0].compactions
    summary = stored[0].actions.compaction.compacted_content.parts[0].text
    assert summary.startswith(SUMMARY_HEADER) and "outputs/step_0.csv" in summary


def test_config_budget_from_window_and_off_switch():
    assert build_compaction_config(ContextSettings(budget_fraction=0.5), None, 200_000).token_threshold == 100_000
    assert build_compaction_config(ContextSettings(budget_tokens=9000), None, 200_000).token_threshold == 9000
    assert build_compaction_config(ContextSettings(compaction=False), None, 200_000) is None
    config = build_compaction_config(ContextSettings(keep_recent_events=3), ScriptedLlm(model="offline-model"), None)
    assert isinstance(config.summarizer, ExtractiveSummarizer) and config.event_retention_size == 3


class _MemoryProbe(BasePlugin):
    """Records how many events the in-memory session holds at each model call."""

    def __init__(self) -> None:
        super().__init__(name="memory_probe")
        self.sizes: list[int] = []

    async def before_model_callback(self, *, callback_context, llm_request):
        self.sizes.append(len(callback_context.get_invocation_context().session.events))
        return None


async def test_compacted_events_leave_memory_and_stay_in_session_db(tmp_path):
    db = tmp_path / "session.db"
    probe = _MemoryProbe()
    model = ScriptedLlm(name="coder", script=coder_script(24, rows=45))
    agent = LlmAgent(name="coder", model=model, instruction="You analyse data.", tools=[run_python])
    compaction = build_compaction_config(ContextSettings(budget_tokens=BUDGET, keep_recent_events=2), None, None)
    guard = CompactionGuard(compaction)
    app = App(name="ctx", root_agent=agent, plugins=[guard, probe])
    runner = Runner(app=app, session_service=SqliteSessionService(str(db)))
    session = await runner.session_service.create_session(app_name="ctx", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="analyse inputs/sales.csv")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    model.assert_complete()
    assert guard.compactions >= 3 and guard.over_budget_calls == 0
    stored = await SqliteSessionService(str(db)).get_session(app_name="ctx", user_id="u", session_id=session.id)
    assert len(stored.events) == 1 + 2 * 24 + 1 + guard.compactions  # message, call/response pairs, answer, summaries
    # in memory: the newest summary and what it does not cover, never the whole turn
    assert max(probe.sizes) < len(stored.events) / 2, probe.sizes
    last = model.request_text(len(model.requests) - 1)
    assert "outputs/step_0.csv" in last and "1000 rows" in last  # the earliest facts survive in the summary


def _span(start: float, end: float) -> EventCompaction:
    summary = types.Content(role="model", parts=[types.Part(text="summary")])
    return EventCompaction(start_timestamp=start, end_timestamp=end, compacted_content=summary)


def _event(author: str, text_: str, *, compaction=None) -> Event:
    return Event(author=author, content=types.Content(role="model", parts=[types.Part(text=text_)]),
                 actions=EventActions(compaction=compaction))


def test_retention_keeps_the_newest_events_that_fit_in_the_room():
    small, big = "ok " * 10, "1234 5678 " * 400
    history = [_event("coder", small), _event("coder", big), _event("coder", small), _event("coder", small)]
    assert retention_within(history, None, limit_tokens=10_000, max_events=6) == 4
    assert retention_within(history, None, limit_tokens=10_000, max_events=2) == 2
    assert retention_within(history, None, limit_tokens=100, max_events=6) == 2   # stops before the big one
    assert retention_within(history, None, limit_tokens=5, max_events=6) == 0
    summary = _event("coder", "", compaction=_span(0, 1))
    assert retention_within([*history[:3], summary, history[3]], None, limit_tokens=100, max_events=6) == 2


def test_forgetting_drops_what_a_summary_stands_for_and_summaries_it_supersedes():
    raw = [_event("coder", f"step {i}") for i in range(4)]
    for i, event in enumerate(raw):
        event.timestamp = float(i + 1)
    older = _event("coder", "", compaction=_span(1.0, 2.0))
    newer = _event("coder", "", compaction=_span(1.0, 3.0))
    other_agent = _event("reviewer", "", compaction=_span(1.0, 2.0))
    user = _event("user", "analyse it")
    events = [user, raw[0], raw[1], older, raw[2], other_agent, newer, raw[3]]
    assert forget_compacted(events, [raw[2]], newer) == [user, raw[0], raw[1], other_agent, newer, raw[3]]
