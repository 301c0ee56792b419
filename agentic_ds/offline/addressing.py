"""Whether a text addresses an ask, and a plan's success criteria made to cover every ask of the task.

A plan is trusted for how to answer, never for what to answer: each ask no criterion addresses gets a
criterion written here, so the run is checked against the question asked, not the one its planner found easy.
"""

from __future__ import annotations

import re

from agentic_ds.offline.task_parts import Ask
from agentic_ds.offline.wording import Mentions
from agentic_ds.schema import CriterionRecord

_WORD_RUN = re.compile(r"\w+")        # maximal runs: linear, where `\w*_\w*` backtracks on long words


def addresses(ask: Ask, text: str | Mentions, *, plan: bool = False) -> bool:
    """`text` speaks of `ask`: its named value, its period's years, or every one of its terms (for a whole
    question, a third of its words). A plan's criterion covers "which X has the highest Y" by naming Y: the
    values it states show the highest."""
    mentions = text if isinstance(text, Mentions) else Mentions(text)
    if plan and ask.kind == "extreme":
        return mentions.term(ask.terms[0])
    if ask.slot:
        return f"@{ask.slot.lower()}" in mentions.raw or mentions.term(ask.terms[0])
    if ask.kind == "period":
        return all(year in mentions.raw for year in ask.years)
    if ask.kind == "count" and not plan:
        # "how many readings" is not answered by "reading_id has 480 distinct values": a count's noun must be
        # said as a word, not inside a column's name.
        bare = _WORD_RUN.sub(lambda m: " " if "_" in m.group(0) else m.group(0), mentions.text)
        mentions = Mentions(bare, mentions.implied)
    if ask.kind == "question":
        # A question read as a whole has no known structure: an answer may name it in other words
        # ("annual_salary" for "earn"), so a third of its words will do.
        hits = sum(mentions.term(group) for group in ask.terms)
        return hits >= max(1, len(ask.terms) // 3)
    return mentions.all_terms(ask.terms)


def criterion_for(ask: Ask) -> str:
    """The success criterion an ask needs, checkable from files."""
    if ask.slot:
        return (f"A file under outputs/, written by executed code, gives the value of {ask.slot} "
                f"(the answer states it as @{ask.slot}[...]).")
    if ask.kind == "period":
        return (f"The analysis covers {ask.text} (the data used is restricted to it, or its coverage is stated) "
                "in a file under outputs/.")
    return (f"A file under outputs/ states {ask.text}, with the figure(s) that show it, computed by executed code "
            "and saved in a file under outputs/.")


def cover(asks: list[Ask], criteria: list[CriterionRecord]) -> tuple[list[CriterionRecord], list[Ask]]:
    """`criteria` with the asks each addresses, plus one new criterion per ask none addresses; and those asks."""
    out: list[CriterionRecord] = []
    covered: set[str] = set()
    for criterion in criteria:
        mentions = Mentions(criterion.text)
        ids = [ask.id for ask in asks if addresses(ask, mentions, plan=True)]
        covered.update(ids)
        out.append(criterion.model_copy(update={"asks": ids}))
    missing = [ask for ask in asks if ask.id not in covered]
    taken = {c.id for c in out}
    number = len(out)
    for ask in missing:
        number += 1
        while f"c{number}" in taken:
            number += 1
        taken.add(f"c{number}")
        out.append(CriterionRecord(id=f"c{number}", text=criterion_for(ask), asks=[ask.id], origin="asks"))
    return out, missing


def render_asks(asks: list[Ask]) -> str:
    """The asks as prompts list them: `- [a1] how unemployment relates to inflation`."""
    return "\n".join(f"- [{ask.id}] {ask.text}" for ask in asks)
