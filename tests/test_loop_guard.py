"""LoopGuard on real ADK agents driven by ScriptedLlm: divergence first, then the turn ends."""

from __future__ import annotations

from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
from google.adk.apps import App
from google.adk.models import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from agentic_ds import state
from agentic_ds.context.loop_guard import LoopGuard
from agentic_ds.testing.scripted import ScriptedLlm, call, text

LOOPING_TEXT = (
    "I will load inputs/sales.csv with pandas, check the column types, and compute the monthly revenue "
    "per region before plotting it. "
)


def run_python(code: str) -> dict:
    """Runs code."""
    if "boom" in code:
        return {"error": "Traceback (most recent call last):\nKeyError: 'revenue'"}
    return {"output": f"ran {len(code)} chars"}


def explode(path: str) -> dict:
    """Always raises."""
    raise FileNotFoundError(f"No such file: {path}")


async def run_app(root, guard: LoopGuard, message: str = "analyse the data"):
    app = App(name="loops", root_agent=root, plugins=[guard])
    runner = Runner(app=app, session_service=InMemorySessionService())
    session = await runner.session_service.create_session(app_name="loops", user_id="u")
    events = [
        event
        async for event in runner.run_async(
            user_id="u", session_id=session.id, new_message=types.Content(role="user", parts=[types.Part(text=message)])
        )
    ]
    stored = await runner.session_service.get_session(app_name="loops", user_id="u", session_id=session.id)
    assert stored is not None
    return events, stored


def final_texts(events, author):
    return [e.content.parts[0].text for e in events if e.author == author and e.is_final_response() and e.content]


async def test_repeated_tool_call_gets_a_divergence_instruction_then_the_turn_ends():
    model = ScriptedLlm(name="coder", script=[call("run_python", code="df.head()")] * 4)
    after = ScriptedLlm(name="next", script=[text("the orchestrator went on")])
    coder = LlmAgent(name="coder", model=model, tools=[run_python])
    root = SequentialAgent(name="root", sub_agents=[coder, LlmAgent(name="next", model=after)])
    guard = LoopGuard(repeats=3)

    events, session = await run_app(root, guard)

    model.assert_complete()
    after.assert_complete()
    assert "LOOP DETECTED" not in model.request_text(2)
    assert "LOOP DETECTED (coder)" in model.request_text(3)
    assert 'run_python({"code":"df.head()"})' in model.request_text(3)
    # it goes into the system instruction: the contents stay ADK's history, for compaction to work on as they are
    assert "LOOP DETECTED (coder)" in model.requests[3].config.system_instruction
    assert len(model.requests[3].contents) == len(model.requests[2].contents) + 2
    # the 4th identical call was replaced by a final text: the call never ran
    assert sum(1 for e in events for r in e.get_function_responses()) == 3
    assert final_texts(events, "coder") == [guard.warnings[0]]
    assert "stopped for looping" in guard.warnings[0] and "tool call 4 times" in guard.warnings[0]
    assert session.state[state.WARNINGS] == guard.warnings
    assert final_texts(events, "next") == ["the orchestrator went on"]
    assert (guard.divergences, guard.stops) == (1, 1)


async def test_the_same_two_reads_in_every_response_get_a_divergence_instruction_then_the_turn_ends():
    """An agent that asks for two files at once, every time (its context compacted away what it read), loops:
    call by call its reads alternate, response by response they repeat."""
    both = LlmResponse(content=types.Content(role="model", parts=[
        types.Part(function_call=types.FunctionCall(name="read_file", args={"path": f"outputs/{name}.json"}))
        for name in ("audit", "answer")]))
    model = ScriptedLlm(name="checker", script=[both] * 4)
    guard = LoopGuard(repeats=3)
    events, session = await run_app(LlmAgent(name="checker", model=model, tools=[read_file]), guard)
    model.assert_complete()
    assert "LOOP DETECTED (checker)" in model.request_text(3) and "outputs/answer.json" in model.request_text(3)
    assert sum(1 for e in events for r in e.get_function_responses()) == 6   # the 4th response never ran
    assert final_texts(events, "checker") == guard.warnings and "tool call 4 times" in guard.warnings[0]
    assert (guard.divergences, guard.stops) == (1, 1) and session.state[state.WARNINGS] == guard.warnings


