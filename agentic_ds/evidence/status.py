"""The run's status and the answer's confidence: decided here, and only here, from facts and the judge's verdict.

`decide` takes everything a status rests on (`RunFacts`): a stop (a budget, a signal, a crash, a plan that could
not be made), the answer as code and judge left it (`AnswerCheck`), the
stages and criteria, the warnings. The rule:
- `failed`: nothing was done (no plan, no stage approved, or in simple mode no code that ran without error);
- `incomplete`: no validated answer, no code ran, an ask not answered (code refused its figures or the judge its
  words), a figure of the answer found in no output, the validator's own doubt, or a criterion not met;
- `completed_with_warnings`: all of that holds, but a stage failed or never ran, or the run has a warning;
- `completed`: everything holds.
A run that stopped early (a budget, a signal, a crash, no plan) has its stop's status, `incomplete` or `failed`
(resumable either way), whatever its evidence: it never finished. The reason names what is missing.

Confidence (documented in README and in every report):
- high: every ask answered by direct computation, every figure traced, nothing above lowered the status;
- medium: every ask answered, but some answer rests on a model fit or estimate (the judge says which), or the
  status has warnings;
- low: an ask is not answered, no code ran, or there is no validated answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentic_ds.evidence.answers import AnswerCheck
from agentic_ds.evidence.gates import listed
from agentic_ds.schema import CriterionRecord, FinalAnswer, RunStatus, StageRecord, StageStatus

_ORDER = [RunStatus.FAILED, RunStatus.INCOMPLETE, RunStatus.COMPLETED_WITH_WARNINGS, RunStatus.COMPLETED]
MAX_REASONS = 3
CONFIDENCE_RULE = ("high: every ask answered by direct computation and every figure traced to executed code; "
                   "medium: every ask answered, but some rest on a model fit, or the run has warnings; "
                   "low: some ask not answered, no code ran, or no validated answer")


@dataclass
class RunFacts:
    """Everything the status rests on."""

    mode: str
    check: AnswerCheck | None = None
    stop: tuple[RunStatus, str] | None = None      # the run stopped early: its status then, and why it stopped
    stages: list[StageRecord] = field(default_factory=list)
    criteria: list[CriterionRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    last_error: str = ""                            # simple mode: the last attempt's error, when no code ran


@dataclass
class Verdict:
    status: RunStatus
    reason: str
    confidence: str
    confidence_basis: str
    gaps: list[str] = field(default_factory=list)        # everything that kept the run from `completed`


def decide(facts: RunFacts) -> Verdict:
    """The run's status, reason and confidence."""
    failed = _nothing_done(facts)
    incomplete = [f"criterion {c.id} not met: {_short(c.text)}{_why_unmet(c)}" for c in facts.criteria if not c.met]
    incomplete += _answer_gaps(facts.check)
    warned = []
    for stage in facts.stages:
        if stage.status is StageStatus.FAILED:
            warned.append(f"stage {stage.id} ({_short(stage.title, 50)}) failed")
        elif stage.status is not StageStatus.APPROVED:
            warned.append(f"stage {stage.id} ({_short(stage.title, 50)}) never ran")
    warned += [f"warning: {_short(w)}" for w in facts.warnings]
    if failed:
        found, gaps = RunStatus.FAILED, [failed, *incomplete, *warned]
    elif incomplete:
        found, gaps = RunStatus.INCOMPLETE, incomplete + warned
    elif warned:
        found, gaps = RunStatus.COMPLETED_WITH_WARNINGS, warned
    else:
        found, gaps = RunStatus.COMPLETED, []
    if facts.stop is not None:
        # A run that stopped early (never `completed`) says why it stopped, then what its answer lacks.
        status, reason = facts.stop[0], "; ".join([facts.stop[1], *_answer_gaps(facts.check)][:MAX_REASONS])
    elif gaps:
        more = f" (and {len(gaps) - MAX_REASONS} more)" if len(gaps) > MAX_REASONS else ""
        status, reason = found, "; ".join(gaps[:MAX_REASONS]) + more
    else:
        status, reason = found, _complete_reason(facts)
    confidence, basis = _confidence(status, facts.check)
    return Verdict(status, reason, confidence, basis, gaps)


def _nothing_done(facts: RunFacts) -> str:
    if facts.mode == "simple":
        if facts.check is None or not facts.check.code_ran:
            return "no attempt produced a result: " + (facts.last_error or "no code ran without error")[:200]
        return ""
    if not facts.stages:
        return "no plan could be made"
    if not any(s.status is StageStatus.APPROVED for s in facts.stages):
        failed = sum(s.status is StageStatus.FAILED for s in facts.stages)
        return f"no stage was approved ({failed} failed)"
    return ""


def _answer_gaps(check: AnswerCheck | None) -> list[str]:
    if check is None:
        return ["no answer was validated"]
    if not check.given:
        return [check.reason]
    gaps = [] if check.code_ran else ["no code ran without error: the answer rests on the model's word"]
    if not check.valid:
        gaps.append("the answer validator did not find the answer supported by the outputs")
    gaps += [f"not answered: {item}" for item in check.unanswered]
    if check.untraced:
        gaps.append(f"figure(s) of the answer found in no output of executed code: {listed(check.untraced)}")
    return gaps


def _why_unmet(criterion: CriterionRecord) -> str:
    from agentic_ds.evidence.citations import NOT_VERIFIED

    if criterion.judged:
        return f" (the judge: {_short(criterion.judged, 120)})"
    at = criterion.evidence.rfind(NOT_VERIFIED)
    return f" ({criterion.evidence[at + 1:].rstrip(']')[:120]})" if at >= 0 else ""


def _rank(status: RunStatus) -> int:
    return _ORDER.index(status) if status in _ORDER else 0


def _complete_reason(facts: RunFacts) -> str:
    parts = ["every ask answered with figures traced to executed code and addressed in the judge's reading"]
    if facts.criteria:
        parts.append(f"all {len(facts.criteria)} success criteria met with evidence that holds")
    return ", ".join(parts)


def _confidence(status: RunStatus, check: AnswerCheck | None) -> tuple[str, str]:
    if check is None or not check.given or not check.code_ran or not check.valid:
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
