"""What the reports quote from models and from run.json is capped, so a runaway reply cannot bloat them.

`quote` keeps the head of a text and says how much was left out and where the rest is. `calls_note` is the one
sentence on how the run's model calls went (run.json's `calls`), including the call that failed, if one did.
"""

from __future__ import annotations

from agentic_ds.schema import CallsSummary

REPORT_TEXT_CHARS = 40_000   # the summary agent's report
ANSWER_CHARS = 4_000         # an answer, a caveat, a stage summary, a criterion's evidence, a status reason
ITEM_CHARS = 1_000           # one warning, one reasoning step


def quote(text: str, limit: int, where: str = "run.json") -> str:
    """`text`, or its head with a note, in at most `limit` characters (so quoting a quote changes nothing)."""
    if len(text) <= limit:
        return text
    note = f" … [{len(text):,} characters in all; the rest is in {where}]"
    return text[: max(0, limit - len(note))].rstrip() + note


def calls_note(calls: CallsSummary | None) -> str:
    """`Model calls: 29 answered; 2 retries (3.1 s waiting), 1 timeout. ...`; empty when not recorded, or when no
    call went through the policy (the offline and scripted models answer in process: "0 answered" would be false)."""
    if calls is None or (calls.attempts == 0 and calls.failure is None):
        return ""
    parts = [f"{calls.calls} answered"]
    if calls.retries:
        parts.append(f"{calls.retries} {'retry' if calls.retries == 1 else 'retries'} ({calls.wait_s:.1f} s waiting)")
    if calls.timeouts:
        parts.append(f"{calls.timeouts} timeout{'s' if calls.timeouts != 1 else ''}")
    if calls.replies_capped:
        parts.append(f"{calls.replies_capped} oversized {'reply' if calls.replies_capped == 1 else 'replies'} cut")
    sentences = ["Model calls: " + ", ".join(parts) + "."]
    if calls.step_downs:
        sentences.append("Stepped down: " + "; ".join(quote(d, ITEM_CHARS) for d in calls.step_downs) + ".")
    failure = calls.failure
    if failure is not None:
        who = (failure.agent or "") + (f" ({failure.where})" if failure.where else "")
        sentences.append(
            f"The call that ended the run: {who or 'an agent'} calling {failure.model}"
            + (f" at {failure.api_base}" if failure.api_base else "")
            + f", {failure.kind.replace('_', ' ')}: "
            + quote(failure.message, ANSWER_CHARS)
            + (f". What to do: {failure.hint}" if failure.hint else "")
            + "."
        )
    return " ".join(sentences)
