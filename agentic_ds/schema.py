"""The run's records and statuses: run.json, plan.json, a stage's result.json, and the stage and criterion
records kept in session state.

The writers (the workflow, `workflow/runner.py`) and every reader (the reports, `list`, `show`) use these
models. Writing validates. Reading never fails: `read_model` keeps every field that holds what the writer
would have written and leaves the others at their defaults, saying which in `problems`, so a partial or
hand-broken file still shows what it can. Session state stores records as plain dicts (JSON, persisted in
session.db); `stages_in`/`stages_out` and `criteria_in`/`criteria_out` are the seams where they become models.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_serializer

from agentic_ds.runs import safe_files


class RunStatus(StrEnum):
    RUNNING = "running"                                  # written when the run starts
    COMPLETED = "completed"
    COMPLETED_WITH_WARNINGS = "completed_with_warnings"
    INCOMPLETE = "incomplete"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    UNKNOWN = "unknown"                                  # readers only: no readable status was recorded

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")

    @property
    def answered(self) -> bool:
        """The answer passed its checks (the command exits 0)."""
        return self in (RunStatus.COMPLETED, RunStatus.COMPLETED_WITH_WARNINGS)

    @classmethod
    def of(cls, value: object, default: RunStatus) -> RunStatus:
        """`value` (a status kept in session state) as a status; `default` when it is none."""
        try:
            return cls(str(value)) if value else default
        except ValueError:
            return default


class StageStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    APPROVED = "approved"
    FAILED = "failed"

    @property
    def label(self) -> str:
        return self.value

    @property
    def finished(self) -> bool:
        return self in (StageStatus.APPROVED, StageStatus.FAILED)


class Record(BaseModel):
    model_config = ConfigDict(extra="ignore")


# -- records kept in session state --------------------------------------------------------------
class PlannedStage(Record):
    """A stage as planned (plan_parser's answer, plan.json, and a reflection's new stages)."""

    id: str = Field(description="short stable id, e.g. 's1'")
    title: str
    description: str = Field(description="what to do, concretely, with the columns and files involved")
    expected_outputs: list[str] = Field(default_factory=list, description="files or numbers this stage must produce")


class StageRecord(Record):
    id: str
    title: str = ""
    description: str = ""
    expected_outputs: list[str] = Field(default_factory=list)
    status: StageStatus = StageStatus.PENDING
    attempts: int = 0
    summary: str = ""
    review: str = ""
    dir: str = ""                      # stages/NN-slug, relative to the run directory


class CriterionRecord(Record):
    id: str
    text: str = ""
    met: bool | None = None            # None: not checked yet
    evidence: str = ""
    asks: list[str] = Field(default_factory=list)     # ids of the task's asks it covers
    origin: Literal["plan", "asks"] = "plan"          # "asks": added because the plan left an ask uncovered


Confidence = Literal["high", "medium", "low"]


class AskResult(Record):
    """One ask of the task and what the final answer says about it, as the evidence checks judged it."""

    id: str
    ask: str = ""
    kind: str = ""
    answered: bool = False
    answer: str = ""
    basis: Literal["computed", "model", "stated", "none"] = "none"   # what the answer rests on
    evidence: list[str] = Field(default_factory=list)                # files holding its figures
    why: str = ""                                                     # why it counts as answered, or not


class FinalAnswer(Record):
    """run.json's `final_answer`, in both modes: the answer validator's answer as the evidence checks judged it.

    `valid` and `model_confidence` are the validator's word; `confidence`, `asks` and `untraced_numbers` are the
    checks' (`agentic_ds/evidence`)."""

    valid: bool
    answer: str
    confidence: Confidence = "low"
    confidence_basis: str = ""
    model_confidence: Confidence | None = None
    caveats: list[str] = Field(default_factory=list)
    reasoning_trace: list[str] = Field(default_factory=list)
    output_type: Literal["number", "table", "figure", "text"] = "text"
    asks: list[AskResult] = Field(default_factory=list)
    untraced_numbers: list[str] = Field(default_factory=list)   # figures of the answer no executed code output holds


_STAGES = TypeAdapter(list[StageRecord])
_CRITERIA = TypeAdapter(list[CriterionRecord])


def stages_in(value: Any) -> list[StageRecord]:
    """The stages stored in session state, validated."""
    return _STAGES.validate_python(value or [])


def stages_out(stages: list[StageRecord]) -> list[dict[str, Any]]:
    """Stages as session state stores them."""
    return _STAGES.dump_python(stages, mode="json")


def criteria_in(value: Any) -> list[CriterionRecord]:
    return _CRITERIA.validate_python(value or [])


def criteria_out(criteria: list[CriterionRecord]) -> list[dict[str, Any]]:
    return _CRITERIA.dump_python(criteria, mode="json")


# -- files of the run directory -----------------------------------------------------------------
class AgentUsage(Record):
    """One agent's model calls, tokens and wall time (run.json's `agents`)."""

    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    wall_s: float | None = None


class ModelUsage(Record):
    """One model's calls, tokens and cost (run.json's `cost.by_model`); `usd` None: no price known."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float | None = None


class Cost(Record):
    total_usd: float | None = None
    by_model: dict[str, ModelUsage] = Field(default_factory=dict)


class Tokens(Record):
    input: int = 0
    output: int = 0
    llm_calls: int = 0


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SkippedInput(Record):
    """An input the run could not use, and the profiler's reason."""

    path: str = ""
    reason: str = ""


class RunRecord(Record):
    """`run.json`: what was asked, which models ran, what it cost, how it ended."""

    model_config = ConfigDict(extra="allow")   # blocks a newer agentic-ds adds survive a read and a save

    id: str = ""
    task: str = ""
    mode: str = ""
    status: RunStatus = RunStatus.UNKNOWN
    reason: str = ""
    started_at: str = ""
    ended_at: str | None = None
    wall_s: float | None = None
    version: str = ""                           # of agentic-ds
    models: dict[str, str] = Field(default_factory=dict)
    models_reason: str = ""
    isolation: str = ""
    inputs: list[str] = Field(default_factory=list)
    skipped_inputs: list[SkippedInput] = Field(default_factory=list)
    agents: dict[str, AgentUsage] = Field(default_factory=dict)
    cost: Cost = Field(default_factory=Cost)
    tokens: Tokens = Field(default_factory=Tokens)
    events: int = 0
    context: dict[str, Any] = Field(default_factory=dict)   # prompt budget, compactions, loop responses
    stages: list[StageRecord] = Field(default_factory=list)
    criteria: list[CriterionRecord] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    final_answer: FinalAnswer | None = None

    @field_serializer("stages")
    def _stage_summaries(self, stages: list[StageRecord]) -> list[dict[str, Any]]:
        # run.json lists where each stage got to; its plan and texts are in plan.json and its result.json.
        return [stage.model_dump(mode="json", include={"id", "title", "status", "attempts", "dir"}) for stage in stages]

    def save(self, path: Path) -> None:
        safe_files.write_json(path, self.model_dump(mode="json"))

    @classmethod
    def load(cls, path: Path) -> RunRecord:
        """Strict: the file as written by a run (tests, tools); readers use `read_model`."""
        return cls.model_validate_json(safe_files.read_text(path))


class PlanFile(Record):
    """plan.json: the parsed plan."""

    stages: list[PlannedStage] = Field(default_factory=list)
    success_criteria: list[str] = Field(default_factory=list)


class StageResult(Record):
    """A stage's result.json: its record when it ended, the reviewer's decision and the figures it made."""

    id: str = ""
    title: str = ""
    status: StageStatus | None = None
    attempts: int = 0
    summary: str = ""
    review: str = ""
    decision: dict[str, Any] = Field(default_factory=dict)
    figures: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)


# -- tolerant reading ---------------------------------------------------------------------------
M = TypeVar("M", bound=BaseModel)


def read_model(model: type[M], data: Any, problems: list[str] | None = None, where: str = "") -> M | None:
    """`data` as `model`, field by field: a value the writer could have written is kept (records inside
    lists and mappings one by one), anything else is left at its default and named in `problems`. None when
    `data` is not an object or lacks a required field."""
    notes = problems if problems is not None else []
    if not isinstance(data, Mapping):
        return None
    kept: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name not in data:
            continue
        value = _read_value(field.annotation, data[name], notes, f"{where}{name}")
        if value is not _INVALID:
            kept[name] = value
    try:
        return model.model_validate(kept)
    except ValidationError as exc:
        missing = sorted({str(error["loc"][0]) for error in exc.errors() if error["loc"]})
        notes.append(f"{where.rstrip('.') or model.__name__} lacks {', '.join(missing)}: ignored")
        return None


def read_records(model: type[M], values: Any, problems: list[str] | None = None, where: str = "") -> list[M]:
    """Each item of the list `values` that reads as `model` (see `read_model`); the others are skipped."""
    items = values if isinstance(values, list) else []
    read = (read_model(model, item, problems, f"{where}[{i}].") for i, item in enumerate(items))
    return [record for record in read if record is not None]


_INVALID = object()


def _read_value(annotation: Any, value: Any, problems: list[str], where: str) -> Any:
    record = _record_type(annotation)
    origin = get_origin(annotation)
    if record is not None and isinstance(value, Mapping):
        read = read_model(record, value, problems, f"{where}.")
        return _INVALID if read is None else read
    if origin is list and _record_type(get_args(annotation)[0]) is not None and isinstance(value, list):
        item_type = get_args(annotation)[0]
        items = [_read_value(item_type, item, problems, f"{where}[{i}]") for i, item in enumerate(value)]
        return [item for item in items if item is not _INVALID]
    if origin is dict and _record_type(get_args(annotation)[1]) is not None and isinstance(value, Mapping):
        item_type = get_args(annotation)[1]
        entries = {str(k): _read_value(item_type, v, problems, f"{where}.{k}") for k, v in value.items()}
        return {k: v for k, v in entries.items() if v is not _INVALID}
    try:
        # Strict JSON-mode validation: what json.loads gives for a value the writer wrote, nothing coerced
        # ("yes" is no bool, "2" no int), while enums still read from their values.
        return _adapter(annotation).validate_json(json.dumps(value), strict=True)
    except (ValidationError, TypeError, ValueError):
        problems.append(f"{where} is not valid: ignored")
        return _INVALID


def _record_type(annotation: Any) -> type[BaseModel] | None:
    """The record type of `annotation` (a model, or an optional model), else None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType):
        records = [arg for arg in get_args(annotation) if isinstance(arg, type) and issubclass(arg, BaseModel)]
        return records[0] if len(records) == 1 else None
    return None


@cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)
