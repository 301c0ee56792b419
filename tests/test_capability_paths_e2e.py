"""Each capability path, end to end, against a server that rejects what llama.cpp's server rejects.

The fault server refuses list content, `response_format: json_schema` and native tool-result turns with HTTP 500
(the messages llama-cpp-python sends). Whole runs go through the real LiteLLM path with `openai/` and
`hosted_vllm/` model strings: the local defaults must never trip it, and explicitly native settings must step
down once per feature, say so in run.json, and finish.
"""

from __future__ import annotations

import json

import pytest

from agentic_ds.llm import text_tools
from tests.fault_runs import assert_consistent, run_cli
from tests.support.fault_server import LLAMA_CPP_REJECTS, FaultServer

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

NATIVE = {"structured_output": "json_schema", "tool_calling": "native", "message_content": "parts"}


def finished_well(run) -> None:
    assert run.record["status"] in ("completed", "completed_with_warnings"), run.stdout
    assert_consistent(run, run.record["status"], 0)
    assert "north 10.5" in run.report_md  # the mean price per region, from the data


@pytest.mark.parametrize("model", ["openai/local", "hosted_vllm/local"])
@pytest.mark.parametrize("mode", ["simple", "orchestrated"])
def test_local_defaults_never_send_what_llama_cpp_rejects(tmp_path, model, mode):
    with FaultServer(rejects=LLAMA_CPP_REJECTS) as server:
        run = run_cli(tmp_path, server.url, mode=mode, model=model)
    finished_well(run)
    assert server.http_errors == []
    assert run.calls["step_downs"] == []
    assert run.calls["capabilities"][model] == "structured output json_object, tools text, content string"
    bodies = [seen.body for seen in server.seen]
    assert all(
        isinstance(m["content"], str) for body in bodies for m in body["messages"] if m.get("content") is not None
    )
    assert not any(body.get("tools") for body in bodies)
    formats = [body["response_format"] for body in bodies if body.get("response_format")]
    assert all(f["type"] == "json_object" and f["schema"]["type"] == "object" for f in formats)
    if mode == "orchestrated":  # simple mode's only structured agent has tools: it answers through set_model_response
        assert {seen.agent for seen in server.seen if seen.body.get("response_format")} >= {"plan_parser"}
    tool_turns = [body for body in bodies if text_tools.PROTOCOL_MARK in body["messages"][0]["content"]]
    assert tool_turns, "the agents with tools were offered them in the text protocol"
    assert any(text_tools.RESPONSE_OPEN in m["content"] for body in tool_turns for m in body["messages"])


def test_native_settings_step_down_once_per_feature_and_record_it(tmp_path):
    with FaultServer(rejects=LLAMA_CPP_REJECTS) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated", model="openai/local", options=NATIVE)
    finished_well(run)
    rejected = [seen for seen in server.http_errors]
    downs = run.calls["step_downs"]
    # json_schema, then a tool-result turn, each rejected once (list content too, if a request ever sent one)
    assert len(rejected) == len(downs) and len(downs) in (2, 3)
    assert any("json_schema" in d for d in downs) and any("text protocol" in d for d in downs)
    assert len(downs) == 2 or any("list content" in d for d in downs)
    content = "string" if len(downs) == 3 else "parts"
    assert run.calls["capabilities"]["openai/local"] == f"structured output json_object, tools text, content {content}"
    warned = [e["text"] for e in run.kinds("warning")]
    assert sum("rejected" in t or "failed on a tool-result turn" in t for t in warned) == len(downs)
    assert run.calls["retries"] == 0  # a step-down is not a retry


def test_json_object_rejected_too_steps_down_to_plain_text_with_validation(tmp_path):
    """A server that takes neither json_schema nor json_object (LM Studio answers so, with a 400)."""
    from tests.support.fault_server import Rule, Status

    rule = Rule(Status(400, "'response_format.type' must be 'json_schema' or 'text'"), agent="plan_parser")
    with FaultServer([rule], rejects=LLAMA_CPP_REJECTS) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated", model="openai/local")
    finished_well(run)
    assert len(server.http_errors) == 1
    assert run.calls["step_downs"] == [
        "openai/local: rejected structured output json_object: using text from now on (HTTP 400: "
        "'response_format.type' must be 'json_schema' or 'text')"
    ]
    after = server.seen[server.http_errors[0].index + 1 :]
    assert after and not any(seen.body.get("response_format") for seen in after)


def test_plain_text_structured_output_is_extracted_and_validated(tmp_path):
    with FaultServer(rejects=LLAMA_CPP_REJECTS) as server:
        run = run_cli(tmp_path, server.url, mode="orchestrated", model="openai/local",
                      options={"structured_output": "text"})
    finished_well(run)
    assert not any(seen.body.get("response_format") for seen in server.seen)
    schema_prompts = [s for s in server.seen if "Reply with one JSON object only" in s.body["messages"][0]["content"]]
    # (the confirmations are decided in code: their reviews start with APPROVED)
    assert {s.agent for s in schema_prompts} >= {"task_reader", "plan_parser", "judge"}


def test_native_tools_with_an_explicit_tool_choice(tmp_path):
    with FaultServer() as server:
        run = run_cli(tmp_path, server.url, mode="simple", model="openai/local",
                      options={**NATIVE, "tool_choice": "auto"})
    finished_well(run)
    with_tools = [seen.body for seen in server.seen if seen.body.get("tools")]
    assert with_tools and all(body["tool_choice"] == "auto" for body in with_tools)
    assert all("tool_choice" not in seen.body for seen in server.seen if not seen.body.get("tools"))


def test_hosted_vllm_native_path_answers_structured_agents_with_tools_through_set_model_response(tmp_path):
    with FaultServer() as server:
        run = run_cli(tmp_path, server.url, mode="simple", model="hosted_vllm/local", options=NATIVE)
    finished_well(run)
    validator = [seen.body for seen in server.seen if seen.agent == "answer_validator"]
    names = {tool["function"]["name"] for body in validator for tool in body.get("tools") or []}
    assert "set_model_response" in names
    assert json.loads(json.dumps(run.record["final_answer"]))["valid"] is True


def test_the_text_protocol_turns_replies_into_real_tool_calls(tmp_path):
    """The coder's `<tool_call>` text became a real run_python call: the sandbox wrote the answer file."""
    with FaultServer(rejects=LLAMA_CPP_REJECTS) as server:
        run = run_cli(tmp_path, server.url, mode="simple", model="openai/local")
    finished_well(run)
    coder_replies = [e for e in run.kinds("tool_call") if e["author"] == "coding_agent"]
    assert any(e["tool"] == "run_python" for e in coder_replies)
    assert list((run.run_dir / "outputs").glob("*.json"))
