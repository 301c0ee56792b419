"""A confirmation decided in code when the review it confirms states its verdict in the reviewers' own format.

The plan and code reviewers are told to start with `APPROVED` or `CHANGES REQUESTED` (prompts/plan_reviewer,
prompts/code_reviewer). A review that does turns into the loop's decision here, with no model call; the
confirmation agent is asked only when the review does not say it plainly (a model that strayed from the format).
"""

from __future__ import annotations

from collections.abc import Callable

from google.adk.agents.callback_context import CallbackContext
from google.genai import types

APPROVED, CHANGES = "APPROVED", "CHANGES REQUESTED"
_DECORATION = " \t\r\n*_#>`-:."
MAX_REASON_CHARS = 300

# A skip without a word: text from a structured agent would be read as its answer.
_SILENT = types.Content(role="model", parts=[])


def explicit_verdict(review: str) -> bool | None:
    """True for a review that starts with APPROVED, False for one that starts with CHANGES REQUESTED (markdown
    emphasis and case aside), None otherwise."""
    head = review.lstrip(_DECORATION)[: len(CHANGES) + 1].upper()
    if head.startswith(APPROVED):
        return True
    if head.startswith(CHANGES):
        return False
    return None


def decide_when_explicit(review_key: str, decision_key: str) -> Callable[[CallbackContext], types.Content | None]:
    """A `before_agent_callback` for a confirmation agent: the decision from an explicit review, model not called."""

    def decide(callback_context: CallbackContext) -> types.Content | None:
        review = str(callback_context.state.get(review_key) or "")
        verdict = explicit_verdict(review)
        if verdict is None:
            return None
        reason = " ".join(review.split())[:MAX_REASON_CHARS] or ("approved" if verdict else "changes requested")
        callback_context.state[decision_key] = {"exit": verdict, "reason": reason}
        return _SILENT

    return decide
