"""What run.json says about a run as it goes: its first record, its usage, context and model calls over every
attempt of a resumed run, and where in the run a failure happened.

A resumed run's counts are the earlier attempts' plus this one's (`ResumePoint` keeps what run.json held
before this attempt began), so run.json and the reports cover the whole run, not its last process.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from agentic_ds import __version__
from agentic_ds import state as S
from agentic_ds.config.secrets import settings_record
from agentic_ds.schema import (
    Attempt,
    CallsSummary,
    ModelCallsSummary,
    PlanApproval,
    RunRecord,
    RunStatus,
    SkippedInput,
    StageStatus,
    now_iso,
    read_records,
)
from agentic_ds.state import SessionState

if TYPE_CHECKING:
    from agentic_ds.workflow.assembly import Assembled, ContextCounts
    from agentic_ds.workflow.runner import RunRequest

_COUNTS = ("calls", "attempts", "retries", "timeouts", "failures")


def new_record(request: RunRequest) -> RunRecord:
    """run.json as a new run starts: what was asked, with which models, settings and inputs."""
    workspace = request.workspace
    started_at = now_iso()
    return RunRecord(
        id=workspace.root.name,
        status=RunStatus.RUNNING,
        started_at=started_at,
        version=__version__,
        task=request.task,
        mode=request.mode,
        models={role: choice.spec for role, choice in request.models.choices.items()},
        models_reason=request.models.reason,
        inputs=[workspace.rel(p) for p in workspace.input_files()],
        skipped_inputs=read_records(SkippedInput, request.skipped_inputs),
        settings=settings_record(request.settings),
        attempts=[Attempt(started_at=started_at)],
        approval=PlanApproval(required=True) if request.approve_plan else None,
    )


def queued_record(request: RunRequest) -> RunRecord:
    """run.json of a run prepared and waiting for its turn (`agentic-ds serve`): what `agentic-ds resume` needs to
    start it (task, mode, models, settings, inputs), no attempt yet."""
    record = new_record(request)
    record.status, record.started_at, record.attempts = RunStatus.QUEUED, "", []
    return record


def usage_into(record: RunRecord, assembled: Assembled, request: RunRequest) -> None:
    """The run's model usage, context and call records so far, with what earlier attempts recorded."""
    assembled.usage.ledger.into(record, assembled.usage.wall_s)
    resume = request.resume
    record.context = context_with_earlier(resume.context_before if resume else {}, assembled.context_json())
    record.calls = calls_with_earlier(resume.calls_before if resume else None, assembled.calls.summary())


def context_with_earlier(earlier: Mapping[str, object], now: ContextCounts) -> ContextCounts:
    """run.json's `context` over every attempt: counts summed, the largest prompt the largest of all."""
    merged: ContextCounts = dict(now)
    for key, value in earlier.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        if key == "max_prompt_tokens":
            merged[key] = max(value, merged.get(key) or 0)
        elif key != "budget_tokens":
            merged[key] = value + (merged.get(key) or 0)
    return merged


def calls_with_earlier(earlier: CallsSummary | None, now: CallsSummary) -> CallsSummary:
    """run.json's `calls` over every attempt: counts, waits and step-downs summed per model and in all. The
    policy, the capabilities and the failure are this attempt's: an earlier attempt's failed call did not end
    the run this one ends (it is still counted in `failures`)."""
    if earlier is None:
        return now
    by_model = {name: _summed(earlier.by_model.get(name), usage) for name, usage in now.by_model.items()}
    by_model.update({name: usage for name, usage in earlier.by_model.items() if name not in by_model})
    summed = _summed(earlier, now)
    return now.model_copy(update={
        **{name: getattr(summed, name) for name in (*_COUNTS, "wait_s", "step_downs")},
        "replies_capped": earlier.replies_capped + now.replies_capped,
        "by_model": dict(sorted(by_model.items())),
    })


def _summed(earlier: ModelCallsSummary | None, now: ModelCallsSummary) -> ModelCallsSummary:
    if earlier is None:
        return now
    return ModelCallsSummary(
        **{name: getattr(earlier, name) + getattr(now, name) for name in _COUNTS},
        wait_s=round(earlier.wait_s + now.wait_s, 3),
        step_downs=[*earlier.step_downs, *now.step_downs],
    )


def where(state: SessionState) -> str:
    """` (in stage 2 of 3: Revenue by region)`: where in the run a failure happened, when a stage was under way."""
    stages = state.get(S.STAGES) or []
    under_way = [f"{i + 1} of {len(stages)}: {s.get('title', '')}" for i, s in enumerate(stages)
                 if isinstance(s, dict) and s.get("status") == StageStatus.RUNNING]
    if under_way:
        return f" (in stage {'; stage '.join(under_way)})"
    if state.get(S.MODE) == "orchestrated" and not stages:
        return " (during planning)"
    return ""
