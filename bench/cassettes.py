"""Recorded runs (cassettes under tests/cassettes): model calls, input tokens and the cacheable-prefix share, per run
and per stage.

Each request is rebuilt from its cassette and serialised in the order a provider receives it: the system text, the
tool declarations, then the other messages (text, tool calls, tool results). Input tokens are estimated at ~4
characters a token of that text. The cacheable prefix of a request is defined as in `bench/caching.py`: its longest
common prefix with the same agent's previous request (an agent's first request counts in the denominator with 0).
A stage is the ADK branch the request came from (each stage of an orchestrated run has its own; `(root)` is the
rest: file analysis, planning, the summary, and the whole of a simple-mode run).

    .venv/bin/python bench/cassettes.py              # writes the `## cassettes` section of BENCHMARKS.md
    .venv/bin/python bench/cassettes.py --no-record

Last line: `cassettes: runs=N calls=C input_tokens=T cacheable_prefix_share=S`.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentic_ds.testing.cassette import CASSETTE, Recorded, cassette_folders, read_cassette, read_meta  # noqa: E402
from agentic_ds.testing.chat_request import text_of  # noqa: E402
from bench.caching import common_prefix  # noqa: E402
from bench.record import record_section  # noqa: E402

CASSETTES = ROOT / "tests" / "cassettes"
CHARS_PER_TOKEN = 4


def serialise(recorded: Recorded) -> str:
    """The request as a provider receives it: system text, tool declarations, then the other messages."""
    pieces = [f"system: {text_of(m.get('content'))}" for m in recorded.messages
              if m.get("role") in ("system", "developer")]
    pieces += [f"tool: {json.dumps(tool, sort_keys=True)}" for tool in recorded.tool_decls or []]
    for message in recorded.messages:
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


@dataclass
class Tally:
    calls: int = 0
    input_chars: int = 0
    prefix_chars: int = 0
    first_chars: int = 0   # input of an agent's first request: no earlier request of it to share a prefix with

    def add(self, current: str, previous: str | None) -> None:
        self.calls += 1
        self.input_chars += len(current)
        if previous is not None:
            self.prefix_chars += len(common_prefix(previous, current))
        else:
            self.first_chars += len(current)

    def merge(self, other: Tally) -> None:
        self.calls += other.calls
        self.input_chars += other.input_chars
        self.prefix_chars += other.prefix_chars
        self.first_chars += other.first_chars

    @property
    def tokens(self) -> int:
        return self.input_chars // CHARS_PER_TOKEN

    @property
    def share(self) -> float:
        return self.prefix_chars / self.input_chars if self.input_chars else 0.0

    @property
    def ceiling(self) -> float:
        """The share if every request after an agent's first were served from the cache whole."""
        return 1 - self.first_chars / self.input_chars if self.input_chars else 0.0


def stage_of(scope: str) -> str:
    return scope.rsplit(".", 1)[-1] if scope else "(root)"


def measure(exchanges: list[Recorded]) -> dict[str, Tally]:
    """A tally per stage, in the order stages first appear."""
    stages: dict[str, Tally] = {}
    previous: dict[str, str] = {}
    for recorded in exchanges:
        current = serialise(recorded)
        stages.setdefault(stage_of(recorded.scope), Tally()).add(current, previous.get(recorded.agent))
        previous[recorded.agent] = current
    return stages


def rows(name: str, meta: dict[str, Any], stages: dict[str, Tally]) -> tuple[list[str], Tally]:
    total = Tally()
    lines = []
    for stage, tally in stages.items():
        total.merge(tally)
        lines.append(f"| | {stage} | {tally.calls} | {tally.tokens:,} | {tally.share:.2f} |")
    fixture = "; offline-model fixture" if (meta.get("recorded") or {}).get("responder") == "offline" else ""
    ending = f"{meta.get('status')}, exit {meta.get('exit_code')}{fixture}"
    head = f"| **{name}** ({ending}) | all | {total.calls} | {total.tokens:,} | {total.share:.2f} |"
    return [head, *lines], total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--root", type=Path, default=CASSETTES)
    args = parser.parse_args()
    table = ["| cassette | stage | model calls | input tokens | cacheable prefix share |", "|---|---|---:|---:|---:|"]
    overall = Tally()
    folders = cassette_folders(args.root)
    for folder in folders:
        meta = read_meta(folder)
        lines, total = rows(folder.name, meta, measure(read_cassette(folder / CASSETTE)))
        table += lines
        overall.merge(total)
    print("\n".join(table))
    line = (f"cassettes: runs={len(folders)} calls={overall.calls} input_tokens={overall.tokens} "
            f"cacheable_prefix_share={overall.share:.3f} same_agent_ceiling={overall.ceiling:.3f}")
    if not args.no_record:
        record_section("cassettes", [
            "Every cassette under tests/cassettes (runs recorded through the relay, docs/capable-models.md), per run "
            "and per stage (the ADK branch; `(root)`: everything outside the stages, and all of a simple-mode run). "
            "Input tokens: ~4 characters a token of each request serialised as a provider receives it (system, "
            "tools, messages). Cacheable prefix share as in `caching`: each request's longest common prefix with "
            "the same agent's previous request, over all input. Runs answered by the offline model (fixtures) say "
            "so in their meta.json note; their figures are not a capable model's. `same_agent_ceiling`: the share "
            "if every request after an agent's first were served whole (1 minus the share of input that is an agent's "
            "first request); the measured share is below it only where a request does not extend the same agent's "
            "previous one.",
            "",
            *table,
        ], result=line)
    print(line)


if __name__ == "__main__":
    main()
