"""Capabilities per model, the request adapter and the text tool protocol (its parser is linear: fed megabytes)."""

from __future__ import annotations

import json
import time

import pytest

from agentic_ds.config.settings import ModelOptions
from agentic_ds.llm import text_tools
from agentic_ds.llm.adapt import adapt_request, cap_text, read_text_calls
from agentic_ds.llm.capabilities import Capabilities, resolve, step_down

SCHEMA = {"type": "object", "properties": {"exit": {"type": "boolean"}}, "required": ["exit"]}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
    }
]


def request(**extra):
    return {
        "model": "openai/m",
        "messages": [
            {"role": "system", "content": "You review."},
            {"role": "user", "content": [{"type": "text", "text": "Check it."}, {"type": "text", "text": "Now."}]},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.csv"}'}}]},
            {"role": "tool", "tool_call_id": "c1", "content": '{"content": "x,y"}'},
        ],
        **extra,
    }


@pytest.mark.parametrize(
    ("spec", "options", "expected"),
    [
        ("openai/gpt-4.1", None, Capabilities()),
        ("anthropic/claude-sonnet-4-5", None, Capabilities()),
        ("openai/gpt-4.1", ModelOptions(api_base="https://api.openai.com/v1"), Capabilities()),
        ("openai/local", ModelOptions(api_base="http://127.0.0.1:8080/v1"),
         Capabilities(structured="json_object", tools="text", content="string")),
        ("hosted_vllm/qwen", ModelOptions(api_base="http://gpu-box:8000/v1"),
         Capabilities(structured="json_object", tools="text", content="string")),
        ("ollama_chat/llama3.1", None, Capabilities(structured="json_object", tools="text", content="string")),
        ("openai/local", ModelOptions(api_base="http://127.0.0.1:1/v1", tool_calling="native", tool_choice="auto",
                                      structured_output="json_schema", message_content="parts"),
         Capabilities(tool_choice="auto")),
    ],
)
def test_capabilities_are_decided_per_model(spec, options, expected):
    assert resolve(spec, options) == expected


