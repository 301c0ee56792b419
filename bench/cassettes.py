"""Model calls, input tokens and cacheable-prefix shares of the runs recorded as cassettes (tests/cassettes), per
run and per stage: as recorded, and (`--replay`) as the current code sends them.

Two sources of requests:
- recorded: each request rebuilt from its cassette, as the code of the day it was recorded sent it;
- replayed (`--replay`): each cassette's command run again through the real pipeline (the product's LiteLLM path
  against `agentic_ds.testing.replay`, which answers by agent and turn), every request captured as the replay
  server received it, so the figures are those of the prompts the current code writes. The run must end as its
  meta.json says; a replay that does not is marked in the table.

Each request is serialised in the order a provider receives it: the system text, the tool declarations, then the
other messages (text, tool calls, tool results); the response format is not counted. Input tokens are estimated at
~4 characters a token of that text. A stage is the ADK branch the request came from (each stage of an orchestrated
run has its own; `(root)` is the rest: file analysis, planning, checks between stages, the summary, and the whole of
a simple-mode run). Two shares, each the sum of a prefix length over the sum of all input, per stage and per run:

- same-agent share (as in `bench/caching.py`): each request's longest common prefix with the same agent's previous
  request (in any stage); an agent's first request counts 0;
- provider-cache share: each request's longest common prefix with ANY earlier request of the same run, as the
  prefix caches of OpenAI, DeepSeek, vLLM and llama.cpp serve it (Anthropic's caches the same way up to its cache
  markers). The first request of a run counts 0. It is never below the same-agent share.

`tools_first` is the provider-cache share with each request in Anthropic's order instead (tool declarations, then
the system text, then the messages). `uncached_in` splits the input no earlier request shares by the part of its
request it lies in: the system text (an agent's own instructions after the shared context), the tool declarations,
or the messages (the per-call part, and what is new in a turn: the model's last reply and the tool results). No
order of the system text and tools can serve the last: 1 minus it bounds the provider-cache share of these calls.
`reuse_bound` bounds every cache, not only prefix caches: the share of the input that is either in the prefix an
earlier request shares or a line an earlier request of the run sent whole, wherever it stood. What it leaves out was
sent for the first time in that run (the data, the model's replies, the tool results, each role's instructions once),
and no order or cache of the same calls can serve it. `in messages` (and `max_stage_message_tokens`) is a stage's
input outside the system text and the tool declarations: what its calls would cost if both were empty.

    .venv/bin/python bench/cassettes.py              # the recorded requests; writes `## cassettes` of BENCHMARKS.md
    .venv/bin/python bench/cassettes.py --replay     # ... and the current code's (minutes a cassette)
    .venv/bin/python bench/cassettes.py --no-record

Last line: `cassettes: runs=N calls=C input_tokens=T same_agent_share=S provider_cache_share=P tools_first=F
same_agent_ceiling=X
max_stage_calls=M (run stage) max_stage_tokens=K (run stage) max_stage_message_tokens=K (run stage) reuse_bound=R
uncached_in=system:A,tools:B,messages:C` (of the
replayed requests with `--replay`, else of the recorded ones).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentic_ds.testing.cassette import CASSETTE, Recorded, cassette_folders, read_cassette, read_meta  # noqa: E402
from agentic_ds.testing.chat_request import read_request, text_of  # noqa: E402
from bench.record import record_section  # noqa: E402

CASSETTES = ROOT / "tests" / "cassettes"
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Sent:
    """One request: the agent that sent it, its ADK branch, and its text as a provider receives it."""

    agent: str
    scope: str
    text: str
    tools_at: int = 0      # where the tool declarations start in `text`
    messages_at: int = 0   # where the other messages start

    @property
    def tools_first(self) -> str:
        """The same request in Anthropic's order: tool declarations, system text, messages."""
        parts = (self.text[self.tools_at:self.messages_at], self.text[:self.tools_at], self.text[self.messages_at:])
        return "\n".join(part.strip("\n") for part in parts if part.strip("\n"))


PARTS = ("system", "tools", "messages")


