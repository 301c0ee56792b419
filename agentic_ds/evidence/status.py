"""The run's status and the answer's confidence, decided from evidence, never from a model's word.

`completed` needs all of: code ran; the validator gave an answer; every ask answered from the outputs of executed
code; every figure of the answer traced to them; every stage approved and every criterion met with evidence
that holds (orchestrated mode); no warning. A missing answer, an unanswered ask or no code run make the run
`incomplete`; a figure not traced, a stage failed or never run, or a warning make it `completed_with_warnings`.
The status the workflow reached on its own (a budget, a failed plan, unmet criteria) is a ceiling: evidence
only ever lowers it. The reason names what is missing.

Confidence (documented in README and in every report):
- high: every ask answered by direct computation, every figure traced, nothing above lowered the status;
- medium: every ask answered, but some answer rests on a model fit or estimate (regression, drivers,
  forecasts), or the status has warnings;
- low: an ask is not answered, no code ran, or there is no validated answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentic_ds.evidence.answers import AnswerCheck
from agentic_ds.schema import CriterionRecord, FinalAnswer, RunStatus, StageRecord, StageStatus

_ORDER = [RunStatus.FAILED, RunStatus.INCOMPLETE, RunStatus.COMPLETED_WITH_WARNINGS, RunStatus.COMPLETED]
MAX_REASONS = 3
CONFIDENCE_RULE = ("high: every ask answered by direct computation and every figure traced to executed code; "
                   "medium: every ask answered, but some rest on a model fit, or the run has warnings; "
                   "low: some ask not answered, no code ran, or no validated answer")


@dataclass
class Verdict:
    status: RunStatus
    reason: str
    confidence: str
    confidence_basis: str
    gaps: list[str] = field(default_factory=list)        # everything that kept the run from `completed`


def decide(
    ceiling: tuple[RunStatus, str],
    check: AnswerCheck | None,
    *,
    stages: list[StageRecord] | None = None,
    criteria: list[CriterionRecord] | None = None,
    warnings: list[str] | None = None,
) -> Verdict:
    """The status evidence allows, at most `ceiling` (the workflow's own status and reason)."""
    top, top_reason = ceiling
    incomplete: list[str] = []
    warned: list[str] = []
    answer_gaps = _answer_gaps(check)
    if check is None:
        incomplete.append("no answer was validated")
    else:
        if not check.given:
            incomplete.append(check.reason)
        elif not check.code_ran:
            incomplete.append("no code ran without error: the answer rests on the model's word")
        elif not check.valid:
            incomplete.append("the answer validator did not find the answer supported by the outputs")
        incomplete += [f"not answered: {item}" for item in check.unanswered]
        if check.untraced:
            listed = ", ".join(check.untraced[:6]) + (" ..." if len(check.untraced) > 6 else "")
            warned.append(f"figure(s) of the answer found in no output of executed code: {listed}")
    for criterion in criteria or []:
        if not criterion.met:
            incomplete.append(f"criterion {criterion.id} not met: {_short(criterion.text)}")
    for stage in stages or []:
        if stage.status is StageStatus.FAILED:
            warned.append(f"stage {stage.id} ({_short(stage.title, 50)}) failed")
        elif stage.status is not StageStatus.APPROVED:
            warned.append(f"stage {stage.id} ({_short(stage.title, 50)}) never ran")
    warned += [f"warning: {_short(w)}" for w in warnings or []]
    if incomplete:
        found, gaps = RunStatus.INCOMPLETE, incomplete + warned
    elif warned:
        found, gaps = RunStatus.COMPLETED_WITH_WARNINGS, warned
    else:
        found, gaps = RunStatus.COMPLETED, []
    status = found if _rank(found) < _rank(top) else top
    if status is top and top is not RunStatus.COMPLETED:
        # The workflow's reason already covers its stages and criteria; evidence adds what the answer lacks.
        reason = "; ".join([top_reason, *answer_gaps][:MAX_REASONS])
    elif gaps:
        more = f" (and {len(gaps) - MAX_REASONS} more)" if len(gaps) > MAX_REASONS else ""
        reason = "; ".join(gaps[:MAX_REASONS]) + more
    else:
        reason = _complete_reason(check, criteria)
    confidence, basis = _confidence(status, check)
    return Verdict(status, reason, confidence, basis, gaps)


def _answer_gaps(check: AnswerCheck | None) -> list[str]:
    if check is None or not check.given:
        return ["no answer was validated"]
    gaps = [] if check.code_ran else ["no code ran without error"]
    gaps += [f"not answered: {item}" for item in check.unanswered]
    return gaps


def _rank(status: RunStatus) -> int:
    return _ORDER.index(status) if status in _ORDER else 0


def _complete_reason(check: AnswerCheck | None, criteria: list[CriterionRecord] | None) -> str:
    parts = ["every ask answered from the outputs of executed code"]
    if criteria:
        parts.append(f"all {len(criteria)} success criteria met with evidence that holds")
    return ", ".join(parts)


def _confidence(status: RunStatus, check: AnswerCheck | None) -> tuple[str, str]:
    if check is None or not check.code_ran or not check.valid:
        return "low", "no validated answer computed by executed code"
    if check.unanswered:
        return "low", f"{len(check.unanswered)} ask(s) not answered"
    if check.model_based:
        asks = ", ".join(check.model_based)
        return "medium", f"ask(s) {asks} rest on a model fit or estimate, not a direct computation"
    if status is not RunStatus.COMPLETED:
        return "medium", "every ask answered by direct computation, but the run has warnings"
    return "high", "every ask answered by direct computation; every figure traced to executed code"


def apply(final: FinalAnswer | None, verdict: Verdict) -> FinalAnswer | None:
    """The final answer with the verdict's confidence."""
    if final is None:
        return None
    return final.model_copy(update={"confidence": verdict.confidence, "confidence_basis": verdict.confidence_basis})


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
