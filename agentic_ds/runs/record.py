"""`run.json`: the run's record - what was asked, which models ran, what it cost, how it ended."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from agentic_ds import __version__
from agentic_ds.llm.summary import CallsSummary


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
    calls: CallsSummary | None = None                       # model calls: retries, waits, timeouts, failures
    stages: list[dict[str, Any]] = Field(default_factory=list)
    criteria: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    final_answer: dict[str, Any] | None = None

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.model_dump(), indent=2, default=str) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "RunRecord":
        return cls.model_validate_json(path.read_text(encoding="utf-8"))
