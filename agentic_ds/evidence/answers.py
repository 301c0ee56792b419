"""The final answer judged ask by ask: facts by code first, then language by the judge.

Code (`check_answer`) takes the validator's structured answer and, for each ask, its part: the part must claim
an answer, give the value of a requested `@name[...]`, cite only files that executed code wrote, and state at
least one figure that a cited file or one stage's outputs hold, with none they do not (`gates.trace`). The whole
answer's figures are traced too. Only asks that pass reach the judge, which says whether each part's words
address its ask (`with_verdict`); the judge can take an ask's answer away, never give one that code refused.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from agentic_ds.evidence.asks import SLOT
from agentic_ds.evidence.gates import Exempt, FigureTrace, exempt_values, listed, trace
from agentic_ds.evidence.numbers import extract
from agentic_ds.evidence.sources import CodeEvidence
from agentic_ds.schema import AskRecord, AskResult, CriterionRecord, FinalAnswer, read_model
from agentic_ds.state import AskClaim, JudgeVerdict, ValidatedAnswer

MAX_BARE_VALUE = 80
_PLACEHOLDERS = frozenset({"", "value", "name", "...", "…", "number", "x", "n/a", "none", "unknown"})
# A path the answer's own text cites (a format, not words): outputs/..., figures/... or stages/.../cell_NNN.out.txt.
_PATH = re.compile(r"(?<![\w/.-])((?:outputs|figures|stages)/[^\s,;:'\"`()\[\]<>|]+)")


@dataclass
class AskFacts:
    """What code found of one ask's part of the answer."""

    id: str
    ask: str
    slot: str = ""
    answer: str = ""
    files: list[str] = field(default_factory=list)
    traced: list[str] = field(default_factory=list)
    untraced: list[str] = field(default_factory=list)
    found: dict[str, str] = field(default_factory=dict)   # a traced figure -> "file: the line it is on"
    problem: str = ""        # why code refuses the part; "" when it passes to the judge

    @property
    def passes(self) -> bool:
        return not self.problem


