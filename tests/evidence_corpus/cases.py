"""The whole corpus: `all_cases()` builds every labelled case (deterministic, in memory, a second or two)."""

from __future__ import annotations

from .case import Case
from .cases_invented import COINCIDENCES
from .cases_misquoted import SIGN_FLIPS

__all__ = ["COINCIDENCES", "SIGN_FLIPS", "all_cases"]


def all_cases() -> list[Case]:
    """Every case, in a fixed order. Building them also fills COINCIDENCES (invented figures that a megabyte dump
    holds by coincidence), which the corpus's own shape test reads."""
    from . import (
        cases_correct,
        cases_correct_more,
        cases_derived,
        cases_failed,
        cases_invented,
        cases_misquoted,
        cases_multipart,
        cases_partial,
        cases_small,
    )

    out: list[Case] = []
    for module in (cases_correct, cases_correct_more, cases_invented, cases_small, cases_derived, cases_misquoted,
                   cases_multipart, cases_partial, cases_failed):
        out.extend(module.cases())
    return out