def test_native_requests_pass_unchanged():
    body = request(tools=TOOLS, response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": SCHEMA}})
    assert adapt_request(body, Capabilities()).kwargs == body


def test_the_most_compatible_request_has_strings_text_tools_and_the_schema_in_the_prompt():
    body = request(tools=TOOLS, response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": SCHEMA}})
    adapted = adapt_request(
        body, Capabilities(structured="json_object", tools="text", content="string", max_output_tokens=256)
    )
    out = adapted.kwargs
    assert "tools" not in out and "tool_choice" not in out and out["max_tokens"] == 256
    assert out["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert adapted.text_tools == {"read_file"}
    roles = [m["role"] for m in out["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert all(isinstance(m["content"], str) for m in out["messages"])
    system = out["messages"][0]["content"]
    assert system.startswith("You review.") and json.dumps(SCHEMA) in system and text_tools.PROTOCOL_MARK in system
    assert text_tools.declared_tool_names(system) == ["read_file"]
    assert out["messages"][1]["content"] == "Check it.\n\nNow."
    assert text_tools.CALL_OPEN in out["messages"][2]["content"] and '"a.csv"' in out["messages"][2]["content"]
    assert text_tools.parse_responses(out["messages"][3]["content"])[0] == [("read_file", {"content": "x,y"})]
    assert body["messages"][1]["content"][0]["text"] == "Check it."  # the caller's request is not mutated


def test_text_structured_output_sends_no_response_format():
    body = request(response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": SCHEMA}})
    out = adapt_request(body, Capabilities(structured="text")).kwargs
    assert "response_format" not in out and "JSON schema" in out["messages"][0]["content"]


def test_tool_choice_is_sent_only_with_tools():
    caps = Capabilities(tool_choice="auto")
    assert adapt_request(request(tools=TOOLS), caps).kwargs["tool_choice"] == "auto"
    assert "tool_choice" not in adapt_request(request(tools=None), caps).kwargs


@pytest.mark.parametrize(
    ("caps", "message", "extra", "changed"),
    [
        (Capabilities(), 'can only concatenate str (not "list") to str', {}, "content"),
        (Capabilities(content="string"), "Input should be 'text' or 'json_object'",
         {"response_format": {"type": "json_schema"}}, "structured"),
        (Capabilities(content="string", structured="json_object"), "response_format json_object is not supported",
         {"response_format": {"type": "json_object"}}, "structured"),
        (Capabilities(content="string", tool_choice="auto"), "tool_choice auto is not supported", {"tools": TOOLS},
         "tool_choice"),
        (Capabilities(content="string"), "this server does not support tools", {"tools": TOOLS}, "tools"),
        (Capabilities(content="string"), "'dict object' has no attribute 'content'", {"tools": TOOLS}, "tools"),
    ],
)
def test_a_rejection_naming_a_feature_steps_it_down(caps, message, extra, changed):
    body = request(**extra)
    stepped = step_down(caps, message, body)
    assert stepped is not None
    lowered, what = stepped
    assert getattr(lowered, changed) != getattr(caps, changed) and what


def test_a_rejection_naming_nothing_used_changes_nothing():
    assert step_down(Capabilities(), "internal error: out of memory", request()) is None
    assert step_down(Capabilities(structured="text", tools="text", content="string"), "json_schema bad",
                     request(response_format=None)) is None


def test_text_calls_are_read_back_as_native_tool_calls():
    reply = 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.csv"}}\n</tool_call>'
    calls, rest = read_text_calls(reply, frozenset({"read_file"}))
    assert rest == "Let me look."
    assert calls[0]["function"] == {"name": "read_file", "arguments": '{"path": "a.csv"}'}
    bare, _ = read_text_calls(
        '```json\n{"name": "read_file", "arguments": {"path": "b"}}\n```', frozenset({"read_file"})
    )
    assert bare and json.loads(bare[0]["function"]["arguments"]) == {"path": "b"}
    assert read_text_calls('{"name": "x", "arguments": {}}', frozenset({"read_file"})) == (
        [],
        '{"name": "x", "arguments": {}}',
    )
    assert read_text_calls("The answer is 42.", frozenset({"read_file"})) == ([], "The answer is 42.")


def test_malformed_blocks_are_reported_not_guessed():
    calls, problems, _ = text_tools.parse_calls("<tool_call>{not json</tool_call>", frozenset({"read_file"}))
    assert calls == [] and "not a tool call" in problems[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "<tool_call>" * n,
        lambda n: ("<tool_call>{" + '"a": [' * 50) * (n // 300),
        lambda n: "{" * n,
        lambda n: "<tool_response>" + "x" * n,
        lambda n: ("word " * (n // 5)),
    ],
    ids=["open-tags", "nested-brackets", "braces", "unclosed-response", "prose"],
)
def test_the_protocol_parsers_are_linear_on_megabytes(make):
    def timed(size: int) -> float:
        text = make(size)
        started = time.process_time()   # CPU time: a parallel worker on the same cores does not count
        text_tools.parse_calls(text, frozenset({"read_file"}))
        text_tools.parse_responses(text)
        read_text_calls(text, frozenset({"read_file"}))
        return time.process_time() - started

    small, large = timed(250_000), timed(1_000_000)
    assert large < 2.0 and large < max(small, 0.005) * 12  # 4x the input, well under quadratic growth (16x)


def test_a_capped_reply_keeps_head_and_tail_and_says_what_was_cut():
    text = "HEAD " + "x" * 200_000 + " TAIL"
    capped = cap_text(text, 8000)
    assert len(capped) < 8200 and capped.startswith("HEAD") and capped.endswith("TAIL")
    assert "characters of this reply cut" in capped
    assert cap_text("short", 8000) == "short"
