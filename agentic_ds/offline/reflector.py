"""stage_reflector: usually keep the plan; add one follow-up stage for an unmet criterion nobody will meet.

Finished stages are never touched. A follow-up is appended only when every stage has run, a criterion
is still unmet, and no follow-up for it exists yet; its description carries the criterion (with the
result file it names), so the coder infers a method from it — a different one than the failed stage's.
"""

from __future__ import annotations

import re

from agentic_ds.offline.criteria import parse_criteria
from agentic_ds.offline.reply import Reply, result_paths
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.schema import StageStatus

_STAGE_LINE = re.compile(r"^\s*-\s*\[([^\]]+)\]\s*\((\w+)\)\s*(.*?)(?::\s.*)?$")
_UNMET = re.compile(r"\(met:\s*no\)", re.I)
FOLLOW_UP = "Follow-up for "


def reflector_turn(req: ParsedRequest) -> Reply:
    stages = [m.groups() for m in map(_STAGE_LINE.match, req.section("Stages").splitlines()) if m]
    pending = [s for s in stages if s[1] in (StageStatus.PENDING, StageStatus.RUNNING)]
    criteria_block = req.section("Criteria")
    unmet_lines = [line for line in criteria_block.splitlines() if _UNMET.search(line)]
    unmet = parse_criteria("\n".join(unmet_lines))
    room = re.search(r"append in this run:\s*(\d+)", req.instruction)
    if pending or not unmet or (room is not None and int(room.group(1)) <= 0):
        note = "The plan still fits: " + (
            "pending stages remain."
            if pending
            else "no criterion is left unmet."
            if not unmet
            else "no room for new stages."
        )
        return Reply.json({"edits": [], "new_stages": [], "note": note})
    titles = {title for _, _, title in stages}
    for criterion in unmet:
        title = f"{FOLLOW_UP}{criterion.id}"
        if title in titles:
            continue
        outputs = result_paths(criterion.text)
        new_id = f"s{len(stages) + 1}"
        stage = {
            "id": new_id,
            "title": title,
            "description": f"Produce the evidence for this criterion with a different method: {criterion.text}",
            "expected_outputs": outputs or [f"outputs/{new_id}-follow-up.json"],
        }
        return Reply.json(
            {"edits": [], "new_stages": [stage], "note": f"criterion {criterion.id} is unmet after every stage ran"}
        )
    return Reply.json(
        {"edits": [], "new_stages": [], "note": "follow-ups for the unmet criteria already ran; no further change"}
    )
