"""A fault-injecting OpenAI-compatible chat server on 127.0.0.1, for tests of the real LiteLLM path.

    with FaultServer(rules=[Rule(Status(429, retry_after="1"))]) as server:   # the first request: 429
        ... run with model `openai/fake` and `model_options: {openai/fake: {api_base: server.url}}` ...
    assert server.answered("rate_limited") == 1

Requests are answered by the first `Rule` whose agent matches and that has uses left; with none, by the offline
model (`OfflineBrain`), so a whole analysis runs against it. Steps script what providers do: `Status` (429 with
or without Retry-After, 500, 503, 401, 404, 400...), `Hang`, `Malformed`, `Empty`, `Length`, `Huge`,
`SchemaInvalid`, `UnknownTool`, `BadToolArgs`, `Reply`. `rejects` makes it refuse what llama.cpp's server refuses
(`LLAMA_CPP_REJECTS`). It is bounded: requests are counted and capped, a hang lasts at most `max_hang_s`, bodies are
size-limited, and `close()` releases everything. `cached_tokens` makes every reply report that many cached prompt
tokens, as OpenAI reports prompt caching. Connection refused needs no server: `unused_port()` (the `free_port` fixture).
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from agentic_ds.testing.chat_http import MAX_BODY, error_body

if TYPE_CHECKING:   # imported when first used: it loads ADK
    from agentic_ds.testing.openai_brain import OfflineBrain

_AGENT = re.compile(r'Your internal name is "([^"]+)"')

# What llama-cpp-python's server (0.3.x) answers with HTTP 500, seen against SmolLM2 (research/local-model.md).
LIST_CONTENT = 'can only concatenate str (not "list") to str'
JSON_SCHEMA = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
    "  Input should be 'text' or 'json_object'"
)
TOOL_TURN = "'dict object' has no attribute 'content'"
LLAMA_CPP_REJECTS = frozenset({"list_content", "json_schema", "tool_result_turn"})


@dataclass
class Answer:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    hang_s: float | None = None     # no answer: hold the connection this long, then drop it
    kind: str = "reply"


class Step:
    kind = "reply"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        raise NotImplementedError


@dataclass
class Status(Step):
    code: int
    message: str = ""
    retry_after: str | None = None

    @property
    def kind(self) -> str:  # type: ignore[override]
        return {429: "rate_limited", 500: "server_error", 503: "unavailable", 401: "auth", 404: "not_found"}.get(
            self.code, f"http_{self.code}")

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        headers = {"Retry-After": self.retry_after} if self.retry_after is not None else {}
        message = self.message or f"fault server: HTTP {self.code}"
        return Answer(self.code, error_body(message), headers, kind=self.kind)


@dataclass
class Hang(Step):
    seconds: float = 3600.0
    kind = "hang"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        return Answer(hang_s=min(self.seconds, server.max_hang_s), kind=self.kind)


class Malformed(Step):
    kind = "malformed"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        return Answer(200, b'{"id": "x", "choices": [{"message": {"content": "cut', kind=self.kind)


@dataclass
class Reply(Step):
    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    finish_reason: str = "stop"
    kind = "scripted"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return server.completion(body, message, self.finish_reason, kind=self.kind)


def tool_call(name: str, arguments: str) -> dict[str, Any]:
    return {"id": f"call_{name}", "type": "function", "function": {"name": name, "arguments": arguments}}


class Empty(Reply):
    kind = "empty"

    def __init__(self) -> None:
        super().__init__(content="")


class SchemaInvalid(Reply):
    kind = "schema_invalid"

    def __init__(self) -> None:
        super().__init__(content='{"unexpected": "this object matches no schema of ours"}')


class UnknownTool(Reply):
    kind = "unknown_tool"

    def __init__(self) -> None:
        super().__init__(tool_calls=[tool_call("no_such_tool", '{"x": 1}')], finish_reason="tool_calls")


class BadToolArgs(Reply):
    kind = "bad_tool_args"

    def __init__(self, tool: str = "run_python") -> None:
        super().__init__(tool_calls=[tool_call(tool, '{"code": "print(1)"')], finish_reason="tool_calls")


@dataclass
class Huge(Step):
    chars: int = 200_000
    kind = "huge"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        line = "This sentence is part of an enormous reply from a model that would not stop. "
        text = (line * (self.chars // len(line) + 1))[: self.chars]
        return server.completion(body, {"role": "assistant", "content": text}, "stop", kind=self.kind)


@dataclass
class Length(Step):
    """The offline model's answer cut in half, with `finish_reason: length`."""

    kind = "length"

    def answer(self, server: FaultServer, body: dict[str, Any]) -> Answer:
        message = server.brain_answer(body)["message"]
        if message.get("tool_calls"):
            for call in message["tool_calls"]:
                arguments = call["function"]["arguments"]
                call["function"]["arguments"] = arguments[: len(arguments) // 2]
        else:
            message["content"] = (message.get("content") or "")[: len(message.get("content") or "") // 2]
        return server.completion(body, message, "length", kind=self.kind)


@dataclass
class Rule:
    """Answer with `step` the requests of `agent` (any agent when None), `times` times (None: always)."""

    step: Step
    agent: str | None = None
    times: int | None = 1


@dataclass
class Seen:
    index: int
    agent: str
    body: dict[str, Any]
    status: int = 0
    kind: str = ""
    at: float = field(default_factory=time.monotonic)   # when the request arrived


def unused_port() -> int:
    """A port on 127.0.0.1 nothing listens on (for "connection refused")."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FaultServer:
    def __init__(
        self,
        rules: list[Rule] | None = None,
        *,
        rejects: frozenset[str] = frozenset(),
        max_requests: int = 2000,
        max_hang_s: float = 30.0,
        cached_tokens: int = 0,
    ) -> None:
        self.rules = list(rules or [])
        self.cached_tokens = cached_tokens   # prompt tokens every reply says were read from a prompt cache
        self.rejects = rejects
        self.max_requests = max_requests
        self.max_hang_s = max_hang_s
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._brain: OfflineBrain | None = None
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> FaultServer:
        handler = _handler_for(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "start() the server first"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    # -- what happened
    def answered(self, kind: str) -> int:
        return sum(1 for seen in self.seen if seen.kind == kind)

    @property
    def http_errors(self) -> list[Seen]:
        return [seen for seen in self.seen if seen.status >= 400]

    # -- answering
    def brain_answer(self, body: dict[str, Any]) -> dict[str, Any]:
        if self._brain is None:
            from agentic_ds.testing.openai_brain import OfflineBrain

            from . import shared_context

            self._brain = OfflineBrain(shared=shared_context.read)
        return self._brain.answer(body)

    def completion(self, body: dict[str, Any], message: dict[str, Any], finish_reason: str, *, kind: str,
                   usage: dict[str, int] | None = None) -> Answer:
        usage = usage or {"prompt_tokens": 10, "completion_tokens": max(1, len(json.dumps(message)) // 4)}
        document = {
            "id": f"chatcmpl-{len(self.seen)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
        }
        if self.cached_tokens:   # as OpenAI reports prompt caching
            cached = min(self.cached_tokens, usage["prompt_tokens"])
            document["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
        return Answer(200, json.dumps(document).encode(), kind=kind)

    def _rejection(self, body: dict[str, Any]) -> str | None:
        messages = body.get("messages") or []
        if "list_content" in self.rejects and any(isinstance(m.get("content"), list) for m in messages):
            return LIST_CONTENT
        response_format = body.get("response_format") or {}
        if "json_schema" in self.rejects and response_format.get("type") not in (None, "text", "json_object"):
            return JSON_SCHEMA
        if "tool_result_turn" in self.rejects and body.get("tools") and any(m.get("role") == "tool" for m in messages):
            return TOOL_TURN
        return None

    def respond(self, body: dict[str, Any]) -> tuple[Seen, Answer]:
        system = " ".join(
            m["content"] if isinstance(m.get("content"), str) else json.dumps(m.get("content"))
            for m in body.get("messages") or [] if m.get("role") in ("system", "developer")
        )
        match = _AGENT.search(system)
        agent = match.group(1) if match else ""
        with self._lock:
            seen = Seen(len(self.seen), agent, body)
            self.seen.append(seen)
            step: Step | None = None
            if len(self.seen) > self.max_requests:
                step = Status(503, "fault server: request limit reached")
            for rule in self.rules if step is None else []:
                if (rule.agent is None or rule.agent == agent) and (rule.times is None or rule.times > 0):
                    if rule.times is not None:
                        rule.times -= 1
                    step = rule.step
                    break
        rejection = self._rejection(body)
        if rejection is not None:
            answer = Answer(500, error_body(rejection), kind="rejected")
        elif step is not None:
            answer = step.answer(self, body)
        else:
            result = self.brain_answer(body)
            finish = "tool_calls" if result["message"].get("tool_calls") else "stop"
            answer = self.completion(body, result["message"], finish, kind="brain", usage=result["usage"])
        seen.status, seen.kind = (0 if answer.hang_s is not None else answer.status), answer.kind
        return seen, answer


def _handler_for(server: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: Any) -> None:  # the test reads `server.seen` instead
            pass

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:  # noqa: N802 - the http.server interface
            self._send(200, json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode())

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(413, error_body("request too large", "invalid_request_error"))
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._send(400, error_body("request body is not JSON", "invalid_request_error"))
                return
            if not self.path.rstrip("/").endswith("chat/completions"):
                self._send(404, error_body(f"no route {self.path}", "not_found"))
                return
            _seen, answer = server.respond(body)
            if answer.hang_s is not None:
                server._closing.wait(answer.hang_s)
                self.close_connection = True
                return
            self._send(answer.status, answer.body, answer.headers)

    return Handler
