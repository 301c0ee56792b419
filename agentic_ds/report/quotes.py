"""What the reports quote from models and from run.json is capped, so a runaway reply cannot bloat them.

`quote` keeps the head of a text and says how much was left out and where the rest is. `calls_note` is the one
sentence on how the run's model calls went (run.json's `calls`), including the call that failed, if one did.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.report.coerce import as_dict, as_float, as_int, as_str, strings

REPORT_TEXT_CHARS = 40_000   # the summary agent's report
ANSWER_CHARS = 4_000         # an answer, a caveat, a stage summary, a criterion's evidence, a status reason
ITEM_CHARS = 1_000           # one warning, one reasoning step


def quote(text: str, limit: int, where: str = "run.json") -> str:
    """`text`, or its head with a note, in at most `limit` characters (so quoting a quote changes nothing)."""
    if len(text) <= limit:
        return text
    note = f" … [{len(text):,} characters in all; the rest is in {where}]"
    return text[: max(0, limit - len(note))].rstrip() + note


def calls_note(calls: dict[str, Any]) -> str:
    """`Model calls: 29 answered; 2 retries (3.1 s waiting), 1 timeout. ...`; empty when not recorded."""
    if not calls:
        return ""
    answered = as_int(calls.get("calls")) or 0
    parts = [f"{answered} answered"]
    retries, timeouts = as_int(calls.get("retries")) or 0, as_int(calls.get("timeouts")) or 0
    if retries:
        waited = as_float(calls.get("wait_s")) or 0
        parts.append(f"{retries} {'retry' if retries == 1 else 'retries'} ({waited:.1f} s waiting)")
    if timeouts:
        parts.append(f"{timeouts} timeout{'s' if timeouts != 1 else ''}")
    capped = as_int(calls.get("replies_capped")) or 0
    if capped:
        parts.append(f"{capped} oversized {'reply' if capped == 1 else 'replies'} cut")
    sentences = ["Model calls: " + ", ".join(parts) + "."]
    downs = strings(calls.get("step_downs"))
    if downs:
        sentences.append("Stepped down: " + "; ".join(quote(d, ITEM_CHARS) for d in downs) + ".")
    failure = as_dict(calls.get("failure"))
    if failure:
        where = as_str(failure.get("where"))
        who = as_str(failure.get("agent")) + (f" ({where})" if where else "")
        endpoint = as_str(failure.get("api_base"))
        sentences.append(
            f"The call that ended the run: {who or 'an agent'} calling {as_str(failure.get('model'))}"
            + (f" at {endpoint}" if endpoint else "")
            + f", {as_str(failure.get('kind')).replace('_', ' ')}: "
            + quote(as_str(failure.get("message")), ANSWER_CHARS)
            + (f". What to do: {as_str(failure.get('hint'))}" if failure.get("hint") else "")
            + "."
        )
    return " ".join(sentences)
