"""Provider faults, end to end: `agentic-ds run` against the fault-injecting server through the real LiteLLM path.

Each test checks what the user sees: the exit code, the last line, stderr's error and hint, and that run.json,
events.jsonl and report.md tell the same story. Transient faults are retried and the run completes; faults that
cannot succeed fail the run at once, saying which model, endpoint, agent and stage, and what to do.
"""

from __future__ import annotations

import json

import pytest

from tests.fault_runs import assert_consistent, run_cli
from tests.ledger_checks import assert_one_ledger
from tests.support.fault_server import (
    BadToolArgs,
    Empty,
    FaultServer,
    Hang,
    Huge,
    Length,
    Malformed,
    Rule,
    SchemaInvalid,
    Status,
    UnknownTool,
)

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

DONE = ("completed", "completed_with_warnings")
MODELS = pytest.mark.parametrize("model", ["openai/fake", "hosted_vllm/fake"])


def completed(run) -> None:
    assert run.record["status"] in DONE, run.stdout
    assert_consistent(run, run.record["status"], 0)
    assert "north 10.5" in run.report_md  # the mean price per region, from the data


@pytest.mark.parametrize(
    ("step", "kind"),
    [
        (Status(429, "slow down"), "rate_limited"),
        (Status(500, "boom"), "server_error"),
        (Status(503, "overloaded"), "unavailable"),
        (Malformed(), "malformed"),
    ],
    ids=["429", "500", "503", "malformed-json"],
)
@MODELS
def test_a_transient_fault_is_retried_and_the_run_completes(tmp_path, step, kind, model):
    with FaultServer([Rule(step, agent="coding_agent")]) as server:
        run = run_cli(tmp_path, server.url, model=model)
    completed(run)
    assert server.answered(kind) == 1
    calls = run.calls
    assert calls["retries"] == 1 and calls["failures"] == 0 and calls["attempts"] == calls["calls"] + 1
    waiting = [w for w in run.kinds("waiting") if "retrying in" in w["text"]]  # (not the "no answer yet" lines)
    assert len(waiting) == 1 and waiting[0]["author"] == "coding_agent"
    assert f"coding_agent: waiting for {model} (attempt 2/3, retrying in" in waiting[0]["text"]
    assert f"waiting for {model} (attempt 2/3" in run.stdout


def test_retry_after_is_honoured(tmp_path):
    with FaultServer([Rule(Status(429, "rate limited", retry_after="1"), agent="coding_agent")]) as server:
        run = run_cli(tmp_path, server.url)
    completed(run)
    coder = [seen for seen in server.seen if seen.agent == "coding_agent"]
    assert coder[1].at - coder[0].at >= 1.0  # the retry came after the second the server asked for
    assert run.calls["wait_s"] == pytest.approx(1.0)
    assert any(
        "retrying in 1 s (as the server asked): HTTP 429 rate limited" in w["text"] for w in run.kinds("waiting")
    )


@MODELS
def test_persistent_429_fails_the_run_after_the_retries_with_the_model_and_endpoint(tmp_path, model):
    with FaultServer([Rule(Status(429, "quota exceeded for today"), times=None)]) as server:
        run = run_cli(tmp_path, server.url, model=model, calls={"retries": 3}, json_lines=True)
    assert_consistent(run, "failed", 1)
    assert len(server.seen) == 4  # one call, three retries, nothing more: no SDK retried behind our back
    failure = run.calls["failure"]
    assert failure["kind"] == "rate_limited" and failure["attempts"] == 4 and failure["agent"] == "task_reader"
    assert failure["api_base"] == server.url and failure["model"] == model
    assert run.calls["retries"] == 3 and run.calls["failures"] == 1
    for text in (run.record["reason"], run.stderr):
        assert model in text and server.url in text and "quota exceeded for today" in text
    printed = [json.loads(line) for line in run.stdout.splitlines()]
    assert [p for p in printed if p.get("kind") == "waiting"] == run.kinds("waiting")
    assert len([w for w in run.kinds("waiting") if "retrying in" in w["text"]]) == 3
    assert "hint:" in run.stderr and "calls.retries" in run.stderr
    assert "task_reader" in run.report_md and "quota exceeded for today" in run.report_md
    assert run.kinds("error") and "quota exceeded" in run.kinds("error")[-1]["text"]
    assert (run.run_dir / "data_profile.json").is_file()  # what was done before is kept


def test_connection_refused_names_the_url_and_asks_whether_the_server_runs(tmp_path, free_port):
    url = f"http://127.0.0.1:{free_port}/v1"
    run = run_cli(tmp_path, url, calls={"retries": 1})
    assert_consistent(run, "failed", 1)
    assert run.calls["failure"]["kind"] == "connection"
    assert url in run.record["reason"] and url in run.stderr
    assert "is the server running?" in run.stderr
    assert run.calls["failure"]["hint"].startswith(f"could not connect to {url}: is the server running?")


