"""Every agent role of the offline model, driven with the real prompt templates and real tool results."""

from __future__ import annotations

import json
import re

import pytest
from google.genai import types

from agentic_ds.offline import OfflineLlm
from agentic_ds.offline.methods import read_method
from agentic_ds.offline.request import parse_request
from agentic_ds.state import CriteriaUpdate, Decision, ParsedPlan, Reflection, ValidatedAnswer
from agentic_ds.workflow.prompting import render
from tests.offline_support import READ_ONLY, Tools, drive, make_run_dir, request, user

TASK = "What is the median revenue per region?"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root, frame, profile_text = make_run_dir(tmp_path_factory.mktemp("run"))
    return root, frame, profile_text


@pytest.fixture
def model():
    return OfflineLlm()


def coder_prompt(task, profile_text, stage, **extra):
    context = dict(task=task, data_profile=profile_text, stage_map="", finished_stages="", stage=stage,
                   feedback="", last_error="", previous_code="", skills="")
    return render("coding_agent", {**context, **extra})


_CACHE: dict = {}


async def answered(model, run):
    """(parsed plan, coder summary) of the answer stage, computed once per module (each run costs seconds)."""
    root, _, profile_text = run
    if root not in _CACHE:
        _, parsed = await plan_for(model, run)
        summary, _ = await drive(
            model, "coding_agent", coder_prompt(TASK, profile_text, parsed.stages[1].model_dump()), Tools(root)
        )
        _CACHE[root] = (parsed, summary)
    return _CACHE[root]


async def plan_for(model, run, task=TASK):
    root, _, profile_text = run
    context = dict(
        task=task, asks="", data_profile=profile_text, input_problems="", previous_plan="", review="", user_notes="",
        max_stages=6
    )
    tools = Tools(root)
    plan, _ = await drive(model, "plan_maker", render("plan_maker", context), tools, names=READ_ONLY)
    assert tools.calls[0] == ("read_file", {"path": "data_profile.json"})
    parsed, _ = await drive(
        model, "plan_parser", render("plan_parser", dict(plan=plan, previous_error="")), None, names=()
    )
    return plan, ParsedPlan.model_validate_json(parsed)


async def test_planning_roles_produce_a_valid_approved_plan(model, run):
    root, _, profile_text = run
    plan, parsed = await plan_for(model, run)
    assert [s.title for s in parsed.stages] == ["Audit data quality", "Answer: median of revenue per region"]
    assert "`revenue`" in plan and "`region`" in plan
    review, _ = await drive(
        model,
        "plan_reviewer",
        render("plan_reviewer", dict(task=TASK, data_profile=profile_text, plan=plan)),
        Tools(root),
        names=READ_ONLY,
    )
    assert review.startswith("APPROVED")
    confirm = render("confirmation", dict(subject="A plan.", review=review))
    decision, _ = await drive(model, "plan_confirmation", confirm, None, names=())
    assert Decision.model_validate_json(decision).exit is True
    rejected = render("confirmation", dict(subject="A plan.", review="CHANGES REQUESTED\n1. Use the median."))
    decision, _ = await drive(model, "plan_confirmation", rejected, None, names=())
    assert Decision.model_validate_json(decision) == Decision(exit=False, reason="CHANGES REQUESTED")


async def test_plan_maker_answers_a_review_and_reviewer_rejects_a_bad_plan(model, run):
    root, _, profile_text = run
    bad = (
        "## Stages\n### Stage 1: Means\nMean of `revnue`.\nExpected outputs: outputs/a.json\n## Success criteria\n"
        "- outputs/a.json has it\n"
    )
    review, _ = await drive(
        model,
        "plan_reviewer",
        render("plan_reviewer", dict(task=TASK, data_profile=profile_text, plan=bad)),
        Tools(root),
        names=READ_ONLY,
    )
    assert review.startswith("CHANGES REQUESTED") and "`revnue` is not a column" in review
    context = dict(
        task=TASK, asks="", data_profile=profile_text, input_problems="", previous_plan=bad, review=review,
        user_notes="", max_stages=6
    )
    revised, _ = await drive(model, "plan_maker", render("plan_maker", context), Tools(root), names=READ_ONLY)
    assert "## Response to review" in revised and "revnue" not in revised


