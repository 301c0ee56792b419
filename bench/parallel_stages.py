"""Wall time of one orchestrated run with its independent stages one at a time and two at a time.

    .venv/bin/python bench/parallel_stages.py                 # 4 stages, 1.5 s per model call
    .venv/bin/python bench/parallel_stages.py --delay 0.5 --no-record

The run: a plan of 4 analysis stages that each need only the inputs (`needs: []`); each stage's coder looks
around with `list_files` (4 calls), runs one cell in the sandboxed kernel that writes `outputs/part_K.json` (the
mean of a quarter of the data's rows, computed by pandas), and answers; the reviewer approves. The criteria
checker, the answer validator and the summary are scripted (`agentic_ds.testing.scripted`), the task reader and
the judge are the offline model; every model call, scripted or offline, waits `--delay` seconds first
(`agentic_ds.testing.latency.LatencyLlm`), as a hosted model's round trip does. The same run is made with
`--parallel-stages 1` and `2`, in the same command (after an untimed one-stage run that pays for the process's
imports), and the outputs compared: the files under `outputs/`, the
stage statuses, the run's status and its final answer. The section `parallel_stages` of BENCHMARKS.md says what
was run. The last line printed:

    parallel_stages: stages=4 delay_s=D n1_s=X n2_s=Y speedup=R identical=yes|no max_in_flight=M

Target: speedup >= 1.7 with identical outputs (issue 23).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from google.adk.models import LlmRequest, LlmResponse  # noqa: E402

from agentic_ds.llm.call_scope import current_branch  # noqa: E402
from agentic_ds.testing.scripted import as_json, call, text  # noqa: E402
from bench.scripted_runs import LOOK_AROUND, ROWS, Finding, listed, validated, write_data  # noqa: E402

TASK = "What is the mean value in each quarter of the days (day modulo 4)?"


def part_mean(part: int) -> tuple[int, float]:
    """(rows, mean value) of part `part` (1-based: the days with day % 4 == part - 1), rounded as pandas does."""
    values = [v for day, _, v in ROWS if day % 4 == part - 1]
    return len(values), round(sum(values) / len(values), 2)


def part_code(part: int) -> str:
    return (
        "import json\nimport pandas as pd\n"
        "df = pd.read_csv('inputs/metrics.csv')\n"
        f"rows = df[df['day'] % 4 == {part - 1}]\n"
        "mean = round(float(rows['value'].mean()), 2)\n"
        f"with open('outputs/part_{part}.json', 'w') as handle:\n"
        f"    json.dump({{'part': {part}, 'rows': len(rows), 'mean_value': mean}}, handle)\n"
        f"print('part {part}: rows', len(rows), 'mean_value', mean)\n"
    )


def _results_so_far(request: LlmRequest) -> int:
    return sum(1 for content in request.contents or [] for part in content.parts or [] if part.function_response)


def coder_step(stages: int) -> Callable[[LlmRequest], LlmResponse]:
    """Answers whichever stage asks (its branch names it) at whatever point of its turn it is: the order in which
    stages call does not matter, so the same steps serve one stage at a time or several."""

    def step(request: LlmRequest) -> LlmResponse:
        stage_id = (current_branch.get() or "").rsplit(".", 1)[-1]   # stage_orchestrator.s3 -> s3
        part = int(stage_id.lstrip("s"))
        done = _results_so_far(request)
        if done < len(LOOK_AROUND):
            return call("list_files", **dict(LOOK_AROUND[done]))  # type: ignore[arg-type]  # its args are str
        if done == len(LOOK_AROUND):
            return call("run_python", code=part_code(part))
        rows, mean = part_mean(part)
        return text(f"Part {part} written to outputs/part_{part}.json: rows {rows}, mean_value {mean}.")

    return step


def last_finding(stages: int) -> Finding:
    rows, mean = part_mean(stages)
    return Finding(f"outputs/part_{stages}.json", f"part {stages}, rows {rows}, mean_value {mean}",
                   f"The mean value of part {stages} (days with day modulo 4 = {stages - 1}) is {mean} over {rows} "
                   "days.")


def checker_step(stages: int) -> Callable[[LlmRequest], LlmResponse]:
    """Met once the request lists every part's file (citing the last), unmet before, saying after which check."""
    finding = last_finding(stages)
    checks = 0

    def step(request: LlmRequest) -> LlmResponse:
        nonlocal checks
        checks += 1
        ids = listed(request, "c") or ["c1"]
        text_of = json.dumps([c.model_dump(mode="json") for c in request.contents or []])
        written = sum(f"outputs/part_{k}.json" in text_of for k in range(1, stages + 1))
        if written < stages:
            evidence = f"check {checks}: {written} of {stages} part files written so far"
            return as_json({"criteria": [{"id": i, "met": False, "evidence": evidence} for i in ids]})
        evidence = f"{finding.path}: {finding.quote}"
        return as_json({"criteria": [{"id": i, "met": True, "evidence": evidence} for i in ids]})

    return step


