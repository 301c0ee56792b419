"""Test support for `agentic-ds serve`: the real command in a subprocess on a free 127.0.0.1 port, and plain HTTP
to it (http.client, no client library): JSON, multipart uploads, and Server-Sent Events read as they come."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOKEN = "test-token-0123456789abcdef"
CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"
START_S = 120.0      # the server imports ADK's app: slow on a busy machine
RUN_S = 300.0        # an offline run takes ~15 s on a quiet machine, minutes on a loaded one


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("AGENTIC_DS_")}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    """A running `agentic-ds serve`; every request carries the token unless told otherwise."""

    process: subprocess.Popen[str]
    port: int
    workdir: Path
    token: str | None = TOKEN
    log: Path = field(default_factory=Path)

    def request(self, method: str, path: str, body: bytes | None = None, *, headers: dict[str, str] | None = None,
                token: str | None | bool = True, timeout: float = 60.0) -> Response:
        sent = dict(headers or {})
        use = self.token if token is True else (token or None)
        if use:
            sent["Authorization"] = f"Bearer {use}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=sent)
            reply = connection.getresponse()
            return Response(reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read())
        finally:
            connection.close()

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post_json(self, path: str, data: Any = None, **kwargs: Any) -> Response:
        body = json.dumps(data).encode() if data is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        return self.request("POST", path, body, headers=headers, **kwargs)

    def create(self, fields: list[tuple[str, str]], files: Sequence[tuple[str, bytes]] = (), **kwargs: Any) -> Response:
        body, content_type = multipart(fields, files)
        return self.request("POST", "/runs", body, headers={"Content-Type": content_type}, **kwargs)

    def events(self, run_id: str, *, until: Any = None, last_event_id: int | None = None,
               timeout: float = RUN_S) -> list[dict[str, Any]]:
        """SSE events of the run (each with `_id` when it has one) until `stream_end`, or until `until(event)`."""
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        got: list[dict[str, Any]] = []
        try:
            connection.request("GET", f"/runs/{run_id}/events", headers=headers)
            reply = connection.getresponse()
            assert reply.status == 200, reply.read()
            assert reply.getheader("Content-Type", "").startswith("text/event-stream")
            event_id, data = None, None
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                line = reply.readline().decode()
                if not line:
                    break
                line = line.rstrip("\n")
                if line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "" and data is not None:
                    if event_id is not None:
                        data["_id"] = event_id
                    got.append(data)
                    if data.get("kind") == "stream_end" or (until is not None and until(data)):
                        return got
                    event_id, data = None, None
            return got
        finally:
            connection.close()

    def wait_status(self, run_id: str, *statuses: str, timeout: float = RUN_S) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            run = self.get(f"/runs/{run_id}").json()
            if run["status"] in statuses:
                return run
            time.sleep(0.5)
        raise AssertionError(f"run {run_id} never reached {statuses}: {run['status']} ({run['reason']})")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 90.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def start_server(workdir: Path, *args: str, token: str | None = TOKEN, cwd: Path | None = None) -> Server:
    port = free_port()
    argv = [sys.executable, "-m", "agentic_ds", "serve", "--workdir", str(workdir), "--port", str(port), *args]
    if token:
        argv += ["--token", token]
    log = workdir.parent / f"serve-{port}.log"
    with log.open("w") as handle:   # the server writes to its own copy of the descriptor
        process = subprocess.Popen(argv, cwd=cwd or workdir.parent, env=environment(), stdout=handle,
                                   stderr=subprocess.STDOUT, text=True)
    server = Server(process, port, workdir, token, log)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited {process.returncode}: {log.read_text()}")
        try:
            if server.get("/health", timeout=5).status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.3)
    server.stop(signal.SIGKILL)
    raise AssertionError(f"serve did not answer within {START_S} s: {log.read_text()}")


def multipart(fields: list[tuple[str, str]], files: Sequence[tuple[str, bytes]] = ()) -> tuple[bytes, str]:
    """A multipart/form-data body: text fields, then files (field `file`)."""
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for name, value in fields:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for filename, content in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                     "Content-Type: text/csv\r\n\r\n".encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def log_lines(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()]
