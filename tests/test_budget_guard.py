"""BudgetGuard stops a scripted run cleanly at each budget, with status incomplete and the reason."""

from __future__ import annotations

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.apps import App
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from agentic_ds import state
from agentic_ds.config.settings import BudgetSettings, ModelOptions
from agentic_ds.context.budgets import BudgetGuard
from agentic_ds.runs.ledger import Usage, UsageLedger
from agentic_ds.runs.pricing import Pricing
from agentic_ds.runs.usage import UsagePlugin
from agentic_ds.testing.scripted import ScriptedLlm, call, text


def run_python(code: str) -> dict:
    """Runs code."""
    return {"output": code}


def build(script_len: int = 6, **usage):
    steps = [call("run_python", code=f"step({i})", **usage) for i in range(script_len)]
    coder = ScriptedLlm(name="coder", script=steps + [text("coder done", **usage)])
    writer = ScriptedLlm(name="writer", script=[text("report written", **usage)])
    root = SequentialAgent(
        name="root",
        sub_agents=[LlmAgent(name="coder", model=coder, tools=[run_python]), LlmAgent(name="writer", model=writer)],
    )
    return root, coder, writer


def guarded(settings: BudgetSettings | None = None, pricing: Pricing | None = None, **kwargs) -> BudgetGuard:
    return BudgetGuard(settings, ledger=UsageLedger(pricing), **kwargs)


async def run_app(root, guard):
    app = App(name="budgets", root_agent=root, plugins=[UsagePlugin(guard.ledger), guard])
    runner = Runner(app=app, session_service=InMemorySessionService())
    session = await runner.session_service.create_session(app_name="budgets", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="go")])
    events = [e async for e in runner.run_async(user_id="u", session_id=session.id, new_message=message)]
    stored = await runner.session_service.get_session(app_name="budgets", user_id="u", session_id=session.id)
    assert stored is not None
    return events, stored


async def test_max_llm_calls_stops_the_run_with_status_incomplete():
    root, coder, writer = build()
    guard = guarded(BudgetSettings(max_llm_calls=3))
    events, session = await run_app(root, guard)
    assert len(coder.requests) == 3 and len(writer.requests) == 0
    assert guard.exhausted == "max LLM calls (3) used"
    assert session.state[state.STOP] == {"status": "incomplete", "reason": "budget reached: max LLM calls (3) used"}
    finals = [e.content.parts[0].text for e in events if e.is_final_response() and e.content]
    assert all("budget reached" in t for t in finals)
    assert {e.author for e in events if e.is_final_response()} == {"coder", "writer"}
    assert guard.ledger.by_model() == {"scripted": Usage(calls=3, input_tokens=300, output_tokens=30, usd=0.0)}
    assert guard.short_circuited == 2


async def test_max_tokens_stops_after_the_call_that_crosses_it():
    root, coder, writer = build(prompt_tokens=1000, completion_tokens=100)
    guard = guarded(BudgetSettings(max_tokens=2500))
    _, session = await run_app(root, guard)
    assert len(coder.requests) == 3  # 1100, 2200, 3300 tokens: the third crosses
    assert guard.exhausted == "max tokens (2500) used: 3300"
    reason = "budget reached: max tokens (2500) used: 3300"
    assert session.state[state.STOP] == {"status": "incomplete", "reason": reason}


async def test_max_cost_uses_the_cost_function():
    # $100 per million input tokens, $10,000 per million output tokens: 0.11 USD per scripted call (100 in, 10 out)
    pricing = Pricing({"scripted": ModelOptions(price_per_mtok=[100, 10_000])})
    root, coder, writer = build()
    guard = guarded(BudgetSettings(max_cost_usd=0.25), pricing, allow_after_exhausted=frozenset({"writer"}))
    events, session = await run_app(root, guard)
    assert len(coder.requests) == 3
    assert guard.exhausted.startswith("max cost ($0.25) used: $0.33")
    assert session.state[state.STOP]["status"] == "incomplete"
    # the report writer is allowed to finish so the report of what was done is still written
    writer.assert_complete()
    assert events[-1].content.parts[0].text == "report written"
    assert round(guard.usd, 2) == 0.44


async def test_within_budget_nothing_changes():
    root, coder, writer = build(script_len=2)
    guard = guarded(BudgetSettings(max_llm_calls=10, max_tokens=10**6, max_cost_usd=1.0))
    _, session = await run_app(root, guard)
    coder.assert_complete()
    writer.assert_complete()
    assert guard.exhausted is None and state.STOP not in session.state
    assert guard.calls == 4 and guard.tokens == 440


async def test_missing_usage_is_estimated_from_the_request():
    from google.adk.models import LlmResponse

    bare = LlmResponse(content=types.Content(role="model", parts=[types.Part(text="an answer of several words")]))
    model = ScriptedLlm(name="m", script=[bare])
    guard = guarded()
    await run_app(LlmAgent(name="solo", model=model, instruction="You analyse sales data."), guard)
    usage = guard.ledger.by_model()["scripted"]
    assert usage.input_tokens > 5 and usage.output_tokens >= 4 and usage.calls == 1


def test_prices_are_zero_for_offline_and_known_for_litellm_models_with_cached_tokens_cheaper():
    pricing = Pricing()
    assert pricing.price("offline").usd(1000, 0, 1000) == 0.0
    assert pricing.price("scripted").usd(1000, 0, 1000) == 0.0
    claude = pricing.price("anthropic/claude-sonnet-4-5")
    assert claude.usd(1000, 0, 500) > 0.001
    # the same prompt read from the provider's cache costs less (LiteLLM's cache-read price)
    assert claude.usd(1000, 800, 500) < claude.usd(1000, 0, 500)
    assert pricing.price("openai/my-local-thing") is None
