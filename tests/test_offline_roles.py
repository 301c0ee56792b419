"""Every agent role of the offline model, driven with typed prompt values (rendered by the real templates too) and
real tool results: no role reads its prompt's text."""

from __future__ import annotations

import json

import pytest
from google.genai import types

from agentic_ds.offline import OfflineLlm
from agentic_ds.offline.planner.plan import plan_for
from agentic_ds.offline.request import parse_request
from agentic_ds.schema import CriterionRecord, StageRecord, StageStatus
from agentic_ds.state import CriteriaUpdate, Decision, ParsedPlan, Reflection, TaskReading, ValidatedAnswer
from tests.offline_support import READ_ONLY, Tools, drive, make_run_dir, profile_text, request, user

TASK = "What is the median revenue per region?"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return make_run_dir(tmp_path_factory.mktemp("run"))


@pytest.fixture
def model():
    return OfflineLlm()


def coder_context(profile, stage, **extra):
    return {"task": TASK, "data_profile": profile_text(profile), "profile": profile, "stages": [stage], "current": 0,
            "stage": stage, "feedback": "", "last_error": "", "previous_code": "", "skills": "", "criteria": [],
            **extra}


async def plan_of(model, run, task=TASK):
    root, _, profile = run
    context = {"task": task, "asks": [], "data_profile": profile_text(profile), "input_problems": "",
               "previous_plan": "", "review": "", "user_notes": "", "max_stages": 6, "profile": profile}
    tools = Tools(root)
    plan, _ = await drive(model, "plan_maker", context, tools, names=READ_ONLY)
    assert tools.calls == []                         # the profile comes with the prompt: nothing is paged in
    parsed, _ = await drive(model, "plan_parser", {"task": task, "plan": plan, "asks": [], "previous_error": ""}, None,
                            names=())
    return plan, ParsedPlan.model_validate_json(parsed)


def stage_of(parsed: ParsedPlan, index: int) -> StageRecord:
    return StageRecord.model_validate(parsed.stages[index].model_dump())


_CACHE: dict = {}


async def answered(model, run):
    """(parsed plan, coder summary) of the answer stage, computed once per module (each run costs seconds)."""
    root, _, profile = run
    if root not in _CACHE:
        _, parsed = await plan_of(model, run)
        summary, _ = await drive(model, "coding_agent", coder_context(profile, stage_of(parsed, 1)), Tools(root))
        _CACHE[root] = (parsed, summary)
    return _CACHE[root]


async def test_the_task_reader_lists_the_asks_of_the_one_reading(model, run):
    _, _, profile = run
    context = {"task": "Mean and median of revenue? Answer as @mean_revenue[value].", "slots": ["mean_revenue"],
               "data_profile": "", "profile": profile, "previous_error": ""}
    text, _ = await drive(model, "task_reader", context, None, names=())
    reading = TaskReading.model_validate_json(text)
    assert [(a.text, a.slot) for a in reading.asks] == [
        ("the mean of `revenue` (answer as @mean_revenue[...])", "mean_revenue")]
    unread = {**context, "task": "By how much did revenue rise between the two busiest weeks?", "slots": []}
    text, _ = await drive(model, "task_reader", unread, None, names=())
    assert [a.text for a in TaskReading.model_validate_json(text).asks] == [unread["task"]]


async def test_planning_roles_produce_a_valid_approved_plan(model, run):
    root, _, profile = run
    plan, parsed = await plan_of(model, run)
    assert [s.title for s in parsed.stages] == ["Audit data quality", "Answer: the median of revenue per region"]
    assert "`revenue`" in plan and "`region`" in plan and "Method:" not in plan
    context = {"task": TASK, "data_profile": "", "asks": [], "plan": plan, "previous_review": "", "profile": profile,
               "max_stages": 6}
    review, _ = await drive(model, "plan_reviewer", context, Tools(root), names=READ_ONLY)
    assert review.startswith("APPROVED")
    decision, _ = await drive(model, "plan_confirmation", {"subject": "A plan.", "review": review}, None, names=())
    assert Decision.model_validate_json(decision).exit is True
    rejected = {"subject": "A plan.", "review": "CHANGES REQUESTED\n1. Use the median."}
    decision, _ = await drive(model, "plan_confirmation", rejected, None, names=())
    assert Decision.model_validate_json(decision) == Decision(exit=False, reason="CHANGES REQUESTED")


