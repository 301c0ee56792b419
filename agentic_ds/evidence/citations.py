"""A criterion marked met stays met only when the facts its evidence quotes hold (checked in code).

The checker's evidence must cite a file of this run that executed code wrote (`outputs/...`, `figures/...`, or
the printed output of a cell that ran, `stages/NN-x/cell_NNN.out.txt`), by path or by a name found under
outputs/ or figures/; every figure it quotes must be in a cited file at the precision quoted (in an output of
executed code when only images are cited), and every field or column it names as an identifier (`like_this`, or in
backticks) must be in a cited file or in the code that wrote it. Otherwise the criterion is set unmet, and its
evidence says why. Whether the evidence shows what the criterion states is language: the judge decides that at
the end of the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from agentic_ds.evidence.gates import listed
from agentic_ds.evidence.numbers import extract
from agentic_ds.evidence.sources import CodeEvidence
from agentic_ds.schema import CriterionRecord

_PATH = re.compile(r"(?<![\w/.-])((?:outputs|figures|stages)/[^\s,;:'\"`()\[\]<>|]+)")
_NAME = re.compile(r"(?<![\w/.-])([\w][\w.-]*\.(?:json|csv|tsv|txt|md|png|jpg|svg|html|parquet|xlsx))\b")
# Identifiers a quote names: `in backticks`, or words joined by underscores (a column or a JSON key).
_TICKED = re.compile(r"`([A-Za-z_][\w .%-]{0,79})`")
_SNAKE = re.compile(r"(?<![\w/.-])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w/.-])")
NOT_VERIFIED = "[not verified: "


@dataclass
class CitationCheck:
    evidence: CodeEvidence
    task: str = ""
    _names: dict[str, list[str]] | None = field(default=None)

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
        quote = criterion.evidence or ""
        cited, refused = self.cited(quote)
        if refused:
            rel, why = next(iter(refused.items()))
            return f"{rel} {why}"
        if not cited:
            return "the evidence cites no file of this run"
        texts = {rel: text for rel in cited if (text := self.evidence.text(rel)) is not None}
        return self._untraced_figures(quote, criterion.text, texts) or self._unknown_names(quote, texts)

    def cited(self, quote: str) -> tuple[list[str], dict[str, str]]:
        """(cited files that can be evidence, cited files that cannot -> why)."""
        found: list[str] = []
        refused: dict[str, str] = {}
        paths = [raw.rstrip(".") for raw in _PATH.findall(quote)]
        for rel in paths:
            problem = self.evidence.citable(rel)
            if problem is None:
                found.append(rel)
            else:
                refused[rel] = problem
        for name in _NAME.findall(quote):
            if any(PurePosixPath(rel).name == name or name in rel for rel in paths):
                continue
            matches = self._by_name().get(name, [])
            if matches:
                found.append(matches[0])
            else:
                refused[name] = "is not a file that executed code wrote in this run"
        return list(dict.fromkeys(found)), refused

    def _by_name(self) -> dict[str, list[str]]:
        if self._names is None:
            self._names = {}
            for rel in self.evidence.written:
                self._names.setdefault(PurePosixPath(rel).name, []).append(rel)
        return self._names

    def _untraced_figures(self, quote: str, criterion: str, texts: dict[str, str]) -> str | None:
        given = {abs(n.value) for n in extract(criterion + " " + self.task)}
        claims = [n for n in extract(quote) if not n.weak and not n.bound and abs(n.value) not in given]
        if not claims:
            return None
        indexes = [i for i in (self.evidence.index(rel) for rel in texts) if i is not None]
        if indexes:
            missing = [n.text for n in claims if not any(index.proves(n) for index in indexes)]
            where = ", ".join(list(texts)[:3])
        else:   # only images cited: the figures must come from an output of the code that ran
            missing = [n.text for n in claims if self.evidence.proven_in(n) is None]
            where = "any output of executed code"
        if not missing:
            return None
        return f"{listed(missing)} {'is' if len(missing) == 1 else 'are'} not in {where}"

    def _unknown_names(self, quote: str, texts: dict[str, str]) -> str | None:
        if not texts:
            return None
        masked = _PATH.sub(" ", _NAME.sub(" ", quote))
        names = [n.strip() for n in _TICKED.findall(masked)] + _SNAKE.findall(masked.replace("`", " "))
        # A name counts where the cited file holds it, or in the code that wrote the file (which names its columns).
        haystack = "\n".join([*texts.values(), *(self.evidence.code_of(rel) for rel in texts)]).lower()
        missing = [n for n in dict.fromkeys(names) if n and n.lower() not in haystack]
        if not missing:
            return None
        return f"{listed(missing)} {'is' if len(missing) == 1 else 'are'} named in none of {', '.join(list(texts)[:3])}"


def verify_all(criteria: list[CriterionRecord], check: CitationCheck) -> list[CriterionRecord]:
    return [check.verify(c) for c in criteria]
