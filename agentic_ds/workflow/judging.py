"""`judge`: after the answer validator, whether the answer's words address each ask, and whether each met
criterion's evidence shows what the criterion states.

Code speaks first: before the judge runs, the latest answer's figures are traced (`evidence.answers.check_answer`,
kept under `answer_facts`); only the asks that pass reach the judge, with the parts, their traced figures and the
head of every file they cite. Its verdict can only take answers away. It speaks once on each answer: a resumed
run, or a loop round with no new answer, does not ask it again, so a retry is never a way to shop for a verdict.
When nothing passed the code gates (and no criterion is left to confirm), it is not asked at all.
"""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import Mode
from agentic_ds.evidence.answers import AnswerFacts, check_answer, judged_criteria, with_verdict
from agentic_ds.evidence.asks import asks_in, typed_asks
from agentic_ds.evidence.sources import CodeEvidence, collect
from agentic_ds.schema import CriterionRecord, criteria_in, criteria_out, read_model
from agentic_ds.state import JudgeVerdict, SessionState, typed
from agentic_ds.workflow.agents import llm_agent
from agentic_ds.workflow.prompting import PromptContext
from agentic_ds.workflow.services import RunServices

# Skipped without a word: text from a structured agent would be read as its answer (evidence_check says the rest).
_SILENT = types.Content(role="model", parts=[])
EXCERPT_CHARS = 3000          # of one cited file shown to the judge
EXCERPTS_CHARS = 15000        # of all of them
MAX_EXCERPTS = 8


def build_judge(services: RunServices, mode: Mode) -> LlmAgent:
    def context(state: SessionState) -> PromptContext:
        facts = AnswerFacts.from_state(state.get(S.ANSWER_FACTS)) or AnswerFacts(given=False)
        claim = facts.claim or {}
        parts = [{"id": a.id, "ask": a.ask, "answer": a.answer, "files": a.files, "found": a.found}
                 for a in facts.to_judge()]
        return {
            "task": state.get(S.TASK, ""),
            "asks": typed_asks(state),
            "answer": str(claim.get("answer") or ""),
            "parts": parts,
            "excerpts": _excerpts([f for p in parts for f in p["files"]], collect(services.workspace)),
            "criteria": [c.model_dump() for c in _to_confirm(state)],
        }

    def before(callback_context: CallbackContext) -> types.Content | None:
        state = typed(callback_context.state)
        claims = list(state.get(S.ANSWER_CLAIMS) or [])
        if claims and state.get(S.JUDGED_CLAIM) == len(claims):
            return _SILENT   # the judge spoke on this answer before
        facts = check_answer(str(state.get(S.TASK) or ""), asks_in(state), state.get(S.ANSWER_CLAIM),
                             collect(services.workspace))
        state[S.ANSWER_FACTS] = facts.as_state()
        state[S.JUDGE_REPLY] = None
        if facts.to_judge() or _to_confirm(state):
            return None
        _record(state, facts, None)   # nothing passed the checks of its figures: nothing for the judge
        return _SILENT

    def after(callback_context: CallbackContext) -> None:
        state = typed(callback_context.state)
        facts = AnswerFacts.from_state(state.get(S.ANSWER_FACTS)) or AnswerFacts(given=False)
        _record(state, facts, read_model(JudgeVerdict, state.get(S.JUDGE_REPLY)))

    return llm_agent(services, A.JUDGE, mode, context, before_agent_callback=before, after_agent_callback=after)


def _record(state: SessionState, facts: AnswerFacts, verdict: JudgeVerdict | None) -> None:
    """The answer and criteria as facts and judge leave them; this answer counts as judged."""
    final, check = with_verdict(facts, verdict)
    state[S.FINAL_ANSWER] = final.model_dump(mode="json") if final is not None else None
    state[S.ANSWER_CHECK] = check.as_state()
    state[S.JUDGED_CLAIM] = len(list(state.get(S.ANSWER_CLAIMS) or []))
    confirmed = {c.id for c in _to_confirm(state)}
    if confirmed:
        state[S.CRITERIA] = criteria_out(judged_criteria(criteria_in(state.get(S.CRITERIA)), confirmed, verdict))


def _to_confirm(state: SessionState) -> list[CriterionRecord]:
    """Criteria marked met whose evidence passed the code checks: the judge confirms what their evidence shows."""
    return [c for c in criteria_in(state.get(S.CRITERIA)) if c.met and not c.judged]


def _excerpts(files: list[str], evidence: CodeEvidence) -> list[dict[str, str]]:
    """The head of each cited text file, within the judge's budget."""
    out, left = [], EXCERPTS_CHARS
    for rel in list(dict.fromkeys(files))[:MAX_EXCERPTS]:
        text = evidence.text(rel) if evidence.citable(rel) is None else None
        if text is None or left <= 0:
            continue
        shown = text[:min(EXCERPT_CHARS, left)]
        left -= len(shown)
        out.append({"file": rel, "text": shown + ("\n[... cut]" if len(shown) < len(text) else "")})
    return out