async def test_plan_maker_answers_a_review_and_reviewer_rejects_a_bad_plan(model, run):
    root, _, profile = run
    bad = ("## Stages\n### Stage 1: Means\nMean of `revnue`.\nExpected outputs: outputs/a.json\n## Success criteria\n"
           "- outputs/a.json has it\n")
    context = {"task": TASK, "data_profile": "", "asks": [], "plan": bad, "profile": profile, "previous_review": "",
               "max_stages": 6}
    review, _ = await drive(model, "plan_reviewer", context, Tools(root), names=READ_ONLY)
    assert review.startswith("CHANGES REQUESTED") and "`revnue` is not a column" in review
    context = {"task": TASK, "asks": [], "data_profile": "", "input_problems": "", "previous_plan": bad,
               "review": review, "user_notes": "", "max_stages": 6, "profile": profile}
    revised, _ = await drive(model, "plan_maker", context, Tools(root), names=READ_ONLY)
    assert "## Response to review" in revised and "revnue" not in revised


async def test_coder_runs_the_planned_template_and_quotes_its_numbers(model, run):
    root, frame, profile = run
    _, parsed = await plan_of(model, run)
    tools = Tools(root)
    summary, _ = await drive(model, "coding_agent", coder_context(profile, stage_of(parsed, 1)), tools)
    # nothing ran yet in this attempt: the run, then its result
    assert [name for name, _ in tools.calls] == ["run_python", "read_file"]
    result = json.loads((root / "outputs" / "02-answer.json").read_text())
    expected = frame.groupby("region")["revenue"].median()
    assert result["by_group"] == pytest.approx(expected.to_dict())
    for sentence in result["summary"]:
        assert f"- {sentence}" in summary
    assert "`outputs/02-answer.json`" in summary


async def test_coder_resumes_from_disk_after_compaction_hid_its_runs(model, run):
    root, _, profile = run
    parsed, summary = await answered(model, run)
    tools = Tools(root)
    compacted = [user("Go."), user("Conversation Language: English\nTools used: run_python, read_file\n- ran it")]
    ran = {"ok": True, "cells": 1, "files": ["outputs/02-answer.json"]}   # this attempt ran it before compaction
    again, _ = await drive(model, "coding_agent", coder_context(profile, stage_of(parsed, 1), execution=ran), tools,
                           contents=compacted)
    assert "run_python" not in [name for name, _ in tools.calls]
    assert again.splitlines()[2:-1] == summary.splitlines()[2:-1]     # the same result sentences, read from disk


async def test_coder_retries_a_foreign_stage_with_different_code_after_an_error(model, run):
    root, frame, profile = run
    stage = StageRecord(id="s9", title="Mean of a missing column", description="Compute the mean of no_such_column.",
                        expected_outputs=["outputs/09-broken.json"])
    tools = Tools(root)
    summary, history = await drive(model, "coding_agent", coder_context(profile, stage), tools)
    codes = [args["code"] for name, args in tools.calls if name == "run_python"]
    assert codes and len(set(codes)) == len(codes)
    assert (root / "outputs" / "09-broken.json").exists() and "Ran `" in summary


async def test_a_retry_never_repeats_the_first_choice_and_never_overwrites_an_answer(model, tmp_path):
    root, _, profile = own = make_run_dir(tmp_path)      # its own outputs: a retry may overwrite a result file
    task = "Explore the data and tell me about revenue"
    _, parsed = await plan_of(model, own, task)
    stage = stage_of(parsed, 1)
    first_code = plan_for(task, profile, model.library(), 20).steps[1].method.render(model.library())
    retry_tools = Tools(root)
    context = {**coder_context(profile, stage, feedback="CHANGES REQUESTED\n1. wrong", last_error="KeyError: 'x'"),
               "task": task}
    await drive(model, "coding_agent", context, retry_tools)
    retry_codes = [a["code"] for n, a in retry_tools.calls if n == "run_python"]
    assert retry_codes and first_code not in retry_codes
    _, answer = await plan_of(model, own)                 # a direct question's answer has no other template to try
    retry_tools = Tools(root)
    context = coder_context(profile, stage_of(answer, 1), feedback="CHANGES REQUESTED\n1. wrong")
    summary, _ = await drive(model, "coding_agent", context, retry_tools)
    assert not [n for n, _ in retry_tools.calls if n == "run_python"] and "FAILED" in summary


