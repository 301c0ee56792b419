"""The final answer judged ask by ask against the outputs of executed code, whatever the model claimed.

For each ask of the task, the answer's text for it is the validator's entry for that ask and every sentence
of the answer that speaks of it. The ask is answered when that text carries a figure traced to an output of
executed code (`numbers.py`), or, for a name (which department...), a word those outputs hold that the task
does not; a period is answered when the answer or the outputs state its years. Figures of the answer that no
output holds are listed (`untraced_numbers`): an ask whose only figures are untraced is not answered. When
the task asks for `@name[value]`, the answer is made to carry every named value it found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.evidence.asks import SLOT, Ask
from agentic_ds.evidence.coverage import addresses
from agentic_ds.evidence.numbers import Number, extract
from agentic_ds.evidence.sources import CodeEvidence
from agentic_ds.evidence.wording import STOP, sentences, words
from agentic_ds.schema import AskResult, FinalAnswer, read_model
from agentic_ds.state import ValidatedAnswer

_MODEL_WORDS = re.compile(r"regress|\bmodel|\bfit(?:ted)?\b|predict|forecast|coefficient|r²|\br2\b|r-squared|"
                          r"in-sample|cross-valid|estimat|\bdriver|explain", re.I)
_PLACEHOLDERS = frozenset({"", "value", "name", "...", "…", "number", "x", "n/a", "none", "unknown"})
MAX_LISTED = 8


@dataclass
class AnswerCheck:
    """What the evidence says about one validated answer (kept in state under `answer_check`)."""

    exit: bool                              # the answer stands: a loop of attempts may end
    reason: str
    code_ran: bool
    valid: bool                             # the validator's word
    given: bool = True                      # the validator gave a valid structured answer at all
    unanswered: list[str] = field(default_factory=list)    # "a2 (how x relates to y): why"
    untraced: list[str] = field(default_factory=list)
    model_based: list[str] = field(default_factory=list)   # ids of asks answered from a model fit
    notes: list[str] = field(default_factory=list)

    def as_state(self) -> dict[str, Any]:
        return dict(self.__dict__)


def judge_answer(
    task: str, asks: list[Ask], claim: Any, evidence: CodeEvidence
) -> tuple[FinalAnswer | None, AnswerCheck]:
    """The validator's `claim` (its structured answer, as stored in state) judged against `evidence`."""
    validated = read_model(ValidatedAnswer, claim)
    if validated is None:
        reason = "no answer was validated: the validator gave no valid answer"
        check = AnswerCheck(exit=False, reason=reason, code_ran=evidence.code_ran, valid=False, given=False,
                            unanswered=[f"{a.id} ({a.text}): no answer was given" for a in asks])
        return no_answer(asks, reason), check
    exempt = extract(task)
    claims = {c.id: c for c in validated.asks}
    results = [_judge_ask(ask, validated, claims.get(ask.id), evidence, task, exempt) for ask in asks]
    answer = _with_slots(validated.answer, asks, results)
    stated = [validated.answer, *(c.answer for c in validated.asks if c.answered)]
    untraced = list(dict.fromkeys(n.text for text in stated for n in _untraced(text, evidence, exempt)))
    final = FinalAnswer(
        valid=validated.valid, answer=answer, model_confidence=validated.confidence,
        caveats=_caveats(validated.caveats, task), reasoning_trace=validated.reasoning_trace,
        output_type=validated.output_type, asks=results, untraced_numbers=untraced[:50],
    )
    unanswered = [f"{r.id} ({r.ask}): {r.why}" for r in results if not r.answered]
    check = AnswerCheck(
        exit=False, reason="", code_ran=evidence.code_ran, valid=validated.valid, unanswered=unanswered,
        untraced=untraced, model_based=[r.id for r in results if r.basis == "model"], notes=evidence.notes[:10],
    )
    check.exit, check.reason = _verdict(check)
    return final, check


def no_answer(asks: list[Ask], why: str) -> FinalAnswer:
    """The final answer of a run that has none: every ask listed as not answered, and why, so run.json and the
    report say what is missing in the same shape as any answer."""
    results = [AskResult(id=a.id, ask=a.text, kind=a.kind, why=why) for a in asks]
    return FinalAnswer(valid=False, answer="", confidence="low", confidence_basis="no validated answer",
                       caveats=[why], asks=results)


def _verdict(check: AnswerCheck) -> tuple[bool, str]:
    if not check.code_ran:
        return False, "no code ran without error: the answer rests on the model's word"
    if not check.valid:
        return False, "the answer validator did not find the answer supported by the outputs"
    if check.unanswered:
        return False, f"{len(check.unanswered)} ask(s) not answered: " + "; ".join(check.unanswered[:3])
    return True, "every ask answered from the outputs of executed code"


