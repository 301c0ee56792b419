"""An eval manifest: one JSON object per line, `{"id", "task", "files", "answer", "checker"}`, files relative to it.

Every line is checked before anything runs; the first bad one is a `UsageError` naming its line number and
what is wrong with it (exit code 2), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agentic_ds.errors import UsageError

Checker = Literal["exact", "numeric", "contains", "none"]
MAX_LINE_CHARS = 1_000_000


class EvalTask(BaseModel):
    """One line of a manifest."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=120)
    task: str = Field(min_length=1)
    files: list[str] = Field(min_length=1)
    answer: dict[str, Any] | None = None
    checker: Checker

    @field_validator("id")
    @classmethod
    def _plain_id(cls, value: str) -> str:
        if not all(c.isalnum() or c in "-_." for c in value):
            raise ValueError("use letters, digits, '-', '_' or '.' only")
        return value

    @field_validator("task")
    @classmethod
    def _real_task(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is empty")
        return value.strip()


class Manifest(BaseModel):
    path: Path
    tasks: list[EvalTask]

    def input_paths(self, task: EvalTask) -> list[Path]:
        return [_resolve(self.path.parent, f) for f in task.files]


def load_manifest(path: Path) -> Manifest:
    """The manifest at `path`, every line checked (files exist, ids unique, answers where graded)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"manifest not found: {path}", hint="give the path of a .jsonl file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read manifest {path}: {exc}", hint="a manifest is a UTF-8 text file") from None
    tasks: list[EvalTask] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        task = parse_line(path, number, line)
        if task.id in seen:
            raise _bad(path, number, f"id {task.id!r} is already used on line {seen[task.id]}")
        seen[task.id] = number
        for name in task.files:
            resolved = _resolve(path.parent, name)
            if not resolved.exists():
                raise _bad(path, number, f"file {name!r} not found (looked for {resolved})")
        tasks.append(task)
    if not tasks:
        raise UsageError(f"manifest {path} holds no task", hint='one JSON object per line: {"id", "task", "files", '
                                                                  '"answer", "checker"}')
    return Manifest(path=path, tasks=tasks)


def parse_line(path: Path, number: int, line: str) -> EvalTask:
    """Line `number` of the manifest at `path`, checked (a `UsageError` naming the line when it is bad)."""
    if len(line) > MAX_LINE_CHARS:
        raise _bad(path, number, f"the line is longer than {MAX_LINE_CHARS:,} characters")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _bad(path, number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise _bad(path, number, "not valid JSON (brackets nested too deeply)") from None
    if not isinstance(data, dict):
        raise _bad(path, number, f"expected a JSON object, got {type(data).__name__}")
    try:
        task = EvalTask.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the object"
        raise _bad(path, number, f"{where}: {first['msg']}") from None
    if task.checker != "none" and not task.answer:
        raise _bad(path, number, f'checker "{task.checker}" needs an "answer" object to grade against')
    return task


def _resolve(base: Path, name: str) -> Path:
    candidate = Path(name).expanduser()
    return candidate if candidate.is_absolute() else base / candidate


def _bad(path: Path, number: int, problem: str) -> UsageError:
    return UsageError(
        f"{path}: line {number}: {problem}",
        hint='each line is {"id": "...", "task": "...", "files": ["data.csv"], "answer": {...} or null, '
             '"checker": "exact" | "numeric" | "contains" | "none"}, files relative to the manifest',
    )