async def test_a_checker_that_reads_the_same_files_in_each_of_its_runs_is_not_looping():
    """Run after every stage, each time with a context of its own, a checker starts with the same reads."""
    both = LlmResponse(content=types.Content(role="model", parts=[
        types.Part(function_call=types.FunctionCall(name="read_file", args={"path": f"outputs/{name}.json"}))
        for name in ("audit", "answer")]))
    model = ScriptedLlm(name="checker", script=[both, text("all criteria met")] * 4)
    checker = LlmAgent(name="checker", model=model, tools=[read_file])
    root = SequentialAgent(name="root", sub_agents=[checker.clone(), checker.clone(), checker.clone(), checker.clone()])
    events, session = await run_app(root, LoopGuard(repeats=3))
    model.assert_complete()
    assert final_texts(events, "checker") == ["all criteria met"] * 4
    assert not any("LOOP DETECTED" in model.request_text(n) for n in range(8))


async def test_agents_of_one_name_on_two_branches_are_watched_apart():
    """Stages under way at once run a coder each, under the same name: their calls are not one agent's."""
    coders = []
    for stage in ("s1", "s2"):
        model = ScriptedLlm(name=f"coder-{stage}", script=[call("run_python", code="df.head()")] * 2 + [text("ok")])
        coders.append((model, SequentialAgent(name=stage, sub_agents=[
            LlmAgent(name="coder", model=model, tools=[run_python])])))
    guard = LoopGuard(repeats=3)
    events, session = await run_app(ParallelAgent(name="stages", sub_agents=[c[1] for c in coders]), guard)
    for model, _ in coders:
        model.assert_complete()
        assert not any("LOOP DETECTED" in model.request_text(n) for n in range(3))
    assert guard.divergences == 0 and final_texts(events, "coder") == ["ok", "ok"]


async def test_a_different_approach_after_the_instruction_is_not_stopped():
    model = ScriptedLlm(
        name="coder",
        script=[call("run_python", code="df.head()")] * 3 + [call("run_python", code="df.describe()"), text("done")],
    )
    guard = LoopGuard(repeats=3)
    events, session = await run_app(LlmAgent(name="coder", model=model, tools=[run_python]), guard)
    model.assert_complete()
    assert "LOOP DETECTED" in model.request_text(3)
    assert "LOOP DETECTED" not in model.request_text(4)
    assert final_texts(events, "coder") == ["done"]
    assert guard.warnings == [] and state.WARNINGS not in session.state


async def test_same_error_result_in_a_row_is_a_loop():
    script = [call("run_python", code=f"boom({i})") for i in range(4)] + [text("never sent")]
    model = ScriptedLlm(name="coder", script=script)
    guard = LoopGuard(repeats=3)
    events, session = await run_app(LlmAgent(name="coder", model=model, tools=[run_python]), guard)
    assert len(model.requests) == 4, "the 5th call is short-circuited"
    assert "LOOP DETECTED" in model.request_text(3) and "KeyError: 'revenue'" in model.request_text(3)
    assert "the same error 4 times" in guard.warnings[0]
    assert session.state[state.WARNINGS] == guard.warnings
    assert final_texts(events, "coder") == guard.warnings


async def test_raised_tool_errors_count_and_the_guard_does_not_swallow_them():
    model = ScriptedLlm(name="coder", script=[call("explode", path=f"inputs/{i}.csv") for i in range(3)])
    guard = LoopGuard(repeats=3)
    try:
        await run_app(LlmAgent(name="coder", model=model, tools=[explode]), guard)
    except FileNotFoundError:
        pass  # ADK propagates an unhandled tool exception; the guard only observes it
    assert guard._watches[("", "coder")].detector.errors.count == 1


async def test_repeated_passage_across_responses_diverges_then_stops():
    model = ScriptedLlm(
        name="writer", script=[text(LOOPING_TEXT * 1), text(LOOPING_TEXT), text(LOOPING_TEXT), text(LOOPING_TEXT)]
    )
    agent = LlmAgent(name="writer", model=model)
    root = SequentialAgent(name="root", sub_agents=[agent.clone(), agent.clone(), agent.clone(), agent.clone()])
    for sub in root.sub_agents:
        assert isinstance(sub, LlmAgent)
        sub.model = model
    guard = LoopGuard(repeats=3)
    events, session = await run_app(root, guard)
    model.assert_complete()
    assert "LOOP DETECTED (writer)" in model.request_text(3) and "the same passage 3 times" in model.request_text(3)
    assert "inputs/sales.csv" in model.request_text(3)
    assert final_texts(events, "writer")[-1].startswith(
        "Agent 'writer' was stopped for looping: the same passage 4 times"
    )
    assert session.state[state.WARNINGS] == guard.warnings