@pytest.mark.parametrize(
    ("status", "message", "kind", "hint_word"),
    [
        (401, "Incorrect API key provided", "auth", "API key"),
        (403, "not allowed", "auth", "API key"),
        (404, "The model `fake` does not exist", "not_found", "model name"),
        (400, "This model's maximum context length is 4096 tokens", "context_too_long", "context_window"),
        (400, "Invalid value for 'temperature'", "bad_request", "malformed"),
    ],
    ids=["401", "403", "404-model", "400-context", "400-bad-request"],
)
@MODELS
def test_a_fault_that_cannot_succeed_is_not_retried(tmp_path, status, message, kind, hint_word, model):
    with FaultServer([Rule(Status(status, message), times=None)]) as server:
        run = run_cli(tmp_path, server.url, model=model)
    assert_consistent(run, "failed", 1)
    assert len(server.seen) == 1
    failure = run.calls["failure"]
    assert failure["kind"] == kind and failure["status"] == status and failure["attempts"] == 1
    assert message in run.record["reason"] and hint_word in run.stderr
    assert not run.kinds("waiting")


def test_a_hung_endpoint_shows_it_is_waiting_then_times_out_and_is_retried(tmp_path):
    with FaultServer([Rule(Hang(), agent="coding_agent")], max_hang_s=5) as server:
        run = run_cli(tmp_path, server.url, calls={"timeout_s": 1.5})
    completed(run)
    assert run.calls["timeouts"] == 1 and run.calls["retries"] == 1
    texts = [event["text"] for event in run.kinds("waiting")]
    assert any("no answer for" in text and "gives up at 2 s" in text for text in texts), texts
    assert any("retrying in" in text and "timeout" in text for text in texts), texts
    assert server.answered("hang") == 1


def test_a_hung_endpoint_that_never_answers_fails_with_the_timeout_named(tmp_path):
    with FaultServer([Rule(Hang(), times=None)], max_hang_s=3) as server:
        run = run_cli(tmp_path, server.url, calls={"timeout_s": 0.6, "retries": 1})
    assert_consistent(run, "failed", 1)
    assert run.calls["failure"]["kind"] == "timeout" and run.calls["timeouts"] == 2
    assert "calls.timeout_s" in run.stderr
    assert len(server.seen) == 2


def test_the_code_reviewer_failing_after_the_code_ran_fails_the_run_and_keeps_the_stage(tmp_path):
    with FaultServer([Rule(Status(401, "key revoked"), agent="code_reviewer", times=None)]) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated")
    assert_consistent(run, "failed", 1)
    failure = run.calls["failure"]
    assert failure["agent"] == "code_reviewer" and failure["where"].startswith("in stage 1 of ")
    assert "code_reviewer" in run.record["reason"] and "stage 1 of" in run.record["reason"]
    assert "code_reviewer" in run.report_md and "stage 1 of" in run.report_md
    stage_dirs = list((run.run_dir / "stages").iterdir())
    assert stage_dirs and any((d / "code.py").is_file() for d in stage_dirs)  # the stage's code is kept
    assert (run.run_dir / "session.db").stat().st_size > 0
    assert any(seen.agent == "coding_agent" for seen in server.seen)


@pytest.mark.parametrize(
    ("step", "agent", "evidence"),
    [
        (SchemaInvalid(), "answer_validator", "invalid structured output (attempt 1): Field required"),
        (UnknownTool(), "coding_agent", "no tool with that name is available"),
        (BadToolArgs(), "coding_agent", "were not a valid JSON object: run_python"),
        (Empty(), "coding_agent", "The model returned no content"),
        (Empty(), "answer_validator", "The model returned no content"),
        (Length(), "coding_agent", "Maximum tokens reached"),
        (Length(), "answer_validator", "Maximum tokens reached"),
    ],
    ids=["schema-invalid", "unknown-tool", "invalid-tool-args", "empty-coder", "empty-validator", "length-coder",
         "length-validator"],
)
def test_a_bad_reply_goes_back_to_the_model_and_the_run_still_completes(tmp_path, step, agent, evidence):
    with FaultServer([Rule(step, agent=agent)]) as server:
        run = run_cli(tmp_path, server.url, options={"tool_calling": "native", "structured_output": "json_schema"})
    assert server.answered(step.kind) == 1
    completed(run)
    said = [event.get("text", "") for event in run.events if event.get("author") == agent]
    assert any(evidence in text for text in said), said
    assert run.calls["failures"] == 0 and run.calls["retries"] == 0
    # the bad reply was an answered call like any other: run.json, the calls block and the report agree on it
    assert_one_ledger(run.record, run.report_md, policy_calls=True)
    # The answer rests on the files the code wrote, not on the bad reply.
    assert "north 10.5" in run.record["final_answer"]["answer"]


def test_a_200_kb_reply_is_capped_and_every_prompt_stays_within_the_budget(tmp_path):
    rules = [Rule(Huge(200_000), agent=agent, times=2) for agent in ("coding_agent", "plan_parser", "summary_agent")]
    with FaultServer(rules) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated", context={"budget_tokens": 8000})
    assert server.answered("huge") == 5  # the summary agent answers once
    assert run.calls["replies_capped"] >= 5
    assert any("was cut to" in event["text"] for event in run.kinds("warning"))
    assert run.record["context"]["max_prompt_tokens"] <= 8000
    assert run.record["context"]["over_budget_calls"] == 0
    # compacted every call or so, the coder still sees its newest run (cut to fit) and never runs it again
    assert run.record["context"]["loop_stops"] == 0 and not run.record["warnings"]
    assert len(run.report_md) < 60_000
    assert max(len(seen.body.__repr__()) for seen in server.seen) < 8000 * 6
    completed(run)  # the answer comes from the files the code wrote, which no runaway reply touched
