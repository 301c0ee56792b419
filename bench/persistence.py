"""Cost of persisting every event: the same scripted orchestrated run, in-memory vs `session.db`, interleaved.

Last line: `persistence: events=N ms_per_event_memory=X ms_per_event_persisted=X overhead_ms_per_event=X`.
Bar: overhead <= 1 ms per event (ADK's own SqliteSessionService costs ~5.6 ms per event here).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google.adk.models import BaseLlm  # noqa: E402

from bench.record import record_section  # noqa: E402
from bench.scripted_runs import long_run_scripts, write_data  # noqa: E402


async def one_run(root: Path, persisted: bool, stages: int, calls: int) -> tuple[int, float]:
    from google.adk.sessions import InMemorySessionService

    from agentic_ds.testing.harness import make_request
    from agentic_ds.testing.scripted import ScriptedLlm
    from agentic_ds.workflow.runner import execute_run

    data = write_data(root / "data")
    request = make_request(root, "Look at the data step by step.", [data])
    models = {a: ScriptedLlm(name=a, script=s) for a, s in long_run_scripts(stages, calls).items()}
    service = None if persisted else InMemorySessionService()
    started = time.perf_counter()
    outcome = await execute_run(request, llm_overrides=dict[str, BaseLlm](models), session_service=service)
    wall = time.perf_counter() - started
    # The scripted coder only calls file tools and writes its result with `write_file`: its criteria are met citing
    # that file, but no code ran, so the evidence allows no more than `incomplete` (see bench/scripted_runs.py).
    assert outcome.status == "incomplete" and "no code ran" in outcome.reason, (outcome.status, outcome.reason)
    events = sum(1 for _ in (request.workspace.root / "events.jsonl").open())
    if persisted:
        from google.adk.sessions.sqlite_session_service import SqliteSessionService

        check = SqliteSessionService(str(request.workspace.root / "session.db"))
        listed = await check.list_sessions(app_name="agentic_ds", user_id="local")
        session = await check.get_session(app_name="agentic_ds", user_id="local", session_id=listed.sessions[0].id)
        await check.close()
        assert session is not None, "the run's session is missing"
        assert session.state["run_status"] == outcome.status, "final state lost"
        stored = len(session.events)
        return stored, wall
    return events, wall


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stages", type=int, default=10)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    memory, persisted, stored_events = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            for kind in ("memory", "persisted"):
                n, wall = await one_run(Path(tmp) / f"{kind}-{i}", kind == "persisted", args.stages, args.calls)
                if kind == "persisted":
                    stored_events = n
                    persisted.append(wall / n * 1000)
                else:
                    memory.append(wall / n * 1000)
                print(f"round {i + 1} {kind:9s}: {n} events, {wall:.2f} s, {wall / n * 1000:.2f} ms/event")
    mem, per = statistics.median(memory), statistics.median(persisted)
    line = (
        f"persistence: events={stored_events} ms_per_event_memory={mem:.2f} "
        f"ms_per_event_persisted={per:.2f} overhead_ms_per_event={per - mem:.2f}"
    )
    record_section(
        "persistence",
        [
            f"Scripted orchestrated run ({args.stages} stages x {args.calls} tool calls), {args.rounds} interleaved "
            f"rounds, medians.",
            "Stored events are counted by reopening `session.db` with ADK's stock SqliteSessionService.",
        ],
        result=line,
    )
    print(line)


if __name__ == "__main__":
    asyncio.run(main())
