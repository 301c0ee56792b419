"""The contract with ADK's internals (agentic_ds/adk_private.py): each one still exists, has the shape we call,
and behaves as we rely on. An ADK upgrade that moves one fails here, saying which and where to look."""

from __future__ import annotations

import importlib
import inspect

import pytest
from google.adk.agents import BaseAgent, LlmAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.adk.models import LlmRequest
from google.adk.sessions import InMemorySessionService, Session
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.adk.telemetry import TelemetryConfig
from google.genai import types

from agentic_ds.testing.scripted import ScriptedLlm

SEE = "see agentic_ds/adk_private.py"


def moved(name: str) -> str:
    return f"ADK upgrade moved {name}: {SEE}"


def adk_private():
    try:
        return importlib.import_module("agentic_ds.adk_private")
    except ImportError as exc:
        pytest.fail(moved(f"a module adk_private imports ({exc})"))


def test_every_private_name_we_use_still_exists():
    module = adk_private()
    for owner, name in module.PRIVATE_NAMES:
        where = getattr(owner, "__name__", repr(owner))
        assert hasattr(owner, name), moved(f"{where}.{name}")


def test_the_private_functions_take_the_arguments_we_pass():
    module = adk_private()
    expected = {
        (module._contents, "_is_event_belongs_to_branch"): ["invocation_branch", "event"],
        (module._compaction, "_events_to_compact_for_token_threshold"): ["events", "event_retention_size"],
        (module._compaction, "_is_range_worth_compacting"): ["events", "events_to_compact"],
        (module._contents.request_processor, "run_async"): ["invocation_context", "llm_request"],
    }
    for (owner, name), parameters in expected.items():
        signature = inspect.signature(getattr(owner, name))
        assert list(signature.parameters)[: len(parameters)] == parameters, moved(f"the signature of {name}")


def test_custom_agent_and_tool_hooks_are_where_adk_documents_them():
    # Overridden across workflow/ (custom agents) and in adk_private.DeclaredTool: ADK's documented extension
    # points, spelled with an underscore.
    for owner, name in ((BaseAgent, "_run_async_impl"), (LlmAgent, "_run_async_impl")):
        assert inspect.isasyncgenfunction(getattr(owner, name, None)), moved(f"{owner.__name__}.{name}")


def _event(author: str, text: str, branch: str | None = None, **actions) -> Event:
    return Event(invocation_id="i", author=author, branch=branch,
                 content=types.Content(role="user" if author == "user" else "model", parts=[types.Part(text=text)]),
                 actions=EventActions(**actions))


def test_branch_visibility_is_adks_own():
    module = adk_private()
    on = {name: _event("coder", name, branch=name) for name in ("root", "root.s1", "root.s2")}
    unbranched = _event("user", "task")
    visible = [name for name, event in on.items() if module.in_branch("root.s1", event)]
    assert visible == ["root", "root.s1"], moved("_is_event_belongs_to_branch (its meaning)")
    assert module.in_branch("root.s1", unbranched), moved("_is_event_belongs_to_branch (its meaning)")


def test_compaction_choice_keeps_the_newest_events_and_calls_with_their_responses():
    module = adk_private()
    call = types.Part(function_call=types.FunctionCall(id="c1", name="look", args={}))
    response = types.Part(function_response=types.FunctionResponse(id="c1", name="look", response={"ok": True}))
    history = [_event("coder", f"step {i}") for i in range(6)]
    history[3] = Event(invocation_id="i", author="coder", content=types.Content(role="model", parts=[call]))
    history[4] = Event(invocation_id="i", author="coder", content=types.Content(role="user", parts=[response]))
    for index, event in enumerate(history):
        event.timestamp = float(index + 1)
    chosen = module.events_to_compact(history, retention=2)
    assert chosen and chosen[0] is history[0], moved("_events_to_compact_for_token_threshold (its meaning)")
    assert history[5] not in chosen and (history[3] in chosen) == (history[4] in chosen), \
        moved("_events_to_compact_for_token_threshold (call/response pairing)")


async def test_adk_builds_each_request_from_the_sessions_own_event_list():
    module = adk_private()
    agent = LlmAgent(name="coder", model=ScriptedLlm())
    events = [_event("user", "task"), _event("coder", "first answer"), _event("user", "go on")]
    session = Session(id="s", app_name="app", user_id="u", events=list(events))
    ctx = InvocationContext(session_service=InMemorySessionService(), invocation_id="i", agent=agent,
                            session=session)
    texts = [part.text for content in await module.content_history(ctx) for part in content.parts]
    assert texts == ["task", "first answer", "go on"], moved("the contents request processor")
    alias = session.events
    module.replace_session_events(session, [events[0], events[2]])
    assert session.events is alias  # the runner and every context hold this one list
    texts = [part.text for content in await module.content_history(ctx) for part in content.parts]
    assert texts == ["task", "go on"], moved("where requests are built from (ctx.session.events)")


def test_adk_asks_a_tool_for_its_declaration_through_the_hook_we_override():
    module = adk_private()

    def look(path: str) -> dict:
        """Look at a path."""
        return {"path": path}

    tool = module.DeclaredTool(look)
    request = LlmRequest()
    request.append_tools([tool])
    declarations = request.config.tools[0].function_declarations
    assert declarations is not None
    (declaration,) = declarations
    assert declaration is tool._get_declaration(), moved("FunctionTool._get_declaration (no longer what requests use)")


async def test_the_sqlite_session_service_connects_through_the_hook_we_override(tmp_path):
    module = adk_private()
    probe = SqliteSessionService(str(tmp_path / "probe.db"))
    for name in module.SQLITE_SERVICE_ATTRIBUTES:
        assert hasattr(probe, name), moved(f"SqliteSessionService.{name}")
    service = module.RunSessionService(str(tmp_path / "session.db"))
    session = await service.create_session(app_name="app", user_id="u", state={"task": "t"})
    await service.append_event(session, Event(invocation_id="i", author="coder",
                                              actions=EventActions(state_delta={"step": 1})))
    assert service._conn is not None, moved("SqliteSessionService._get_db_connection (no longer used)")
    await service.close()
    stock = SqliteSessionService(str(tmp_path / "session.db"))  # the file stays ADK's own format
    again = await stock.get_session(app_name="app", user_id="u", session_id=session.id)
    assert again is not None and again.state == {"task": "t", "step": 1}
    await stock.close()


def test_telemetry_answers_are_plain_properties_we_can_cache():
    module = adk_private()
    for name in module.TELEMETRY_ANSWERS:
        assert isinstance(TelemetryConfig.__dict__.get(name), property), moved(f"TelemetryConfig.{name}")


def test_the_claude_sdk_transport_our_test_guard_blocks_is_still_there():
    try:
        from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport
    except ImportError as exc:
        pytest.fail(f"claude-agent-sdk upgrade moved its subprocess transport ({exc}): see agentic_ds/testing/guard.py")
    assert callable(getattr(SubprocessCLITransport, "connect", None))