def serialise_parts(messages: list[dict[str, Any]], tools: Any) -> tuple[str, int, int]:
    """(text, where its tool declarations start, where its other messages start)."""
    system = [f"system: {text_of(m.get('content'))}" for m in messages if m.get("role") in ("system", "developer")]
    declared = [f"tool: {json.dumps(tool, sort_keys=True)}" for tool in tools or []]
    tools_at = len("\n".join(system)) + (1 if system and declared else 0)
    head = "\n".join([*system, *declared])
    rest = serialise_messages(messages)
    messages_at = len(head) + (1 if head and rest else 0)
    if not declared:
        tools_at = messages_at
    return "\n".join(piece for piece in (head, rest) if piece), tools_at, messages_at


def serialise_request(messages: list[dict[str, Any]], tools: Any) -> str:
    """System text, tool declarations, then the other messages."""
    return serialise_parts(messages, tools)[0]


def serialise_messages(messages: list[dict[str, Any]]) -> str:
    pieces = []
    for message in messages:
        role = message.get("role")
        if role in ("system", "developer"):
            continue
        text = text_of(message.get("content"))
        if text:
            pieces.append(f"{role}: {text}")
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            pieces.append(f"call {function.get('name')} {function.get('arguments')}")
    return "\n".join(pieces)


def serialise(recorded: Recorded) -> str:
    return serialise_request(recorded.messages, recorded.tool_decls)


def recorded_requests(exchanges: Iterable[Recorded]) -> list[Sent]:
    return [Sent(r.agent, r.scope, *serialise_parts(r.messages, r.tool_decls)) for r in exchanges]


def replayed_requests(bodies: list[dict[str, Any]], scopes: list[str]) -> list[Sent]:
    requests = []
    for body, scope in zip(bodies, scopes, strict=True):
        request = read_request(body)
        requests.append(Sent(request.agent, scope, *serialise_parts(request.messages, body.get("tools"))))
    return requests


def shared_length(a: str, b: str) -> int:
    """Length of the longest common prefix of `a` and `b` (slices compared in C, halving the span)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n   # a[:low] == b[:low], a[:high] != b[:high]
    while high - low > 1:
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


@dataclass
class Tally:
    calls: int = 0
    input_chars: int = 0
    prefix_chars: int = 0  # shared with the same agent's previous request
    cache_chars: int = 0   # shared with any earlier request of the run
    tools_first_chars: int = 0   # the same, with every request in Anthropic's order (tools before the system text)
    first_chars: int = 0   # input of an agent's first request: no earlier request of it to share a prefix with
    # what any cache could serve at most: the provider-cache prefix, plus every line sent whole in an earlier request
    # of the run, wherever it stood there or stands here
    reuse_chars: int = 0
    message_chars: int = 0   # input in the messages: what the calls cost with no system text and no tool declarations
    # input no earlier request shares, by the part of the request it lies in (system text, tools, messages)
    uncached: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PARTS, 0))

    def add(self, current: str, previous: str | None, cached: int = 0, request: Sent | None = None) -> None:
        self.calls += 1
        self.input_chars += len(current)
        self.cache_chars += cached
        if request is not None:
            bounds = {"system": (0, request.tools_at), "tools": (request.tools_at, request.messages_at),
                      "messages": (request.messages_at, len(current))}
            for part, (start, end) in bounds.items():
                self.uncached[part] += max(0, end - max(start, cached))
            self.message_chars += len(current) - request.messages_at
        if previous is not None:
            self.prefix_chars += shared_length(previous, current)
        else:
            self.first_chars += len(current)

    def merge(self, other: Tally) -> None:
        self.calls += other.calls
        self.input_chars += other.input_chars
        self.prefix_chars += other.prefix_chars
        self.cache_chars += other.cache_chars
        self.tools_first_chars += other.tools_first_chars
        self.first_chars += other.first_chars
        self.reuse_chars += other.reuse_chars
        self.message_chars += other.message_chars
        for part in PARTS:
            self.uncached[part] += other.uncached[part]

    @property
    def tokens(self) -> int:
        return self.input_chars // CHARS_PER_TOKEN

    @property
    def share(self) -> float:
        return self.prefix_chars / self.input_chars if self.input_chars else 0.0

    @property
    def cache_share(self) -> float:
        return self.cache_chars / self.input_chars if self.input_chars else 0.0

    @property
    def tools_first_share(self) -> float:
        return self.tools_first_chars / self.input_chars if self.input_chars else 0.0

    @property
    def reuse_bound(self) -> float:
        return self.reuse_chars / self.input_chars if self.input_chars else 0.0

    @property
    def ceiling(self) -> float:
        """The same-agent share if every request after an agent's first were served from the cache whole."""
        return 1 - self.first_chars / self.input_chars if self.input_chars else 0.0


