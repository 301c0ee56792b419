"""The orchestrated workflow end to end with one scripted model per agent (no real model, real sandbox)."""

from __future__ import annotations

import json

from google.adk.sessions.session import Session
from google.adk.sessions.sqlite_session_service import SqliteSessionService

from agentic_ds.testing.harness import run_scripted
from agentic_ds.testing.scripted import as_json, call, text
from tests.workflow_scripts import (
    BROKEN_CODE,
    MEANS_CODE,
    PARSED,
    approve,
    criteria,
    happy_scripts,
    no_change,
    write_sales,
)

ALL_AGENTS = {
    "file_analyzer", "task_reader", "plan_maker", "plan_reviewer", "plan_confirmation", "plan_parser",
    "stage_orchestrator", "coding_agent", "code_reviewer", "impl_confirmation", "criteria_checker", "answer_validator",
    "judge", "evidence_check", "summary_agent",
}
TASK = "Which region has the highest mean price?"


def authors(run_dir) -> set[str]:
    lines = (run_dir / "events.jsonl").read_text().splitlines()
    return {json.loads(line)["author"] for line in lines}


async def reopen_state(run_dir) -> Session:
    service = SqliteSessionService(str(run_dir / "session.db"))
    listed = await service.list_sessions(app_name="agentic_ds", user_id="local")
    session = await service.get_session(app_name="agentic_ds", user_id="local", session_id=listed.sessions[0].id)
    await service.close()
    assert session is not None
    return session


def assert_complete(models):
    for model in models.values():
        model.assert_complete()


async def test_plan_approved_first_time_completes_with_every_artifact(tmp_path):
    csv = write_sales(tmp_path / "data")
    outcome, models = await run_scripted(tmp_path, TASK, [csv], happy_scripts())
    run = outcome.workspace.root
    assert outcome.status == "completed", outcome.reason
    assert_complete(models)
    for name in ("plan.md", "plan.json", "data_profile.json", "report.md", "events.jsonl", "run.json", "session.db"):
        assert (run / name).is_file(), name
    assert json.loads((run / "plan.json").read_text())["stages"][1]["title"] == "Mean price by region"
    assert (run / "outputs" / "means.csv").read_text().count("\n") == 4
    assert ALL_AGENTS <= authors(run)
    # Stage 1 went as planned (approved at once, stage 2 still to run): the reflector was not asked.
    assert "stage_reflector" not in authors(run)
    assert "the plan is kept (no reflection needed)" in (run / "events.jsonl").read_text()
    record = json.loads((run / "run.json").read_text())
    assert record["status"] == "completed"
    assert record["agents"]["coding_agent"]["llm_calls"] == 4
    assert record["agents"]["plan_maker"]["input_tokens"] == 100
    assert "South has the highest mean price" in (run / "report.md").read_text()
    assert "`completed`" in (run / "report.md").read_text()
    session = await reopen_state(run)
    assert [s["status"] for s in session.state["stages"]] == ["approved", "approved"]
    assert session.state["criteria"][0]["met"] is True
    assert session.state["run_status"] == "completed"
    # Nothing is lost: every agent's events are in the reopened session, as many as events.jsonl saw.
    assert ALL_AGENTS <= {event.author for event in session.events}
    logged = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    logged_events = {(r["timestamp"], r["author"]) for r in logged if r["author"] != "agentic_ds"}
    assert len(session.events) >= len(logged_events)


