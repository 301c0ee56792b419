"""Tolerant reading of run files: a JSON object or nothing (with the reason), text cut to a limit, a file's tail,
times; and plain values out of files no schema covers (data_profile.json). Records are read by `schema.read_model`."""

from __future__ import annotations

import io
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from agentic_ds.runs import safe_files


def read_json_object(path: Path, rel: str, problems: list[str], *, root: Path, quiet: bool = False) -> dict[str, Any]:
    """The JSON object in `path` (under `root`, reached without following links), or {} with a line in
    `problems` saying why (silent when missing and `quiet`)."""
    try:
        data = json.loads(safe_files.read_text(path, root=root))
    except FileNotFoundError:
        if not quiet:
            problems.append(f"{rel} is missing")
        return {}
    except json.JSONDecodeError as exc:
        problems.append(f"{rel} is not valid JSON (line {exc.lineno}): ignored")
        return {}
    except safe_files.UnsafeFile as exc:
        problems.append(f"{rel} is {exc.what}: not read")
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


def read_text(path: Path, *, root: Path, limit: int | None = None) -> str | None:
    """The file's text (its first `limit` characters, marked when cut); None when unreadable or a link."""
    try:
        with io.TextIOWrapper(safe_files.open_read(path, root=root), encoding="utf-8", errors="replace") as handle:
            text = handle.read(-1 if limit is None else limit + 1)
    except (OSError, ValueError):
        return None
    if limit is not None and len(text) > limit:
        return text[:limit] + "\n… (truncated)\n"
    return text


def read_tail(path: Path, limit_bytes: int, *, root: Path) -> str | None:
    """The last `limit_bytes` of a file as text, prefixed with `…` when cut; None when unreadable or a link."""
    try:
        with safe_files.open_read(path, root=root) as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - limit_bytes))
            data = handle.read()
    except (OSError, ValueError):
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


def dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
