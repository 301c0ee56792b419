"""Framework cost per model call stays flat over a long session (>= 2,000 events), compaction on.

Scenario: a scripted orchestrated run (zero-latency models) of K stages whose coder makes T `list_files` calls
per turn, persisted to `session.db` and `events.jsonl` as in a real run, with every guard on (budget, loops,
compaction with `budget_tokens` low enough that the coder's turn really compacts). The last stage's last call is
`write_file` of the result the checker and the validator cite (bench/scripted_runs.py); no code runs, so the
run ends `incomplete`, as the evidence says.

Method: every scripted step records `time.perf_counter()` when its model is called. Inside one coder turn,
the time between two consecutive model calls is everything the framework does for one call: ADK turning the
response into events, running the tool, building the next request (contents, instruction, branch filtering),
the plugins (usage, budget, loop and compaction guards, incl. token counting), persisting two events to
session.db and events.jsonl. The tool's own time is subtracted: every `list_files` call of the run is timed
where it runs, and each interval loses the time of the tool call made inside it. Intervals are bucketed by
their model-call index in the run: mean of the first 100 and of the last 100 coder intervals. The run is
repeated (`--rounds`, 3) and each bucket reports its fastest round, as timeit does: this machine's CPU is
shared and its speed varies up to 2x within minutes, which only ever adds time.
Default: 40 stages x 24 tool calls (24 is the project's cap on one coder turn, `loops.coder_tool_calls`).

Last line: `overhead: events=N ms_per_call_first100=X ms_per_call_last100=X`.
Bars: last100 <= 1.5 x first100 (flat), both <= 3 ms.

The same run is repeated, in the same rounds, with each private ADK seam that has a public drop-in
(agentic_ds/adk_private.py) swapped for it: the figures say what each seam saves.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import functools
import gc
import importlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google.adk.models import BaseLlm, LlmRequest, LlmResponse  # noqa: E402
from google.adk.models.base_llm import LlmCapabilities  # noqa: E402
from pydantic import PrivateAttr  # noqa: E402

from bench.record import record_section  # noqa: E402
from bench.scripted_runs import long_run_scripts, write_data  # noqa: E402

BUCKET = 100
# Each private ADK seam with a public drop-in: (what replaces it, the module attributes swapped for it).
ALTERNATIVES: dict[str, list[tuple[str, str, str]]] = {
    "ADK's FunctionTool (a deep copy of each declaration per request) for DeclaredTool": [
        ("agentic_ds.tools.toolset", "DeclaredTool", "google.adk.tools:FunctionTool"),
        ("agentic_ds.tools.skills", "DeclaredTool", "google.adk.tools:FunctionTool"),
    ],
    "ADK's TelemetryConfig (answers recomputed per message) for ResolvedTelemetry": [
        ("agentic_ds.workflow.assembly", "ResolvedTelemetry", "google.adk.telemetry:TelemetryConfig"),
    ],
}


class ZeroLatencyLlm(BaseLlm):
    """Replays its steps and records nothing: `ScriptedLlm` deep-copies every request it gets (about 10 ms on a
    long prompt), which is the test double's cost, not the framework's."""

    model: str = "scripted"
    script: list[Any]
    _position: int = PrivateAttr(default=0)

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities(output_schema_and_tools=True)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        step = self.script[self._position]
        self._position += 1
        yield step(llm_request)


class CallClock:
    """Wraps scripted steps so each records (call index, agent, time) when its model is called, and times the
    tool the coder calls where it runs."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, float]] = []
        self.tool_runs: list[tuple[float, float]] = []   # (started, seconds) of every timed tool call

    def timed(
        self, agent: str, step: LlmResponse | Callable[[LlmRequest], LlmResponse]
    ) -> Callable[[LlmRequest], LlmResponse]:
        def run(request: LlmRequest) -> LlmResponse:
            self.calls.append((len(self.calls), agent, time.perf_counter()))
            return step(request) if callable(step) else step

        return run

    def timed_tool(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(tool)
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return tool(*args, **kwargs)
            finally:
                self.tool_runs.append((started, time.perf_counter() - started))

        return run

    def coder_intervals(self) -> list[tuple[int, float]]:
        """(call index, seconds since the previous model call, less the tool time inside) for coder calls that
        follow a coder call."""
        starts = [started for started, _ in self.tool_runs]
        intervals = []
        for index, agent, at in self.calls[1:]:
            previous_agent, since = self.calls[index - 1][1], self.calls[index - 1][2]
            if agent == "coding_agent" and previous_agent == "coding_agent":
                inside = self.tool_runs[bisect.bisect_left(starts, since):bisect.bisect_left(starts, at)]
                intervals.append((index, at - since - sum(seconds for _, seconds in inside)))
        return intervals


async def run(root: Path, stages: int, calls: int, budget: int) -> tuple[int, list[tuple[int, float]], float, float]:
    """(events, coder intervals, wall seconds, mean seconds of one timed tool call)"""
    import agentic_ds.tools.toolset as toolset
    from agentic_ds.config.settings import BudgetSettings, ContextSettings, LoopSettings, Settings
    from agentic_ds.testing.harness import make_request
    from agentic_ds.workflow.runner import execute_run

    settings = Settings(
        context=ContextSettings(compaction=True, budget_tokens=budget, keep_recent_events=4),
        budgets=BudgetSettings(max_llm_calls=10_000),
        loops=LoopSettings(max_stages=max(12, stages)),
    )
    request = make_request(root, "Look at the data step by step.", [write_data(root / "data")], settings=settings)
    clock = CallClock()
    models = {
        agent: ZeroLatencyLlm(script=[clock.timed(agent, step) for step in steps])
        for agent, steps in long_run_scripts(stages, calls).items()
    }
    make_file_tools = toolset.make_file_tools

    def timed_file_tools(*args: Any, **kwargs: Any) -> tuple[Callable[..., Any], ...]:
        return tuple(clock.timed_tool(tool) for tool in make_file_tools(*args, **kwargs))

    toolset.make_file_tools = timed_file_tools
    try:
        started = time.perf_counter()
        outcome = await execute_run(request, llm_overrides=dict[str, BaseLlm](models))
        wall = time.perf_counter() - started
    finally:
        toolset.make_file_tools = make_file_tools
    # The coder only calls file tools (a kernel would swamp the framework cost measured here) and writes its result
    # with `write_file`: every criterion is met citing that file, but no code ran, so the evidence allows no more
    # than `incomplete` (a `completed` run needs its answer to come from the outputs of executed code).
    assert outcome.status == "incomplete" and "no code ran" in outcome.reason, (outcome.status, outcome.reason)
    assert all(model._position == len(model.script) for model in models.values()), "a script was not used up"
    assert clock.tool_runs, "no tool call was timed"
    events = sum(1 for _ in (request.workspace.root / "events.jsonl").open())
    tool_mean = statistics.mean(seconds for _, seconds in clock.tool_runs)
    return events, clock.coder_intervals(), wall, tool_mean


async def bare_adk(calls: int) -> tuple[float, float]:
    """Baseline in the same process: one plain LlmAgent (in-memory session, no plugins, nothing persisted) making
    `calls` tool calls in one turn. Mean ms between model calls over its first and last 100 calls."""
    from google.adk.agents import LlmAgent
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    from agentic_ds.testing.scripted import call, text
    from agentic_ds.workflow.loops import sequence

    clock = CallClock()
    steps = [call("look", i=i) for i in range(calls)] + [text("done")]
    model = ZeroLatencyLlm(script=[clock.timed("coding_agent", step) for step in steps])

    def look(i: int) -> dict:
        """Look at item i."""
        return {"seen": i}

    agent = LlmAgent(name="coding_agent", model=model, instruction="Look.", tools=[look], include_contents="none")
    runner = InMemoryRunner(agent=sequence("bare", [agent]), app_name="bare")
    session = await runner.session_service.create_session(app_name="bare", user_id="u")
    from google.adk.agents import RunConfig

    message = types.Content(role="user", parts=[types.Part(text="go")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message,
                                    run_config=RunConfig(max_llm_calls=calls + 10)):
        pass
    raw = [seconds * 1000 for _, seconds in clock.coder_intervals()]
    return statistics.mean(raw[:BUCKET]), statistics.mean(raw[-BUCKET:])


@contextmanager
def swapped(patches: list[tuple[str, str, str]]) -> Iterator[None]:
    """The module attributes in `patches` replaced by the public objects named `module:attribute`."""
    originals = []
    for module_name, attribute, replacement in patches:
        module = importlib.import_module(module_name)
        source, name = replacement.split(":")
        originals.append((module, attribute, getattr(module, attribute)))
        setattr(module, attribute, getattr(importlib.import_module(source), name))
    try:
        yield
    finally:
        for module, attribute, original in originals:
            setattr(module, attribute, original)


async def measure(args: argparse.Namespace) -> tuple[int, list[float], float, float, float, float]:
    """One whole run: (events, per-call ms, wall s, tool s per call, first100 ms, last100 ms)."""
    with tempfile.TemporaryDirectory() as tmp:
        events, intervals, wall, tool_s = await run(Path(tmp) / "run", args.stages, args.calls, args.budget)
    raw_ms = [seconds * 1000 for _, seconds in intervals]
    return events, raw_ms, wall, tool_s, statistics.mean(raw_ms[:BUCKET]), statistics.mean(raw_ms[-BUCKET:])


def cpu_check_s() -> float:
    """Seconds for 10 million additions in pure Python: shows how fast this (shared) CPU ran at the time."""
    started, total = time.perf_counter(), 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stages", type=int, default=40)
    parser.add_argument("--calls", type=int, default=24, help="list_files calls per coder turn")
    parser.add_argument("--budget", type=int, default=6000, help="context.budget_tokens")
    parser.add_argument("--rounds", type=int, default=3, help="whole runs; each bucket reports its best round")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    rounds = []
    alternatives: dict[str, list[tuple[float, float]]] = {label: [] for label in ALTERNATIVES}
    for _ in range(args.rounds):
        gc.collect()
        cpu = cpu_check_s()
        events, raw_ms, wall, tool_s, first, last = await measure(args)
        rounds.append((events, raw_ms, wall, tool_s, cpu, first, last))
        for label, patches in ALTERNATIVES.items():  # interleaved, so a slow minute weighs on every variant
            gc.collect()
            with swapped(patches):
                *_, alt_first, alt_last = await measure(args)
            alternatives[label].append((alt_first, alt_last))
    events = rounds[0][0]
    # As timeit does: the fastest round is the best estimate of the cost; slower ones measure other work on
    # this shared machine (its CPU speed varies up to 2x within minutes, see the CPU check per round).
    first = min(r[5] for r in rounds)
    last = min(r[6] for r in rounds)
    line = f"overhead: events={events} ms_per_call_first100={first:.2f} ms_per_call_last100={last:.2f}"
    bars = {
        "events >= 2000": events >= 2000,
        "last100 <= 1.5 x first100": last <= 1.5 * first,
        "both <= 3 ms": max(first, last) <= 3,
    }
    verdict = ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in bars.items())
    bare_first, bare_last = await bare_adk(600)
    details = [
        f"- run: {args.stages} stages x {args.calls} `list_files` calls per coder turn, `budget_tokens={args.budget}`, "
        f"{events} events in events.jsonl; {args.rounds} rounds, each bucket's best round reported",
        *(
            f"- round {number}: first100 {r[5]:.2f} ms, last100 {r[6]:.2f} ms, median {statistics.median(r[1]):.2f} ms "
            f"over {len(r[1])} coder-to-coder intervals; `list_files` {r[3] * 1000:.2f} ms per call (timed in the "
            f"run, subtracted); {r[2]:.1f} s wall; CPU check {r[4]:.2f} s"
            for number, r in enumerate(rounds, 1)
        ),
        f"- bars: {verdict}",
        *(
            f"- public alternative, same rounds: {label}: first100 {min(f for f, _ in runs):.2f} ms, "
            f"last100 {min(la for _, la in runs):.2f} ms"
            for label, runs in alternatives.items()
        ),
        f"- baseline, same process: one plain ADK LlmAgent (in-memory, no plugins, no persistence) making 600 tool "
        f"calls in one turn: first100 {bare_first:.2f} ms, last100 {bare_last:.2f} ms (ADK's cost grows with the turn; "
        "here compaction, which also drops compacted events from memory, and per-stage history keep it flat)",
    ]
    for detail in details:
        print(detail)
    if not args.no_record:
        record_section("overhead", [
            "Scripted orchestrated run with zero-latency models, persisted (`session.db`, `events.jsonl`), every "
            "guard on and compaction live. Per-call cost = time between two consecutive model calls inside one coder "
            "turn (ADK's event handling, the tool, the next request's assembly, plugins, persistence) minus the "
            "tool's own time; means over the first and the last 100 such intervals of the run. The CPU check is "
            "10 million additions in pure Python (about 0.2 s when this machine is not throttled).",
            "",
            *details,
        ], result=line)
    print(line)


if __name__ == "__main__":
    asyncio.run(main())
