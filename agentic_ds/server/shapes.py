"""The JSON shapes of the API (they are its OpenAPI schema): what a page needs for a list of runs, a live run and
a finished one, and the bodies clients send. Read docs/api.md for what each field means."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from agentic_ds.schema import PlanApproval

ApiStatus = Literal["queued", "running", "awaiting_approval", "completed", "completed_with_warnings", "incomplete",
                    "failed", "interrupted", "unknown"]


class TokensOut(BaseModel):
    input: int = 0
    output: int = 0
    cached: int = 0
    llm_calls: int = 0


class QueueOut(BaseModel):
    """The run's job while it waits for a free slot of the server."""

    position: int = Field(description="1: the next to start")
    action: Literal["start", "resume", "decide", "ask"]
    enqueued_at: str


class LinksOut(BaseModel):
    self: str
    events: str
    files: str
    report: str | None = Field(description="report.html, once written")


class RunSummaryOut(BaseModel):
    """One run as a list shows it."""

    id: str
    title: str | None = Field(description="the short title the run recorded, if any")
    task: str
    status: ApiStatus = Field(description="queued or running while this server has a job for it, else run.json's "
                                          "status (`running` with nobody running it reads `interrupted`)")
    reason: str
    mode: str
    models: dict[str, str] = Field(description="model per role")
    started_at: str | None
    ended_at: str | None
    wall_s: float | None
    cost_usd: float | None
    tokens: TokensOut
    has_report: bool
    queue: QueueOut | None
    approval: PlanApproval | None = Field(description="set when the plan waits for a person (--approve-plan)")
    managed: bool = Field(description="a process of this server works on the run now")
    links: LinksOut


class ToolCallOut(BaseModel):
    tool: str
    args: str = ""
    author: str = ""
    timestamp: str = ""


class ToolResultOut(BaseModel):
    tool: str
    text: str = ""
    author: str = ""
    timestamp: str = ""


class TextOut(BaseModel):
    author: str
    kind: str
    text: str
    timestamp: str = ""


class LiveOut(BaseModel):
    """What the run is doing, from the end of events.jsonl."""

    agent: str | None = Field(description="the agent that spoke last")
    stage: dict[str, Any] | None = Field(description="{index, count, title} of the stage under way")
    iteration: int | None = Field(description="the round of the loop under way")
    last_tool_call: ToolCallOut | None
    last_tool_result: ToolResultOut | None
    last_text: TextOut | None
    events: int = Field(description="lines of events.jsonl: the id of the last event")


class RunDetailOut(RunSummaryOut):
    """One run in full: the list's fields, the plan, the stages and criteria with their states, what it is doing
    now, the answer, and run.json as it stands."""

    plan: dict[str, Any] | None = Field(description="plan.json: stages and success criteria")
    plan_markdown: str | None = Field(description="plan.md as the planner wrote it")
    stages: list[dict[str, Any]]
    criteria: list[dict[str, Any]]
    live: LiveOut
    final_answer: dict[str, Any] | None
    last_job: dict[str, Any] | None = Field(description="how this server's last process for the run ended")
    record: dict[str, Any] = Field(description="run.json")


class RunListOut(BaseModel):
    runs: list[RunSummaryOut]


class FileOut(BaseModel):
    path: str
    size: int
    kind: Literal["report", "notebook", "plan", "record", "events", "session", "figure", "output", "code",
                  "stage", "input", "other"]
    url: str


class FileListOut(BaseModel):
    files: list[FileOut]
    truncated: bool = False


class ResumeIn(BaseModel):
    max_cost: float | None = Field(default=None, gt=0, description="raise or set the cost limit, USD")
    max_llm_calls: int | None = Field(default=None, ge=1)
    max_tokens: int | None = Field(default=None, ge=1)

    def flags(self) -> list[str]:
        out: list[str] = []
        for flag, value in (("--max-cost", self.max_cost), ("--max-llm-calls", self.max_llm_calls),
                            ("--max-tokens", self.max_tokens)):
            if value is not None:
                out += [flag, str(value)]
        return out


class ApprovalIn(BaseModel):
    decision: Literal["approve", "edit", "stop"]
    notes: str = Field(default="", max_length=20_000, description="edit: what the planner is to change")
    max_cost: float | None = Field(default=None, gt=0, description="raise or set the cost limit, USD")


class StatusWordOut(BaseModel):
    """A status as the report shows it: its words, its tone (the report's colours) and what it means."""

    label: str
    tone: Literal["good", "warn", "bad", "neutral"]
    meaning: str = ""


class ServerOut(BaseModel):
    version: str
    workdir: str
    data_roots: list[str]
    max_runs: int
    running: int
    queued: int
    max_upload_mb: int
    token_required: bool
    statuses: dict[str, StatusWordOut] = Field(description="run statuses, as report.html words and colours them")
    stage_statuses: dict[str, StatusWordOut] = Field(description="stage statuses, likewise")