def scripts(stages: int, needs: list[list[str]] | None = None) -> dict[str, list[Any]]:
    """The scripted agents of the run; agents not named here answer from the offline model. Each stage needs only
    the inputs unless `needs` says otherwise (one list per stage)."""
    plan = {
        "stages": [
            {"id": f"s{k}", "title": f"Part {k}", "needs": needs[k - 1] if needs else [],
             "description": f"Mean value of the days with day modulo 4 = {k - 1} (inputs/metrics.csv).",
             "expected_outputs": [f"outputs/part_{k}.json"]}
            for k in range(1, stages + 1)
        ],
        "success_criteria": ["every part's mean value is written under outputs/"],
    }
    turn = len(LOOK_AROUND) + 2
    return {
        "plan_maker": [text("## Stages\n" + "\n".join(f"### Stage {k}: Part {k}\nNeeds: the inputs only"
                                                       for k in range(1, stages + 1)))],
        "plan_reviewer": [text("APPROVED")],
        "plan_parser": [text(json.dumps(plan))],
        "coding_agent": [coder_step(stages)] * (stages * turn),
        "code_reviewer": [text("APPROVED")] * stages,
        "criteria_checker": [checker_step(stages)] * stages,
        "stage_reflector": [as_json({"edits": [], "new_stages": [], "note": "the plan still fits"})] * stages,
        "answer_validator": [validated(last_finding(stages))],
        "summary_agent": [text("## Answer\n" + last_finding(stages).answer)],
    }


@dataclass
class Measured:
    wall_s: float
    status: str
    outputs: dict[str, str]        # path under outputs/ -> content
    stages: list[tuple[str, str]]  # (id, status)
    answer: str
    max_in_flight: int             # most stages with a model call in flight at once
    calls: int

    def same_outputs(self, other: Measured) -> bool:
        return (self.status, self.outputs, self.stages, self.answer) == (
            other.status, other.outputs, other.stages, other.answer)


def in_flight(calls: list[Any]) -> int:
    """The most distinct stages that had a model call in flight at the same moment."""
    edges = sorted([(c.started, 1, c.branch) for c in calls if "." in c.branch]
                   + [(c.ended, -1, c.branch) for c in calls if "." in c.branch])
    open_calls: dict[str, int] = {}
    most = 0
    for _, change, branch in edges:
        open_calls[branch] = open_calls.get(branch, 0) + change
        most = max(most, sum(1 for n in open_calls.values() if n > 0))
    return most


