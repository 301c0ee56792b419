"""Replay a cassette through the product's real LiteLLM path: an OpenAI-compatible server on 127.0.0.1 that
answers each request with the reply recorded for it.

Requests are matched by position, never by bytes: the key is (agent, scope, index): the agent named by ADK's
identity line, the ADK branch the request came from (header `X-Agentic-DS-Branch`: the stage, in orchestrated
mode), and the request's place among that agent's requests in that branch. Rewording a prompt changes no key. A
key matches only when the request has the recorded shape: the same tool names offered, JSON asked for or not,
and the same tool exchanges ending it (the calls of the recorded replies, each with its results back), so a
recorded reply never answers a request it was not written for. A request the cassette cannot answer (an agent
it never saw, one request more than it recorded, a different shape) gets HTTP 400, which fails the run at once (a
400 is never retried), and `ReplayResult.misses` keeps a readable diff of it for the test to show.

Requests without an identity line (the compactor's summaries) depend on prompt lengths, not on replies: they
are answered from the cassette while it has them, else with a stand-in summary, and are never a miss.

    result = replay(Path("tests/cassettes/NAME"), tmp_path)    # run the recorded command against the cassette
    assert_replays(Path("tests/cassettes/NAME"), tmp_path)     # ... and check it ends as recorded
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from agentic_ds.llm.call_scope import BRANCH_HEADER
from agentic_ds.testing import cassette_run
from agentic_ds.testing.cassette import CASSETTE, Recorded, read_cassette, read_meta
from agentic_ds.testing.chat_http import ChatServer, Completion, Refusal, estimate_usage
from agentic_ds.testing.chat_request import UNNAMED, ChatRequest, calls_in, read_request, reply_message, text_of

STAND_IN_SUMMARY = "Summary of earlier work: (replay: the cassette holds no summary for this compaction)"
SHOWN = 160   # characters of a message shown in a diff


def _scope_label(scope: str) -> str:
    return f"`{scope}`" if scope else "(root)"


def _brief(message: dict[str, Any]) -> str:
    calls = calls_in(message)
    text = " ".join(text_of(message.get("content")).split())
    shown = text[:SHOWN] + ("..." if len(text) > SHOWN else "")
    return f"{message.get('role')}: {shown}" + (f" [calls {', '.join(calls)}]" if calls else "")


def _tail(messages: list[dict[str, Any]], count: int = 3) -> list[str]:
    start = max(0, len(messages) - count)
    return [f"      [{i}] {_brief(m)}" for i, m in enumerate(messages[start:], start=start)]


class ReplayServer(ChatServer):
    def __init__(self, recorded: list[Recorded], label: str = "cassette") -> None:
        super().__init__()
        self.label = label
        self.records: dict[tuple[str, str], list[Recorded]] = {}
        for item in recorded:
            self.records.setdefault((item.agent, item.scope), []).append(item)
        for items in self.records.values():
            items.sort(key=lambda r: r.index)
        self.used: set[int] = set()
        self.misses: list[str] = []
        self.bodies: list[dict[str, Any]] = []   # every request, as it came
        self.scopes: list[str] = []              # the branch each of them came from
        self._counts: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def respond(self, body: dict[str, Any], headers: Mapping[str, str]) -> Completion | Refusal:
        request = read_request(body)
        scope = next((unquote(v) for k, v in headers.items() if k.lower() == BRANCH_HEADER.lower()), "")
        with self._lock:
            self.bodies.append(body)
            self.scopes.append(scope)
            index = self._counts.get((request.agent, scope), 0)
            self._counts[(request.agent, scope)] = index + 1
        found, problem = self.match(request, scope, index)
        if found is None and request.agent == UNNAMED:
            message = {"role": "assistant", "content": STAND_IN_SUMMARY}
            return Completion(message, "stop", estimate_usage(body, message))
        if found is None:
            with self._lock:
                self.misses.append(problem)
            # The diff stays in `misses` for the test to show: the HTTP error is one neutral line, since an error
            # naming tools or formats would make the product step its capabilities down and ask again.
            return Refusal(400, f"{self.label}: no recorded reply for request {index + 1} of agent "
                                f"`{request.agent}` in scope {_scope_label(scope)} (the replay's failure shows why)")
        with self._lock:
            self.used.add(found.number)
        message, finish = reply_message(found.reply, request, f"call_{found.number}")
        return Completion(message, finish, estimate_usage(body, message))

    def match(self, request: ChatRequest, scope: str, index: int) -> tuple[Recorded | None, str]:
        agent = request.agent
        head = (f"{self.label}: request {index + 1} of agent `{agent}` in scope {_scope_label(scope)} "
                "cannot be answered from the cassette")
        records = self.records.get((agent, scope))
        if records is None:
            seen = sorted({a for a, _ in self.records})
            if agent not in seen:
                return None, (f"{head}: the cassette never saw this agent (recorded agents: {', '.join(seen)}).\n"
                              f"  came:\n" + "\n".join(_tail(request.messages)))
            scopes = sorted(_scope_label(s) for a, s in self.records if a == agent)
            return None, f"{head}: the cassette has this agent only in scope(s) {', '.join(scopes)}."
        if index >= len(records):
            last = records[-1]
            return None, "\n".join([
                f"{head}: the cassette recorded only {len(records)} request(s) of it there.",
                f"  expected: no request after exchange {last.number}, whose recorded reply was "
                f"{_reply_brief(last.reply)}",
                "  came (last messages):", *_tail(request.messages),
            ])
        recorded = records[index]
        differences = _differences(recorded, request)
        if not differences:
            return recorded, ""
        lines = [f"{head}: it differs from exchange {recorded.number} in its shape."]
        for what, expected, came in differences:
            lines += [f"  {what}:", f"    expected (recorded): {expected}", f"    came:                {came}"]
        lines += ["  recorded request (last messages):", *_tail(recorded.messages),
                  "  this request (last messages):", *_tail(request.messages)]
        return None, "\n".join(lines)

    def unused(self) -> list[Recorded]:
        """Recorded exchanges no request asked for (the compactor's excepted)."""
        return [r for items in self.records.values() for r in items
                if r.number not in self.used and r.agent != UNNAMED]


def _reply_brief(reply: dict[str, Any]) -> str:
    calls = [c.get("name") for c in reply.get("tool_calls") or []]
    text = " ".join(str(reply.get("content") or "").split())[:SHOWN]
    return (f"calls {', '.join(map(str, calls))}" if calls else "") + (f" text {text!r}" if text else "")


def _differences(recorded: Recorded, request: ChatRequest) -> list[tuple[str, str, str]]:
    found = []
    if recorded.tools != request.tool_names:
        found.append(("tools offered", json.dumps(recorded.tools), json.dumps(request.tool_names)))
    if (recorded.response_format is not None) != request.wants_json:
        found.append(("JSON answer asked (response_format)", str(recorded.response_format),
                      str(request.response_format)))
    exchanges = request.trailing_exchanges()
    if recorded.exchanges != exchanges:
        found.append(("tool exchanges ending the request (the calls whose results came back)",
                      json.dumps(recorded.exchanges), json.dumps(exchanges)))
    missing = request.unanswered_calls()
    if missing:
        found.append(("tool results", "a result for every call", f"{missing} call(s) without their result"))
    return found


@dataclass
class ReplayResult:
    cassette: Path
    meta: dict[str, Any]
    outcome: cassette_run.Outcome
    requests: list[dict[str, Any]]
    misses: list[str] = field(default_factory=list)
    unused: list[Recorded] = field(default_factory=list)
    scopes: list[str] = field(default_factory=list)   # the branch each request came from (`requests` order)


def replay(folder: Path, workdir: Path) -> ReplayResult:
    """Run the cassette's recorded command in `workdir` (in this process) against a replay of it."""
    meta = read_meta(folder)
    recorded = read_cassette(folder / CASSETTE)
    server = ReplayServer(recorded, label=f"cassette {folder.name}").start()
    try:
        args = cassette_run.prepare(folder, meta, workdir, server.url, replay=True)
        outcome = cassette_run.run_all(meta, args, workdir, cassette_run.run_in_process)
    finally:
        server.close()
    return ReplayResult(folder, meta, outcome, list(server.bodies), list(server.misses), server.unused(),
                        list(server.scopes))


def assert_replays(folder: Path, workdir: Path) -> ReplayResult:
    """Replay the cassette and check the run ends with the status and exit code meta.json recorded."""
    result = replay(folder, workdir)
    name = folder.name
    if result.misses:
        raise AssertionError(f"cassette {name}: the run asked what the cassette cannot answer "
                             f"({len(result.misses)} request(s)); the first:\n{result.misses[0]}")
    if result.unused:
        listed = ", ".join(f"{r.agent} in {_scope_label(r.scope)} #{r.index + 1}" for r in result.unused[:8])
        raise AssertionError(f"cassette {name}: {len(result.unused)} recorded exchange(s) were never asked for "
                             f"(the run took another path): {listed}")
    expected = (result.meta.get("status"), result.meta.get("exit_code"))
    got = (result.outcome.status, result.outcome.exit_code)
    assert got == expected, (
        f"cassette {name}: the replayed run ended {got[0]} (exit {got[1]}), the recorded one {expected[0]} "
        f"(exit {expected[1]}); reason now: {result.outcome.reason}\n{result.outcome.stdout[-2000:]}"
    )
    return result