@dataclass
class AnswerFacts:
    """What code found of one validated answer (kept in state under `answer_facts`, shown to the judge)."""

    given: bool
    valid: bool = False
    code_ran: bool = False
    reason: str = ""                                      # why there is no answer, when not given
    asks: list[AskFacts] = field(default_factory=list)
    untraced: list[str] = field(default_factory=list)     # figures of the whole answer found in no output
    claim: dict[str, Any] | None = None                   # the validator's answer, as given

    def as_state(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_state(cls, value: Any) -> AnswerFacts | None:
        if not isinstance(value, dict):
            return None
        asks = [AskFacts(**a) for a in value.get("asks") or [] if isinstance(a, dict)]
        return cls(**{**value, "asks": asks})

    def to_judge(self) -> list[AskFacts]:
        return [a for a in self.asks if a.passes] if self.given else []


@dataclass
class AnswerCheck:
    """The answer as facts and judge left it (kept in state under `answer_check`: simple_loop's decision)."""

    exit: bool                              # the answer stands: a loop of attempts may end
    reason: str
    code_ran: bool
    valid: bool                             # the validator's word
    given: bool = True                      # the validator gave a valid structured answer at all
    unanswered: list[str] = field(default_factory=list)    # "a2 (how x relates to y): why"
    untraced: list[str] = field(default_factory=list)      # figures of the answer no output holds
    model_based: list[str] = field(default_factory=list)   # ids of asks answered from a model fit or estimate
    judged: bool = False                    # the judge spoke on this answer
    notes: list[str] = field(default_factory=list)

    def as_state(self) -> dict[str, Any]:
        return dict(self.__dict__)


def check_answer(task: str, asks: list[AskRecord], claim: Any, evidence: CodeEvidence) -> AnswerFacts:
    """The validator's `claim` (its structured answer, as stored in state) against what executed code produced."""
    validated = read_model(ValidatedAnswer, claim)
    if validated is None:
        return AnswerFacts(given=False, code_ran=evidence.code_ran,
                           reason="no answer was validated: the validator gave no valid answer",
                           asks=[AskFacts(id=a.id, ask=a.text, slot=a.slot, problem="no answer was given")
                                 for a in asks])
    exempt = exempt_values(task, evidence)
    cited = list(dict.fromkeys([f for part in validated.asks for f in part.files] + _PATH.findall(validated.answer)))
    # An ask the validator gave no part for is answered, if at all, by the answer as a whole: its figures are all
    # traced below, and whether its words address the ask is the judge's to say.
    whole_part = AskClaim(id="", answered=bool(validated.answer.strip()), answer=validated.answer, files=cited)
    parts = {p.id: p for p in validated.asks}
    facts = [_ask_facts(ask, parts.get(ask.id, whole_part), validated.answer, evidence, exempt) for ask in asks]
    whole = trace(validated.answer, cited, evidence, exempt)
    return AnswerFacts(given=True, valid=validated.valid, code_ran=evidence.code_ran, asks=facts,
                       untraced=whole.untraced, claim=validated.model_dump(mode="json"))


def _ask_facts(ask: AskRecord, part: AskClaim, whole: str, evidence: CodeEvidence,
               exempt: Exempt) -> AskFacts:
    facts = AskFacts(id=ask.id, ask=ask.text, slot=ask.slot)
    facts.answer, facts.files = part.answer.strip(), [f for f in part.files if f.strip()]
    if not part.answered:
        said = facts.answer[:300].rstrip(".")
        facts.problem = (f"not answered: {said} (the validator's words)" if said
                         else "the answer says it is not answered")
        return facts
    if ask.slot:
        value = slot_value(ask.slot, [facts.answer, whole]) or _bare_value(facts.answer)
        if value is None:
            facts.problem = f"the answer gives no value for @{ask.slot}[...]"
            return facts
        if f"@{ask.slot}[" not in facts.answer:
            facts.answer = f"@{ask.slot}[{value}] {facts.answer}".strip()
    found: FigureTrace = trace(facts.answer, facts.files, evidence, exempt)
    facts.traced, facts.untraced, facts.found = found.traced, found.untraced, found.found
    if found.refused:
        rel, why = next(iter(found.refused.items()))
        facts.problem = f"it cites {rel}, which {why}"
    elif found.untraced:
        facts.problem = (f"its figure(s) {listed(found.untraced)} are in none of the files it cites, nor in any "
                         "output of executed code (or only by chance)")
    elif not found.traced:
        facts.problem = ("it states no figure that executed code produced (small whole numbers, years, bounds "
                         "and words prove nothing on their own)")
    return facts


def slot_value(slot: str, texts: list[str]) -> str | None:
    """The value written as `@slot[value]` in the first of `texts` that gives one (a placeholder is none)."""
    for text in texts:
        for m in SLOT.finditer(text):
            if m.group(1).lower() == slot.lower() and m.group(2).strip().lower() not in _PLACEHOLDERS:
                return m.group(2).strip()
    return None


def _bare_value(answer: str) -> str | None:
    """A part that is the value alone ("71374.39", "Engineering"): one figure, or a short text with none."""
    if "@" in answer or not answer or len(answer) > MAX_BARE_VALUE:
        return None
    figures = extract(answer)
    if len(figures) == 1:
        return figures[0].text
    return answer.rstrip(".") if not figures else None


def with_verdict(facts: AnswerFacts, verdict: JudgeVerdict | None) -> tuple[FinalAnswer | None, AnswerCheck]:
    """The final answer once the judge spoke (`verdict`; None when it gave none) on the asks that passed code."""
    if not facts.given:
        check = AnswerCheck(exit=False, reason=facts.reason, code_ran=facts.code_ran, valid=False, given=False,
                            unanswered=[f"{a.id} ({a.ask}): no answer was given" for a in facts.asks])
        return no_answer([AskRecord(id=a.id, text=a.ask, slot=a.slot) for a in facts.asks], facts.reason), check
    verdicts = {v.id: v for v in verdict.asks} if verdict is not None else {}
    results = [_result(a, verdicts, verdict is not None) for a in facts.asks]
    validated = ValidatedAnswer.model_validate(facts.claim)
    final = FinalAnswer(
        valid=validated.valid, answer=_with_slots(validated.answer, facts.asks, results),
        model_confidence=validated.confidence, caveats=_caveats(validated.caveats),
        reasoning_trace=validated.reasoning_trace, output_type=validated.output_type, asks=results,
        untraced_numbers=facts.untraced[:50],
    )
    check = AnswerCheck(
        exit=False, reason="", code_ran=facts.code_ran, valid=facts.valid, judged=verdict is not None,
        unanswered=[f"{r.id} ({r.ask}): {r.why}" for r in results if not r.answered], untraced=facts.untraced,
        model_based=[r.id for r in results if r.basis == "model"],
    )
    check.exit, check.reason = _standing(check)
    return final, check


def judged_criteria(criteria: list[CriterionRecord], asked: set[str],
                    verdict: JudgeVerdict | None) -> list[CriterionRecord]:
    """`criteria` once the judge read the evidence of those in `asked`: one whose evidence it finds does not show
    it (or that it passed over) is unmet, with its reason. No verdict at all leaves them as they are: the asks are
    then not answered either, so the run cannot complete."""
    if verdict is None:
        return criteria
    said = {v.id: v for v in verdict.criteria}
    out = []
    for criterion in criteria:
        found = said.get(criterion.id)
        if criterion.id not in asked or (found is not None and found.shown):
            out.append(criterion)
            continue
        reason = found.reason.strip()[:300] if found is not None else "the judge gave no verdict on it"
        out.append(criterion.model_copy(update={"met": False, "judged": reason or "not shown by its evidence"}))
    return out


def _result(facts: AskFacts, verdicts: dict[str, Any], judged: bool) -> AskResult:
    result = AskResult(id=facts.id, ask=facts.ask, answer=facts.answer[:600], evidence=facts.files,
                       traced=facts.traced, untraced=facts.untraced)
    if not facts.passes:
        return result.model_copy(update={"why": facts.problem})
    verdict = verdicts.get(facts.id)
    if verdict is None:
        why = "the judge gave no verdict on it" if judged else "the judge gave no verdict on the answer"
        return result.model_copy(update={"why": why})
    words = f"{'addresses' if verdict.addressed else 'does not address'} it: {verdict.reason.strip()[:300]}"
    if not verdict.addressed:
        return result.model_copy(update={"why": f"the judge finds the answer does not address it "
                                                f"({verdict.reason.strip()[:300]})", "judge": words})
    why = f"{listed(facts.traced)} traced to executed code; the judge finds it addressed"
    return result.model_copy(update={"answered": True, "basis": "model" if verdict.estimate else "computed",
                                     "why": why, "judge": words})


def _standing(check: AnswerCheck) -> tuple[bool, str]:
    if not check.code_ran:
        return False, "no code ran without error: the answer rests on the model's word"
    if not check.valid:
        return False, "the answer validator did not find the answer supported by the outputs"
    if check.unanswered:
        return False, f"{len(check.unanswered)} ask(s) not answered: " + "; ".join(check.unanswered[:3])
    if check.untraced:
        return False, f"figure(s) of the answer found in no output of executed code: {listed(check.untraced)}"
    return True, "every ask answered with figures traced to executed code, and addressed in the judge's reading"


def no_answer(asks: list[AskRecord], why: str) -> FinalAnswer:
    """The final answer of a run that has none: every ask listed as not answered, and why, so run.json and the
    report say what is missing in the same shape as any answer."""
    results = [AskResult(id=a.id, ask=a.text, why=why) for a in asks]
    return FinalAnswer(valid=False, answer="", confidence="low", confidence_basis="no validated answer",
                       caveats=[why], asks=results)


def _with_slots(answer: str, facts: list[AskFacts], results: list[AskResult]) -> str:
    """The answer with every named value it found written as the task asked (`@name[value]`)."""
    present = {m.group(1).lower() for m in SLOT.finditer(answer)}
    missing = []
    for ask, result in zip(facts, results, strict=True):
        value = slot_value(ask.slot, [ask.answer]) if ask.slot and ask.slot.lower() not in present else None
        if value is not None and result.answered:
            missing.append(f"@{ask.slot}[{value}]")
    return (answer.rstrip() + "\n" + " ".join(missing)) if missing else answer


def _caveats(caveats: list[str]) -> list[str]:
    """Caveats as one short line each."""
    out = [" ".join(str(c).split()) for c in caveats]
    return list(dict.fromkeys(c if len(c) <= 400 else c[:399] + "…" for c in out if c))
