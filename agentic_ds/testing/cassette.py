"""Cassettes: the model's side of a run, recorded exchange by exchange, to play it back in CI.

A cassette is a folder `tests/cassettes/<name>/` holding `cassette.jsonl`, `meta.json` (the command, config and
inputs of the run, how it ended, and a reviewer's `note`) and `inputs/` (the run's input files). Each line of
`cassette.jsonl` is one record:

- `{"blob": ID, "text": ...}`: a long string (a system prompt, a data profile, code) stored once, before the
  first record using it; elsewhere it is `{"$blob": ID}`. A long string that is JSON (tool arguments, tool
  results, the tool declarations) is kept as `{"$json": value}` when encoding the value gives it back exactly,
  so that the strings inside it are shared too.
- `{"exchange": N, "agent", "scope", "index", ...}`: one answered request. `scope` is the ADK branch it came
  from (the header `X-Agentic-DS-Branch`), `index` its position among that agent's requests in that scope (the
  replay key), `exchanges` the tool names of the tool exchanges ending it (its place in the agent's turn),
  `tools` the tool names offered, `response_format`, `protocol`, `chars` (what was sent), and `request`: the
  messages after the prefix it shares with request `base` (the same agent's previous one), plus the tool
  declarations and response format, so that every request can be rebuilt exactly. `reply` is the neutral
  `{"content", "tool_calls": [{"name", "arguments"}]}`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds.testing.chat_request import ChatRequest
from agentic_ds.testing.relay_files import shared_prefix

CASSETTE = "cassette.jsonl"
META = "meta.json"
INPUTS = "inputs"
BLOB_MIN = 400   # strings this long are stored once
JSON_DEPTH = 12  # JSON strings are opened this deep at most (a message holds tool results holding JSON text)


def blob_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def body_sha(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def request_chars(body: dict[str, Any]) -> int:
    """Characters sent to the model: the messages, the tool declarations and the response format."""
    return len(json.dumps([body.get("messages"), body.get("tools"), body.get("response_format")],
                          ensure_ascii=False))


@dataclass
class Recorded:
    """One exchange read back, with its request rebuilt."""

    number: int
    agent: str
    scope: str
    index: int
    exchanges: list[list[str]]
    tools: list[str]
    response_format: str | None
    protocol: str
    chars: int
    reply: dict[str, Any]
    messages: list[dict[str, Any]] = field(default_factory=list)
    tool_decls: Any = None
    body_response_format: Any = None

    @property
    def key(self) -> tuple[str, str, int]:
        return self.agent, self.scope, self.index


class CassetteWriter:
    """Appends exchanges to `cassette.jsonl` as they are answered (a run cut short keeps what it got)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = path.open("x", encoding="utf-8")
        self._blobs: set[str] = set()
        self._count = 0
        self._positions: dict[tuple[str, str], int] = {}
        self._last: dict[str, tuple[int, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        self._file.close()

    @property
    def count(self) -> int:
        return self._count

    def add(self, request: ChatRequest, scope: str, reply: dict[str, Any]) -> int:
        """Record one answered request; returns its exchange number."""
        with self._lock:
            number = self._count
            index = self._positions.get((request.agent, scope), 0)
            self._positions[(request.agent, scope)] = index + 1
            base = self._last.get(request.agent)
            shared = shared_prefix(base[1], request.messages) if base else 0
            self._last[request.agent] = (number, request.messages)
            compact_request = {
                "base": base[0] if base else None,
                "shared": shared,
                "messages": self._compact(request.messages[shared:]),
                "tools": self._blob(_encoded(request.body.get("tools"))),   # the same on most requests: one blob
                "response_format": self._blob(_encoded(request.body.get("response_format"))),
                "tool_choice": request.tool_choice,
            }
            record = {
                "exchange": number, "agent": request.agent, "scope": scope, "index": index,
                "exchanges": request.trailing_exchanges(), "tools": request.tool_names,
                "response_format": request.response_format, "protocol": request.protocol,
                "chars": request_chars(request.body), "sha": body_sha(request.body),
                "request": compact_request, "reply": self._compact(reply),
            }
            self._write(record)
            self._count += 1
            return number

    def _compact(self, value: Any, depth: int = 0) -> Any:
        if isinstance(value, str) and len(value) >= BLOB_MIN:
            parsed = _json_exactly(value) if depth < JSON_DEPTH else None
            if parsed is not None:
                return {"$json": self._compact(parsed, depth + 1)}
            return self._blob(value)
        if isinstance(value, list):
            return [self._compact(item, depth + 1) for item in value]
        if isinstance(value, dict):
            return {key: self._compact(item, depth + 1) for key, item in value.items()}
        return value

    def _blob(self, text: str | None) -> Any:
        if text is None or len(text) < BLOB_MIN:
            return text
        ident = blob_id(text)
        if ident not in self._blobs:
            self._blobs.add(ident)
            self._write({"blob": ident, "text": text})
        return {"$blob": ident}

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()


def _encoded(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _json_exactly(text: str) -> Any:
    """The JSON object or list `text` encodes, when encoding it again (as json.dumps does) gives `text` back."""
    if text[:1] not in "{[":
        return None
    try:
        value = json.loads(text)
        return value if isinstance(value, dict | list) and json.dumps(value, ensure_ascii=False) == text else None
    except (ValueError, RecursionError):   # RecursionError: JSON nested thousands deep
        return None


def _expand(value: Any, blobs: dict[str, str]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$blob"}:
            return blobs[value["$blob"]]
        if set(value) == {"$json"}:
            return json.dumps(_expand(value["$json"], blobs), ensure_ascii=False)
        return {key: _expand(item, blobs) for key, item in value.items()}
    if isinstance(value, list):
        return [_expand(item, blobs) for item in value]
    return value


def read_cassette(path: Path) -> list[Recorded]:
    """Every exchange of `cassette.jsonl`, in order, with its request's messages rebuilt."""
    blobs: dict[str, str] = {}
    recorded: list[Recorded] = []
    by_number: dict[int, Recorded] = {}
    for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            raise ValueError(f"{path}:{line_number}: not a JSON line: {error}") from error
        if "blob" in record:
            blobs[record["blob"]] = record["text"]
            continue
        request = _expand(record["request"], blobs)
        base = by_number.get(request["base"]) if request.get("base") is not None else None
        messages = (base.messages[: request["shared"]] if base else []) + request["messages"]
        item = Recorded(
            number=record["exchange"], agent=record["agent"], scope=record["scope"], index=record["index"],
            exchanges=record["exchanges"], tools=record["tools"], response_format=record["response_format"],
            protocol=record["protocol"], chars=record["chars"], reply=_expand(record["reply"], blobs),
            messages=messages, tool_decls=_decoded(request.get("tools")),
            body_response_format=_decoded(request.get("response_format")),
        )
        by_number[item.number] = item
        recorded.append(item)
    return recorded


def _decoded(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def read_meta(folder: Path) -> dict[str, Any]:
    meta = json.loads((folder / META).read_text(encoding="utf-8"))
    if not isinstance(meta, dict):
        raise ValueError(f"{folder / META} is not a JSON object")
    return meta


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """meta.json, replaced whole (a temporary file renamed over it)."""
    temporary = folder / f".{META}.tmp"
    temporary.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(folder / META)


def cassette_folders(root: Path) -> list[Path]:
    """Every cassette under `root` (a folder with a meta.json and a cassette.jsonl), by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / META).is_file() and (p / CASSETTE).is_file())
