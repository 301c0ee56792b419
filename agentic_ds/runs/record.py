"""`run.json`: the run's record - what was asked, which models ran, what it cost, how it ended."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from agentic_ds import __version__
from agentic_ds.runs.safe_files import read_text, write_json


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class RunRecord(BaseModel):
    id: str
    task: str
    mode: str
    status: str = "running"
    reason: str = ""
    started_at: str = Field(default_factory=now_iso)
    ended_at: str | None = None
    wall_s: float | None = None
    version: str = __version__
    models: dict[str, str] = Field(default_factory=dict)
    models_reason: str = ""
    isolation: str = ""
    inputs: list[str] = Field(default_factory=list)
    agents: dict[str, Any] = Field(default_factory=dict)
    cost: dict[str, Any] = Field(default_factory=dict)
    tokens: dict[str, Any] = Field(default_factory=dict)
    events: int = 0
    context: dict[str, Any] = Field(default_factory=dict)   # prompt budget, compactions, loop responses
    stages: list[dict[str, Any]] = Field(default_factory=list)
    criteria: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    final_answer: dict[str, Any] | None = None

    def save(self, path: Path) -> None:
        write_json(path, self.model_dump())

    @classmethod
    def load(cls, path: Path) -> "RunRecord":
        return cls.model_validate_json(read_text(path))
