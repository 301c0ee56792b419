"""Stages whose needs are met run at once (issue 23): the plan keeps each stage's needs, the orchestrator runs up
to `--parallel-stages` of them, the notebook keeps its cells in stage order, and a run stopped with two stages
under way continues both when resumed.

The runs are the bench's (`bench/parallel_stages.py`): 4 stages over `inputs/metrics.csv`, each writing
`outputs/part_K.json` from a cell that really runs, every model call waiting a little first
(`agentic_ds.testing.latency.LatencyLlm`, which notes when each call began and ended, and on which branch)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest

from agentic_ds.schema import StageRecord, StageStatus
from agentic_ds.state import ParsedPlan
from agentic_ds.workflow import plan_state, stage_needs
from bench.parallel_stages import TASK, part_mean
from bench.parallel_stages import in_flight as most_in_flight
from bench.scripted_runs import write_data
from tests.ledger_checks import assert_one_ledger
from tests.parallel_support import in_flight, settings, slow_models
from tests.resume_support import alive

DELAY = 0.05
PLAN: dict[str, Any] = {"success_criteria": ["c"], "stages": [
    {"id": "s1", "title": "Audit", "description": "d", "needs": []},
    {"id": "s2", "title": "Means", "description": "d"},                       # nothing stated: after s1
    {"id": "s3", "title": "Plot", "description": "d", "needs": ["s1", "s1", " s2 "]},
    {"id": "s4", "title": "Test", "description": "d", "needs": ["s9", "s4"]},   # only unknown or later ids
    {"id": "s5", "title": "Extra", "description": "d", "needs": ["s1", "s7"]},
]}


def test_the_plan_keeps_each_stages_needs_and_a_stage_that_states_none_follows_the_one_before():
    stages = plan_state.stages_from_plan(ParsedPlan.model_validate(PLAN), max_stages=10)
    assert [s.needs for s in stages] == [[], None, ["s1", "s2"], None, ["s1"]]
    assert [stage_needs.waits_for(stages, i) for i in range(5)] == [[], [0], [0, 1], [2], [0]]
    # a plan that says nothing about needs is today's chain
    plain = ParsedPlan.model_validate({**PLAN, "stages": [{k: v for k, v in s.items() if k != "needs"}
                                                          for s in PLAN["stages"]]})
    chained = plan_state.stages_from_plan(plain, max_stages=10)
    assert [stage_needs.waits_for(chained, i) for i in range(5)] == [[], [0], [1], [2], [3]]


def test_a_stage_is_ready_once_what_it_waits_for_ended_and_was_checked():
    stages = plan_state.stages_from_plan(ParsedPlan.model_validate(PLAN), max_stages=10)
    assert stage_needs.ready(stages) == [0]
    done = plan_state.with_stage(stages, 0, status=StageStatus.FAILED)   # a failed stage still lets the next go
    assert stage_needs.ready(done, unchecked=["s1"]) == []               # ... once the check after it is done
    assert stage_needs.ready(done) == [1, 4]
    assert stage_needs.ready(done, starting=["s2"]) == [4]
    running = plan_state.with_stage(done, 1, status=StageStatus.RUNNING)
    assert stage_needs.ready(running) == [4]


def test_the_reflector_cannot_change_a_stage_under_way_and_new_stages_keep_their_needs():
    from agentic_ds.state import Reflection

    stages = [StageRecord(id="s1", status=StageStatus.RUNNING), StageRecord(id="s2")]
    reflection = Reflection.model_validate({"edits": [{"id": "s1", "description": "other"}], "new_stages": [
        {"id": "s3", "title": "More", "description": "d", "needs": ["s2", "s8"]}], "note": ""})
    out, added, notes = plan_state.apply_reflection(stages, reflection, added_so_far=0, max_added=2, max_stages=5)
    assert out[0] == stages[0] and "refused" in notes[0]
    assert out[2].needs == ["s2"] and added == 1


def _run(tmp_path: Path, width: int, needs: list[list[str]] | None = None):
    import asyncio

    from agentic_ds.testing.harness import make_request
    from agentic_ds.workflow.runner import execute_run

    models = slow_models(DELAY, needs=needs)
    request = make_request(tmp_path, TASK, [write_data(tmp_path / "data")], settings=settings(width))
    outcome = asyncio.run(execute_run(request, llm_overrides=models))
    calls = sorted((c for m in models.values() for c in m.calls), key=lambda c: c.started)
    return outcome, calls, models


def _stage_spans(calls) -> dict[str, tuple[float, float]]:
    spans: dict[str, tuple[float, float]] = {}
    for call in calls:
        if call.branch.startswith("stage_orchestrator."):
            stage = call.branch.rsplit(".", 1)[-1]
            first, last = spans.get(stage, (call.started, call.ended))
            spans[stage] = (min(first, call.started), max(last, call.ended))
    return spans


def test_two_at_once_never_start_a_stage_before_its_needs_and_never_run_more_than_two(tmp_path):
    needs = [[], [], ["s1"], ["s2", "s3"]]
    outcome, calls, models = _run(tmp_path, 2, needs)
    assert outcome.status == "completed", outcome.reason
    spans = _stage_spans(calls)
    assert set(spans) == {"s1", "s2", "s3", "s4"}
    for stage, stated in zip(("s1", "s2", "s3", "s4"), needs, strict=True):
        for need in stated:
            assert spans[stage][0] > spans[need][1], (stage, need, spans)
    assert most_in_flight(calls) == 2                     # s1 and s2 overlapped; never three
    assert spans["s2"][0] < spans["s1"][1]
    run = outcome.workspace.root
    plan = json.loads((run / "plan.json").read_text())
    assert [s["needs"] for s in plan["stages"]] == needs
    for k in range(1, 5):
        rows, mean = part_mean(k)
        assert json.loads((run / "outputs" / f"part_{k}.json").read_text()) == {"part": k, "rows": rows,
                                                                               "mean_value": mean}
    # the notebook: each stage's heading, then its cells, in stage order, whatever order they ran in
    notebook = nbformat.read(run / "analysis.ipynb", as_version=4)
    order = [cell.metadata["agentic_ds"]["stage"] for cell in notebook.cells]
    assert order == sorted(order) and sorted(set(order)) == [0, 1, 2, 3]
    for cell in notebook.cells:
        if cell.cell_type == "code":
            stage = cell.metadata["agentic_ds"]["stage"]
            assert cell.metadata["agentic_ds"]["cell"].startswith(f"stages/{stage + 1:02d}-"), cell.metadata
            assert f"part_{stage + 1}.json" in cell.source
    # every stage's model calls are in the ledger, and report.md shows the same totals
    record = json.loads((run / "run.json").read_text())
    totals = assert_one_ledger(record, (run / "report.md").read_text(), policy_calls=False)
    assert totals["calls"] == len(calls)
    assert {name: len(model.calls) for name, model in models.items() if model.calls} == {
        name: agent["llm_calls"] for name, agent in record["agents"].items() if agent["llm_calls"]}
    assert record["agents"]["coding_agent"]["llm_calls"] == 4 * 6   # every stage's coder turn counted


def test_one_at_a_time_is_the_order_of_old_a_stage_then_the_check_after_it(tmp_path):
    outcome, calls, _ = _run(tmp_path, 1)
    assert outcome.status == "completed", outcome.reason
    assert most_in_flight(calls) == 1
    turns: list[str] = []
    for call in calls:
        where = call.branch.rsplit(".", 1)[-1] if call.branch else "run"
        if not turns or turns[-1] != where:
            turns.append(where)
    # planning on the run's branch, then each stage followed by its check (the last check meets the criterion)
    assert turns == ["run", "s1", "run", "s2", "run", "s3", "run", "s4", "run"], turns
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert [s["status"] for s in record["stages"]] == ["approved"] * 4


def test_the_notebook_keeps_stage_order_when_cells_of_two_stages_interleave(tmp_path):
    from agentic_ds.sandbox.capture import CellResult
    from agentic_ds.sandbox.recorder import Recorder

    recorder = Recorder(tmp_path)
    first, second = tmp_path / "stages" / "01-a", tmp_path / "stages" / "02-b"
    recorder.begin_stage(first, "Stage 1: a", order=0)
    recorder.begin_stage(second, "Stage 2: b", order=1)
    for stage_dir, code in ((second, "b = 1"), (first, "a = 1"), (second, "b = 2"), (first, "a = 2")):
        path, _ = recorder.next_cell(code, stage_dir)
        recorder.record(code, CellResult(ok=True, cell_path=str(path.relative_to(tmp_path))), [], stage_dir)
    notebook = nbformat.read(tmp_path / "analysis.ipynb", as_version=4)
    assert [c.source for c in notebook.cells] == ["## Stage 1: a", "a = 1", "a = 2", "## Stage 2: b", "b = 1", "b = 2"]
    assert [c.get("execution_count") for c in notebook.cells if c.cell_type == "code"] == [2, 4, 1, 3]
    assert (second / "code.py").read_text().count("# %% cell") == 2


@pytest.mark.skipif(sys.platform != "linux", reason="signals and process trees as on Linux")
def test_sigterm_with_two_stages_under_way_then_resume_continues_both(tmp_path):
    import asyncio

    from agentic_ds.testing.harness import resume_scripted
    from bench.parallel_stages import scripts

    root = tmp_path / "project"
    root.mkdir()
    child = subprocess.Popen([sys.executable, str(Path(__file__).parent / "parallel_support.py"), str(root), "0.3"],
                             cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    run_dir = root / "run"
    deadline = time.monotonic() + 120
    under_way: set[str] = set()
    while time.monotonic() < deadline and child.poll() is None:
        under_way = in_flight(run_dir)
        if len(under_way) == 2:
            break
        time.sleep(0.01)
    assert len(under_way) == 2, child.communicate(timeout=60)
    import psutil

    kernels = [p.pid for p in psutil.Process(child.pid).children(recursive=True)]
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM, stderr[-2000:]
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "incomplete" and "SIGTERM" in record["reason"], record
    stopped = {s["id"]: s["status"] for s in record["stages"]}
    assert {sid for sid, status in stopped.items() if status == "running"} == under_way
    assert not alive(kernels)                               # the stages' kernels were stopped with the run

    steps = scripts(4)
    outcome, models = asyncio.run(resume_scripted(run_dir, {**steps, "coding_agent": steps["coding_agent"] * 2},
                                                  settings=settings()))
    assert outcome.status == "completed", outcome.reason
    record = json.loads((run_dir / "run.json").read_text())
    assert [s["status"] for s in record["stages"]] == ["approved"] * 4
    assert len(record["attempts"]) == 2
    # each stage that was under way ran again from its start, in the resumed attempt
    resumed = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    start = max(i for i, r in enumerate(resumed) if str(r.get("text", "")).startswith("resumed"))
    again = {r["branch"].rsplit(".", 1)[-1] for r in resumed[start:]
             if r.get("author") == "coding_agent" and r.get("kind") == "tool_call"}
    assert under_way <= again, (under_way, again)
    for k in range(1, 5):
        assert (run_dir / "outputs" / f"part_{k}.json").exists()


def test_the_per_stage_keys_cover_every_agent_of_the_implementation_loop_as_the_tree_writes_it():
    from agentic_ds.workflow.stage_scope import IMPLEMENTATION_ROUND
    from tests.tree_shapes import ORCHESTRATED, parents_of

    written = [name for name, parent in parents_of(ORCHESTRATED).items() if parent == "implementation_loop"]
    assert list(IMPLEMENTATION_ROUND) == written