def stage_of(scope: str) -> str:
    return scope.rsplit(".", 1)[-1] if scope else "(root)"


def measure(requests: list[Sent] | list[Recorded]) -> dict[str, Tally]:
    """A tally per stage, in the order stages first appear."""
    sent = [r if isinstance(r, Sent) else recorded_requests([r])[0] for r in requests]
    stages: dict[str, Tally] = {}
    previous: dict[str, str] = {}
    lines_sent: set[str] = set()
    for position, request in enumerate(sent):
        cached = max((shared_length(earlier.text, request.text) for earlier in sent[:position]), default=0)
        tally = stages.setdefault(stage_of(request.scope), Tally())
        tally.add(request.text, previous.get(request.agent), cached, request)
        tally.reuse_chars += reusable(request.text, cached, lines_sent)
        reordered = request.tools_first
        tally.tools_first_chars += max((shared_length(earlier.tools_first, reordered) for earlier in sent[:position]),
                                       default=0)
        previous[request.agent] = request.text
    return stages


def reusable(text: str, cached: int, lines_sent: set[str]) -> int:
    """The most of `text` any cache could serve: its first `cached` characters (the prefix an earlier request
    shares), and after them each line that an earlier request sent whole (its newline included), in any position.
    Adds the request's lines to `lines_sent`."""
    served, start = cached, 0
    for line in text.split("\n"):
        end = min(start + len(line) + 1, len(text))
        if end > cached and line in lines_sent:
            served += end - max(start, cached)
        lines_sent.add(line)
        start = end
    return served


@dataclass
class RunFigures:
    name: str
    ending: str
    stages: dict[str, Tally]

    @property
    def total(self) -> Tally:
        total = Tally()
        for tally in self.stages.values():
            total.merge(tally)
        return total


def table(runs: list[RunFigures]) -> list[str]:
    lines = ["| cassette | stage | model calls | input tokens | in messages | same-agent share | provider-cache share "
             "| reuse bound |", "|---|---|---:|---:|---:|---:|---:|---:|"]

    def cells(t: Tally) -> str:
        return (f"{t.calls} | {t.tokens:,} | {t.message_chars // CHARS_PER_TOKEN:,} | {t.share:.2f} | "
                f"{t.cache_share:.2f} | {t.reuse_bound:.2f} |")

    for run in runs:
        lines.append(f"| **{run.name}** ({run.ending}) | all | {cells(run.total)}")
        lines += [f"| | {stage} | {cells(t)}" for stage, t in run.stages.items()]
    return lines


def summary(runs: list[RunFigures]) -> str:
    overall = Tally()
    for run in runs:
        overall.merge(run.total)
    stages = [(t, f"{run.name} {stage}") for run in runs for stage, t in run.stages.items() if stage != "(root)"]
    calls = max(stages, key=lambda s: s[0].calls, default=(Tally(), "-"))
    tokens = max(stages, key=lambda s: s[0].tokens, default=(Tally(), "-"))
    messages = max(stages, key=lambda s: s[0].message_chars, default=(Tally(), "-"))
    return (f"cassettes: runs={len(runs)} calls={overall.calls} input_tokens={overall.tokens} "
            f"same_agent_share={overall.share:.3f} provider_cache_share={overall.cache_share:.3f} "
            f"tools_first={overall.tools_first_share:.3f} "
            f"same_agent_ceiling={overall.ceiling:.3f} max_stage_calls={calls[0].calls} ({calls[1]}) "
            f"max_stage_tokens={tokens[0].tokens} ({tokens[1]}) "
            f"max_stage_message_tokens={messages[0].message_chars // CHARS_PER_TOKEN} ({messages[1]}) "
            f"reuse_bound={overall.reuse_bound:.3f} uncached_in=" +
            ",".join(f"{part}:{overall.uncached[part] / max(overall.input_chars, 1):.3f}" for part in PARTS))


