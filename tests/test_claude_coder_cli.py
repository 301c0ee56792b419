"""The claude-code coder with the REAL bundled Claude Code CLI, talking to a fake Messages API on 127.0.0.1.

The suite's guard blocks the CLI subprocess; this test lifts that block for its own duration only, and
points the CLI at a server it starts on the loopback interface (ANTHROPIC_BASE_URL), with HOME in a
temporary directory so no login or settings of the machine are used. No other address is contacted.
"""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agentic_ds import state
from agentic_ds.coders.claude_tools import claude_tool_id
from agentic_ds.workspace import Workspace
from tests.test_claude_coder_turn import make_coder, parts_of, run_coder

pytestmark = pytest.mark.slow


class FakeMessagesApi:
    """`POST /v1/messages` answered over SSE from a script of content-block lists; requests are recorded."""

    def __init__(self, script: list[list[dict[str, Any]]]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.end_headers()

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                api.requests.append({"path": self.path, "body": body})
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._send("application/json", b'{"input_tokens": 10}')
                    return
                # The CLI also makes tool-less side calls; only agent turns (with tools) consume the script.
                blocks = api.script.pop(0) if body.get("tools") and api.script else [{"type": "text", "text": "ok"}]
                self._send("text/event-stream", _sse(blocks, body.get("model", "claude-sonnet-4-5")))

            def _send(self, content_type: str, data: bytes) -> None:
                self.send_response(200)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def agent_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["body"].get("tools")]


def _sse(blocks: list[dict[str, Any]], model: str) -> bytes:
    events: list[str] = []

    def emit(name: str, data: dict[str, Any]) -> None:
        events.append(f"event: {name}\ndata: {json.dumps(data)}\n\n")

    emit("message_start", {"type": "message_start", "message": {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 200, "output_tokens": 1}}})
    stop = "end_turn"
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            emit("content_block_start", {"type": "content_block_start", "index": index,
                                         "content_block": {"type": "text", "text": ""}})
            emit("content_block_delta", {"type": "content_block_delta", "index": index,
                                         "delta": {"type": "text_delta", "text": block["text"]}})
        else:
            stop = "tool_use"
            emit("content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
            emit("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
        emit("content_block_stop", {"type": "content_block_stop", "index": index})
    emit("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 30}})
    emit("message_stop", {"type": "message_stop"})
    return "".join(events).encode()


def _tool_use(tool_id: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


@pytest.fixture
def real_cli_allowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Lift the suite's block on the CLI subprocess for this test only (restored by monkeypatch)."""
    from claude_agent_sdk._internal.transport import subprocess_cli

    spec = importlib.util.find_spec(subprocess_cli.__name__)
    pristine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pristine)  # a fresh copy of the module: its `connect` is the SDK's own
    monkeypatch.setattr(subprocess_cli.SubprocessCLITransport, "connect", pristine.SubprocessCLITransport.connect)
    yield


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeMessagesApi]:
    api = FakeMessagesApi([])
    api.thread.start()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))                 # no login, settings or skills of this machine
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)     # loopback only
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-for-loopback")
    yield api
    api.server.shutdown()
    api.server.server_close()


async def test_real_cli_runs_our_tools_in_the_run_directory(real_cli_allowed, fake_api, tmp_path):
    root = tmp_path / "run"
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text("region,price\nnorth,3\nsouth,5\n")
    skills = tmp_path / "skills"
    (skills / "group-comparisons").mkdir(parents=True)
    (skills / "group-comparisons" / "SKILL.md").write_text(
        "---\nname: group-comparisons\ndescription: Compare groups with zebra-grade tests.\n---\nUse Welch.\n"
    )
    fake_api.script.extend(
        [
            [
                {"type": "text", "text": "Looking at the inputs."},
                _tool_use("toolu_1", claude_tool_id("list_files"), path="inputs"),
            ],
            [_tool_use("toolu_2", claude_tool_id("run_python"), code="result = 3 + 5")],
            [_tool_use("toolu_3", "Read", file_path="/etc/hostname")],
            [{"type": "text", "text": "Total price is 8."}],
        ]
    )
    # The user's own Claude setup (memory, skills) and a project CLAUDE.md above the run must stay out.
    user_claude = Path.home() / ".claude"
    (user_claude / "skills" / "users-own-skill").mkdir(parents=True)
    (user_claude / "CLAUDE.md").write_text("USER-MEMORY-MARKER")
    (user_claude / "skills" / "users-own-skill" / "SKILL.md").write_text(
        "---\nname: users-own-skill\ndescription: USER-SKILL-MARKER\n---\n"
    )
    (tmp_path / "CLAUDE.md").write_text("PARENT-PROJECT-MARKER")
    secret = tmp_path / "outside.txt"
    secret.write_text("OUTSIDE-THE-RUN-DIRECTORY")
    executed: list[str] = []
    coder = make_coder(Workspace(root), skills, None, executed)   # no transport: the real bundled CLI
    coder.model = "claude-sonnet-4-5"
    # Prompts carry data-derived text; an `@path` in it must not make the CLI attach that file.
    events, session = await run_coder(coder, {"stage_title": f"totals of column @{secret}"})

    final = events[-1]
    assert final.custom_metadata["claude_code"]["status"] == "ok", final.content.parts[0].text
    assert executed == ["result = 3 + 5"]
    assert session.state[state.IMPL_SUMMARY] == "Total price is 8."
    assert session.state[state.LAST_EXECUTION]["output_tail"] == "8"
    responses = {r.name: r.response for r in parts_of(events, "function_response")}
    assert "inputs/sales.csv" in responses["list_files"]["result"]
    assert "limited to the run directory" in responses["Read"]["error"]   # our gate denied the read outside

    requests = fake_api.agent_requests()
    assert f"totals of column @{secret}" in json.dumps(requests[0]["messages"])
    everything_sent = json.dumps([r["body"] for r in fake_api.requests])
    for marker in ("OUTSIDE-THE-RUN-DIRECTORY", "USER-MEMORY-MARKER", "USER-SKILL-MARKER", "PARENT-PROJECT-MARKER"):
        assert marker not in everything_sent
    tools = {t["name"] for t in requests[0]["tools"]}
    assert tools == {"Read", "Glob", "Grep", "Skill", claude_tool_id("list_files"), claude_tool_id("run_python")}
    sent = json.dumps(requests[0])
    assert "zebra-grade" in sent and "agentic-ds:group-comparisons" in sent   # our skill, from the local copy
    assert "deep-research" not in sent                                       # the CLI's own skills filtered out
    assert "mcp__agentic_ds__run_python" in json.dumps(requests[0]["system"])  # our system prompt addition

    # The CLI left nothing in the run directory but our skills copy, and the key is nowhere in it.
    assert sorted(p.name for p in root.iterdir()) == [".claude", "inputs"]
    assert sorted(p.name for p in (root / ".claude").iterdir()) == [".claude-plugin", "skills"]
    assert not any("sk-ant-fake-for-loopback" in p.read_text(errors="ignore") for p in root.rglob("*") if p.is_file())

    meta = final.custom_metadata["claude_code"]
    assert meta["cost_usd"] > 0 and meta["num_turns"] == 4
    assert meta["model"] == "claude-sonnet-4-5" and meta["output_tokens"] >= 4 * 30
