"""The values an agent's prompt was rendered from, as the offline roles read them: typed, never parsed from text.

Each context builder in `workflow/` passes records (`StageRecord`, `CriterionRecord`), the run's `DataProfile`,
the asks and the execution record; these accessors take them as given, or rebuild a record from a plain dict
(a context that went through JSON), and fall back to an empty value when a key is missing.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.offline.request import ParsedRequest
from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import CriterionRecord, StageRecord, read_model, read_records


def task(req: ParsedRequest) -> str:
    return str(req.context.get("task") or "")


def profile(req: ParsedRequest) -> DataProfile:
    value = req.context.get("profile")
    if isinstance(value, DataProfile):
        return value
    return DataProfile.from_json(value) if isinstance(value, dict) else DataProfile()


def stage(req: ParsedRequest) -> StageRecord | None:
    value = req.context.get("stage")
    return value if isinstance(value, StageRecord) else read_model(StageRecord, value)


def stages(req: ParsedRequest) -> list[StageRecord]:
    return _records(StageRecord, req.context.get("stages"))


def criteria(req: ParsedRequest) -> list[CriterionRecord]:
    return _records(CriterionRecord, req.context.get("criteria"))


def asks(req: ParsedRequest) -> list[dict[str, str]]:
    """The run's asks, `{id, text, slot}` each."""
    return [{"id": str(a.get("id") or ""), "text": str(a.get("text") or ""), "slot": str(a.get("slot") or "")}
            for a in req.context.get("asks") or [] if isinstance(a, dict)]


def execution(req: ParsedRequest) -> dict[str, Any]:
    """Simple mode's last execution record (`ok`, `cells`, `error`, `files`, `output_tail`); {} when none ran."""
    value = req.context.get("execution")
    return dict(value) if isinstance(value, dict) else {}


def produced(req: ParsedRequest) -> list[str]:
    """The paths of the files the run produced (outputs/ and figures/) that can be read."""
    return [str(f.get("path")) for f in req.context.get("files") or []
            if isinstance(f, dict) and f.get("path") and not f.get("problem")]


def text(req: ParsedRequest, key: str) -> str:
    value = req.context.get(key)
    return value if isinstance(value, str) else ""


def _records(model: Any, value: Any) -> list[Any]:
    if isinstance(value, list) and all(isinstance(v, model) for v in value):
        return list(value)
    return read_records(model, value)
