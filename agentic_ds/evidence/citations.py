"""A criterion marked met stays met only when its evidence holds: the files it cites are there and hold its figures.

The checker's evidence must cite a file of this run (`outputs/...`, `figures/...` or a recorded cell output
under `stages/`, by path or by a name found under outputs/ or figures/); each cited file must be a plain file
(read without following links); every figure the evidence quotes must be in a cited file (in the outputs of
executed code when only images are cited); and what the criterion demands by name (a p-value, a median, a
correlation...) must be quoted. Otherwise the criterion is set unmet, and its evidence says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from agentic_ds.evidence.numbers import NumberIndex, extract
from agentic_ds.evidence.sources import TEXT_SUFFIXES, CodeEvidence, read_run_file, run_path
from agentic_ds.runs import safe_files
from agentic_ds.schema import CriterionRecord
from agentic_ds.workspace import Workspace

_PATH = re.compile(r"(?<![\w/.-])((?:outputs|figures|stages)/[^\s,;:'\"`()\[\]<>|]+)")
_NAME = re.compile(r"(?<![\w/.-])([\w][\w.-]*\.(?:json|csv|tsv|txt|md|png|jpg|svg|html|parquet|xlsx))\b")
NOT_VERIFIED = "[not verified: "
# What a criterion may demand by name besides its main figure, and is easily left out of the evidence:
# (the words naming it in a criterion, the words quoting it in evidence).
DEMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "a p-value": (("p-value", "p value", "pvalue", "p-values", "significance"),
                  ("p-value", "p value", "pvalue", "p =", "p=", "p <", "p<", "significan")),
    "a confidence interval": (("confidence interval",), ("confidence interval", "ci", "interval", "±")),
    "a standard deviation": (("standard deviation",), ("standard deviation", "std", "sd", "stdev")),
    "an R²": (("r²", "r-squared", "r squared"), ("r²", "r2", "r-squared", "r squared", "r^2")),
    "an effect size": (("effect size",), ("effect size", "cohen", "eta", "d =")),
}
_WORDISH = re.compile(r"[\w²^-]+")


@dataclass
class CitationCheck:
    workspace: Workspace
    code: CodeEvidence
    task: str = ""
    _indexes: dict[str, NumberIndex | None] = field(default_factory=dict)
    _names: dict[str, list[str]] | None = None

    def verify(self, criterion: CriterionRecord) -> CriterionRecord:
        """`criterion` as it stands once its evidence is checked (unchanged when not marked met)."""
        if not criterion.met:
            return criterion
        problem = self.problem(criterion)
        if problem is None:
            return criterion
        evidence = f"{criterion.evidence.strip()} {NOT_VERIFIED}{problem}]".strip()
        return criterion.model_copy(update={"met": False, "evidence": evidence[-1500:]})

    def problem(self, criterion: CriterionRecord) -> str | None:
        evidence = criterion.evidence or ""
        cited, absent = self.cited(evidence)
        if absent:
            verb = "does" if len(absent) == 1 else "do"
            return f"{', '.join(absent[:3])} {verb} not exist in this run or cannot be read"
        if not cited:
            return "the evidence cites no file of this run"
        demanded = self._missing_demands(criterion.text, evidence)
        if demanded:
            return f"the criterion asks for {' and '.join(demanded)}; the evidence quotes none"
        return self._untraced_figures(evidence, criterion.text, cited)

    def cited(self, evidence: str) -> tuple[list[str], list[str]]:
        """(cited files that are plain files of this run, cited names that are not)."""
        found: list[str] = []
        absent: list[str] = []
        for raw in _PATH.findall(evidence):
            rel = raw.rstrip(".")
            path = run_path(self.workspace, rel)
            ok = path is not None and safe_files.file_problem(path, root=self.workspace.root) is None
            (found if ok else absent).append(rel)
        for name in _NAME.findall(evidence):
            if any(PurePosixPath(rel).name == name for rel in found + absent) or "/" in name:
                continue
            matches = self._by_name().get(name, [])
            if matches:
                found.append(matches[0])
            elif not any(name in raw for raw in _PATH.findall(evidence)):
                absent.append(name)
        return list(dict.fromkeys(found)), list(dict.fromkeys(absent))

    def _by_name(self) -> dict[str, list[str]]:
        if self._names is None:
            self._names = {}
            for folder in ("outputs", "figures"):
                for entry in safe_files.walk(self.workspace.root / folder, root=self.workspace.root):
                    if entry.suspicious is None:
                        self._names.setdefault(PurePosixPath(entry.rel).name, []).append(entry.rel)
        return self._names

    def _missing_demands(self, criterion: str, evidence: str) -> list[str]:
        """What the criterion names (a p-value, a median...) that the evidence does not quote."""
        asked, quoted = _spaced(criterion), _spaced(evidence)
        return [demand for demand, (names, quotes) in DEMANDS.items()
                if any(f" {n} " in asked for n in names) and not any(_quotes(q, quoted) for q in quotes)]

    def _untraced_figures(self, evidence: str, criterion: str, cited: list[str]) -> str | None:
        given = {abs(n.value) for n in extract(criterion + " " + self.task)}
        claims = [n for n in extract(evidence) if not n.minor and abs(n.value) not in given]
        if not claims:
            return None
        indexes = [i for i in (self._index(rel) for rel in cited) if i is not None]
        pool = indexes or [self.code.index]
        missing = [n.text for n in claims if not any(index.traces(n) for index in pool)]
        if not missing:
            return None
        where = ", ".join(cited[:3]) if indexes else "any output of executed code"
        return f"{', '.join(missing[:5])} {'is' if len(missing) == 1 else 'are'} not in {where}"

    def _index(self, rel: str) -> NumberIndex | None:
        if rel not in self._indexes:
            index = None
            if PurePosixPath(rel).suffix.lower() in TEXT_SUFFIXES:
                text = read_run_file(self.workspace, rel, [])
                if text is not None:
                    index = NumberIndex()
                    index.add_text(text)
            self._indexes[rel] = index
        return self._indexes[rel]


def _spaced(text: str) -> str:
    """`text` lower-cased as words between single spaces, so phrases are found whole."""
    return " " + " ".join(_WORDISH.findall(text.lower())) + " "


def _quotes(quote: str, spaced: str) -> bool:
    return f" {quote.replace('=', ' ').replace('<', ' ').strip()} " in spaced if len(quote) <= 3 else quote in spaced


def verify_all(criteria: list[CriterionRecord], check: CitationCheck) -> list[CriterionRecord]:
    return [check.verify(c) for c in criteria]
