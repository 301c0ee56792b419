"""BudgetGuard stops a scripted run cleanly at each budget, with status incomplete and the reason."""

from __future__ import annotations

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.apps import App
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from agentic_ds import state
from agentic_ds.config.settings import BudgetSettings
from agentic_ds.context.budgets import BudgetGuard, litellm_cost
from agentic_ds.testing.scripted import ScriptedLlm, call, text


def run_python(code: str) -> dict:
    """Runs code."""
    return {"output": code}


def build(script_len: int = 6, **usage):
    coder = ScriptedLlm(
        name="coder",
        script=[call("run_python", code=f"step({i})", **usage) for i in range(script_len)]
        + [text("coder done", **usage)],
    )
    writer = ScriptedLlm(name="writer", script=[text("report written", **usage)])
    root = SequentialAgent(
        name="root",
        sub_agents=[LlmAgent(name="coder", model=coder, tools=[run_python]), LlmAgent(name="writer", model=writer)],
    )
    return root, coder, writer


async def run_app(root, guard):
    app = App(name="budgets", root_agent=root, plugins=[guard])
    runner = Runner(app=app, session_service=InMemorySessionService())
    session = await runner.session_service.create_session(app_name="budgets", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="go")])
    events = [e async for e in runner.run_async(user_id="u", session_id=session.id, new_message=message)]
    session = await runner.session_service.get_session(app_name="budgets", user_id="u", session_id=session.id)
    return events, session


async def test_max_llm_calls_stops_the_run_with_status_incomplete():
    root, coder, writer = build()
    guard = BudgetGuard(BudgetSettings(max_llm_calls=3))
    events, session = await run_app(root, guard)
    assert len(coder.requests) == 3 and len(writer.requests) == 0
    assert guard.exhausted == "max LLM calls (3) used"
    assert session.state[state.RUN_STATUS] == "incomplete"
    assert session.state[state.STATUS_REASON] == "budget reached: max LLM calls (3) used"
    finals = [e.content.parts[0].text for e in events if e.is_final_response() and e.content]
    assert all("budget reached" in t for t in finals) and {e.author for e in events if e.is_final_response()} == {
        "coder",
        "writer",
    }
    assert guard.usage_by_model() == {"scripted": {"calls": 3, "input_tokens": 300, "output_tokens": 30, "usd": 0.0}}
    assert guard.short_circuited == 2


async def test_max_tokens_stops_after_the_call_that_crosses_it():
    root, coder, writer = build(prompt_tokens=1000, completion_tokens=100)
    guard = BudgetGuard(BudgetSettings(max_tokens=2500))
    _, session = await run_app(root, guard)
    assert len(coder.requests) == 3  # 1100, 2200, 3300 tokens: the third crosses
    assert guard.exhausted == "max tokens (2500) used: 3300"
    assert session.state[state.STATUS_REASON] == "budget reached: max tokens (2500) used: 3300"
    assert session.state[state.RUN_STATUS] == "incomplete"


async def test_max_cost_uses_the_cost_function():
    def fake_cost(model: str, input_tokens: int, output_tokens: int) -> float:
        return 0.01 * input_tokens / 100 + 0.1 * output_tokens / 10  # 0.11 USD per scripted call

    root, coder, writer = build()
    guard = BudgetGuard(BudgetSettings(max_cost_usd=0.25), cost=fake_cost, allow_after_exhausted=frozenset({"writer"}))
    events, session = await run_app(root, guard)
    assert len(coder.requests) == 3
    assert guard.exhausted.startswith("max cost ($0.25) used: $0.33")
    assert session.state[state.RUN_STATUS] == "incomplete"
    # the report writer is allowed to finish so the report of what was done is still written
    writer.assert_complete()
    assert events[-1].content.parts[0].text == "report written"
    assert round(guard.usd, 2) == 0.44


async def test_within_budget_nothing_changes():
    root, coder, writer = build(script_len=2)
    guard = BudgetGuard(BudgetSettings(max_llm_calls=10, max_tokens=10**6, max_cost_usd=1.0))
    _, session = await run_app(root, guard)
    coder.assert_complete()
    writer.assert_complete()
    assert guard.exhausted is None and state.RUN_STATUS not in session.state
    assert guard.calls == 4 and guard.tokens == 440


async def test_missing_usage_is_estimated_from_the_request():
    from google.adk.models import LlmResponse

    bare = LlmResponse(content=types.Content(role="model", parts=[types.Part(text="an answer of several words")]))
    model = ScriptedLlm(name="m", script=[bare])
    guard = BudgetGuard()
    await run_app(LlmAgent(name="solo", model=model, instruction="You analyse sales data."), guard)
    usage = guard.usage_by_model()["scripted"]
    assert usage["input_tokens"] > 5 and usage["output_tokens"] >= 4


def test_litellm_cost_is_zero_for_offline_and_priced_for_known_models():
    assert litellm_cost("offline", 1000, 1000) == 0.0
    assert litellm_cost("scripted", 1000, 1000) == 0.0
    assert litellm_cost("anthropic/claude-sonnet-4-5", 1000, 500) > 0.001
