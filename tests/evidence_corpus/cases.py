"""The whole corpus: `all_cases()` builds every labelled case (deterministic, in memory, a few seconds)."""

from __future__ import annotations

from .case import Case


def all_cases() -> list[Case]:
    from . import cases_correct, cases_correct_more

    out: list[Case] = []
    for module in (cases_correct, cases_correct_more):
        out.extend(module.cases())
    return out


# Invented figures that appear by coincidence in a huge unrelated printed dump: case id -> the figure as stated.
COINCIDENCES: dict[str, str] = {}
