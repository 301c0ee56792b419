"""Shared helpers: scenarios (a task with the cells its code ran) and a short way to write a labelled case."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .case import AnswerPart, AskCase, Case, Category, CellCase, CriterionCase, Status

LOAD = "import pandas as pd\nimport numpy as np\n\ndf = pd.read_csv('{path}')\nprint(df.shape)\nprint(df.head())"


@dataclass(frozen=True)
class Scenario:
    """A task, its input files and the cells its code ran (in order), with the true figures computed from them."""

    task: str
    cells: tuple[CellCase, ...]
    inputs: dict[str, str] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)

    def fresh_cells(self, staged: bool = False) -> list[CellCase]:
        """Copies of the cells (each case owns its list); simple mode has no plan, so every cell is stage 1."""
        return [replace(c, files=dict(c.files), stage=c.stage if staged else 1) for c in self.cells]

    def __getitem__(self, key: str) -> Any:
        return self.facts[key]


def cell(code: str, output: str = "", files: dict[str, str] | None = None, ok: bool = True, stage: int = 1) -> CellCase:
    return CellCase(code=code, output=output, ok=ok, files=dict(files or {}), stage=stage)


def traceback(code_line: str, error: str, lineno: int = 3, cell_no: int | None = None) -> str:
    """What IPython prints for an uncaught error (colours stripped)."""
    name = error.split(":")[0]
    return (
        "---------------------------------------------------------------------------\n"
        f"{name}{' ' * max(1, 43 - len(name))}Traceback (most recent call last)\n"
        f"Cell In[{cell_no or lineno}], line {lineno}\n"
        f"----> {lineno} {code_line}\n\n"
        f"{error}\n"
    )


def raised(code: str, error: str, cell_no: int, printed: str = "", files: dict[str, str] | None = None,
           line: str | None = None, stage: int = 1) -> CellCase:
    """A cell that raised `error` at `line` (its last line unless given), after printing `printed`."""
    lines = code.splitlines()
    line = line or lines[-1]
    lineno = next(i for i, ln in enumerate(lines, 1) if ln.strip() == line.strip())
    return cell(code, printed + traceback(line.strip(), error, lineno, cell_no), files, ok=False, stage=stage)


def asks(*texts: str) -> list[AskCase]:
    return [AskCase(id=f"a{i}", text=t) for i, t in enumerate(texts, 1)]


def part(aid: str, answer: str, *files: str, answered: bool = True) -> AnswerPart:
    """One answer part as the model's answer validator wrote it (it claims `answered` itself)."""
    return AnswerPart(id=aid, answered=answered, answer=answer, files=list(files))


def flags(spec: str | dict[str, bool], n: int) -> dict[str, bool]:
    """'TTF' -> {'a1': True, 'a2': True, 'a3': False}."""
    if isinstance(spec, dict):
        return dict(spec)
    assert len(spec) == n, (spec, n)
    return {f"a{i}": ch == "T" for i, ch in enumerate(spec, 1)}


def crit(cid: str, text: str, evidence: str, holds: bool = True, shows: bool = True) -> CriterionCase:
    return CriterionCase(id=cid, text=text, evidence=evidence, holds=holds, shows=shows)


def make(
    cid: str,
    category: Category,
    sc: Scenario,
    ask_texts: list[str] | tuple[str, ...],
    parts: list[AnswerPart],
    *,
    answered: str | dict[str, bool],
    status: Status,
    note: str,
    addressed: str | dict[str, bool] | None = None,
    answer: str | None = None,
    criteria: list[CriterionCase] | None = None,
    cells: list[CellCase] | None = None,
    task: str | None = None,
) -> Case:
    """A labelled case. Orchestrated when it has criteria (cells keep their plan stages), simple otherwise."""
    n = len(ask_texts)
    orchestrated = bool(criteria)
    return Case(
        id=cid,
        category=category,
        task=task or sc.task,
        asks=asks(*ask_texts),
        cells=cells if cells is not None else sc.fresh_cells(staged=orchestrated),
        answer=answer if answer is not None else " ".join(p.answer for p in parts),
        parts=parts,
        addressed=flags(addressed if addressed is not None else "T" * n, n),
        answered=flags(answered, n),
        status=status,
        inputs=dict(sc.inputs),
        criteria=list(criteria or []),
        mode="orchestrated" if orchestrated else "simple",
        note=note,
    )


# How answers write figures (each returns the text a model would write for the value).
def num(x: float, d: int = 0) -> str:
    return f"{x:,.{d}f}"


def pct(x: float, d: int = 1) -> str:
    """A fraction said as a percent: 0.4567 -> '45.7%'."""
    return f"{x * 100:.{d}f}%"


def thousand(x: float, d: int = 1) -> str:
    return f"{x / 1000:,.{d}f} thousand"


def million(x: float, d: int = 2) -> str:
    return f"{x / 1e6:,.{d}f} million"


def sci(x: float, d: int = 1) -> str:
    return f"{x:.{d}e}"


def times_ten(x: float, d: int = 1) -> str:
    """3.21e-05 -> '3.2 × 10^-5'."""
    mant, exp = f"{x:.{d}e}".split("e")
    return f"{mant} × 10^{int(exp)}"