async def test_coder_runs_the_planned_template_and_quotes_its_numbers(model, run):
    root, frame, profile_text = run
    _, parsed = await plan_for(model, run)
    stage = parsed.stages[1].model_dump()
    tools = Tools(root)
    summary, _ = await drive(model, "coding_agent", coder_prompt(TASK, profile_text, stage), tools)
    # profile, a look for a result this turn already wrote (none), the run, its result
    assert [name for name, _ in tools.calls] == ["read_file", "read_file", "run_python", "read_file"]
    result = json.loads((root / "outputs" / "02-answer.json").read_text())
    expected = frame.groupby("region")["revenue"].median()
    assert result["by_group"] == pytest.approx(expected.to_dict())
    assert result["answer_value"] == pytest.approx(frame["revenue"].median())
    for sentence in result["summary"]:
        assert f"- {sentence}" in summary
    assert "`outputs/02-answer.json`" in summary and "figures/02-answer-by-group.png" in summary


async def test_coder_resumes_from_disk_after_compaction_hid_its_runs(model, run):
    root, _, profile_text = run
    parsed, summary = await answered(model, run)
    tools = Tools(root)
    compacted = [
        user("Go."),
        user("Conversation Language: English\nTools used: run_python, read_file\n- ran the stage"),
    ]
    again, _ = await drive(
        model,
        "coding_agent",
        coder_prompt(TASK, profile_text, parsed.stages[1].model_dump()),
        tools,
        contents=compacted,
    )
    assert "run_python" not in [name for name, _ in tools.calls]
    assert again.splitlines()[2:-1] == summary.splitlines()[2:-1]     # the same result sentences, read from disk


async def test_coder_accepts_a_result_file_the_file_tool_cut_short(model, tmp_path):
    root, frame, profile_text = own = make_run_dir(tmp_path)
    _, parsed = await plan_for(model, own)
    stage = parsed.stages[1].model_dump()
    tools = Tools(root, read_cap=400)            # the result JSON is longer: its tables arrive cut
    summary, _ = await drive(model, "coding_agent", coder_prompt(TASK, profile_text, stage), tools)
    assert [name for name, _ in tools.calls].count("run_python") == 1
    assert f"The median of revenue is {frame['revenue'].median():,.1f}" in summary


async def test_coder_retries_with_different_code_after_an_error(model, run):
    root, frame, profile_text = run
    stage = {"id": "s9", "title": "Mean of a missing column", "expected_outputs": ["outputs/09-broken.json"],
             "description": "Compute the mean.\nMethod: descriptive-statistics/statistic\nParams: "
             + json.dumps({"column": "no_such_column", "stat": "mean", "data_path": "inputs/orders.csv",
                           "result_path": "outputs/09-broken.json", "fig_prefix": "figures/09-broken"})}
    tools = Tools(root)
    summary, history = await drive(model, "coding_agent", coder_prompt(TASK, profile_text, stage), tools)
    codes = [args["code"] for name, args in tools.calls if name == "run_python"]
    assert len(codes) >= 2 and len(set(codes)) == len(codes)
    results = [p.function_response.response for c in history for p in c.parts or [] if p.function_response
               and p.function_response.name == "run_python"]
    assert results[0]["ok"] is False and results[-1]["ok"] is True
    assert "Earlier attempts failed" in summary and "no_such_column" in summary
    assert f"{len(frame):,} rows" in summary     # the fallback still counts from the data


