"""The figures of a text traced to what executed code produced: the code gate every answer and quote passes.

A figure is traced when the files the text cites, or the outputs of one stage of the run (its cells' printed output
and the files they wrote), hold it at the precision it was written with, and not merely by chance
(`NumberIndex.proves`: a printed table of thousands of numbers holds nearly any 3-digit value). Numbers the task
itself states, and the parameters the executed code set (1.5 in an IQR rule, alpha 0.05), are neither evidence
nor held against a text. Small whole numbers and years prove something only where a result file the text cites
(under outputs/) holds them; elsewhere they are too common to count either way. Bounds ("p < 0.05") prove nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from agentic_ds.evidence.numbers import Number, extract
from agentic_ds.evidence.sources import CodeEvidence, read_run_file

CONFIDENCE_LEVELS = frozenset({90.0, 95.0, 99.0})   # "95% CI": a level the method chose, written as a percentage
MAX_LISTED = 8
CODE_CAP_BYTES = 200_000    # of one cell's source read for its literals
MAX_FIGURES = 2000          # distinct figures of one text traced; more make the text fail (said, never skipped)


@dataclass
class FigureTrace:
    """What code found of a text's figures."""

    traced: list[str] = field(default_factory=list)      # proven by a cited file or one stage's outputs
    untraced: list[str] = field(default_factory=list)    # stated, but found in none of them (or only by chance)
    cited: list[str] = field(default_factory=list)       # the cited files that can be evidence
    refused: dict[str, str] = field(default_factory=dict)   # cited files that cannot, and why

    @property
    def proven(self) -> bool:
        return bool(self.traced) and not self.untraced and not self.refused


def exempt_values(task: str, evidence: CodeEvidence) -> frozenset[float]:
    """Numbers a text may state without proof: the task's own, and the literals of the code that ran."""
    values = {abs(n.value) for n in extract(task)}
    if evidence.workspace is not None:
        for cell in evidence.cells:
            if cell.ok:
                source = read_run_file(evidence.workspace, cell.path, [], limit=CODE_CAP_BYTES)
                values.update(abs(n.value) for n in extract(source or "", claims=False))
    return frozenset(values)


def trace(text: str, cited: Iterable[str], evidence: CodeEvidence, exempt: frozenset[float]) -> FigureTrace:
    """The figures of `text` traced to the files it `cited` (those that can be evidence), else to one stage's
    outputs."""
    result = FigureTrace()
    for raw in dict.fromkeys(c.strip().rstrip(".") for c in cited if c.strip()):
        problem = evidence.citable(raw)
        if problem is None:
            result.cited.append(raw)
        else:
            result.refused[raw] = problem
    indexes = [i for i in (evidence.index(rel) for rel in result.cited) if i is not None]
    results = [i for rel, i in zip(result.cited, (evidence.index(r) for r in result.cited), strict=True)
               if i is not None and rel.startswith("outputs/")]
    claims = _claims(text, exempt)
    if len(claims) > MAX_FIGURES:
        result.untraced.append(f"({len(claims) - MAX_FIGURES} more figures than can be checked)")
    for claim in claims[:MAX_FIGURES]:
        if claim.weak:
            if any(index.proves(claim) for index in results):
                result.traced.append(claim.text)
            continue
        if any(index.proves(claim) for index in indexes) or _stage_proves(claim, evidence):
            result.traced.append(claim.text)
        else:
            result.untraced.append(claim.text)
    result.traced = list(dict.fromkeys(result.traced))
    result.untraced = list(dict.fromkeys(result.untraced))
    return result


def _claims(text: str, exempt: frozenset[float]) -> list[Number]:
    """The figures of `text` a trace must find, each as written once."""
    found = {n.text: n for n in extract(text) if not n.bound and abs(n.value) not in exempt
             and not (n.percent and abs(n.value) in CONFIDENCE_LEVELS)}
    return list(found.values())


def _stage_proves(claim: Number, evidence: CodeEvidence) -> bool:
    return any(evidence.stage_index(stage).proves(claim) for stage in evidence.stage_scopes())


def listed(figures: list[str]) -> str:
    return ", ".join(figures[:MAX_LISTED]) + (" ..." if len(figures) > MAX_LISTED else "")
