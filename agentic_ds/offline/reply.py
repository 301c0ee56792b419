"""What one offline turn answers (text, or tool calls), and the result files it reads before answering."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.offline.request import ParsedRequest, tool_json


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


def read_json_file(req: ParsedRequest, path: str, after: int | None = None) -> tuple[bool, Any]:
    """(asked, document): whether `read_file(path)` was already called, and the JSON it returned (or None); the
    last such call, or with `after` the first one made after exchange number `after`."""
    for exchange in reversed(req.exchanges) if after is None else req.exchanges[after + 1:]:
        if exchange.name == "read_file" and exchange.args.get("path") == path and exchange.response is not None:
            return True, tool_json(exchange.response)
    return False, None


def json_files_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, Any] | Reply:
    """Documents of every `paths` entry (None when unreadable), or one reply fetching all missing ones at once."""
    missing = [p for p in paths if not read_json_file(req, p)[0]]
    if missing and "read_file" in req.tools:
        return Reply(calls=[("read_file", {"path": p}) for p in missing])
    return {p: read_json_file(req, p)[1] for p in paths}


def results_or_fetch(req: ParsedRequest, paths: list[str]) -> dict[str, dict[str, Any]] | Reply:
    """The result documents (those with summary sentences) among the `result_files` of `paths`, or the reads that
    fetch them."""
    documents = json_files_or_fetch(req, result_files(paths))
    if isinstance(documents, Reply):
        return documents
    return {p: d for p, d in documents.items() if has_summary(d)}


def has_summary(document: Any) -> bool:
    return isinstance(document, dict) and bool(document.get("summary"))


def result_files(paths: list[str]) -> list[str]:
    """The result documents among `paths`: `outputs/....json`, in order, without duplicates."""
    return list(dict.fromkeys(p for p in paths if p.startswith("outputs/") and p.endswith(".json")))