async def test_loop_inside_one_response_is_caught():
    model = ScriptedLlm(name="writer", script=[text("Plan:\n" + LOOPING_TEXT * 5), text("A short, different answer.")])
    root = SequentialAgent(
        name="root", sub_agents=[LlmAgent(name="writer", model=model), LlmAgent(name="again", model=model)]
    )
    guard = LoopGuard(repeats=3)
    await run_app(root, guard)
    # the instruction is per agent: "again" is a different agent and is not told
    assert guard.divergences == 1 and "LOOP DETECTED" not in model.request_text(1)


async def test_legitimate_repetition_does_not_trigger():
    table = "\n\n".join(
        "| region | month | revenue (EUR) | orders | average basket (EUR) | returning (%) |\n"
        "|---|---|---|---|---|---|\n"
        + "\n".join(f"| r{r} | 2024-0{t} | {100 + r * t}.5 | {r} | 12.{r} | {t}{r} |" for r in range(3))
        for t in range(1, 5)
    )
    script = [call("read_file", path=f"outputs/part_{i}.csv") for i in range(5)] + [text(table)]
    model = ScriptedLlm(name="coder", script=script)

    def read_file(path: str) -> dict:
        """Reads a file."""
        return {"content": "a,b\n1,2"}

    guard = LoopGuard(repeats=3)
    events, _ = await run_app(LlmAgent(name="coder", model=model, tools=[read_file]), guard)
    model.assert_complete()
    assert guard.divergences == 0 and guard.warnings == []


def read_file(path: str, offset: int = 0) -> dict:
    """Reads a page of a long file."""
    return {"path": path, "content": "x" * 100, "truncated": True, "next_offset": offset + 100}


async def test_paging_through_one_file_without_acting_is_stopped_and_acting_resets_it():
    pages = [call("read_file", path="data_profile.json", offset=100 * i) for i in range(1, 5)]
    model = ScriptedLlm(name="analyst", script=pages)
    analyst = LlmAgent(name="analyst", model=model, tools=[read_file, run_python])
    guard = LoopGuard(pages=3)

    events, session = await run_app(analyst, guard)

    model.assert_complete()
    assert "LOOP DETECTED (analyst)" in model.request_text(3) and "reads of one file" in model.request_text(3)
    assert "Paging through the whole file" in model.request_text(3)
    assert sum(1 for e in events for r in e.get_function_responses()) == 3
    assert "stopped for looping" in guard.warnings[0] and session.state[state.WARNINGS] == guard.warnings

    acting = [call("read_file", path="a.csv", offset=100), call("read_file", path="a.csv", offset=200),
              call("run_python", code="df.head()"), call("read_file", path="a.csv", offset=300),
              call("read_file", path="a.csv", offset=400), text("done")]
    model = ScriptedLlm(name="analyst", script=acting)
    analyst = LlmAgent(name="analyst", model=model, tools=[read_file, run_python])
    guard = LoopGuard(pages=3)
    await run_app(analyst, guard)
    model.assert_complete()
    assert guard.divergences == 0 and guard.stops == 0


async def test_a_stop_in_a_structured_agent_is_kept_in_the_stored_state_when_its_answer_is_asked_again():
    """The stop's text is no valid JSON, so the structured agent is asked again; ADK dropped the event the stop
    wrote its warning into. The warning must still reach the stored session, from which run.json is decided."""
    from pydantic import BaseModel

    from agentic_ds.testing.scripted import as_json
    from agentic_ds.workflow.structured import StructuredAgent

    class Verdict(BaseModel):
        ok: bool

    model = ScriptedLlm(name="checker", script=[call("run_python", code="df.head()")] * 4 + [as_json({"ok": True})])
    checker = StructuredAgent(name="checker", model=model, tools=[run_python], output_schema=Verdict,
                              output_key="verdict")
    guard = LoopGuard(repeats=3)
    events, stored = await run_app(checker, guard)
    model.assert_complete()
    assert any("invalid structured output (attempt 1)" in (e.content.parts[0].text or "") for e in events
               if e.content and e.content.parts)
    assert guard.stops == 1 and stored.state["verdict"] == {"ok": True}
    assert stored.state[state.WARNINGS] == guard.warnings