async def measure(root: Path, width: int, delay_s: float, stages: int = 4) -> tuple[Measured, Any]:
    """One run at `--parallel-stages width`: what it produced and how long it took. Also returns the outcome."""
    from agentic_ds.agent_table import llm_agents
    from agentic_ds.config.settings import LoopSettings, SandboxSettings, Settings
    from agentic_ds.offline import OfflineLlm
    from agentic_ds.testing.harness import make_request
    from agentic_ds.testing.latency import LatencyLlm
    from agentic_ds.testing.scripted import ScriptedLlm
    from agentic_ds.workflow.runner import execute_run

    data = write_data(root / "data")
    models: dict[str, Any] = {
        name: LatencyLlm(inner=ScriptedLlm(name=name, script=list(steps)), delay_s=delay_s)
        for name, steps in scripts(stages).items()
    }
    for name in llm_agents():
        models.setdefault(name, LatencyLlm(inner=OfflineLlm(), delay_s=delay_s))
    settings = Settings(loops=LoopSettings(parallel_stages=width), sandbox=SandboxSettings(mode="off"))
    request = make_request(root, TASK, [data], settings=settings)
    started = time.perf_counter()
    outcome = await execute_run(request, llm_overrides=models)
    wall = time.perf_counter() - started
    run = outcome.workspace.root
    record = json.loads((run / "run.json").read_text())
    answer = (record.get("final_answer") or {}).get("answer", "")
    calls = [c for m in models.values() for c in m.calls]
    return Measured(
        wall_s=wall,
        status=str(outcome.status),
        outputs={p.relative_to(run).as_posix(): p.read_text() for p in sorted((run / "outputs").rglob("*"))
                 if p.is_file()},
        stages=[(s["id"], s["status"]) for s in record.get("stages", [])],
        answer=answer,
        max_in_flight=in_flight(calls),
        calls=len(calls),
    ), outcome


def section(stages: int, delay_s: float, one: Measured, two: Measured) -> list[str]:
    speedup = one.wall_s / two.wall_s
    identical = one.same_outputs(two)
    return [
        f"The same orchestrated run, {stages} analysis stages that each need only the inputs, every model call "
        f"(scripted or offline) waiting {delay_s:g} s first; each stage's coder makes 4 `list_files` calls, runs one "
        "cell in the kernel (pandas, writes `outputs/part_K.json`) and answers, the reviewer approves, and the "
        "criteria check follows each stage (`--sandbox off`: the kernel without bubblewrap, the same in both runs).",
        "",
        "| --parallel-stages | wall s | model calls | stages in flight at once (most) | status |",
        "|---|---|---|---|---|",
        f"| 1 | {one.wall_s:.1f} | {one.calls} | {one.max_in_flight} | {one.status} |",
        f"| 2 | {two.wall_s:.1f} | {two.calls} | {two.max_in_flight} | {two.status} |",
        "",
        f"Speedup at 2: **{speedup:.2f}x** (target >= 1.7x); outputs identical (files under outputs/, stage "
        f"statuses, status, final answer): **{'yes' if identical else 'no'}**. What stays serial: reading the task, "
        "planning, the answer, the judge and the summary, and the check after the last stages; cells run one at a "
        "time across stages (the files a cell wrote are found by comparing the run directory around it), which "
        "costs little next to model latency.",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=1.5, help="seconds each model call waits (default 1.5)")
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--no-record", action="store_true", help="print only; leave BENCHMARKS.md as it is")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-parallel-") as tmp:
        # Untimed: the first run in a process pays for imports and caches (pandas, the skills library, the
        # offline model's readers) that would count against whichever run came first.
        asyncio.run(measure(Path(tmp) / "warm", 1, 0.0, stages=1))
        one, _ = asyncio.run(measure(Path(tmp) / "n1", 1, args.delay, args.stages))
        two, _ = asyncio.run(measure(Path(tmp) / "n2", 2, args.delay, args.stages))
    speedup = one.wall_s / two.wall_s
    identical = one.same_outputs(two)
    if not identical:
        print(f"N=1: {one}\nN=2: {two}", file=sys.stderr)
    result = (f"parallel_stages: stages={args.stages} delay_s={args.delay:g} n1_s={one.wall_s:.1f} "
              f"n2_s={two.wall_s:.1f} speedup={speedup:.2f} identical={'yes' if identical else 'no'} "
              f"max_in_flight={two.max_in_flight}")
    print(result, flush=True)
    if not args.no_record:
        from bench.record import record_section

        record_section("parallel_stages", section(args.stages, args.delay, one, two), result=result)


if __name__ == "__main__":
    main()
