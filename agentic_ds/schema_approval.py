"""Plan approval's records (`--approve-plan`): a person's decisions on a run's plan, in session state and run.json.
Re-exported by `schema.py`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Record(BaseModel):   # `schema.Record`, which cannot be imported here (schema imports this module)
    model_config = ConfigDict(extra="ignore")


class PlanDecision(_Record):
    """One decision a person took on a paused run's plan."""

    decision: Literal["approve", "edit", "stop"]
    notes: str = ""                              # edit: what the planner is to change
    at: str = ""


class PlanApproval(_Record):
    """Whether a run's plan waits for a person before any stage runs (`--approve-plan`), where that stands, and
    every decision taken (session state's `plan_approval`, run.json's `approval`).

    `state`: None until the plan is parsed (and again while an edited plan is made), `awaiting` while the run
    waits, `approved` (the stages run), `stopped` (the run ends `incomplete`)."""

    required: bool = False
    state: Literal["awaiting", "approved", "stopped"] | None = None
    decisions: list[PlanDecision] = Field(default_factory=list)

    @property
    def notes(self) -> list[str]:
        """The notes of every edit, oldest first: the planner keeps to all of them."""
        return [d.notes for d in self.decisions if d.decision == "edit" and d.notes.strip()]
