"""The relay from the outside: a real server on 127.0.0.1, requests over HTTP (litellm, the product's LiteLLM
model, raw urllib), a responder writing reply files in the folder."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.request
from functools import partial
from pathlib import Path

import pytest

from agentic_ds.testing.cassette import read_cassette
from agentic_ds.testing.relay import RelayServer
from agentic_ds.testing.relay_files import write_new
from tests.relay_support import answer_when_asked, body, call_and_result, in_background

CALL = {"content": None, "tool_calls": [{"name": "run_python", "arguments": {"code": "print(1)"}}]}


@pytest.fixture
def relay(tmp_path):
    server = RelayServer(tmp_path / "requests", cassette=tmp_path / "cassette.jsonl", poll_s=0.02, say=lambda _: None)
    server.start()
    yield server
    server.close()


def post(url: str, payload: dict, timeout: float = 20) -> bytes:
    request = urllib.request.Request(f"{url}/chat/completions", data=json.dumps(payload).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.read()


async def test_a_request_becomes_files_and_the_reply_file_is_the_answer(relay):
    import litellm

    folder = relay.folder
    in_background(lambda: answer_when_asked(folder, 0, CALL))
    request = body()
    response = await litellm.acompletion(model="openai/relay", api_base=relay.url, api_key="none",
                                         timeout=90, max_retries=0, messages=request["messages"],
                                         tools=request["tools"], tool_choice="auto")
    call = response.choices[0].message.tool_calls[0]
    assert call.function.name == "run_python" and json.loads(call.function.arguments) == {"code": "print(1)"}
    assert response.choices[0].finish_reason == "tool_calls"
    sent = len(json.dumps([request["messages"], request["tools"]]))
    assert abs(response.usage.prompt_tokens - sent / 4) < sent / 20   # ~4 characters a token
    assert json.loads((folder / "0000.request.json").read_text())["messages"] == request["messages"]
    readable = (folder / "0000.request.md").read_text()
    assert "agent `coding_agent`" in readable and "tool_choice: \"auto\"" in readable
    assert "### run_python" in readable and '"required": [' in readable   # the tools with their JSON schemas
    assert "### [1] user" in readable and "Mean price by region" in readable
    assert (folder / "README.txt").is_file()
    (recorded,) = read_cassette(relay.writer.path)
    assert (recorded.agent, recorded.index, recorded.reply) == ("coding_agent", 0, CALL)


async def test_streamed_and_plain_requests_get_the_same_reply(relay):
    import litellm

    text = "The mean price is 11.20; " * 30   # several streamed pieces
    for number, stream in ((0, False), (1, True), (2, True)):
        reply = CALL if number == 2 else {"content": text, "tool_calls": []}
        in_background(partial(answer_when_asked, relay.folder, number, reply))
        request = body(tools=number == 2)
        request["messages"][1]["content"] += f" ({number})"
        response = await litellm.acompletion(model="openai/relay", api_base=relay.url, api_key="none",
                                             timeout=90, max_retries=0, stream=stream,
                                             **{k: v for k, v in request.items() if k != "model"})
        if not stream:
            assert response.choices[0].message.content == text
            continue
        chunks = [chunk async for chunk in response]
        assert len(chunks) > 2
        if number == 1:
            assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == text
        else:
            pieces = [c.choices[0].delta.tool_calls for c in chunks if c.choices and c.choices[0].delta.tool_calls]
            arguments = "".join(p[0].function.arguments or "" for p in pieces)
            assert pieces[0][0].function.name == "run_python" and json.loads(arguments) == {"code": "print(1)"}
    raw = in_background(lambda: answer_when_asked(relay.folder, 3, {"content": "hi", "tool_calls": []}))
    events = post(relay.url, {**body(tools=False), "stream": True}).decode()
    raw.join()
    assert events.startswith("data: {") and events.rstrip().endswith("data: [DONE]")


async def test_the_products_litellm_model_reads_a_streamed_tool_call(relay):
    from google.adk.models import LlmRequest
    from google.genai import types

    from agentic_ds.llm.capabilities import Capabilities, CapabilityState
    from agentic_ds.llm.client import PolicyClient
    from agentic_ds.llm.models import ManagedLiteLlm
    from agentic_ds.llm.policy import CallMonitor, RetryPolicy

    state = CapabilityState("openai/relay", Capabilities())
    client = PolicyClient(spec="openai/relay", api_base=relay.url, state=state,
                          monitor=CallMonitor(RetryPolicy(timeout_s=20, retries=0)))
    llm = ManagedLiteLlm("openai/relay", state=state, llm_client=client, api_base=relay.url, api_key="none")
    declaration = types.FunctionDeclaration(name="run_python", parameters_json_schema=TOOL_SCHEMA)
    request = LlmRequest(model="openai/relay", contents=[types.Content(role="user", parts=[types.Part(text="go")])],
                         config=types.GenerateContentConfig(
                             system_instruction='You are an agent. Your internal name is "coding_agent".',
                             tools=[types.Tool(function_declarations=[declaration])]))
    for number, stream in ((0, True), (1, False)):
        in_background(partial(answer_when_asked, relay.folder, number, CALL))
        responses = [r async for r in llm.generate_content_async(request, stream=stream)]
        final = [r for r in responses if not r.partial][-1]
        calls = [p.function_call for p in final.content.parts if p.function_call]
        assert [(c.name, c.args) for c in calls] == [("run_python", {"code": "print(1)"})], stream


TOOL_SCHEMA = {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}


def test_the_delta_holds_only_the_messages_after_the_prefix_shared_with_the_agents_last_request(relay):
    first = body()
    second = body("coding_agent", *call_and_result("call_0", "run_python", {"code": "print(1)"}, {"ok": True}))
    other = body("code_reviewer")
    for number, request in enumerate((first, other, second)):
        waiter = in_background(partial(answer_when_asked, relay.folder, number, {"content": "done"}))
        post(relay.url, request)
        waiter.join()
    delta = (relay.folder / "0002.delta.md").read_text()
    assert "The first 2 of 4 messages are those of request 0000" in delta   # not 0001: another agent's
    assert "### [2] assistant" in delta and "### [3] tool" in delta and "### [1] user" not in delta
    assert "Tools unchanged" in delta and "1 tool exchange(s) so far in this turn" in delta
    assert "First request of `code_reviewer`" in (relay.folder / "0001.delta.md").read_text()


def test_a_malformed_reply_gets_an_error_file_and_the_relay_waits_for_a_fixed_one(relay):
    folder = relay.folder
    got: list[bytes] = []
    client = in_background(lambda: got.append(post(relay.url, body())))
    answer_when_asked(folder, 0, b'{"content": "cut')
    assert wait_for(folder / "0000.reply.1.error")
    assert "not valid JSON" in (folder / "0000.reply.1.error").read_text()
    assert (folder / "0000.reply.1.rejected.json").read_bytes() == b'{"content": "cut'
    answer_when_asked(folder, 0, {"tool_calls": [{"name": "rm_rf", "arguments": {}}]})
    assert wait_for(folder / "0000.reply.2.error")
    error = (folder / "0000.reply.2.error").read_text()
    assert "'rm_rf', which this request does not offer (tools: read_file, run_python)" in error
    answer_when_asked(folder, 0, CALL)
    client.join(timeout=10)
    message = json.loads(got[0])["choices"][0]["message"]
    assert message["tool_calls"][0]["function"]["name"] == "run_python"
    assert len(read_cassette(relay.writer.path)) == 1


def test_a_json_request_must_be_answered_with_a_json_object(relay):
    folder = relay.folder
    client = in_background(lambda: post(relay.url, body("answer_validator", tools=False,
                                                        response_format={"type": "json_object"})))
    answer_when_asked(folder, 0, {"content": "The answer is 11.20"})
    assert wait_for(folder / "0000.reply.1.error")
    assert "asks for JSON (json_object)" in (folder / "0000.reply.1.error").read_text()
    answer_when_asked(folder, 0, {"content": '{"valid": true}'})
    client.join(timeout=10)


def test_relay_writes_are_create_only(tmp_path, relay):
    target = tmp_path / "reply.json"
    target.write_text("the responder's")
    with pytest.raises(FileExistsError):
        write_new(target, "the relay's")
    assert target.read_text() == "the responder's"
    raced = tmp_path / "raced.json"
    won: list[int] = []

    def writer(index: int) -> None:
        try:
            write_new(raced, f"writer {index}")
            won.append(index)
        except FileExistsError:
            pass

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and raced.read_text() == f"writer {won[0]}"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []   # no temporary left over
    in_background(lambda: answer_when_asked(relay.folder, 0, CALL))
    post(relay.url, body())
    with pytest.raises(FileExistsError):   # a second reply to an answered request cannot replace the first
        write_new(relay.folder / "0000.reply.json", json.dumps({"content": "other"}))
    with pytest.raises(FileExistsError, match="requests of another relay"):
        RelayServer(relay.folder)


def test_a_retried_request_gets_the_same_reply_and_is_recorded_once(relay):
    request = body()
    with pytest.raises(OSError):   # the client gives up (as the product does at calls.timeout_s) ...
        post(relay.url, request, timeout=0.3)
    retried: list[bytes] = []
    retry = in_background(lambda: retried.append(post(relay.url, request)))   # ... and sends it again
    answer_when_asked(relay.folder, 0, CALL)
    retry.join(timeout=10)
    assert json.loads(retried[0])["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "run_python"
    assert not (relay.folder / "0001.request.json").exists()
    again = in_background(lambda: answer_when_asked(relay.folder, 1, {"content": "a new answer"}))
    assert json.loads(post(relay.url, request))["choices"][0]["message"]["content"] == "a new answer"
    again.join()
    assert [r.index for r in read_cassette(relay.writer.path)] == [0, 1]   # an answered request asked again is new


def test_models_are_listed(relay):
    with urllib.request.urlopen(f"{relay.url}/models", timeout=5) as response:
        assert json.loads(response.read())["data"][0]["id"] == "relay"


def test_serve_prints_the_api_base_and_the_config_to_use(tmp_path):
    command = [sys.executable, "-m", "agentic_ds.testing.relay", "serve", "--dir", str(tmp_path / "requests")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("api_base: http://127.0.0.1:") and first.strip().endswith("/v1")
        snippet = "".join(process.stdout.readline() for _ in range(4))
        assert "openai/relay:" in snippet and f"api_base: {first.split()[1]}" in snippet
        with urllib.request.urlopen(f"{first.split()[1]}/models", timeout=5) as response:
            assert response.status == 200
        process.terminate()


def wait_for(path: Path, timeout_s: float = 10) -> bool:
    import time

    deadline = time.monotonic() + timeout_s
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
