"""Context stays inside the prompt budget: one scripted 12-stage orchestrated run, compaction on vs off.

Scenario: a real orchestrated run (real sandbox, real tools) where each stage's coder makes many `run_python`
calls that each print several KB of numeric table, so its prompt grows within one coder turn. Stages 1-3 also
print 20 planted facts (a file name and a number, e.g. `FACT-07: outputs/revenue_by_region.csv total=48213.5`)
in their early cells. Every scripted step reports the prompt size it was actually sent (`count_tokens(None,
request)`) as its usage, as a real model would, so ADK's own token trigger sees honest numbers.

The scripted coder ends each stage with a summary that lists the fact lines it can still see in its own turn
(tool outputs, or compaction summaries of them), as a real coder reports its key files and numbers; facts
compacted away without trace are therefore lost for good. `fact_retention` is the share of planted facts
present (file name and number) in the summary agent's request.

Measured on every model call of every agent: the prompt tokens of the request the model received.
Last line: `context: max_prompt_tokens_with=N budget=N max_prompt_tokens_without=N input_ratio=X fact_retention=X`
Bars: with <= budget on every call; without > budget; input_ratio (total input without / with) >= 3;
fact_retention >= 0.9.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google.adk.models import BaseLlm, LlmRequest, LlmResponse  # noqa: E402

from agentic_ds.context.per_call import is_per_call  # noqa: E402
from agentic_ds.context.tokens import count_tokens  # noqa: E402
from agentic_ds.testing.scripted import call, request_text, text, usage  # noqa: E402
from bench.record import record_section  # noqa: E402
from bench.scripted_runs import Finding, long_run_scripts, write_data  # noqa: E402

STAGES = 12
FACT_STAGES = 3
FACT_LINE = re.compile(r"FACT-\d\d: \S+ \w+=[\d.]+")
_TOPICS = (
    "revenue_by_region", "churn_by_cohort", "orders_per_day", "margin_by_product", "returns_by_store",
    "visits_by_channel", "basket_size", "refunds_by_month", "price_elasticity", "stock_outs",
    "late_deliveries", "repeat_buyers", "discount_depth", "cart_abandonment", "support_tickets",
    "ad_spend_by_week", "conversion_by_device", "net_promoter", "inventory_turns", "shipping_cost",
)
_MEASURES = ("total", "mean", "median", "share", "count")


@dataclass(frozen=True)
class Fact:
    key: str
    path: str
    measure: str
    value: str

    @property
    def line(self) -> str:
        return f"{self.key}: {self.path} {self.measure}={self.value}"

    def present_in(self, text: str) -> bool:
        return f"{self.path} {self.measure}={self.value}" in text


FACTS = [
    Fact(f"FACT-{i + 1:02d}", f"outputs/{topic}.csv", _MEASURES[i % 5], f"{(i + 3) * 2417.3 % 99991:.1f}")
    for i, topic in enumerate(_TOPICS)
]


def facts_of_stage(stage: int) -> list[Fact]:
    """Stages 1..FACT_STAGES share the facts round-robin; later stages plant none."""
    return [f for i, f in enumerate(FACTS) if stage < FACT_STAGES and i % FACT_STAGES == stage]


def cell_code(stage: int, cell: int, fact: Fact | None, rows: int) -> str:
    """A cell that writes the fact's file and prints its line (if any), then a numeric table of `rows` rows."""
    lines = ["import os", "import numpy as np", f"rng = np.random.default_rng({stage * 1000 + cell})"]
    if fact is not None:
        lines += [
            "os.makedirs('outputs', exist_ok=True)",
            f"open({fact.path!r}, 'w').write('measure,value\\n{fact.measure},{fact.value}\\n')",
            f"print({fact.line!r})",
        ]
    lines += [
        f"table = rng.normal(5000, 1500, size=({rows}, 6))",
        "for i, row in enumerate(table):",
        "    print(f'{i:4d} ' + ' '.join(f'{v:10.3f}' for v in row))",
    ]
    return "\n".join(lines)


def honest(step: LlmResponse | Callable[[LlmRequest], LlmResponse]) -> Callable[[LlmRequest], LlmResponse]:
    """The step, reporting as its usage the prompt size it was actually sent."""

    def run(request: LlmRequest) -> LlmResponse:
        response = step(request) if callable(step) else step.model_copy(deep=True)
        response.usage_metadata = usage(count_tokens(None, request), 10)
        return response

    return run


def contents_text(request: LlmRequest) -> str:
    """The request's history only (the coder's own turn): not its system instruction, nor the per-call block at the
    head of its contents (earlier stages' results, which already carry the facts those stages reported)."""
    history = request.model_copy(update={"config": None})   # request_text reads no instruction from a None config
    history.contents = [c for c in request.contents or [] if not is_per_call(c)]
    return request_text(history)


def coder_summary(stage: int, cells: int) -> Callable[[LlmRequest], LlmResponse]:
    def step(request: LlmRequest) -> LlmResponse:
        seen = list(dict.fromkeys(FACT_LINE.findall(contents_text(request))))
        summary = f"Stage {stage + 1} done: ran {cells} cells over inputs/metrics.csv."
        if seen:
            summary += " Key results: " + "; ".join(seen) + "."
        return text(summary)

    return step


# The run's result, cited by the checker and the validator: the first planted fact's file, written by a stage-1 cell.
# Quoted as `path: measure value`, not as the fact line, so the answer does not count as a retained fact.
FINDING = Finding(
    FACTS[0].path,
    f"{FACTS[0].measure} {FACTS[0].value}",
    f"Key result of the steps: {FACTS[0].path} gives {FACTS[0].measure} {FACTS[0].value}.",
)