async def test_code_reviewer_approves_real_outputs_and_rejects_errors_and_unsupported_claims(model, run):
    root, _, _ = run
    parsed, summary = await answered(model, run)
    stage = stage_of(parsed, 1)

    async def review(execution, coder_summary, reviewed=stage):
        context = {"task": TASK, "stage": reviewed, "execution": execution, "summary": coder_summary, "files": []}
        text, _ = await drive(model, "code_reviewer", context, Tools(root), names=READ_ONLY)
        return text

    assert (await review({"ok": True, "cells": 1}, summary)).startswith("APPROVED")
    failed = await review({"ok": False, "cells": 1, "error": "ValueError: boom"}, summary)
    assert failed.startswith("CHANGES REQUESTED") and "ValueError: boom" in failed
    invented = await review({"ok": True}, summary + "\n- The median of revenue is 999999.")
    assert invented.startswith("CHANGES REQUESTED") and "999999" in invented
    missing = await review({"ok": True}, summary, stage.model_copy(update={"expected_outputs": ["outputs/7-no.json"]}))
    assert missing.startswith("CHANGES REQUESTED") and "outputs/7-no.json" in missing


async def test_criteria_checker_judges_by_the_files(model, run):
    root, _, profile = run
    parsed, _ = await answered(model, run)
    criteria = [CriterionRecord(id="c1", text=parsed.success_criteria[1].text, met=False),
                CriterionRecord(id="c2", text="outputs/88-nothing.json lists outliers", met=False)]
    files = [{"path": "outputs/02-answer.json", "bytes": 10, "problem": ""}]
    answer, _ = await drive(model, "criteria_checker", {"task": TASK, "criteria": criteria, "stages": [],
                                                        "files": files, "profile": profile}, Tools(root),
                            names=READ_ONLY)
    by_id = {c.id: c for c in CriteriaUpdate.model_validate_json(answer).criteria}
    sentence = json.loads((root / "outputs" / "02-answer.json").read_text())["summary"][0]
    assert by_id["c1"].met and sentence in by_id["c1"].evidence
    assert not by_id["c2"].met and "outputs/88-nothing.json" in by_id["c2"].evidence


async def test_reflector_keeps_the_plan_or_appends_one_follow_up(model, run):
    _, _, profile = run
    audit = StageRecord(id="s1", title="Audit", status=StageStatus.APPROVED)
    answer = StageRecord(id="s2", title="Answer", status=StageStatus.PENDING)
    unmet = [CriterionRecord(id="c1", text="outputs/02-answer.json states it", met=False)]

    async def reflect(stages):
        context = {"task": TASK, "stages": stages, "criteria": unmet, "latest": stages[0], "stages_left": 2,
                   "profile": profile}
        text, _ = await drive(model, "stage_reflector", context, None, names=())
        return Reflection.model_validate_json(text).new_stages

    assert await reflect([audit, answer]) == []
    done = [audit, answer.model_copy(update={"status": StageStatus.FAILED})]
    new = await reflect(done)
    assert len(new) == 1 and new[0].expected_outputs == ["outputs/02-answer.json"] and new[0].id == "s3"
    follow = StageRecord(id="s3", title=new[0].title, status=StageStatus.FAILED)
    assert await reflect([*done, follow]) == []


