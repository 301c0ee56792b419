"""Pure functions over the plan kept in state: stages, criteria, and what the run's status is.

Everything here takes and returns plain dicts (as stored in session state), so each orchestration step is one
`state_delta` and the logic is testable without ADK.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.state import CriterionRecord, ParsedPlan, PlannedStage, Reflection, StageRecord

Stage = dict[str, Any]
Criterion = dict[str, Any]


def stages_from_plan(plan: ParsedPlan, max_stages: int) -> list[Stage]:
    stages: list[Stage] = []
    seen: set[str] = set()
    for i, planned in enumerate(plan.stages[:max_stages]):
        stage_id = planned.id.strip() or f"s{i + 1}"
        if stage_id in seen:
            stage_id = f"s{i + 1}"
        seen.add(stage_id)
        stages.append(_new_stage(planned, stage_id))
    return stages


def criteria_from_plan(plan: ParsedPlan) -> list[Criterion]:
    return [CriterionRecord(id=f"c{i + 1}", text=text.strip()).model_dump() for i, text in enumerate(plan.success_criteria)]


def _new_stage(planned: PlannedStage, stage_id: str) -> Stage:
    return StageRecord(
        id=stage_id,
        title=planned.title.strip() or stage_id,
        description=planned.description.strip(),
        expected_outputs=[o for o in planned.expected_outputs if o.strip()],
    ).model_dump()


def next_pending(stages: list[Stage]) -> int | None:
    return next((i for i, s in enumerate(stages) if s["status"] == "pending"), None)


def all_met(criteria: list[Criterion]) -> bool:
    return bool(criteria) and all(c["met"] for c in criteria)


def replace(items: list[dict], index: int, **changes: Any) -> list[dict]:
    """A new list with item `index` updated (state is never mutated in place)."""
    out = [dict(item) for item in items]
    out[index].update(changes)
    return out


def apply_criteria_update(criteria: list[Criterion], update: dict[str, Any]) -> list[Criterion]:
    by_id = {c["id"]: c for c in update.get("criteria", [])}
    out = []
    for criterion in criteria:
        change = by_id.get(criterion["id"])
        if change is None:
            out.append(dict(criterion))
        else:
            out.append({**criterion, "met": bool(change.get("met")), "evidence": str(change.get("evidence", ""))[:1000]})
    return out


def apply_reflection(
    stages: list[Stage], reflection: Reflection, *, added_so_far: int, max_added: int, max_stages: int
) -> tuple[list[Stage], int, list[str]]:
    """Apply edits to pending stages and append new ones within the bounds; report what was refused."""
    out = [dict(s) for s in stages]
    notes: list[str] = []
    index = {s["id"]: i for i, s in enumerate(out)}
    for edit in reflection.edits:
        i = index.get(edit.id)
        if i is None:
            notes.append(f"edit of unknown stage {edit.id} ignored")
            continue
        if out[i]["status"] != "pending":
            notes.append(f"edit of {out[i]['status']} stage {edit.id} refused: finished stages cannot change")
            continue
        for field in ("title", "description", "expected_outputs"):
            value = getattr(edit, field)
            if value:
                out[i][field] = value
    added = added_so_far
    for planned in reflection.new_stages:
        if added >= max_added or len(out) >= max_stages:
            notes.append(f"new stage '{planned.title}' refused: stage budget reached")
            continue
        stage_id = planned.id if planned.id and planned.id not in index else f"s{len(out) + 1}"
        while stage_id in index:
            stage_id += "b"
        index[stage_id] = len(out)
        out.append(_new_stage(planned, stage_id))
        added += 1
    return out, added, notes


def final_status(stages: list[Stage], criteria: list[Criterion], warnings: list[str]) -> tuple[str, str]:
    approved = [s for s in stages if s["status"] == "approved"]
    failed = [s for s in stages if s["status"] == "failed"]
    unmet = [c for c in criteria if not c["met"]]
    if not stages:
        return "failed", "no plan could be made"
    if not approved:
        return "failed", f"no stage was approved ({len(failed)} failed)"
    if unmet:
        names = "; ".join(c["text"][:80] for c in unmet[:3])
        return "incomplete", f"{len(unmet)} of {len(criteria)} success criteria not met: {names}"
    if failed:
        return "completed_with_warnings", f"all criteria met, but {len(failed)} stage(s) failed"
    if warnings:
        return "completed_with_warnings", f"all criteria met, with {len(warnings)} warning(s)"
    return "completed", f"all {len(criteria)} success criteria met"


# -- renderings for prompts ---------------------------------------------------------------------
def render_stage_map(stages: list[Stage], current: int | None) -> str:
    marks = {"approved": "done", "failed": "failed", "running": "current", "pending": "upcoming"}
    lines = []
    for i, s in enumerate(stages):
        mark = "current" if i == current else marks.get(s["status"], s["status"])
        lines.append(f"{i + 1}. [{mark}] {s['title']}")
    return "\n".join(lines)


def render_finished(stages: list[Stage], limit_chars: int = 600) -> str:
    parts = []
    for i, s in enumerate(stages):
        if s["status"] in ("approved", "failed"):
            summary = _clip(s.get("summary") or "(no summary)", limit_chars)
            parts.append(f"### {i + 1}. {s['title']} ({s['status']}, dir {s.get('dir') or '-'})\n{summary}")
    return "\n\n".join(parts)


def render_stages(stages: list[Stage]) -> str:
    return "\n".join(f"- [{s['id']}] ({s['status']}) {s['title']}: {_clip(s['description'], 300)}" for s in stages)


def render_criteria(criteria: list[Criterion], with_evidence: bool = False) -> str:
    lines = []
    for c in criteria:
        line = f"- [{c['id']}] {c['text']} (met: {'yes' if c['met'] else 'no'})"
        if with_evidence and c.get("evidence"):
            line += f"\n  evidence: {_clip(c['evidence'], 300)}"
        lines.append(line)
    return "\n".join(lines)


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    return text[:head] + " ... " + text[-(limit - head) :]
