"""Markdown plans: render the offline planner's plan, and parse any reasonable plan into stages + criteria.

Accepted stage forms: `### Stage 2: Title` (any heading level, `:`/`-`/`.` separators), `### 2. Title`,
numbered list items `1. **Title**: text` / `1. Title - text`, and `- Stage 2: Title`. Lines that start
with `Expected outputs:` (or `Outputs:`, `Deliverables:`) become the stage's expected outputs. Criteria
are the bullets under a heading that mentions criteria, success or "done".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_STAGE_TITLE = re.compile(r"^(?:stage|step|phase)\s*(\d+)\s*[:.\-–—)]?\s*(.*)$", re.I)
_NUMBERED_TITLE = re.compile(r"^(\d+)[.)]\s+(.*)$")
_LIST_STAGE = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+(?:(?:stage|step|phase)\s*\d+\s*[:.\-–—]\s*)?(.+)$", re.I)
_BOLD_TITLE = re.compile(r"^\*\*(.+?)\*\*\s*([:.\-–—]?)\s*(.*)$")
_OUTPUTS = re.compile(r"^\s*[-*]?\s*\**(?:expected outputs?|outputs?|deliverables?)(?::\**|\**:)\s*(.*)$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$")
_CRITERIA_HEADING = re.compile(r"criteri|success|done when|definition of done|acceptance", re.I)
_STAGES_HEADING = re.compile(r"^(?:stages|steps|plan|analysis plan|phases)$", re.I)


@dataclass
class PlanStage:
    title: str
    description: str
    expected_outputs: list[str] = field(default_factory=list)


@dataclass
class MarkdownPlan:
    stages: list[PlanStage]
    success_criteria: list[str]

    def as_json(self) -> dict:
        stages = [{"id": f"s{i}", "title": s.title, "description": s.description,
                   "expected_outputs": s.expected_outputs} for i, s in enumerate(self.stages, start=1)]
        return {"stages": stages, "success_criteria": self.success_criteria}


def render_plan(stages: list[PlanStage], criteria: list[str], preamble: str = "") -> str:
    lines = [preamble.strip(), ""] if preamble.strip() else []
    lines.append("## Stages")
    for number, stage in enumerate(stages, start=1):
        lines += ["", f"### Stage {number}: {stage.title}", stage.description.strip()]
        lines.append(f"Expected outputs: {'; '.join(stage.expected_outputs)}")
    lines += ["", "## Success criteria", *(f"- {criterion}" for criterion in criteria)]
    return "\n".join(lines).strip() + "\n"


def parse_plan(text: str) -> MarkdownPlan:
    """Stages and criteria of a markdown plan; a plan with no recognisable stages becomes one stage."""
    stages: list[PlanStage] = []
    criteria: list[str] = []
    body: list[str] = []
    in_criteria = False
    list_mode = "numbered"          # which list items are stages: "any" under a Stages heading, none elsewhere
    for raw in _strip_fences(text).splitlines():
        line = raw.rstrip()
        heading = _HEADING.match(line)
        if heading:
            _close(stages, body)            # every heading ends the stage before it
            title = heading.group(2).strip().strip("*").strip()
            if _CRITERIA_HEADING.search(title) and not _STAGE_TITLE.match(title):
                in_criteria, list_mode = True, ""
                continue
            stage_title = _stage_heading(title)
            if stage_title is not None:
                stages.append(PlanStage(title=stage_title, description=""))
                in_criteria, list_mode = False, ""
                continue
            in_criteria = False
            level = len(heading.group(1))
            list_mode = "any" if _STAGES_HEADING.match(title) else "numbered" if level == 1 and not stages else ""
            continue
        if in_criteria:
            bullet = _BULLET.match(line)
            if bullet:
                criteria.append(_plain(bullet.group(1)))
            elif line.strip() and criteria and raw.startswith((" ", "\t")) and not line.lstrip().startswith(("{", '"')):
                criteria[-1] += " " + line.strip()
            continue
        if list_mode and not raw.startswith((" ", "\t")):
            listed = _LIST_STAGE.match(line)
            numbered = re.match(r"^\d+[.)]\s", line) is not None
            if listed and not _OUTPUTS.match(line) and (numbered or list_mode == "any"):
                _close(stages, body)
                title, rest = _split_title(listed.group(1))
                stages.append(PlanStage(title=title, description=""))
                if rest:
                    body.append(rest)
                continue
        if stages:
            body.append(line)
    _close(stages, body)
    if not stages:
        stages = [PlanStage(title="Analysis", description=text.strip() or "Analyse the data to answer the task.")]
    return MarkdownPlan(stages=stages, success_criteria=criteria)


def _stage_heading(title: str) -> str | None:
    for pattern in (_STAGE_TITLE, _NUMBERED_TITLE):
        m = pattern.match(title)
        if m:
            return _plain(m.group(2)) or f"Stage {m.group(1)}"
    return None


def _split_title(item: str) -> tuple[str, str]:
    bold = _BOLD_TITLE.match(item.strip())
    if bold:
        # "**Load** the data" is a sentence (keep it whole); "**Load**: text" is title + description.
        rest = bold.group(3).strip() if bold.group(2) else re.sub(r"\*\*(.+?)\*\*", r"\1", item).strip()
        return _plain(bold.group(1)), rest
    for separator in (": ", " - ", " – ", " — "):
        if separator in item:
            head, tail = item.split(separator, 1)
            if len(head) <= 80:
                return _plain(head), tail.strip()
    return _plain(item), item.strip() if len(item) > 80 else ""


def _close(stages: list[PlanStage], body: list[str]) -> None:
    if not stages or not body:
        body.clear()
        return
    description: list[str] = []
    for line in body:
        outputs = _OUTPUTS.match(line)
        if outputs:
            listed = re.split(r";|,\s(?=\S+[/.])", outputs.group(1))
            stages[-1].expected_outputs += [o.strip().strip("`") for o in listed if o.strip()]
        else:
            description.append(line)
    text = "\n".join(description).strip()
    stages[-1].description = "\n".join(filter(None, [stages[-1].description, text])) or stages[-1].title
    body.clear()


_EMPHASIS = re.compile(r"\*\*([^*\n]{1,300})\*\*|\*([^*\n]{1,300})\*|`([^`\n]{1,300})`")


def _plain(text: str) -> str:
    """Markdown emphasis and code marks removed (each mark pair bounded, so this is linear)."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2) or m.group(3) or "", text).strip().rstrip(":").strip()


def _strip_fences(text: str) -> str:
    """A plan wrapped in one ```markdown fence is unwrapped; other text is left alone."""
    m = re.fullmatch(r"\s*```(?:markdown|md)?\s*\n(.*?)\n```\s*", text, re.S)
    return m.group(1) if m else text
