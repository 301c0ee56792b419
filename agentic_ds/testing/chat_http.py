"""An OpenAI-compatible chat server on 127.0.0.1 for stand-ins of a model: `POST /v1/chat/completions` (streamed
as server-sent events when the request asks, else one JSON document) and `GET /v1/models`.

A subclass answers `respond(body, headers)` with a `Completion` (an assistant message) or a `Refusal` (an HTTP
error whose message the product shows). `Completion.on_sent` learns whether the answer reached the client (a
client that timed out and went away did not get it). Usage is estimated at ~4 characters a token.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

CHARS_PER_TOKEN = 4
MAX_BODY = 32 * 1024 * 1024
STREAM_PIECE = 200   # characters of content per streamed chunk


@dataclass
class Completion:
    message: dict[str, Any]
    finish_reason: str
    usage: dict[str, int]
    on_sent: Callable[[bool], None] | None = None


@dataclass
class Refusal:
    status: int
    message: str
    kind: str = "invalid_request_error"


def error_body(message: str, kind: str = "server_error") -> bytes:
    """An OpenAI-style error document."""
    return json.dumps({"error": {"message": message, "type": kind, "code": None}}).encode()


def estimate_usage(body: Mapping[str, Any], message: Mapping[str, Any]) -> dict[str, int]:
    sent = json.dumps([body.get("messages"), body.get("tools")], ensure_ascii=False)
    prompt = max(1, len(sent) // CHARS_PER_TOKEN)
    completion = max(1, len(json.dumps(message, ensure_ascii=False)) // CHARS_PER_TOKEN)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion_document(body: Mapping[str, Any], answer: Completion, ident: str) -> dict[str, Any]:
    return {
        "id": ident, "object": "chat.completion", "created": int(time.time()), "model": body.get("model", "relay"),
        "choices": [{"index": 0, "message": answer.message, "finish_reason": answer.finish_reason}],
        "usage": answer.usage,
    }


def stream_chunks(body: Mapping[str, Any], answer: Completion, ident: str) -> list[dict[str, Any]]:
    """The answer as chat.completion.chunk objects: the role, the content in pieces, each tool call (its
    arguments in two pieces), then the finish reason with the usage."""
    base = {"id": ident, "object": "chat.completion.chunk", "created": int(time.time()),
            "model": body.get("model", "relay")}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    content = answer.message.get("content") or ""
    chunks += [chunk({"content": content[i : i + STREAM_PIECE]}) for i in range(0, len(content), STREAM_PIECE)]
    for index, call in enumerate(answer.message.get("tool_calls") or []):
        arguments = call["function"]["arguments"]
        half = len(arguments) // 2
        chunks.append(chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                             "function": {"name": call["function"]["name"],
                                                          "arguments": arguments[:half]}}]}))
        chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[half:]}}]}))
    last = chunk({}, answer.finish_reason)
    last["usage"] = answer.usage
    return [*chunks, last]


class ChatServer:
    """Serves `respond` on 127.0.0.1 (`port` 0: any free port) from a background thread until `close()`."""

    model_ids: tuple[str, ...] = ("relay",)

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.closing = threading.Event()
        self._served = 0
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def respond(self, body: dict[str, Any], headers: Mapping[str, str]) -> Completion | Refusal:
        raise NotImplementedError

    def start(self) -> Self:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self.closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    @property
    def url(self) -> str:
        """The api_base to give the product (`model_options.<model>.api_base`)."""
        assert self._httpd is not None, "start() the server first"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def next_id(self) -> str:
        with self._lock:
            self._served += 1
            return f"chatcmpl-{self._served}"


def _handler_for(server: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: Any) -> None:   # a run's progress is what matters, not an access log
            pass

        def _send(self, status: int, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_GET(self) -> None:  # noqa: N802 - the http.server interface
            if not self.path.rstrip("/").endswith("/models"):
                self._send(404, error_body(f"no route {self.path}", "not_found"))
                return
            models = [{"id": name, "object": "model", "owned_by": "agentic-ds"} for name in server.model_ids]
            self._send(200, json.dumps({"object": "list", "data": models}).encode())

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self._send(413, error_body("request too large", "invalid_request_error"))
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except (ValueError, RecursionError):
                self._send(400, error_body("request body is not JSON", "invalid_request_error"))
                return
            if not self.path.rstrip("/").endswith("chat/completions") or not isinstance(body, dict):
                self._send(404, error_body(f"no route {self.path}", "not_found"))
                return
            try:
                answer = server.respond(body, {k: v for k, v in self.headers.items()})
            except Exception as error:  # noqa: BLE001 - a bug in a stand-in is shown to the client, not a hang
                answer = Refusal(500, f"{type(server).__name__} failed: {type(error).__name__}: {error}",
                                 "server_error")
            if isinstance(answer, Refusal):
                self._send(answer.status, error_body(answer.message, answer.kind))
                return
            ident = server.next_id()
            try:
                if body.get("stream"):
                    self._stream(body, answer, ident)
                else:
                    self._send(200, json.dumps(completion_document(body, answer, ident), ensure_ascii=False).encode())
                sent = True
            except OSError:   # the client went away (it timed out): it never got this answer
                sent = False
            if answer.on_sent is not None:
                answer.on_sent(sent)

        def _stream(self, body: dict[str, Any], answer: Completion, ident: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            for chunk in stream_chunks(body, answer, ident):
                self.wfile.write(b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler
