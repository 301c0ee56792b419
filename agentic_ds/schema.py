"""The run's records and statuses: run.json, plan.json, a stage's result.json, and the stage and criterion
records kept in session state.

The writers (the workflow, `workflow/runner.py`) and every reader (the reports, `list`, `show`) use these
models. Writing validates. Reading never fails: `read_model` (`schema_reading.py`, re-exported here) keeps every
field that holds what the writer would have written and leaves the others at their defaults, saying which in
`problems`, so a partial or hand-broken file still shows what it can. Session state stores records as plain
dicts (JSON, persisted in session.db); `stages_in`/`stages_out` and `criteria_in`/`criteria_out` are the seams
where they become models.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_serializer

from agentic_ds.runs import safe_files
from agentic_ds.schema_approval import PlanApproval as PlanApproval
from agentic_ds.schema_approval import PlanDecision as PlanDecision
from agentic_ds.schema_reading import read_model as read_model
from agentic_ds.schema_reading import read_records as read_records


class RunStatus(StrEnum):
    QUEUED = "queued"                                    # prepared by `agentic-ds serve`, waiting for its turn
    RUNNING = "running"                                  # written when the run starts
    AWAITING_APPROVAL = "awaiting_approval"              # paused after planning until the plan is decided on
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

    @property
    def resumable(self) -> bool:
        """The run stopped before its answer passed its checks: `agentic-ds resume` may continue it."""
        return self in (RunStatus.INCOMPLETE, RunStatus.FAILED, RunStatus.INTERRUPTED)

    @property
    def settled(self) -> bool:
        """No process works on the run and none is due to: it ended (for now) or it stopped. Not settled:
        queued, running, awaiting a plan decision (a decision continues it)."""
        return self not in (RunStatus.QUEUED, RunStatus.RUNNING, RunStatus.AWAITING_APPROVAL, RunStatus.UNKNOWN)

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
    needs: list[str] | None = Field(
        default=None,
        description="ids of the earlier stages whose outputs this stage uses; [] when it uses only the inputs (it "
                    "may then run alongside other stages); left out: it runs after the stage before it",
    )


class StageRecord(Record):
    id: str
    title: str = ""
    description: str = ""
    expected_outputs: list[str] = Field(default_factory=list)
    needs: list[str] | None = None     # ids of earlier stages it waits for; None: not stated (the stage before it)
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
    judged: str = ""                   # the judge's reason when it found the evidence does not show the criterion


class AskRecord(Record):
    """One thing the task asks for, as the run holds itself to it (read by a model at the start; `@name[...]`
    slots are added by code when the reading left one out)."""

    id: str
    text: str
    slot: str = ""                     # the name of a requested answer value `@slot[...]`


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
    traced: list[str] = Field(default_factory=list)                  # its figures found in the outputs it cites
    untraced: list[str] = Field(default_factory=list)                # its figures found in none of them
    judge: str = ""                                                   # the judge's verdict on its wording, and why


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
    input_tokens: int = 0          # every prompt token, cached ones included
    cached_tokens: int = 0         # of the input tokens, those read from the provider's prompt cache
    output_tokens: int = 0
    wall_s: float | None = None


class ModelUsage(Record):
    """One model's calls, tokens and cost (run.json's `cost.by_model`); `usd` None: no price known."""

    calls: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    usd: float | None = None


class LedgerEntry(ModelUsage):
    """One agent's usage of one model (run.json's `ledger`): what `agents`, `cost` and `tokens` are sums of."""

    agent: str = ""
    model: str = ""


class Cost(Record):
    total_usd: float | None = None             # the priced models' cost; `unpriced` lists the others
    by_model: dict[str, ModelUsage] = Field(default_factory=dict)
    unpriced: list[str] = Field(default_factory=list)


class Tokens(Record):
    input: int = 0
    cached: int = 0
    output: int = 0
    llm_calls: int = 0


class ModelCallsSummary(Record):
    """One model's calls under the call policy (run.json's `calls.by_model`)."""

    calls: int = 0                 # calls that got an answer
    attempts: int = 0              # requests sent, retries included
    retries: int = 0
    wait_s: float = 0.0            # time spent backing off before retries
    timeouts: int = 0
    failures: int = 0              # calls that failed for good
    step_downs: list[str] = Field(default_factory=list)


class CallFailure(Record):
    """The model call that ended the run."""

    model: str
    api_base: str | None = None
    agent: str | None = None
    where: str | None = None       # "stage 2 of 3: Revenue by region", "during planning"
    kind: str                      # rate_limited, server_error, timeout, connection, auth, not_found, ...
    status: int | None = None
    message: str
    attempts: int = 1
    hint: str | None = None


class CallsSummary(ModelCallsSummary):
    """run.json's `calls`: how the run's model calls went, over every attempt of a resumed run."""

    replies_capped: int = 0
    timeout_s: float | None = None
    max_retries: int | None = None
    capabilities: dict[str, str] = Field(default_factory=dict)
    by_model: dict[str, ModelCallsSummary] = Field(default_factory=dict)
    failure: CallFailure | None = None


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SkippedInput(Record):
    """An input the run could not use, and the profiler's reason."""

    path: str = ""
    reason: str = ""