async def test_rejected_plan_is_revised_with_the_review_in_the_makers_prompt(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["plan_maker"] = [
        text("## Stages\n### Stage 1: Do everything\nAll.\n## Success criteria\n- done"),
        text(scripts["plan_maker"][0].content.parts[0].text),
    ]
    scripts["plan_reviewer"] = [
        text("CHANGES REQUESTED\n1. Split the work: audit first, then the means per region.")
    ] + approve()
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert outcome.status == "completed", outcome.reason
    assert_complete(models)
    second = models["plan_maker"].request_text(1)
    assert "Split the work: audit first" in second
    assert "Do everything" in second  # the maker sees its previous plan too
    assert "Split the work" not in models["plan_maker"].request_text(0)


async def test_rejected_stage_retries_with_feedback_and_error_in_the_coders_prompt(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["coding_agent"][2:2] = [call("run_python", code=BROKEN_CODE), text("Computed the mean prize.")]
    scripts["code_reviewer"] = (
        approve() + [text("CHANGES REQUESTED\n1. Column 'prize' does not exist; use 'price'.")] + approve()
    )
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert outcome.status == "completed", outcome.reason
    coder = models["coding_agent"]
    retry_prompt = coder.request_text(4)
    assert "Column 'prize' does not exist" in retry_prompt
    assert "KeyError" in retry_prompt
    # success criteria are withheld from the coder
    assert "holds the mean price of every region" not in retry_prompt
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert record["stages"][1]["attempts"] == 2


async def test_stage_that_exhausts_its_bound_fails_and_the_run_goes_on(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["coding_agent"] = [
        call("run_python", code=BROKEN_CODE),
        text("tried"),
        call("run_python", code=BROKEN_CODE),
        text("tried again"),
        call("run_python", code=MEANS_CODE),
        text("Means computed. outputs/means.csv"),
    ]
    scripts["code_reviewer"] = [text("CHANGES REQUESTED: KeyError")] * 2 + approve()
    scripts["criteria_checker"] = [criteria(False, "nothing yet"), criteria(True)]
    from agentic_ds.config.settings import Settings

    settings = Settings(loops={"impl_iterations": 2})
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts, settings=settings)
    assert_complete(models)
    session = await reopen_state(outcome.workspace.root)
    assert [s["status"] for s in session.state["stages"]] == ["failed", "approved"]
    assert outcome.status == "completed_with_warnings"
    result = json.loads(next((outcome.workspace.root / "stages").glob("01-*/result.json")).read_text())
    assert result["status"] == "failed" and result["attempts"] == 2


async def test_reflector_appends_a_stage_that_then_runs(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    extra = {
        "id": "s3",
        "title": "Units by region",
        "description": "Sum units per region.",
        "expected_outputs": ["outputs/units.csv"],
    }
    # Stage 1 went as planned; after stage 2 no stage is left and a criterion is unmet: the reflector adds one.
    scripts["stage_reflector"] = [as_json({"edits": [], "new_stages": [extra], "note": "units missing"})]
    units = (
        "import pandas as pd\n"
        "pd.read_csv('inputs/sales.csv').groupby('region')['units'].sum().to_csv('outputs/units.csv')\n"
    )
    scripts["coding_agent"] += [call("run_python", code=units), text("Units written to outputs/units.csv")]
    scripts["code_reviewer"] += approve()
    scripts["criteria_checker"] = [criteria(False), criteria(False), criteria(True)]
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert_complete(models)
    session = await reopen_state(outcome.workspace.root)
    assert [s["title"] for s in session.state["stages"]][-1] == "Units by region"
    assert session.state["stages"][-1]["status"] == "approved"
    assert (outcome.workspace.root / "outputs" / "units.csv").is_file()
    assert outcome.status == "completed"


async def test_unmet_criteria_make_the_run_incomplete(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["criteria_checker"] = [criteria(False, "no"), criteria(False, "means.csv lacks the east region")]
    scripts["stage_reflector"] = [no_change()]   # after the last stage only: stage 1 went as planned
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert_complete(models)
    assert outcome.status == "incomplete"
    assert "criterion c1 not met" in outcome.reason
    assert "`incomplete`" in (outcome.workspace.root / "report.md").read_text()
    assert json.loads((outcome.workspace.root / "run.json").read_text())["status"] == "incomplete"


async def test_parser_invalid_json_is_asked_again_with_the_error(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["plan_parser"] = [text("Here are the stages: stage one, stage two."), as_json(PARSED)]
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert outcome.status == "completed", outcome.reason
    assert "Previous output was invalid" in models["plan_parser"].request_text(1)


async def test_parser_that_never_validates_fails_the_run_with_a_reason_and_a_report(tmp_path):
    csv = write_sales(tmp_path / "data")
    scripts = {k: v for k, v in happy_scripts().items() if k in ("plan_maker", "plan_reviewer", "plan_confirmation")}
    scripts["plan_parser"] = [text("no json"), text('{"stages": []}'), text("still no")]
    scripts["summary_agent"] = [text("## Answer\nNo analysis could be run: the plan could not be parsed.")]
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert_complete(models)
    assert outcome.status == "failed"
    assert "plan_parser" in outcome.reason
    assert (outcome.workspace.root / "report.md").is_file()


async def test_a_file_that_cannot_be_parsed_is_reported_to_the_planner(tmp_path):
    csv = write_sales(tmp_path / "data")
    bad = tmp_path / "data" / "broken.parquet"
    bad.write_bytes(b"\x00\x01 not a parquet file at all")
    outcome, models = await run_scripted(tmp_path, TASK, [csv, bad], happy_scripts())
    # Everything else went well, but the answer rests on one of the two inputs: that is a warning.
    assert outcome.status == "completed_with_warnings", outcome.reason
    prompt = models["plan_maker"].request_text(0)
    assert "broken.parquet" in prompt and "Input problems" in prompt
    profile = json.loads((outcome.workspace.root / "data_profile.json").read_text())
    assert any(f.get("error") for f in profile["files"])
    record = json.loads((outcome.workspace.root / "run.json").read_text())
    assert [item["path"] for item in record["skipped_inputs"]] == ["inputs/broken.parquet"]
    assert record["skipped_inputs"][0]["reason"].startswith("not a Parquet file (no PAR1 header)")
    assert record["warnings"][0].startswith("1 of 2 input files were skipped because they cannot be read")


async def test_no_template_residue_or_placeholder_reaches_any_model(tmp_path):
    """Every prompt every agent really got in a full run is clean: no Jinja syntax, no unfilled `{key}`."""
    import re

    from agentic_ds.context.per_call import is_per_call

    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    seen = 0
    for name, model in models.items():
        for i, request in enumerate(model.requests):
            system = str(request.config.system_instruction or "")
            head = request.contents[0] if request.contents else None
            if head is not None and is_per_call(head):  # the per-call part of the prompt is checked too
                system += "\n" + head.parts[0].text
            seen += 1
            assert not re.search(r"\{\{|\}\}|\{%|%\}|\{#|#\}", system), (name, i)
            assert not re.search(r"\{[a-z_]+\??\}", system), (name, i)  # ADK-style placeholders
            assert "Undefined" not in system and "$global_preamble" not in system
            assert "## Task" in system or name in ("plan_confirmation", "impl_confirmation", "plan_parser")
    assert seen >= 12


async def test_a_coder_turn_is_cut_at_its_call_limit_and_the_run_goes_on(tmp_path):
    from agentic_ds.config.settings import Settings

    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    # Stage 1's coder would list files forever; after 3 tool calls and one more model call its turn is ended.
    scripts["coding_agent"][0:2] = [call("list_files", path=p) for p in (".", "inputs", "outputs", "figures")]
    scripts["code_reviewer"][0] = text("CHANGES REQUESTED: no audit was written")
    scripts["coding_agent"][4:4] = [call("run_python", code=scripts_audit()), text("audit written")]
    scripts["code_reviewer"][1:1] = approve()
    outcome, models = await run_scripted(
        tmp_path, TASK, [csv], scripts, settings=Settings(loops={"coder_tool_calls": 3})
    )
    assert_complete(models)
    assert outcome.status == "completed", outcome.reason
    summary = json.loads(next((outcome.workspace.root / "stages").glob("01-*/result.json")).read_text())
    assert summary["attempts"] == 2
    events = (outcome.workspace.root / "events.jsonl").read_text()
    assert "reached its limit of 3 tool calls" in events


def scripts_audit() -> str:
    from tests.workflow_scripts import AUDIT_CODE

    return AUDIT_CODE


async def test_a_review_that_states_its_verdict_is_confirmed_in_code_and_a_vague_one_by_the_model(tmp_path):
    """Reviewers start with APPROVED or CHANGES REQUESTED; that needs no model to turn it into true or false. A review
    that strays from the format still goes to the confirmation agent."""
    csv = write_sales(tmp_path / "data")
    scripts = happy_scripts()
    scripts["plan_reviewer"] = [text("The plan looks reasonable to me overall.")]
    scripts["plan_confirmation"] = [as_json({"exit": True, "reason": "the reviewer accepts the plan"})]
    outcome, models = await run_scripted(tmp_path, TASK, [csv], scripts)
    assert outcome.status == "completed", outcome.reason
    assert_complete(models)
    agents = json.loads((outcome.workspace.root / "run.json").read_text())["agents"]
    assert agents["plan_confirmation"]["llm_calls"] == 1
    assert agents.get("impl_confirmation", {}).get("llm_calls", 0) == 0   # both reviews said APPROVED: code decided
    session = await reopen_state(outcome.workspace.root)
    last = session.state["stages"][-1]["id"]   # each stage keeps its loop's keys under its own id
    assert session.state[f"impl_decision@{last}"] == {"exit": True, "reason": "APPROVED - means ok"}


async def test_the_coders_notes_between_tool_calls_stay_out_of_the_stage_summary(tmp_path):
    from google.adk.models import LlmResponse
    from google.genai import types

    from tests.workflow_scripts import AUDIT_CODE

    def noted_call(note: str, code: str) -> LlmResponse:
        parts = [types.Part(text=note), types.Part(function_call=types.FunctionCall(name="run_python",
                                                                                    args={"code": code}))]
        return LlmResponse(content=types.Content(role="model", parts=parts))

    scripts = happy_scripts()
    scripts["coding_agent"] = [
        noted_call("The error came from my variable `C`; running it again.", AUDIT_CODE),
        text("Audit done: 6 rows, 0 missing. outputs/audit.json"),
        call("run_python", code=MEANS_CODE), text("Means: north 11.0, south 21.0, east 6.0. outputs/means.csv"),
    ]
    outcome, models = await run_scripted(tmp_path, TASK, [write_sales(tmp_path / "data")], scripts)
    assert outcome.status == "completed", outcome.reason
    session = await reopen_state(outcome.workspace.root)
    summaries = [s["summary"] for s in session.state["stages"]]
    assert summaries[0] == "Audit done: 6 rows, 0 missing. outputs/audit.json"
    reviewer = models["code_reviewer"].request_text(0)
    assert "variable `C`" not in reviewer and "Audit done: 6 rows" in reviewer
