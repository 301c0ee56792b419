"""ADK's own compaction (`App(events_compaction_config=...)`) against the compaction guard, in the same scenario.

The run of `bench/context.py` (12 scripted stages, each coder turn printing a table in every one of its many
`run_python` calls, facts planted early), twice in one command with the same settings: once as agentic-ds runs
(the config given to `CompactionGuard`, the App none), once with the same config on the App and no guard (ADK's
token trigger, checked before every model call against the prompt size the previous call reported; its summary
authored `user`). Prompt tokens are those of the request each model received.

Last line: `context_adk: max_prompt_tokens_guard=N max_prompt_tokens_adk=N budget=N over_budget_calls_adk=N
fact_retention_guard=X fact_retention_adk=X`. This decides whether the guard (and the private ADK names it uses,
`adk_private.py`) can give way to ADK's own mechanism: only if ADK's keeps every call within the budget too.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.context import FACTS, RunMeasure, describe, one_run  # noqa: E402
from bench.record import record_section  # noqa: E402


@contextmanager
def adks_own_compaction() -> Iterator[None]:
    """Runs assembled with the compaction config on the App (ADK's own trigger) instead of in the guard."""
    from google.adk.apps.app import App

    from agentic_ds.agent_names import ROOT
    from agentic_ds.workflow import assembly

    real: Callable[..., assembly.Assembled] = assembly.assemble

    def with_adks(request: object, overrides: dict) -> assembly.Assembled:
        assembled = real(request, overrides)
        guard = assembled.compaction_guard
        if guard is not None:
            plugins = [p for p in assembled.app.plugins if p is not guard]
            assembled.app = App(name=ROOT, root_agent=assembled.root, plugins=plugins,
                                events_compaction_config=guard.config)
            assembled.compaction_guard = None
        return assembled

    assembly.assemble = with_adks
    try:
        yield
    finally:
        assembly.assemble = real


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=6000)
    parser.add_argument("--cells", type=int, default=20)
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--keep", type=int, default=2)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        guard = await one_run(Path(tmp) / "guard", True, args.budget, args.cells, args.rows, args.keep)
        print(describe("on (the guard)", guard), flush=True)
        with adks_own_compaction():
            adk = await one_run(Path(tmp) / "adk", True, args.budget, args.cells, args.rows, args.keep)
        print(describe("on (ADK's own trigger)", adk), flush=True)
    line = (
        f"context_adk: max_prompt_tokens_guard={guard.max} max_prompt_tokens_adk={adk.max} budget={args.budget} "
        f"over_budget_calls_adk={_over(adk, args.budget)} fact_retention_guard={guard.retained / len(FACTS):.2f} "
        f"fact_retention_adk={adk.retained / len(FACTS):.2f}"
    )
    if not args.no_record:
        record_section(
            "context_adk",
            [
                f"The scenario of `bench/context.py` ({args.cells} `run_python` calls per coder turn, {args.rows}-row "
                f"tables, `budget_tokens={args.budget}`, `keep_recent_events={args.keep}`), run twice in one "
                "command: the compaction config in `CompactionGuard` (as agentic-ds runs), then the same config "
                "on the App with no guard (ADK's own trigger).",
                "",
                describe("on (the guard)", guard),
                describe("on (ADK's own trigger)", adk),
                f"- calls over the budget: guard {_over(guard, args.budget)}, ADK's own {_over(adk, args.budget)}",
            ],
            result=line,
        )
    print(line)


def _over(measure: RunMeasure, budget: int) -> int:
    return sum(1 for tokens in measure.prompt_tokens if tokens > budget)


if __name__ == "__main__":
    asyncio.run(main())