class Attempt(Record):
    """One process that worked on a run (run.json's `attempts`): the first `run`, then each `resume`.

    `ended_at` None: the process ended without saying so (killed or crashed); `wall_s` is then as of its
    last checkpoint."""

    started_at: str = ""
    ended_at: str | None = None
    wall_s: float = 0.0
    status: RunStatus = RunStatus.RUNNING
    reason: str = ""


class RunRecord(Record):
    """`run.json`: what was asked, which models ran, what it cost, how it ended."""

    model_config = ConfigDict(extra="allow")   # blocks a newer agentic-ds adds survive a read and a save

    id: str = ""
    task: str = ""
    title: str = ""                             # a few words naming the run, from the task's reader
    mode: str = ""
    asks: list[AskRecord] = Field(default_factory=list)   # what the run held itself to
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
    ledger: list[LedgerEntry] = Field(default_factory=list)  # usage per agent and model; the rest sums it
    cost: Cost = Field(default_factory=Cost)
    tokens: Tokens = Field(default_factory=Tokens)
    events: int = 0
    context: dict[str, Any] = Field(default_factory=dict)   # prompt budget, compactions, loop responses
    calls: CallsSummary | None = None                       # model calls: retries, waits, timeouts, the failure
    stages: list[StageRecord] = Field(default_factory=list)
    criteria: list[CriterionRecord] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    final_answer: FinalAnswer | None = None
    settings: dict[str, Any] = Field(default_factory=dict)   # the effective settings, secrets left out (resume)
    attempts: list[Attempt] = Field(default_factory=list)
    approval: PlanApproval | None = None                     # the plan waits for a person (`--approve-plan`)

    def begin_attempt(self) -> None:
        """Open a resumed attempt; an earlier one that never recorded its end died without finishing."""
        if not self.attempts:   # written before run.json had attempts: its own facts are the first one's
            self.attempts.append(Attempt(started_at=self.started_at, ended_at=self.ended_at, wall_s=self.wall_s or 0.0,
                                         status=self.status, reason=self.reason))
        for attempt in self.attempts:
            if attempt.ended_at is None and attempt.status is RunStatus.RUNNING:
                attempt.status = RunStatus.INTERRUPTED
                attempt.reason = "the process ended without finishing (killed, crashed, or the machine stopped)"
        self.attempts.append(Attempt(started_at=now_iso()))
        self.status, self.reason, self.ended_at = RunStatus.RUNNING, "", None

    def clock(self, seconds: float) -> None:
        """This attempt has run `seconds`: the run's wall time is every attempt's together."""
        if self.attempts:
            self.attempts[-1].wall_s = round(seconds, 3)
        self.wall_s = round(sum(attempt.wall_s for attempt in self.attempts), 3)

    def end_attempt(self, status: RunStatus, reason: str) -> None:
        self.status, self.reason, self.ended_at = status, reason, now_iso()
        if self.attempts:
            self.attempts[-1] = self.attempts[-1].model_copy(
                update={"ended_at": self.ended_at, "status": status, "reason": reason}
            )

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
