"""stage_reflector: usually keep the plan; add one follow-up stage for an unmet criterion nobody will meet.

Finished stages are never touched. A follow-up is appended only when every stage has run, a criterion is still
unmet, there is room for a stage, and no follow-up for it exists yet; its description carries the criterion (with
the result file it names), so the coder infers a method from it, a different one than the failed stage's.
"""

from __future__ import annotations

from agentic_ds.offline.request import ParsedRequest, Reply
from agentic_ds.offline.roles.criteria import named_results
from agentic_ds.schema import StageStatus

FOLLOW_UP = "Follow-up for "


def reflector_turn(req: ParsedRequest) -> Reply:
    stages, criteria = req.stages(), req.criteria()
    pending = [s for s in stages if s.status in (StageStatus.PENDING, StageStatus.RUNNING)]
    unread = req.reading().kind == "unread"
    # A question the offline reader could not read gets no answer from another method either.
    unmet = [c for c in criteria if c.met is False and not (unread and c.origin == "asks")]
    room = int(req.context.get("stages_left") or 0)
    if pending or not unmet or room <= 0:
        why = "pending stages remain." if pending else "no criterion is left unmet." if not unmet else \
            "no room for new stages."
        return _change(f"The plan still fits: {why}")
    titles = {s.title for s in stages}
    criterion = next((c for c in unmet if f"{FOLLOW_UP}{c.id}" not in titles), None)
    if criterion is None:
        return _change("follow-ups for the unmet criteria already ran; no further change")
    new_id = f"s{len(stages) + 1}"
    return _change(f"criterion {criterion.id} is unmet after every stage ran", {
        "id": new_id, "title": f"{FOLLOW_UP}{criterion.id}",
        "description": f"Produce the evidence for this criterion with a different method: {criterion.text}",
        "expected_outputs": named_results(criterion.text) or [f"outputs/{new_id}-follow-up.json"]})


def _change(note: str, *new_stages: dict[str, object]) -> Reply:
    return Reply.json({"edits": [], "new_stages": list(new_stages), "note": note})
