"""The replay server over HTTP on 127.0.0.1, against cassettes written here: keys by agent, scope and position;
refusals with a readable diff; replies in the protocol the request uses. (Whole runs: tests/test_relay_e2e.py.)"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from agentic_ds.llm.call_scope import AGENT_HEADER, BRANCH_HEADER, call_scope_plugin, current_branch, scope_headers
from agentic_ds.testing.cassette import CassetteWriter, read_cassette
from agentic_ds.testing.chat_request import read_request
from agentic_ds.testing.replay import STAND_IN_SUMMARY, ReplayServer
from tests.relay_support import body, call_and_result

RUN = {"name": "run_python", "arguments": {"code": "print(1)"}}


def write(path: Path, exchanges: list[tuple[dict, str, dict]]) -> list:
    writer = CassetteWriter(path)
    for request, scope, reply in exchanges:
        writer.add(read_request(request), scope, reply)
    writer.close()
    return read_cassette(path)


def ask(server: ReplayServer, request: dict, scope: str = "") -> tuple[int, dict]:
    data = json.dumps(request).encode()
    sent = urllib.request.Request(f"{server.url}/chat/completions", data=data,
                                  headers={"Content-Type": "application/json", BRANCH_HEADER: scope})
    try:
        with urllib.request.urlopen(sent, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def after_call(agent: str = "coding_agent", tool: str = "run_python") -> dict:
    return body(agent, *call_and_result("call_0", tool, {"code": "print(1)"}, {"ok": True}))


def test_requests_are_answered_by_agent_scope_and_position_not_by_bytes(tmp_path):
    recorded = write(tmp_path / "c.jsonl", [
        (body(), "stage_orchestrator.s1", {"content": None, "tool_calls": [RUN]}),
        (after_call(), "stage_orchestrator.s1", {"content": "stage 1 done", "tool_calls": []}),
        (body(), "stage_orchestrator.s2", {"content": "stage 2 done", "tool_calls": []}),
    ])
    with ReplayServer(recorded) as server:
        reworded = body()
        reworded["messages"][1]["content"] = "Please compute the mean price for every region."
        status, answer = ask(server, reworded, "stage_orchestrator.s2")   # the other stage first: no mix-up
        assert (status, answer["choices"][0]["message"]["content"]) == (200, "stage 2 done")
        status, answer = ask(server, reworded, "stage_orchestrator.s1")
        call = answer["choices"][0]["message"]["tool_calls"][0]
        assert call["function"]["name"] == "run_python" and answer["choices"][0]["finish_reason"] == "tool_calls"
        status, answer = ask(server, after_call(), "stage_orchestrator.s1")
        assert answer["choices"][0]["message"]["content"] == "stage 1 done"
        assert not server.misses and not server.unused()


def test_a_reply_recorded_as_native_calls_is_replayed_as_text_protocol_blocks(tmp_path):
    recorded = write(tmp_path / "c.jsonl", [(body(), "", {"content": "Let me run it.", "tool_calls": [RUN]})])
    text_request = body(tools=False)
    text_request["messages"][0]["content"] += (
        '\n\n# Tools (text protocol)\nYou can call...\n<tools>\n{"name": "read_file"}\n{"name": "run_python"}\n'
        "</tools>")
    with ReplayServer(recorded) as server:
        _status, answer = ask(server, text_request)
    content = answer["choices"][0]["message"]["content"]
    assert content.startswith("Let me run it.\n<tool_call>\n") and '"name": "run_python"' in content


def test_what_the_cassette_cannot_answer_is_refused_with_what_was_expected_and_what_came(tmp_path):
    recorded = write(tmp_path / "c.jsonl", [
        (body(), "", {"content": None, "tool_calls": [RUN]}),
        (after_call(), "", {"content": "done", "tool_calls": []}),
    ])
    with ReplayServer(recorded, label="cassette demo") as server:
        assert ask(server, body("judge"))[0] == 400
        ask(server, body())
        status, refused = ask(server, after_call(tool="read_file"))
        assert ask(server, body(), "stage_orchestrator.s9")[0] == 400
    assert status == 400
    # the HTTP error is one neutral line (no word the product reads as a capability rejection); the diff is kept
    assert refused["error"]["message"] == ("cassette demo: no recorded reply for request 2 of agent `coding_agent` in "
                                           "scope (root) (the replay's failure shows why)")
    message = server.misses[1]
    assert "cassette demo: request 2 of agent `coding_agent` in scope (root)" in message
    assert 'expected (recorded): [["run_python"]]' in message and 'came:                [["read_file"]]' in message
    assert "the cassette never saw this agent (recorded agents: coding_agent)" in server.misses[0]
    assert "only in scope(s) (root)" in server.misses[2]
    assert [r.index for r in server.unused()] == [1]


def test_a_request_missing_a_tool_result_the_recorded_reply_saw_is_refused(tmp_path):
    two_calls = {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": "read_file", "arguments": "{}"}} for i in (1, 2)]}
    results = [{"role": "tool", "tool_call_id": f"c{i}", "content": "{}"} for i in (1, 2)]
    recorded = write(tmp_path / "c.jsonl", [(body(), "", {"content": None, "tool_calls": [RUN]}),
                                            (body("coding_agent", two_calls, *results), "", {"content": "done"})])
    with ReplayServer(recorded) as server:
        ask(server, body())
        status, refused = ask(server, body("coding_agent", two_calls, results[0]))
    assert status == 400 and "1 call(s) without their result" in server.misses[0]


def test_one_request_more_than_recorded_is_refused(tmp_path):
    recorded = write(tmp_path / "c.jsonl", [(body(), "", {"content": "done", "tool_calls": []})])
    with ReplayServer(recorded) as server:
        ask(server, body())
        status, refused = ask(server, body())
    assert status == 400 and "recorded only 1 request(s) of it there" in server.misses[0]
    assert "whose recorded reply was  text 'done'" in server.misses[0]


def test_the_compactor_is_answered_even_when_its_calls_moved(tmp_path):
    summary = {"role": "user", "content": "Summarize these events."}
    recorded = write(tmp_path / "c.jsonl", [({"messages": [summary]}, "", {"content": "recorded summary"})])
    with ReplayServer(recorded) as server:
        first = ask(server, {"messages": [summary]})[1]["choices"][0]["message"]["content"]
        second = ask(server, {"messages": [summary]})[1]["choices"][0]["message"]["content"]
    assert (first, second) == ("recorded summary", STAND_IN_SUMMARY) and not server.misses


def test_a_cassette_rebuilds_every_request_exactly_and_stores_long_text_once(tmp_path):
    profile = "## Data profile\n" + "price: numeric, 5 rows, mean 11.2; " * 40   # in two agents' prompts
    requests = [body(), after_call(), body("code_reviewer")]
    for request in requests:
        request["messages"][1]["content"] = profile
    recorded = write(tmp_path / "c.jsonl", [(r, "", {"content": "x", "tool_calls": []}) for r in requests])
    assert [r.messages for r in recorded] == [r["messages"] for r in requests]
    assert recorded[1].tool_decls == requests[1]["tools"]
    assert (tmp_path / "c.jsonl").read_text().count(json.dumps(profile)) == 1


async def test_the_call_scope_reaches_a_local_server_and_no_hosted_one():
    plugin = call_scope_plugin()

    class Callback:
        branch = "stage_orchestrator.s 2/é"

    await plugin.before_model_callback(callback_context=Callback(), llm_request=None)
    assert current_branch.get() == "stage_orchestrator.s 2/é"
    local = scope_headers("openai/relay", "http://127.0.0.1:9/v1", "coding_agent")
    assert local == {BRANCH_HEADER: "stage_orchestrator.s%202/%C3%A9", AGENT_HEADER: "coding_agent"}
    assert scope_headers("openai/gpt-4.1", None, "coding_agent") == {}
    assert scope_headers("openai/gpt-4.1", "https://api.openai.com/v1", "coding_agent") == {}


async def test_the_products_client_sends_the_scope_headers(monkeypatch):
    from agentic_ds.llm.capabilities import Capabilities, CapabilityState
    from agentic_ds.llm.client import PolicyClient, current_agent
    from agentic_ds.llm.policy import CallMonitor, RetryPolicy

    sent: dict = {}

    async def capture(self, *, timeout_s: float, **kwargs):
        sent.update(kwargs)
        raise RuntimeError("captured")

    monkeypatch.setattr(PolicyClient, "send", capture)
    client = PolicyClient(spec="openai/relay", api_base="http://127.0.0.1:9/v1",
                          state=CapabilityState("openai/relay", Capabilities()),
                          monitor=CallMonitor(RetryPolicy(retries=0)))
    current_agent.set("code_reviewer")
    current_branch.set("stage_orchestrator.s1")
    with pytest.raises(Exception, match="captured"):
        await client.acompletion("openai/relay", [{"role": "user", "content": "hi"}], None)
    assert sent["extra_headers"] == {BRANCH_HEADER: "stage_orchestrator.s1", AGENT_HEADER: "code_reviewer"}


def test_a_replay_gives_recorded_code_room_on_a_busy_machine_and_never_retries_a_call(tmp_path):
    import yaml

    from agentic_ds.testing import cassette_run

    meta = {"args": ["run", "--mode", "simple", "x"], "config": {"sandbox": {"cell_timeout_s": 30}}}
    args = cassette_run.prepare(tmp_path, meta, tmp_path / "work", "http://127.0.0.1:1/v1", replay=True)
    config = yaml.safe_load((tmp_path / "work" / "agentic-ds.yaml").read_text(encoding="utf-8"))
    assert config["sandbox"]["cell_timeout_s"] == 600 and config["calls"]["retries"] == 0
    assert args[-2:] == ["--config", "agentic-ds.yaml"]
    recorded = cassette_run.prepare(tmp_path, meta, tmp_path / "rec", "http://127.0.0.1:1/v1", replay=False)
    assert yaml.safe_load((tmp_path / "rec" / "agentic-ds.yaml").read_text())["sandbox"]["cell_timeout_s"] == 30
    assert recorded == args
