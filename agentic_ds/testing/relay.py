"""The relay: an OpenAI-compatible server on 127.0.0.1 whose replies come from an outside responder, through files.

No model API is reachable from the development machine, but a capable model (a helper session) can play the model:
the relay writes each request into a folder (`agentic_ds.testing.relay_files`), waits for the reply file, returns
it streamed or not as the request asked, and records the exchange into a cassette (`agentic_ds.testing.cassette`).
The product reaches it through its real LiteLLM path (`model_options: {openai/relay: {api_base: ...}}`).

    python -m agentic_ds.testing.relay serve --dir DIR [--port P]     # prints the api_base to use
    python -m agentic_ds.testing.relay record tests/cassettes/NAME      # re-runs the command in its meta.json
    python -m agentic_ds.testing.relay record tests/cassettes/NAME -- run --mode simple "..." --files data.csv

A request the client sends again unchanged after its answer did not reach it (it timed out and retried) gets the
same request number and reply: it is neither written twice nor recorded twice. See docs/capable-models.md.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from agentic_ds.llm.call_scope import BRANCH_HEADER
from agentic_ds.testing.cassette import CassetteWriter, body_sha
from agentic_ds.testing.chat_http import ChatServer, Completion, Refusal, estimate_usage
from agentic_ds.testing.chat_request import ChatRequest, read_request, reply_message
from agentic_ds.testing.relay_files import check_reply, name, render_delta, render_request, write_new

RESPONDER_README = """This folder is a model relay (agentic_ds.testing.relay). Each model request of a run appears as
  NNNN.request.md    everything: the agent, its tools with their JSON schemas, tool_choice, response_format,
                     every message (written last: when it exists, the request is complete)
  NNNN.delta.md      only the messages after those shared with the same agent's previous request
  NNNN.request.json  the raw request body
Answer request NNNN by creating NNNN.reply.json (create-only: write a temporary file, then hard-link it into
place with `ln`, which fails when the name exists; never overwrite):
  {"content": "text or null", "tool_calls": [{"name": "tool", "arguments": {...}}]}
