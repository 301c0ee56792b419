"""Pure functions over the plan kept in state: stages and criteria (prompts render them: `prompts/_macros.j2`).

Everything here takes and returns records (`StageRecord`, `CriterionRecord`); state keeps them as dicts, converted
at the seams (`schema.stages_in/out`, `criteria_in/out`), so each orchestration step is one `state_delta` and the
logic is testable without ADK. Lists are never edited in place: a change returns a new list.
"""

from __future__ import annotations

from agentic_ds.evidence.citations import NOT_VERIFIED
from agentic_ds.schema import CriterionRecord, PlannedStage, StageRecord, StageStatus
from agentic_ds.state import CriterionUpdate, ParsedPlan, Reflection
from agentic_ds.workflow.stage_needs import kept_needs


def stages_from_plan(plan: ParsedPlan, max_stages: int) -> list[StageRecord]:
    stages: list[StageRecord] = []
    seen: set[str] = set()
    for i, planned in enumerate(plan.stages[:max_stages]):
        stage_id = planned.id.strip() or f"s{i + 1}"
        if stage_id in seen:
            stage_id = f"s{i + 1}"
        stages.append(_new_stage(planned, stage_id, kept_needs(planned.needs, seen)))
        seen.add(stage_id)
    return stages


def criteria_from_plan(plan: ParsedPlan) -> list[CriterionRecord]:
    return [CriterionRecord(id=f"c{i + 1}", text=c.text.strip(), asks=[a.strip() for a in c.asks])
            for i, c in enumerate(plan.success_criteria)]


def _new_stage(planned: PlannedStage, stage_id: str, needs: list[str] | None) -> StageRecord:
    return StageRecord(
        id=stage_id,
        title=planned.title.strip() or stage_id,
        description=planned.description.strip(),
        expected_outputs=[o for o in planned.expected_outputs if o.strip()],
        needs=needs,
    )


def next_pending(stages: list[StageRecord]) -> int | None:
    return next((i for i, s in enumerate(stages) if s.status is StageStatus.PENDING), None)


def all_met(criteria: list[CriterionRecord]) -> bool:
    return bool(criteria) and all(c.met for c in criteria)


def with_stage(stages: list[StageRecord], index: int, **changes: object) -> list[StageRecord]:
    """A new list with stage `index` updated."""
    out = list(stages)
    out[index] = StageRecord.model_validate({**stages[index].model_dump(), **changes})
    return out


def apply_criteria_update(criteria: list[CriterionRecord], updates: list[CriterionUpdate]) -> list[CriterionRecord]:
    by_id = {update.id: update for update in updates}
    out = []
    for criterion in criteria:
        change = by_id.get(criterion.id)
        if change is None:
            out.append(criterion)
        else:
            out.append(criterion.model_copy(update={"met": change.met, "evidence": change.evidence[:1000]}))
    return out


def apply_reflection(
    stages: list[StageRecord], reflection: Reflection, *, added_so_far: int, max_added: int, max_stages: int
) -> tuple[list[StageRecord], int, list[str]]:
    """Apply edits to pending stages and append new ones within the bounds; report what was refused."""
    out = list(stages)
    notes: list[str] = []
    index = {s.id: i for i, s in enumerate(out)}
    for edit in reflection.edits:
        i = index.get(edit.id)
        if i is None:
            notes.append(f"edit of unknown stage {edit.id} ignored")
            continue
        if out[i].status is not StageStatus.PENDING:
            notes.append(f"edit of {out[i].status.value} stage {edit.id} refused: finished stages cannot change")
            continue
        changes = {field: getattr(edit, field) for field in ("title", "description", "expected_outputs")}
        out = with_stage(out, i, **{field: value for field, value in changes.items() if value})
    added = added_so_far
    for planned in reflection.new_stages:
        if added >= max_added or len(out) >= max_stages:
            notes.append(f"new stage '{planned.title}' refused: stage budget reached")
            continue
        stage_id = planned.id if planned.id and planned.id not in index else f"s{len(out) + 1}"
        while stage_id in index:
            stage_id += "b"
        needs = kept_needs(planned.needs, index)
        index[stage_id] = len(out)
        out.append(_new_stage(planned, stage_id, needs))
        added += 1
    return out, added, notes


def checked_stage(stages: list[StageRecord], stage_id: str | None) -> StageRecord | None:
    """The stage whose check is under way: `stage_id`'s, else (a run from before stages ran at once) the last
    finished one in plan order."""
    found = next((s for s in stages if s.id == stage_id), None) if stage_id else None
    if found is not None:
        return found
    finished = [s for s in stages if s.status.finished]
    return finished[-1] if finished else None


def reflection_due(
    stages: list[StageRecord], criteria: list[CriterionRecord], stage_id: str | None = None
) -> str | None:
    """Why the rest of the plan needs another look after stage `stage_id` ended (None: the last finished one), or
    None when it went as planned: approved at its first attempt, no check refused a criterion's evidence, and
    stages are still to run or under way."""
    latest = checked_stage(stages, stage_id)
    if latest is None or latest.status is StageStatus.FAILED:
        return "the stage failed"
    if latest.attempts > 1:
        return f"the stage needed {latest.attempts} attempts"
    if not any(s.status in (StageStatus.PENDING, StageStatus.RUNNING) for s in stages):
        return "no stage is left to run and criteria are unmet"
    if any(NOT_VERIFIED in c.evidence or c.judged for c in criteria):
        return "a check refused a criterion's evidence"
    return None
