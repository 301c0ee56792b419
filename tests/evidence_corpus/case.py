"""One labelled case of the evidence corpus: what a run's executed code left, what its model answered, and what a
careful reviewer concludes about it.

A case is data only. `tests/evidence_corpus/build.py` writes it into a run directory exactly as the sandbox's
recorder would (cells in `analysis.ipynb` with their outputs and the files they wrote), and the corpus tests run
the code gates and a scripted judge over it. The labels are a reviewer's, written from the rules of the product
(see README.md in this folder), never from what the code happens to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Category = Literal[
    "correct",          # a right answer, in any words (synonyms, units, percent vs fraction, rounding)
    "invented",         # figures no executed code produced
    "small_integers",   # a claim made only of small integers, years, bounds and bare words
    "derived",          # figures the model computed itself from the outputs (ratios, differences, sums)
    "misquoted",        # a criterion's evidence quote that misstates the file it cites
    "multipart",        # an open question of several parts, all answered
    "partial",          # an answer that addresses only some parts of the question
    "failed_code",      # the code that would support the answer did not run without error
]
Status = Literal["completed", "completed_with_warnings", "incomplete", "failed"]


@dataclass
class CellCase:
    """One executed cell, in run order."""

    code: str
    output: str = ""                                        # what it printed (may be megabytes)
    ok: bool = True                                         # ran without error
    files: dict[str, str] = field(default_factory=dict)     # files it wrote: "outputs/x.csv" -> content
    stage: int = 1                                          # the plan stage it belongs to (1-based)


@dataclass
class CriterionCase:
    """A success criterion the criteria checker marked met, with the evidence it wrote."""

    id: str
    text: str
    evidence: str                 # as the checker wrote it: cites files, quotes figures
    holds: bool                   # a reviewer's verdict: the cited files exist and say what the quote says,
                                  # and the quoted evidence shows what the criterion states
    shows: bool = True            # language alone: were the quote true, would it show what the criterion states?


@dataclass
class AskCase:
    """One part of the question, as a careful reader lists them."""

    id: str                       # "a1", "a2", ...
    text: str                     # e.g. "how strongly each factor drives revenue"


@dataclass
class AnswerPart:
    """The answer to one ask, as the model's answer validator stated it."""

    id: str
    answered: bool
    answer: str
    files: list[str] = field(default_factory=list)   # the files it cites for its figures


@dataclass
class Case:
    id: str
    category: Category
    task: str
    asks: list[AskCase]
    cells: list[CellCase]
    answer: str                                   # the final answer as a whole
    parts: list[AnswerPart]                       # one per ask (the model may leave some out)
    addressed: dict[str, bool]                    # language: does the answer's text address each ask?
    answered: dict[str, bool]                     # the verdict: addressed AND its figures come from executed code
    status: Status                                # what the run deserves
    inputs: dict[str, str] = field(default_factory=dict)      # "inputs/sales.csv" -> content
    criteria: list[CriterionCase] = field(default_factory=list)
    mode: Literal["simple", "orchestrated"] = "simple"
    note: str = ""                                # why a reviewer concludes this, in a sentence or two
