"""The figures of a text traced to what executed code produced: the code gate every answer and quote passes.

A figure is traced when a file the text cites holds it at the precision it was written with, and not merely by
chance (`NumberIndex.proves`: a printed table of thousands of numbers holds nearly any 3-digit value); else when
one output of code that ran (a cell's printed output, a file it wrote) does, on its own. The line each figure was
found on goes to the judge: whether it means what the text says (a mean, not one row's value) is language.
Numbers the task itself states are neither evidence nor held against a text. Small whole numbers, years, round
units ("per $1k") and the literals of the code that ran (1.5 in an IQR rule, a grid of parameters) prove
something only where a result file the text cites (under outputs/) holds them; elsewhere they are too common to
count either way. Bounds ("p < 0.05", "under 5%") prove nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from agentic_ds.evidence.numbers import Number, extract
from agentic_ds.evidence.sources import CodeEvidence, read_run_file

CONFIDENCE_LEVELS = frozenset({90.0, 95.0, 99.0})   # "95% CI": a level the method chose, written as a percentage
MAX_LISTED = 8
CODE_CAP_BYTES = 200_000    # of one cell's source read for its literals
MAX_FOUND = 12              # traced figures whose line is kept for the judge
MAX_FIGURES = 2000          # distinct figures of one text traced; more make the text fail (said, never skipped)


@dataclass
class FigureTrace:
    """What code found of a text's figures."""

    traced: list[str] = field(default_factory=list)      # proven by a cited file or one stage's outputs
    untraced: list[str] = field(default_factory=list)    # stated, but found in none of them (or only by chance)
    cited: list[str] = field(default_factory=list)       # the cited files that can be evidence
    found: dict[str, str] = field(default_factory=dict)  # a traced figure -> "file: the line it is on"
    refused: dict[str, str] = field(default_factory=dict)   # cited files that cannot, and why

    @property
    def proven(self) -> bool:
        return bool(self.traced) and not self.untraced and not self.refused


@dataclass(frozen=True)
class Exempt:
    """Numbers a text may state without proof: the task's own (never counted), and the literals of the code that
    ran (counted only where a cited result file holds them)."""

    task: frozenset[float] = frozenset()
    code: frozenset[float] = frozenset()


def exempt_values(task: str, evidence: CodeEvidence) -> Exempt:
    code: set[float] = set()
    if evidence.workspace is not None:
        for cell in evidence.cells:
            if cell.ok:
                source = read_run_file(evidence.workspace, cell.path, [], limit=CODE_CAP_BYTES)
                code.update(abs(n.value) for n in extract(source or "", claims=False))
    return Exempt(task=frozenset(abs(n.value) for n in extract(task)), code=frozenset(code))


def trace(text: str, cited: Iterable[str], evidence: CodeEvidence, exempt: Exempt) -> FigureTrace:
    """The figures of `text` traced to the files it `cited` (those that can be evidence), else to each output of
    executed code small enough to stand without a citation."""
    result = FigureTrace()
    for raw in dict.fromkeys(c.strip().rstrip(".") for c in cited if c.strip()):
        problem = evidence.citable(raw)
        if problem is None:
            result.cited.append(raw)
        else:
            result.refused[raw] = problem
    texts = [rel for rel in result.cited if evidence.index(rel) is not None]
    results = [rel for rel in texts if rel.startswith("outputs/")]
    claims = _claims(text, exempt)
    if len(claims) > MAX_FIGURES:
        result.untraced.append(f"({len(claims) - MAX_FIGURES} more figures than can be checked)")
    for claim in claims[:MAX_FIGURES]:
        if claim.weak or abs(claim.value) in exempt.code or _round_unit(claim):
            where = evidence.proven_in(claim, results)
            if where is None:
                continue
        else:
            where = evidence.proven_in(claim, texts) or evidence.proven_in(claim)
            if where is None:
                result.untraced.append(claim.text)
                continue
        result.traced.append(claim.text)
        if len(result.found) < MAX_FOUND:
            result.found[claim.text] = f"{where}: {evidence.line_of(claim, where)}"
    return result


def _claims(text: str, exempt: Exempt) -> list[Number]:
    """The figures of `text` a trace must find, each as written once."""
    found = {n.text: n for n in extract(text) if not n.bound and abs(n.value) not in exempt.task
             and not (n.percent and abs(n.value) in CONFIDENCE_LEVELS)}
    return list(found.values())


def _round_unit(claim: Number) -> bool:
    """1,000 or $1k or 100: a power of ten written whole, the unit of a claim more often than its figure."""
    if claim.percent or claim.decimals or claim.value <= 0:
        return False
    power = math.log10(claim.value)
    return abs(power - round(power)) < 1e-9


def listed(figures: list[str]) -> str:
    return ", ".join(figures[:MAX_LISTED]) + (" ..." if len(figures) > MAX_LISTED else "")