def _ending(meta: dict[str, Any]) -> str:
    fixture = "; offline-model fixture" if (meta.get("recorded") or {}).get("responder") == "offline" else ""
    return f"{meta.get('status')}, exit {meta.get('exit_code')}{fixture}"


def recorded_figures(folder: Path) -> RunFigures:
    return RunFigures(folder.name, _ending(read_meta(folder)), measure(read_cassette(folder / CASSETTE)))


def replayed_figures(folder: Path, workdir: Path) -> RunFigures:
    from agentic_ds.testing.replay import replay

    result = replay(folder, workdir)
    ending = _ending(result.meta)
    got = (result.outcome.status, result.outcome.exit_code)
    if got != (result.meta.get("status"), result.meta.get("exit_code")) or result.misses or result.unused:
        ending += (f"; REPLAY ENDED {got[0]}, exit {got[1]}, {len(result.misses)} unanswered, "
                   f"{len(result.unused)} unused")
    return RunFigures(folder.name, ending, measure(replayed_requests(result.requests, result.scopes)))


DEFINITIONS = (
    "Every cassette under tests/cassettes (runs recorded through the relay, docs/capable-models.md), per run and per "
    "stage (the ADK branch; `(root)`: everything outside the stages, including the checks between them, and all of a "
    "simple-mode run). Input tokens: ~4 characters a token of each request serialised as a provider receives it "
    "(system text, tool declarations, then messages; the response format not counted). **Same-agent share**: each "
    "request's longest common prefix with the same agent's previous request, over all input (an agent's first "
    "request counts 0). **Provider-cache share**: each request's longest common prefix with any earlier request of "
    "the same run, over all input: what the automatic prefix caches of OpenAI, DeepSeek, vLLM and llama.cpp can serve "
    "(Anthropic's, up to its cache markers). `tools_first`: the provider-cache share with every request in "
    "Anthropic's order (tool declarations before the system text). `uncached_in`: the input no earlier request "
    "shares, as a share of all input, by the part of the request it lies in (the system text, the tool declarations, "
    "the messages); what lies in the messages (per-call parts, each turn's new replies and tool results) no order of "
    "system text and tools can serve, so 1 minus it bounds the provider-cache share of the same calls. "
    "`same_agent_ceiling`: the same-agent share if every request after an "
    "agent's first were served whole. **Reuse bound**: the share of the input that is either in the prefix an earlier "
    "request shares or a line an earlier request of the run sent whole, in any position: no cache of any kind can "
    "serve more of these calls, since the rest was sent for the first time in the run. **In messages**: a stage's "
    "input outside the system text and tool declarations, what its calls would cost if both were empty. "
    "Runs answered by the offline model (fixtures) say so; their figures are not a "
    "capable model's."
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--replay", action="store_true", help="also replay each cassette through the current code")
    parser.add_argument("--root", type=Path, default=CASSETTES)
    parser.add_argument("--only", action="append", default=[], help="only the cassettes of these names")
    args = parser.parse_args()
    folders = [f for f in cassette_folders(args.root) if not args.only or f.name in args.only]
    recorded = [recorded_figures(folder) for folder in folders]
    lines = [DEFINITIONS, "", "As recorded (the prompts of the day each cassette was recorded):", "", *table(recorded)]
    print("\n".join(table(recorded)))
    result = summary(recorded)
    print(f"recorded {result}")
    if args.replay:
        replayed = []
        with tempfile.TemporaryDirectory(prefix="bench-cassettes-") as scratch:
            for folder in folders:
                replayed.append(replayed_figures(folder, Path(scratch) / folder.name))
                print(f"replayed {folder.name}: {replayed[-1].ending}", flush=True)
        lines += ["", "Replayed through the current code (`--replay`: each cassette's command run again against a "
                  "replay of it, every request captured as sent):", "", *table(replayed)]
        lines += ["", f"As recorded: `{result}`"]
        print("\n".join(table(replayed)))
        result = summary(replayed)
    if not args.no_record:
        record_section("cassettes", lines, result=result)
    print(result)


if __name__ == "__main__":
    main()
