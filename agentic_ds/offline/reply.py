"""What one offline turn answers: text, or tool calls. Also the shared "fetch this first" helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.profile import Profile, parse_profile, salvage_profile
from agentic_ds.offline.profile_text import parse_profile_text
from agentic_ds.offline.request import ParsedRequest, tool_json, tool_text

PROFILE_FILE = "data_profile.json"


@dataclass
class Reply:
    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def say(cls, text: str) -> Reply:
        return cls(text=text)

    @classmethod
    def json(cls, value: Any) -> Reply:
        return cls(text=json.dumps(value, ensure_ascii=False))

    @classmethod
    def call(cls, name: str, **args: Any) -> Reply:
        return cls(calls=[(name, args)])


def read_json_file(req: ParsedRequest, path: str) -> tuple[bool, Any]:
    """(asked, document): whether `read_file(path)` was already called, and the JSON it returned (or None)."""
    for exchange in reversed(req.exchanges):
        if exchange.name == "read_file" and exchange.args.get("path") == path and exchange.response is not None:
            return True, tool_json(exchange.response)
    return False, None


def profile_or_fetch(req: ParsedRequest) -> Profile | Reply:
    """The run's data profile, or the tool call that fetches it (when the agent has `read_file`)."""
    asked, _ = read_json_file(req, PROFILE_FILE)
    if not asked and req.has_tool("read_file"):
        return Reply.call("read_file", path=PROFILE_FILE)
    return load_profile(req)


def load_profile(req: ParsedRequest) -> Profile:
    """The profile from `read_file("data_profile.json")` in this request; the file tools cut long files, so a cut
    file is salvaged column by column, and the prompt's `## Data profile` rendering is the last resort."""
    _, document = read_json_file(req, PROFILE_FILE)
    profile = parse_profile(document)
    if profile.readable:
        return profile
    candidates = [salvage_profile(_raw_text(req, PROFILE_FILE)), parse_profile_text(req.section("Data profile"))]
    return max(candidates, key=lambda p: sum(len(f.columns) for f in p.files))


def _raw_text(req: ParsedRequest, path: str) -> str:
    for exchange in reversed(req.exchanges):
        if exchange.name == "read_file" and exchange.args.get("path") == path and exchange.response is not None:
            return tool_text(exchange.response)
    return ""


def json_files_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, Any] | Reply:
    """Documents of every `paths` entry (None when unreadable), or one reply fetching all missing ones at once."""
    missing = [p for p in paths if not read_json_file(req, p)[0]]
    if missing and req.has_tool("read_file"):
        return Reply(calls=[("read_file", {"path": p}) for p in missing])
    return {p: read_json_file(req, p)[1] for p in paths}


def result_paths(text: str) -> list[str]:
    """`outputs/....json` paths named in a text, in order, without duplicates."""
    import re

    seen: list[str] = []
    for path in re.findall(r"outputs/[\w./\-]+?\.json", text):
        if path not in seen:
            seen.append(path)
    return seen