def _judge_ask(ask: Ask, validated: ValidatedAnswer, claim: Any, evidence: CodeEvidence, task: str,
               exempt: list[Number]) -> AskResult:
    texts = []
    if claim is not None and claim.answered and claim.answer.strip():
        texts.append(claim.answer.strip())
    texts += [s for s in sentences(validated.answer) if addresses(ask, s)]
    files = [f for f in (claim.files if claim is not None else []) if f]
    result = AskResult(id=ask.id, ask=ask.text, kind=ask.kind, evidence=files)
    if ask.slot:
        own = claim.answer.strip() if claim is not None and claim.answered else ""
        value = _slot_value(ask.slot, [validated.answer, *texts], own)
        if value is None:
            return _not(result, _said_why(claim) or f"the answer gives no value for @{ask.slot}[...]")
        texts = [value]
        result.answer = f"@{ask.slot}[{value}]"
    else:
        result.answer = " ".join(dict.fromkeys(texts))[:600]
    if ask.kind == "period":
        if texts:
            return _yes(result, "stated", "the answer states the period")
        if all(evidence.index.traces(extract(year)[0]) for year in ask.years):
            return _yes(result, "stated", f"the outputs of executed code cover {' and '.join(ask.years)}")
        return _not(result, "neither the answer nor the outputs of executed code state this period")
    if not texts:
        return _not(result, _said_why(claim) or "the final answer does not address it")
    joined = " ".join(texts)
    given = {abs(e.value) for e in exempt}
    numbers = list({n.text: n for n in extract(joined) if abs(n.value) not in given}.values())
    traced = [n for n in numbers if evidence.index.traces(n)]
    basis = "model" if ask.kind == "drivers" or _MODEL_WORDS.search(joined) else "computed"
    if traced:
        untraced = [n.text for n in numbers if n not in traced and not n.minor]
        note = f"; not in any output: {', '.join(untraced[:MAX_LISTED])}" if untraced else ""
        return _yes(result, basis, f"{', '.join(n.text for n in traced[:MAX_LISTED])} traced to executed code{note}")
    named = _slot_words(texts[0], evidence) if ask.slot else _traced_words(joined, task, evidence)
    if named and not [n for n in numbers if not n.minor]:
        return _yes(result, basis, f"{', '.join(named[:MAX_LISTED])} found in the outputs of executed code")
    if numbers:
        figures = ", ".join(n.text for n in numbers[:MAX_LISTED])
        return _not(result, f"its figures ({figures}) appear in no output of executed code")
    return _not(result, "the answer states nothing the outputs of executed code hold")


def _yes(result: AskResult, basis: str, why: str) -> AskResult:
    return result.model_copy(update={"answered": True, "basis": basis, "why": why})


def _not(result: AskResult, why: str) -> AskResult:
    return result.model_copy(update={"answered": False, "basis": "none", "why": why})


def _said_why(claim: Any) -> str:
    if claim is not None and not claim.answered and claim.answer.strip():
        return f"{claim.answer.strip()[:300].rstrip('.')} (the validator's words)"
    return ""


def _slot_value(slot: str, texts: list[str], own: str) -> str | None:
    for text in texts:
        for m in SLOT.finditer(text):
            if m.group(1).lower() == slot.lower() and m.group(2).strip().lower() not in _PLACEHOLDERS:
                return m.group(2).strip()
    # The validator's own entry for the ask may hold the bare value ("71374.39", "Engineering").
    if own and "@" not in own and len(own) <= 80:
        numbers = extract(own)
        if len(numbers) == 1:
            return numbers[0].text
        if not numbers:
            return own.rstrip(".")
    return None


def _with_slots(answer: str, asks: list[Ask], results: list[AskResult]) -> str:
    """The answer with every named value it found written as the task asked (`@name[value]`)."""
    present = {m.group(1).lower() for m in SLOT.finditer(answer)}
    missing = [r.answer for a, r in zip(asks, results, strict=True)
               if a.slot and a.slot.lower() not in present and r.answer.startswith("@")]
    return (answer.rstrip() + "\n" + " ".join(missing)) if missing else answer


def _untraced(text: str, evidence: CodeEvidence, exempt: list[Number]) -> list[Number]:
    given = {abs(n.value) for n in exempt}
    return [n for n in extract(text) if not n.minor and abs(n.value) not in given and not evidence.index.traces(n)]


def _slot_words(value: str, evidence: CodeEvidence) -> list[str]:
    """A named value that is a word (`@normal[no]`, `@department[Engineering]`): all of its words in the outputs."""
    found = [w for w in words(value) if not w[0].isdigit()]
    return found if found and all(w in evidence.words for w in found) else []


def _traced_words(text: str, task: str, evidence: CodeEvidence) -> list[str]:
    """Words of `text` that the outputs hold and the task does not (a group's name, a category)."""
    asked = set(words(task))
    return [w for w in dict.fromkeys(words(text)) if w not in STOP and w not in asked and len(w) > 2
            and not w[0].isdigit() and w in evidence.words]


def _caveats(caveats: list[str], task: str) -> list[str]:
    """Caveats as one short line each; one that quotes the whole task is cut to its own words."""
    out = []
    for caveat in caveats:
        text = " ".join(str(caveat).split())
        if len(task) > 80 and task.strip() in text:
            text = text.replace(task.strip(), "(the task)")
        out.append(text if len(text) <= 400 else text[:399] + "…")
    return list(dict.fromkeys(c for c in out if c))
