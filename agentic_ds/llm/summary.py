"""The `calls` block of run.json: how the run's model calls went (typed, so readers can rely on its shape)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ModelCallsSummary(BaseModel):
    calls: int = 0                 # calls that got an answer
    attempts: int = 0              # requests sent, retries included
    retries: int = 0
    wait_s: float = 0.0            # time spent backing off before retries
    timeouts: int = 0
    failures: int = 0              # calls that failed for good
    step_downs: list[str] = Field(default_factory=list)


class CallFailure(BaseModel):
    """The call that ended the run."""

    model: str
    api_base: str | None = None
    agent: str | None = None
    where: str | None = None       # "stage 2 of 3: Revenue by region", "during planning"
    kind: str                      # rate_limited, server_error, timeout, connection, auth, not_found, ...
    status: int | None = None
    message: str
    attempts: int = 1
    hint: str | None = None


class CallsSummary(BaseModel):
    calls: int = 0
    attempts: int = 0
    retries: int = 0
    wait_s: float = 0.0
    timeouts: int = 0
    failures: int = 0
    step_downs: list[str] = Field(default_factory=list)
    replies_capped: int = 0
    timeout_s: float | None = None
    max_retries: int | None = None
    capabilities: dict[str, str] = Field(default_factory=dict)
    by_model: dict[str, ModelCallsSummary] = Field(default_factory=dict)
    failure: CallFailure | None = None