async def test_a_retry_never_repeats_the_first_choice(model, tmp_path):
    root, _, profile_text = own = make_run_dir(tmp_path)      # its own outputs: it overwrites the answer file
    _, parsed = await plan_for(model, own)
    stage = parsed.stages[1].model_dump()
    first_code = read_method(stage["description"]).render(model.library())
    retry_tools = Tools(root)
    prompt = coder_prompt(TASK, profile_text, stage, feedback="CHANGES REQUESTED\n1. wrong", last_error="KeyError: 'x'")
    summary, _ = await drive(model, "coding_agent", prompt, retry_tools)
    retry_codes = [a["code"] for n, a in retry_tools.calls if n == "run_python"]
    assert retry_codes and first_code not in retry_codes
    assert "describe" in summary       # the next template of the same skill, bound to the same columns


async def test_code_reviewer_approves_real_outputs_and_rejects_errors_and_unsupported_claims(model, run):
    root, _, profile_text = run
    parsed, summary = await answered(model, run)
    stage = parsed.stages[1].model_dump()

    async def review(execution, coder_summary):
        prompt = render(
            "code_reviewer", dict(task=TASK, stage=stage, execution=execution, summary=coder_summary, files="")
        )
        text, _ = await drive(model, "code_reviewer", prompt, Tools(root), names=READ_ONLY)
        return text

    assert (await review("status: ok\ncells run: 1", summary)).startswith("APPROVED")
    failed = await review("status: error\ncells run: 1\nerror: ValueError: boom", summary)
    assert failed.startswith("CHANGES REQUESTED") and "ValueError: boom" in failed
    invented = await review("status: ok", summary + "\n- The median of revenue is 999999.")
    assert invented.startswith("CHANGES REQUESTED") and "999999" in invented
    missing_stage = {**stage, "expected_outputs": ["outputs/77-never.json"]}
    prompt = render(
        "code_reviewer", dict(task=TASK, stage=missing_stage, execution="status: ok", summary=summary, files="")
    )
    text, _ = await drive(model, "code_reviewer", prompt, Tools(root), names=READ_ONLY)
    assert text.startswith("CHANGES REQUESTED") and "outputs/77-never.json" in text


async def test_criteria_checker_judges_by_the_files(model, run):
    root, _, profile_text = run
    parsed, _ = await answered(model, run)
    criteria = f"- [c1] {parsed.success_criteria[1]} (met: no)\n- [c2] outputs/88-nothing.json lists outliers (met: no)"
    prompt = render(
        "criteria_checker", dict(task=TASK, criteria=criteria, stage_results="", files="- outputs/02-answer.json")
    )
    answer, _ = await drive(model, "criteria_checker", prompt, Tools(root), names=READ_ONLY)
    update = CriteriaUpdate.model_validate_json(answer)
    by_id = {c.id: c for c in update.criteria}
    median = json.loads((root / "outputs" / "02-answer.json").read_text())["summary"][0]
    assert by_id["c1"].met and median in by_id["c1"].evidence
    assert not by_id["c2"].met and "outputs/88-nothing.json" in by_id["c2"].evidence


async def test_reflector_keeps_the_plan_or_appends_one_follow_up(model):
    def prompt(stages, criteria):
        return render("stage_reflector", dict(task=TASK, stages=stages, criteria=criteria, latest="x", stages_left=2))

    pending = "- [s1] (approved) Audit: a\n- [s2] (pending) Answer: b"
    unmet = "- [c1] outputs/02-answer.json states it (met: no)"
    keep, _ = await drive(model, "stage_reflector", prompt(pending, unmet), None, names=())
    assert Reflection.model_validate_json(keep).new_stages == []
    done = pending.replace("(pending)", "(failed)")
    grow, _ = await drive(model, "stage_reflector", prompt(done, unmet), None, names=())
    new = Reflection.model_validate_json(grow).new_stages
    assert len(new) == 1 and new[0].expected_outputs == ["outputs/02-answer.json"] and new[0].id == "s3"
    again = done + f"\n- [s3] (failed) {new[0].title}: retry"
    settled, _ = await drive(model, "stage_reflector", prompt(again, unmet), None, names=())
    assert Reflection.model_validate_json(settled).new_stages == []