async def test_summary_and_validator_use_only_figures_from_result_files_and_cite_them(model, run):
    root, frame, profile = run
    await answered(model, run)
    files = [{"path": "outputs/02-answer.json", "bytes": 1, "problem": ""}]
    asks = [{"id": "a1", "text": "the median of `revenue` per `region`", "slot": ""}]
    context = {"task": TASK, "mode": "simple", "asks": asks, "files": files, "profile": profile, "summary": "",
               "execution": {"ok": True, "files": ["outputs/02-answer.json"]}, "stages": [], "criteria": []}
    validated, _ = await drive(model, "answer_validator", context, Tools(root), mode="simple", names=READ_ONLY)
    final = ValidatedAnswer.model_validate_json(validated)
    median = frame.groupby("region")["revenue"].median()
    assert final.valid and final.asks[0].files == ["outputs/02-answer.json"]
    assert all(f"{value:.2f}" in final.answer or f"{value:g}" in final.answer for value in median.round(2))
    failed = {**context, "execution": {"ok": False, "error": "boom"}}
    verdict, _ = await drive(model, "answer_validator", failed, Tools(root), mode="simple", names=READ_ONLY)
    assert ValidatedAnswer.model_validate_json(verdict).valid is False
    report_context = {"task": TASK, "mode": "orchestrated", "run_status": "completed - all criteria met",
                      "status": "completed", "status_reason": "all criteria met", "files": files,
                      "answer": {"answer": final.answer}, "stages": [],
                      "criteria": [], "profile": profile, "earlier_run": ""}
    report, _ = await drive(model, "summary_agent", report_context, Tools(root), names=READ_ONLY)
    assert report.startswith("## Answer") and final.answer in report
    assert report.count("**Run status:**") == 1 and "**Run status:** `completed` - all criteria met" in report


async def test_the_judge_reads_each_part_against_its_ask(model):
    parts = [{"id": "a1", "ask": "the mean of `unemp`", "answer": "The mean of unemp is 5.88.", "files": [],
              "found": {}},
             {"id": "a2", "ask": "the Spearman correlation of `x` and `y`", "answer": "The mean of unemp is 5.88.",
              "files": [], "found": {}},
             {"id": "a3", "ask": "the value of r (answer as @r[...])", "answer": "@r[0.5] r is 0.5", "files": [],
              "found": {}}]
    asks = [{"id": "a1", "text": parts[0]["ask"], "slot": ""}, {"id": "a2", "text": parts[1]["ask"], "slot": ""},
            {"id": "a3", "text": parts[2]["ask"], "slot": "r"}]
    criteria = [{"id": "c1", "text": "x", "evidence": "outputs/a.json: r = 0.5"},
                {"id": "c2", "text": "y", "evidence": "none"}]
    text, _ = await drive(model, "judge", {"task": "t", "asks": asks, "answer": "", "parts": parts, "excerpts": [],
                                           "criteria": criteria}, None, names=())
    verdict = json.loads(text)
    assert [a["addressed"] for a in verdict["asks"]] == [True, False, True]
    assert [c["shown"] for c in verdict["criteria"]] == [True, False]


async def test_unknown_agent_gets_an_extractive_summary(model):
    prompt = ("Summarize:\nuser: mean price?\ncoding_agent called run_python; wrote outputs/02-answer.json; "
              "mean 20.16\nerror: none")
    text, _ = await drive(model, "", {}, None, names=(), contents=[user(prompt)])
    assert "outputs/02-answer.json" in text and "20.16" in text and "run_python" in text


async def test_same_request_same_response_with_usage(model):
    context = {"task": TASK, "plan": "## Stages\n### Stage 1: A\nDo a.\n## Success criteria\n- a done", "asks": [],
               "previous_error": ""}
    first, _ = await drive(model, "plan_parser", context, None, names=())
    second, _ = await drive(OfflineLlm(), "plan_parser", context, None, names=())
    assert first == second and json.loads(first)["success_criteria"] == [{"text": "a done", "asks": []}]


def test_function_responses_pair_with_their_calls():
    call = types.Content(
        role="model",
        parts=[types.Part(function_call=types.FunctionCall(id="a1", name="read_file", args={"path": "x"}))],
    )
    reply = types.Content(role="user", parts=[
        types.Part(function_response=types.FunctionResponse(id="a1", name="read_file", response={"content": "{}"}))])
    parsed = parse_request(request("coding_agent", "## Task\nt", [user("go"), call, reply]))
    assert parsed.agent == "coding_agent"
    assert [(e.name, e.args, e.response, e.current_turn) for e in parsed.exchanges] == [
        ("read_file", {"path": "x"}, {"content": "{}"}, True)
    ]
    later = parse_request(request("coding_agent", "## Task\nt", [user("go"), call, reply, user("For context: next")]))
    assert later.turn == []
