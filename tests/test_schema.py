"""The run's records: run.json keeps its keys, runs written before this schema still load whole, readers never
raise on broken files, and the state seams validate stages and criteria."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_ds.cli.review import _show_text as show_text
from agentic_ds.cli.review import runs_table
from agentic_ds.report.html import render_html
from agentic_ds.report.listing import summarize_run
from agentic_ds.report.markdown import render_markdown_appendix
from agentic_ds.report.view import load_run_view
from agentic_ds.schema import (
    CriterionRecord,
    FinalAnswer,
    RunRecord,
    RunStatus,
    StageRecord,
    StageStatus,
    read_model,
    stages_in,
    stages_out,
)

ROUND1 = Path(__file__).parent / "data" / "round1_run_json"   # run.json files written by the round-1 writer
RUN_JSON_KEYS = {"id", "task", "mode", "status", "reason", "started_at", "ended_at", "wall_s", "version", "models",
                 "models_reason", "isolation", "inputs", "agents", "cost", "tokens", "events", "context", "stages",
                 "criteria", "warnings", "final_answer"}
# later rounds': skipped inputs, resume, calls, usage, plan approval, the task reader's title and asks
ADDED_KEYS = {"skipped_inputs", "settings", "attempts", "calls", "ledger", "approval", "title", "asks"}


@pytest.mark.parametrize("name", ["orchestrated.json", "simple.json"])
def test_a_run_json_of_the_previous_writer_reads_whole_and_keeps_its_keys(tmp_path, name):
    data = json.loads((ROUND1 / name).read_text())
    problems: list[str] = []
    record = read_model(RunRecord, data, problems, "run.json: ")
    assert record is not None and problems == []
    assert record.status is RunStatus.COMPLETED and record.mode == name.removesuffix(".json")
    assert set(record.agents) == set(data["agents"]) and record.tokens.llm_calls == data["tokens"]["llm_calls"]
    assert RunRecord.model_validate(data) == record   # the strict reader agrees
    record.save(tmp_path / "run.json")
    again = json.loads((tmp_path / "run.json").read_text())
    assert set(again) == RUN_JSON_KEYS | ADDED_KEYS and set(data) == RUN_JSON_KEYS   # every key kept
    assert again["settings"] == {} and again["attempts"] == [] and again["skipped_inputs"] == []
    assert again["calls"] is None   # not recorded by that writer: the reports say nothing about calls
    assert again["stages"] == data["stages"]
    # Fields added since (a criterion's asks, the answer's checks) come with their defaults; nothing is lost.
    assert all(new.items() >= old.items() for new, old in zip(again["criteria"], data["criteria"], strict=True))
    assert (again["final_answer"] or {}).items() >= (data["final_answer"] or {}).items()
    # cost keeps every figure; it gains the cached tokens (none recorded: 0) and the unpriced models (none)
    assert again["cost"]["total_usd"] == data["cost"]["total_usd"] and again["cost"]["unpriced"] == []
    for model, usage in data["cost"]["by_model"].items():
        assert again["cost"]["by_model"][model] == {**usage, "cached_tokens": 0}


def test_run_json_lists_where_each_stage_got_to_not_its_texts(tmp_path):
    stage = StageRecord(id="s1", title="Load", description="long text", summary="long summary", status="approved",
                        attempts=2, dir="stages/01-load")
    RunRecord(id="r", stages=[stage], status=RunStatus.COMPLETED).save(tmp_path / "run.json")
    (written,) = json.loads((tmp_path / "run.json").read_text())["stages"]
    assert written == {"id": "s1", "title": "Load", "status": "approved", "attempts": 2, "dir": "stages/01-load"}


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"running"', '{"status": 7, "stages": {"a": 1}}',
                                  '{"agents": {"coder": "lots"}, "cost": {"by_model": {"m": {"calls": "x"}}}}',
                                  '{"criteria": [1, {"id": "c1", "met": "yes"}, {"text": "no id"}]}',
                                  '{"status": "paused", "final_answer": {"answer": "42"}}'])
def test_list_show_and_reports_survive_any_run_json(tmp_path, text):
    run = tmp_path / "20261124-101010-broken"
    run.mkdir()
    (run / "run.json").write_text(text)
    summary = summarize_run(run)
    view = load_run_view(run)
    assert summary.status is view.status is RunStatus.UNKNOWN
    assert summary.id == view.id == run.name
    assert "unknown" in render_html(view) and "unknown" in render_markdown_appendix(view)
    assert "Status   unknown" in show_text(view) and runs_table([summary]).count("unknown") == 1


def test_bad_fields_are_left_out_and_named():
    problems: list[str] = []
    record = read_model(RunRecord, {"status": "completed", "wall_s": "fast", "criteria": [
        {"id": "c1", "met": "yes", "text": "t"}, {"text": "no id"}], "final_answer": {"answer": "42"}},
        problems, "run.json: ")
    assert record is not None and record.status is RunStatus.COMPLETED and record.wall_s is None
    assert record.criteria == [CriterionRecord(id="c1", text="t", met=None)] and record.final_answer is None
    assert problems == ["run.json: wall_s is not valid: ignored", "run.json: criteria[0].met is not valid: ignored",
                        "run.json: criteria[1] lacks id: ignored", "run.json: final_answer lacks valid: ignored"]


def test_a_megabyte_of_junk_stages_is_read_item_by_item():
    junk = {"stages": [{"id": f"s{i}", "attempts": "x" * 100, "status": "approved"} for i in range(10_000)]}
    problems: list[str] = []
    record = read_model(RunRecord, junk, problems)
    assert record is not None and len(record.stages) == 10_000 and len(problems) == 10_000
    assert all(stage.status is StageStatus.APPROVED and stage.attempts == 0 for stage in record.stages)


def test_the_state_seams_validate_stages_both_ways():
    stages = stages_in([{"id": "s1", "title": "Load", "status": "running"}])
    assert stages[0].status is StageStatus.RUNNING
    assert stages_out(stages)[0]["status"] == "running"   # state keeps plain JSON values
    with pytest.raises(ValueError):
        stages_in([{"id": "s1", "status": "half-done"}])


def test_statuses_are_one_enum_each_and_the_final_answer_is_the_validators_schema():
    assert RunStatus.COMPLETED_WITH_WARNINGS.label == "completed with warnings"
    assert RunStatus.of("completed", RunStatus.FAILED).answered and not RunStatus.of(None, RunStatus.FAILED).answered
    assert RunStatus.of("paused", RunStatus.FAILED) is RunStatus.FAILED
    assert "valid" in FinalAnswer.model_json_schema()["required"]
