"""What one offline turn answers: text, or tool calls. Also the shared "fetch this first" helpers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.profile import profile_from_json, salvage_profile
from agentic_ds.offline.request import ParsedRequest, tool_json
from agentic_ds.profiling.model import DataProfile

PROFILE_FILE = "data_profile.json"
MAX_PROFILE_PAGES = 12          # a profile longer than this many reads is used as far as it arrived


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


def profile_or_fetch(req: ParsedRequest) -> DataProfile | Reply:
    """The run's data profile, or the `read_file` call that fetches it (or its next page) first."""
    if req.has_tool("read_file"):
        pages = _pages(req, PROFILE_FILE)
        if not pages:
            return Reply.call("read_file", path=PROFILE_FILE)
        last = pages[-1]
        if last.get("truncated") and isinstance(last.get("next_offset"), int) and len(pages) < MAX_PROFILE_PAGES:
            return Reply.call("read_file", path=PROFILE_FILE, offset=last["next_offset"])
    return load_profile(req)


def load_profile(req: ParsedRequest) -> DataProfile:
    """`DataProfile.from_json` of the profile pages read in this request; a profile still cut after the last
    page keeps every file and column that arrived whole."""
    text = "".join(str(page.get("content") or "") for page in _pages(req, PROFILE_FILE))
    try:
        return profile_from_json(json.loads(text))
    except ValueError:
        return salvage_profile(text)


def _pages(req: ParsedRequest, path: str) -> list[dict[str, Any]]:
    """The responses of `read_file(path)` that chain from offset 0 through each `next_offset`."""
    by_offset: dict[int, dict[str, Any]] = {}
    for exchange in req.exchanges:
        if exchange.name == "read_file" and exchange.args.get("path") == path and isinstance(exchange.response, dict):
            if "error" in exchange.response:
                continue
            by_offset.setdefault(int(exchange.args.get("offset") or 0), exchange.response)
    pages: list[dict[str, Any]] = []
    offset: Any = 0
    while isinstance(offset, int) and offset in by_offset and len(pages) < MAX_PROFILE_PAGES:
        page = by_offset[offset]
        pages.append(page)
        offset = page.get("next_offset") if page.get("truncated") else None
    return pages


def json_files_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, Any] | Reply:
    """Documents of every `paths` entry (None when unreadable), or one reply fetching all missing ones at once."""
    missing = [p for p in paths if not read_json_file(req, p)[0]]
    if missing and req.has_tool("read_file"):
        return Reply(calls=[("read_file", {"path": p}) for p in missing])
    return {p: read_json_file(req, p)[1] for p in paths}


def results_and_profile_or_fetch(req: ParsedRequest, paths: list[str]) -> tuple[dict[str, Any], DataProfile] | Reply:
    """The documents at `paths` and the whole data profile, or the reads that fetch them: the results and the
    profile's first page at once, then the profile's next pages (a cut profile would name the wrong files)."""
    documents = json_files_or_fetch(req, [*paths, PROFILE_FILE])
    if isinstance(documents, Reply):
        return documents
    documents.pop(PROFILE_FILE, None)
    profile = profile_or_fetch(req)
    if isinstance(profile, Reply):
        return profile
    return documents, profile


_RESULT_PATH = re.compile(r"outputs/[\w./\-]{1,200}")


def result_paths(text: str) -> list[str]:
    """`outputs/....json` paths named in a text, in order, without duplicates."""
    seen: dict[str, None] = {}
    for match in _RESULT_PATH.finditer(text):
        candidate = match.group(0)
        end = candidate.find(".json")
        if end > 0:
            seen.setdefault(candidate[: end + 5], None)
    return list(seen)
