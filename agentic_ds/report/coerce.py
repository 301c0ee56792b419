"""Tolerant readers for records other parts wrote: wrong types and missing keys become defaults."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any


def read_json_object(path: Path, rel: str, problems: list[str], *, quiet: bool = False) -> dict[str, Any]:
    """The JSON object in `path`, or {} with a line in `problems` saying why (silent when missing and `quiet`)."""
    if not path.is_file():
        if not quiet:
            problems.append(f"{rel} is missing")
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except json.JSONDecodeError as exc:
        problems.append(f"{rel} is not valid JSON (line {exc.lineno}): ignored")
        return {}
    except RecursionError:  # "[[[[..." thousands deep: a file a model wrote must not stop the report
        problems.append(f"{rel} is nested too deeply to read: ignored")
        return {}
    except OSError as exc:
        problems.append(f"{rel} is unreadable: {exc.strerror}")
        return {}
    if not isinstance(data, dict):
        problems.append(f"{rel} does not hold a JSON object: ignored")
        return {}
    return data


def read_text(path: Path, *, limit: int | None = None) -> str | None:
    """The file's text (its first `limit` characters, marked when cut); None when unreadable."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            text = handle.read(-1 if limit is None else limit + 1)
    except OSError:
        return None
    if limit is not None and len(text) > limit:
        return text[:limit] + "\n… (truncated)\n"
    return text


def read_tail(path: Path, limit_bytes: int) -> str | None:
    """The last `limit_bytes` of a file as text, prefixed with `…` when cut; None when unreadable."""
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - limit_bytes))
            data = handle.read()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    return text if size <= limit_bytes else "…" + text


def parse_time(value: str) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def duration_s(start: str, end: str) -> float | None:
    began, ended = parse_time(start), parse_time(end)
    if began is None or ended is None or (began.tzinfo is None) != (ended.tzinfo is None):
        return None
    return max(0.0, (ended - began).total_seconds())


def as_str(value: Any) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else str(value)


def as_int(value: Any) -> int:
    try:
        return int(value) if value is not None and not isinstance(value, bool) else 0
    except (TypeError, ValueError, OverflowError):
        return 0


def as_float(value: Any) -> float | None:
    try:
        return float(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in as_list(value) if isinstance(v, dict)]


def strings(value: Any) -> list[str]:
    return [as_str(v) for v in as_list(value) if as_str(v)]
