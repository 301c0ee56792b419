"""Whether a text speaks of an ask: the offline judge's reading of an answer part, and of a plan's criteria.

An ask's content words (statistic words as one: "average" is "mean", "total" is "sum") must mostly be in the text:
three in five for an ask of a few words ("the mean of `unemp`": both), a third for a whole question read as one
ask. A requested value (`@name[...]`) is addressed by a text that gives it. Words are compared as sets: linear.
"""

from __future__ import annotations

import math

from agentic_ds.offline.reader.mentions import words
from agentic_ds.offline.reader.vocabulary import ONE_WORD_STATS, STOP_WORDS

SHORT_ASK_WORDS = 6
SHORT_SHARE = 0.6         # "the `store_type` with the highest total of `revenue`" is answered naming the store type
# "the number of orders" is a count (as a question "number" is read with "of": not one statistic word on its own)
_COUNTS = {"number": "count"}


def content(text: str) -> list[str]:
    """The meaningful words of `text`, each as its statistic when it names one, in order, without repeats."""
    found = (ONE_WORD_STATS.get(w, _COUNTS.get(w, w)) for w in words(text))
    return list(dict.fromkeys(w for w in found if w not in STOP_WORDS and len(w) > 1))


def addresses(ask: str, text: str, slot: str = "", *, whole: bool = False) -> bool:
    """`text` speaks of the ask worded `ask` (filling `@slot[...]` when the ask names one); `whole` when the ask is
    the whole question read as one ("What drives revenue in the retail sales data, and how strongly?")."""
    if slot:
        return f"@{slot.lower()}[" in text.lower()
    return covers(content(ask), set(content(text)), whole=whole)


def covers(terms: list[str], have: set[str], *, whole: bool = False) -> bool:
    """Enough of an ask's `terms` are among the words `have` (each side read once: linear in both)."""
    if not terms:
        return True
    share = SHORT_SHARE if len(terms) <= SHORT_ASK_WORDS and not whole else 1 / 3
    return sum(t in have for t in terms) >= math.ceil(share * len(terms))
