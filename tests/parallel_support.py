"""Test support for parallel stages: the bench's run (4 stages that need only the inputs, a model double with a
fixed latency per call, `bench/parallel_stages.py`) in this process, or in a child process stopped from outside.

    python tests/parallel_support.py ROOT DELAY_S    # the run under the CLI's signal handling; exit code as `run`'s
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.parallel_stages import TASK, scripts  # noqa: E402
from bench.scripted_runs import write_data  # noqa: E402


def settings(width: int = 2) -> Any:
    from agentic_ds.config.settings import Settings

    return Settings(loops={"parallel_stages": width}, sandbox={"mode": "off"})


def slow_models(delay_s: float, stage_count: int = 4, needs: list[list[str]] | None = None) -> dict[str, Any]:
    """A `LatencyLlm` for every agent: the bench's scripts, the offline model for the rest."""
    from agentic_ds.agent_table import llm_agents
    from agentic_ds.offline import OfflineLlm
    from agentic_ds.testing.latency import LatencyLlm
    from agentic_ds.testing.scripted import ScriptedLlm

    models: dict[str, Any] = {
        name: LatencyLlm(inner=ScriptedLlm(name=name, script=list(steps)), delay_s=delay_s)
        for name, steps in scripts(stage_count, needs=needs).items()
    }
    for name in llm_agents():
        models.setdefault(name, LatencyLlm(inner=OfflineLlm(), delay_s=delay_s))
    return models


def in_flight(run_dir: Path) -> set[str]:
    """Ids of the stages events.jsonl shows begun and not ended (a stage's start names it; its end does not)."""
    begun: set[str] = set()
    ended: set[str] = set()
    worked: set[str] = set()
    try:
        lines = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return set()
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue   # being written
        branch = record.get("branch") or ""
        if not branch.startswith("stage_orchestrator."):
            continue
        stage = branch.rsplit(".", 1)[-1]
        if record.get("author") == "stage_orchestrator" and record.get("kind") == "status":
            (begun if "stage" in record else ended).add(stage)
        elif record.get("author") == "coding_agent":
            worked.add(stage)
    return (begun - ended) & worked


def _child(root: Path, delay_s: float) -> int:
    """What `agentic-ds run` does with a run, under the same signal handling, with the slow models."""
    from agentic_ds.cli.run import STATUS_EXIT_CODES
    from agentic_ds.runs.stop_signals import StopSignals
    from agentic_ds.testing.harness import make_request
    from agentic_ds.workflow.runner import execute_run

    stop = StopSignals()
    with stop.raising():
        request = make_request(root, TASK, [write_data(root / "data")], settings=settings())

        async def watched() -> Any:
            with stop.watching():
                return await execute_run(request, stop=stop, llm_overrides=slow_models(delay_s))

        try:
            outcome = asyncio.run(watched())
        except (KeyboardInterrupt, asyncio.CancelledError):
            return stop.exit_code
    return stop.exit_code if stop.received else STATUS_EXIT_CODES[outcome.status]


if __name__ == "__main__":
    sys.exit(_child(Path(sys.argv[1]), float(sys.argv[2])))
