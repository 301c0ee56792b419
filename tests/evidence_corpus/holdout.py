"""The hold-out batch of the evidence corpus: new scenarios (hospital readmissions, building energy, school scores,
an engagement survey, hourly demand, API latency, insurance claims, inventory), labelled by the rules in README.md.

It is built once, at the end, to measure checks tuned on the other cases; nothing here is read by those checks.
Deterministic (fixed seeds), built in memory (nothing is written to disk).
"""

from __future__ import annotations

from .case import Case
from .holdout_correct import correct_cases
from .holdout_mixed import misquoted_cases, multipart_cases
from .holdout_partial import partial_cases
from .holdout_unsupported import derived_cases, failed_cases, invented_cases, small_cases


def holdout_cases() -> list[Case]:
    return [*correct_cases(), *invented_cases(), *small_cases(), *derived_cases(), *misquoted_cases(),
            *multipart_cases(), *partial_cases(), *failed_cases()]