A reply the relay cannot use is moved to NNNN.reply.K.rejected.json and NNNN.reply.K.error says why:
fix it and create NNNN.reply.json again. `finished.json` appears when the run is over (with `record`).
"""

MISSING = object()


def _header(headers: Mapping[str, str], key: str) -> str:
    for name_, value in headers.items():
        if name_.lower() == key.lower():
            return unquote(value)
    return ""


@dataclass
class _Slot:
    """One distinct request waiting for its reply (shared by a retry of it)."""

    number: int
    request: ChatRequest
    scope: str
    ready: threading.Event = field(default_factory=threading.Event)
    reply: Any = MISSING
    polling: bool = False


class RelayServer(ChatServer):
    def __init__(
        self,
        folder: Path,
        *,
        port: int = 0,
        cassette: Path | None = None,
        poll_s: float = 0.2,
        say: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(port)
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        if any(p.name[:4].isdigit() and p.name[4:5] == "." for p in folder.iterdir()):
            raise FileExistsError(f"{folder} holds the requests of another relay: give the relay an empty folder")
        self.writer = CassetteWriter(cassette) if cassette is not None else None
        self.poll_s = poll_s
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.answered = 0
        self._next = 0
        self._slots: dict[str, _Slot] = {}
        self._positions: dict[tuple[str, str], int] = {}
        self._previous: dict[str, tuple[int, ChatRequest]] = {}
        self._state = threading.Lock()
        readme = folder / "README.txt"
        if not readme.exists():
            write_new(readme, RESPONDER_README)

    def close(self) -> None:
        super().close()
        if self.writer is not None:
            self.writer.close()

    def respond(self, body: dict[str, Any], headers: Mapping[str, str]) -> Completion | Refusal:
        request = read_request(body)
        scope = _header(headers, BRANCH_HEADER)
        sha = body_sha(body)
        with self._state:
            slot = self._slots.get(sha)
            fresh = slot is None
            if slot is None:
                slot = _Slot(self._next, request, scope)
                self._next += 1
                self._slots[sha] = slot
                index = self._positions.get((request.agent, scope), 0)
                self._positions[(request.agent, scope)] = index + 1
                previous = self._previous.get(request.agent)
                self._previous[request.agent] = (slot.number, request)
            poller = not slot.polling
            slot.polling = True
        if fresh:
            try:
                self._write_request(slot, index, previous)
            except OSError as error:   # e.g. another writer in the folder: say so rather than wait for nothing
                with self._state:
                    self._slots.pop(sha, None)
                slot.ready.set()
                return Refusal(500, f"the relay could not write request {slot.number:04d}: {error}", "server_error")
        else:
            self.say(f"relay: request {slot.number:04d} came again (a retry): it gets the same reply")
        reply = self._poll(slot) if poller else self._await(slot)
        if reply is None:
            return Refusal(503, "the relay was closed before a reply came", "server_error")
        message, finish = reply_message(reply, request, f"call_{slot.number}")

        def sent(ok: bool) -> None:
            self._delivered(sha, slot, ok)

        return Completion(message, finish, estimate_usage(body, message), on_sent=sent)

    # -- the files

    def _write_request(self, slot: _Slot, index: int, previous: tuple[int, ChatRequest] | None) -> None:
        number, request = slot.number, slot.request
        write_new(self.folder / name(number, "request.json"), json.dumps(request.body, indent=1, ensure_ascii=False))
        write_new(self.folder / name(number, "delta.md"), render_delta(number, request, slot.scope, index, previous))
        write_new(self.folder / name(number, "request.md"), render_request(number, request, slot.scope, index))
        self.say(f"relay: request {number:04d} from {request.agent}: waiting for "
                 f"{self.folder / name(number, 'reply.json')}")

    def _poll(self, slot: _Slot) -> dict[str, Any] | None:
        path = self.folder / name(slot.number, "reply.json")
        rejected = 0
        while not self.closing.is_set():
            raw = _settled(path, self.poll_s) if path.is_file() else None
            if raw is not None:
                reply, problems = check_reply(raw, slot.request)
                if reply is not None:
                    self._accepted(slot, reply)
                    return reply
                rejected += 1
                self._reject(path, slot.number, rejected, problems)
            self.closing.wait(self.poll_s)
        slot.ready.set()
        return None

    def _accepted(self, slot: _Slot, reply: dict[str, Any]) -> None:
        """Record the exchange once, when its reply is accepted (a retry of the request shares it)."""
        with self._state:
            self.answered += 1
        if self.writer is not None:
            self.writer.add(slot.request, slot.scope, reply)
        slot.reply = reply
        slot.ready.set()

    def _reject(self, path: Path, number: int, attempt: int, problems: list[str]) -> None:
        aside = self.folder / name(number, f"reply.{attempt}.rejected.json")
        os.link(path, aside)
        os.unlink(path)
        text = (f"{name(number, 'reply.json')} was not used (moved to {aside.name}):\n"
                + "\n".join(f"- {problem}" for problem in problems)
                + f"\nWrite a corrected {name(number, 'reply.json')}.\n")
        write_new(self.folder / name(number, f"reply.{attempt}.error"), text)
        self.say(f"relay: reply {number:04d} rejected ({problems[0]}): see {name(number, f'reply.{attempt}.error')}")

    def _await(self, slot: _Slot) -> dict[str, Any] | None:
        while not slot.ready.wait(self.poll_s):
            if self.closing.is_set():
                return None
        return None if slot.reply is MISSING else slot.reply

    def _delivered(self, sha: str, slot: _Slot, ok: bool) -> None:
        if not ok:   # the client went away: a retry of the same request gets this reply at once
            self.say(f"relay: the reply to {slot.number:04d} did not reach the client (it timed out?)")
            return
        with self._state:
            if self._slots.get(sha) is slot:
                del self._slots[sha]   # an identical request from now on is a new one


def _settled(path: Path, wait_s: float) -> bytes | None:
    """The file's bytes once they stop changing (a responder that wrote it in place may not be done); None when
    it went away meanwhile."""
    try:
        data = path.read_bytes()
        for _ in range(10):
            time.sleep(min(wait_s, 0.1))
            again = path.read_bytes()
            if again == data:
                return data
            data = again
    except FileNotFoundError:
        return None
    return data


def main(argv: list[str] | None = None) -> int:
    from agentic_ds.testing.relay_cli import run_cli

    return run_cli(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
