"""A corpus case written into a run directory as the sandbox's recorder writes one, and the product's checks run
over it: the code gates, then a scripted judge, then the one status rule.

Judges, for the asks and criteria that passed the code gates (the only ones a judge is shown):
- `reviewer` says what a careful reviewer concludes (`answered`, `holds`): what a judge that reads the answer, the
  evidence and the line each figure was found on should say;
- `language` says what the words alone say (`addressed`, `shows`), blind to what a figure means;
- `agreeing` says yes to everything (a judge that lies); `silent` gives no verdict (junk).
Facts are never the judge's: the code gates run the same whichever judge speaks.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from agentic_ds.evidence import status as evidence_status
from agentic_ds.evidence.answers import check_answer, judged_criteria, with_verdict
from agentic_ds.evidence.citations import CitationCheck
from agentic_ds.evidence.sources import collect
from agentic_ds.schema import AskRecord, CriterionRecord, RunStatus, StageRecord, StageStatus
from agentic_ds.state import JudgeVerdict
from agentic_ds.workspace import Workspace

from .case import Case

Judge = Literal["reviewer", "language", "agreeing", "silent"]
JUDGES: tuple[Judge, ...] = ("reviewer", "language", "agreeing", "silent")


@dataclass
class Outcome:
    status: RunStatus
    reason: str
    answered: dict[str, bool]
    criteria_met: dict[str, bool]


def holdout(case: Case) -> bool:
    """About a third of the cases, fixed by id: kept aside from any tuning of the checks."""
    return int(hashlib.sha256(case.id.encode()).hexdigest(), 16) % 3 == 0


def materialize(case: Case, root: Path) -> Workspace:
    workspace = Workspace(root)
    for folder in (workspace.inputs, workspace.outputs, workspace.figures, workspace.stages):
        folder.mkdir(parents=True, exist_ok=True)
    for rel, content in case.inputs.items():
        _write(root / rel, content)
    cells: list[dict[str, object]] = []
    numbers: dict[int, int] = {}
    for cell in case.cells:
        numbers[cell.stage] = numbers.get(cell.stage, 0) + 1
        stage = f"stages/{cell.stage:02d}-stage{cell.stage}"
        name = f"{stage}/cell_{numbers[cell.stage]:03d}"
        code_rel, out_rel = f"{name}.py", f"{name}.out.txt"
        _write(root / code_rel, cell.code)
        _write(root / out_rel, cell.output)
        for rel, content in cell.files.items():
            _write(root / rel, content)
        cells.append({"cell_type": "code", "source": cell.code, "outputs": [], "execution_count": len(cells) + 1,
                      "metadata": {"tags": [] if cell.ok else ["raises-exception"],
                                   "agentic_ds": {"cell": code_rel, "ok": cell.ok, "output": out_rel,
                                                  "files": list(cell.files)}}})
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "analysis.ipynb").write_text(json.dumps(notebook))
    return workspace


def judge(case: Case, root: Path, *judges: Judge) -> dict[Judge, Outcome]:
    """The status the product gives the case with each of `judges`: the run directory is written and its facts
    checked once, then each judge speaks on what passed."""
    workspace = materialize(case, root)
    evidence = collect(workspace)
    check = CitationCheck(evidence, case.task)
    checked = [check.verify(CriterionRecord(id=c.id, text=c.text, met=True, evidence=c.evidence))
               for c in case.criteria]
    asks = [AskRecord(id=a.id, text=a.text) for a in case.asks]
    claim = {"valid": True, "answer": case.answer, "confidence": "high",
             "asks": [{"id": p.id, "answered": p.answered, "answer": p.answer, "files": p.files} for p in case.parts]}
    facts = check_answer(case.task, asks, claim, evidence)
    stages = sorted({cell.stage for cell in case.cells})
    ran = {cell.stage for cell in case.cells if cell.ok}
    records = [StageRecord(id=f"s{n}", status=StageStatus.APPROVED if n in ran else StageStatus.FAILED)
               for n in stages]
    outcomes = {}
    for how in judges or JUDGES:
        verdict = _verdict(case, facts.to_judge(), [c for c in checked if c.met], how)
        final, answer = with_verdict(facts, verdict)
        criteria = judged_criteria(checked, {c.id for c in checked if c.met}, verdict)
        decided = evidence_status.decide(evidence_status.RunFacts(
            mode=case.mode, check=answer, stages=records if case.mode == "orchestrated" else [],
            criteria=criteria if case.mode == "orchestrated" else []))
        answered = {a.id: a.answered for a in (final.asks if final is not None else [])}
        outcomes[how] = Outcome(decided.status, decided.reason, answered, {c.id: bool(c.met) for c in criteria})
    return outcomes


def _verdict(case: Case, parts: list, criteria: list[CriterionRecord], how: Judge) -> JudgeVerdict | None:
    if how == "silent":
        return None
    asks = case.answered if how == "reviewer" else case.addressed
    shows = {c.id: c.holds if how == "reviewer" else c.shows for c in case.criteria}
    return JudgeVerdict.model_validate({
        "asks": [{"id": p.id, "addressed": how == "agreeing" or asks.get(p.id, False), "reason": how}
                 for p in parts],
        "criteria": [{"id": c.id, "shown": how == "agreeing" or shows.get(c.id, True), "reason": how}
                     for c in criteria],
    })


def _write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)


FABRICATED = frozenset({"invented", "small_integers", "derived", "misquoted", "failed_code"})


def fabricated(case: Case) -> bool:
    """A case whose answer or evidence claims what executed code did not produce: a fact the code gates must
    catch whatever a judge says (the quotes that only fail to show their criterion are language, the judge's)."""
    if case.category not in FABRICATED or case.status == "completed":
        return False
    return not (case.category == "misquoted" and all(c.shows is False or c.holds for c in case.criteria)
                and all(case.answered.values()))


def evaluate(cases: list[Case], root: Path, *judges: Judge) -> dict[Judge, list[tuple[Case, Outcome]]]:
    """Every case judged by each of `judges`, each case in its own run directory under `root`."""
    judged = [(case, judge(case, root / case.id, *judges)) for case in cases]
    return {how: [(case, outcomes[how]) for case, outcomes in judged] for how in judges or JUDGES}