async def test_summary_and_validator_use_only_numbers_from_result_files(model, run):
    root, frame, profile_text = run
    _, coder_text = await answered(model, run)
    files = "- outputs/02-answer.json (1 bytes)"
    report_prompt = render(
        "summary_agent",
        dict(
            task=TASK,
            mode="orchestrated",
            run_status="completed - all criteria met",
            status="completed",
            answer="",
            plan="",
            stage_results="",
            criteria="",
            files=files,
        ),
    )
    report, _ = await drive(model, "summary_agent", report_prompt, Tools(root), names=READ_ONLY)
    answer = report.split("## Key findings")[0]
    assert answer.startswith("## Answer") and f"{frame['revenue'].median():,.1f}" in answer
    outputs = (root / "outputs" / "02-answer.json").read_text()
    for number in re.findall(r"\d[\d,]*\.?\d*", answer):
        assert number in outputs or number in "02", number
    assert "**Run status:** `completed`" in report
    prompt = render("answer_validator", dict(task=TASK, asks="", execution="status: ok", summary=coder_text,
                                             files=files,
                                                 stage_results="", criteria=""))
    validated, _ = await drive(model, "answer_validator", prompt, Tools(root), names=READ_ONLY)
    final = ValidatedAnswer.model_validate_json(validated)
    assert final.valid and final.output_type == "table" and f"{frame['revenue'].median():,.1f}" in final.answer
    failed = render("answer_validator", dict(task=TASK, asks="", execution="status: error\nerror: boom", summary="",
                                             files="",
                                              stage_results="", criteria=""))
    verdict, _ = await drive(model, "answer_validator", failed, Tools(root), names=READ_ONLY)
    assert ValidatedAnswer.model_validate_json(verdict).valid is False


async def test_unknown_agent_gets_an_extractive_summary(model):
    prompt = (
        "Summarize:\nuser: mean price?\ncoding_agent called run_python; wrote outputs/02-answer.json; mean 20.16\n"
        "error: none"
    )
    text, _ = await drive(model, "", "", None, names=(), contents=[user(prompt)])
    assert "outputs/02-answer.json" in text and "20.16" in text and "run_python" in text


async def test_same_request_same_response_with_usage(model, run):
    _, _, profile_text = run
    instruction = render(
        "plan_parser", dict(plan="## Stages\n### Stage 1: A\nDo a.\n## Success criteria\n- a done", previous_error="")
    )
    req = request("plan_parser", instruction, [user("go")], tools=())
    first = [r async for r in model.generate_content_async(req)][0]
    second = [r async for r in OfflineLlm().generate_content_async(req)][0]
    assert first.content == second.content
    assert first.usage_metadata.prompt_token_count == len(parse_request(req).text()) // 4
    assert first.usage_metadata.candidates_token_count > 0


def test_sections_ignore_markdown_inside_values():
    plan = "## Stages\n### Stage 1: A\nx\n## Success criteria\n- done"
    instruction = render("plan_parser", dict(plan=plan, previous_error=""))
    parsed = parse_request(request("plan_parser", instruction, [user("go")], tools=()))
    assert parsed.agent == "plan_parser" and parsed.section("Plan").startswith(plan)
    assert "## Stages" not in parsed.sections


def test_function_responses_pair_with_their_calls():
    call = types.Content(
        role="model",
        parts=[types.Part(function_call=types.FunctionCall(id="a1", name="read_file", args={"path": "x"}))],
    )
    reply = types.Content(
        role="user",
        parts=[
            types.Part(function_response=types.FunctionResponse(id="a1", name="read_file", response={"content": "{}"}))
        ],
    )
    parsed = parse_request(request("coding_agent", "## Task\nt", [user("go"), call, reply]))
    assert [(e.name, e.args, e.response, e.current_turn) for e in parsed.exchanges] == [
        ("read_file", {"path": "x"}, {"content": "{}"}, True)
    ]
    later = parse_request(request("coding_agent", "## Task\nt", [user("go"), call, reply, user("For context: next")]))
    assert later.turn == []