def scripts(cells: int, rows: int) -> dict[str, list]:
    base = long_run_scripts(STAGES, 0, finding=FINDING)
    coder: list = []
    for stage in range(STAGES):
        facts = facts_of_stage(stage)
        for cell in range(cells):
            fact = facts[cell] if cell < len(facts) else None
            coder.append(call("run_python", code=cell_code(stage, cell, fact, rows)))
        coder.append(coder_summary(stage, cells))
    base["coding_agent"] = coder
    return {agent: [honest(step) for step in steps] for agent, steps in base.items()}


@dataclass
class RunMeasure:
    prompt_tokens: list[int] = field(default_factory=list)
    by_agent_max: dict[str, int] = field(default_factory=dict)
    retained: int = 0
    compactions: int = 0
    events: int = 0
    wall_s: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.prompt_tokens)

    @property
    def max(self) -> int:
        return max(self.prompt_tokens, default=0)


async def compaction_events(run_dir: Path) -> tuple[int, int]:
    """(compaction events, all events) in the reopened session.db, read with ADK's stock service."""
    from google.adk.sessions.sqlite_session_service import SqliteSessionService

    service = SqliteSessionService(str(run_dir / "session.db"))
    listed = await service.list_sessions(app_name="agentic_ds", user_id="local")
    session = await service.get_session(app_name="agentic_ds", user_id="local", session_id=listed.sessions[0].id)
    await service.close()
    assert session is not None, f"no session in {run_dir}"
    compacted = [e for e in session.events if e.actions and e.actions.compaction]
    return len(compacted), len(session.events)


async def one_run(root: Path, compaction: bool, budget: int, cells: int, rows: int, keep: int) -> RunMeasure:
    from agentic_ds.config.settings import ContextSettings, Settings
    from agentic_ds.testing.harness import make_request
    from agentic_ds.testing.scripted import ScriptedLlm
    from agentic_ds.workflow.runner import execute_run

    settings = Settings(context=ContextSettings(compaction=compaction, budget_tokens=budget, keep_recent_events=keep))
    data = write_data(root / "data")
    request = make_request(root, "Look at the data step by step and report the key results.", [data], settings=settings)
    models = {a: ScriptedLlm(name=a, script=s) for a, s in scripts(cells, rows).items()}
    started = time.perf_counter()
    outcome = await execute_run(request, llm_overrides=dict[str, BaseLlm](models))
    measure = RunMeasure(wall_s=time.perf_counter() - started)
    assert outcome.status == "completed", outcome.reason
    for name, model in models.items():
        if name != "stage_reflector":   # asked only when a stage did not go as planned (plan_state.reflection_due)
            model.assert_complete()
        sizes = [count_tokens(None, r) for r in model.requests]
        measure.prompt_tokens += sizes
        measure.by_agent_max[name] = max(sizes, default=0)
    summary_request = models["summary_agent"].request_text(0)
    measure.retained = sum(fact.present_in(summary_request) for fact in FACTS)
    measure.compactions, measure.events = await compaction_events(request.workspace.root)
    return measure


def describe(label: str, m: RunMeasure) -> str:
    biggest = ", ".join(f"{a} {n}" for a, n in sorted(m.by_agent_max.items(), key=lambda kv: -kv[1])[:3])
    return (
        f"- compaction {label}: {len(m.prompt_tokens)} model calls, max prompt {m.max} tokens ({biggest}), "
        f"total input {m.total} tokens, {m.compactions} compaction events in session.db of {m.events}, "
        f"facts retained {m.retained}/{len(FACTS)}, {m.wall_s:.1f} s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=6000)
    parser.add_argument("--cells", type=int, default=20, help="run_python calls per coder turn")
    parser.add_argument("--rows", type=int, default=40, help="table rows each cell prints (~67 chars a row)")
    parser.add_argument("--keep", type=int, default=2, help="context.keep_recent_events (both runs)")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with_ = await one_run(Path(tmp) / "with", True, args.budget, args.cells, args.rows, args.keep)
        print(describe("on", with_), flush=True)
        without = await one_run(Path(tmp) / "without", False, args.budget, args.cells, args.rows, args.keep)
        print(describe("off", without), flush=True)
    ratio = without.total / with_.total
    retention = with_.retained / len(FACTS)
    line = (
        f"context: max_prompt_tokens_with={with_.max} budget={args.budget} max_prompt_tokens_without={without.max} "
        f"input_ratio={ratio:.2f} fact_retention={retention:.2f}"
    )
    bars = {
        "with <= budget": with_.max <= args.budget,
        "without > budget": without.max > args.budget,
        "input_ratio >= 3": ratio >= 3,
        "fact_retention >= 0.9": retention >= 0.9,
    }
    verdict = ", ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in bars.items())
    if not args.no_record:
        record_section(
            "context",
            [
                f"Scripted orchestrated run: {STAGES} stages, {args.cells} `run_python` calls per coder turn, each "
                f"printing "
                f"a {args.rows}-row numeric table (~{args.rows * 67 // 1000} KB, real sandbox); {len(FACTS)} planted "
                f"facts "
                f"(file name + number) printed in the early cells of stages 1-{FACT_STAGES}. Same settings in both "
                f"runs "
                f"(`budget_tokens={args.budget}`, `keep_recent_events={args.keep}`) except `context.compaction`.",
                "Prompt tokens are counted with `count_tokens(None, request)` on the request each model received; "
                "every "
                "scripted step reports that size as its usage. Facts count as retained when the summary agent's "
                "request "
                "holds their file name and number (the scripted coder reports the fact lines it still sees in its "
                "turn).",
                "",
                describe("on", with_),
                describe("off", without),
                f"- bars: {verdict}",
            ],
            result=line,
        )
    print(line)


if __name__ == "__main__":
    asyncio.run(main())
