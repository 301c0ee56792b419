"""The statistic words of a question, found in one pass: each a `Hit` (the statistic, where it is, how many words)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_ds.offline.reader.mentions import Token, number
from agentic_ds.offline.reader.vocabulary import ONE_WORD_STATS, PHRASE_STATS, SUPERLATIVES


@dataclass(frozen=True)
class Hit:
    stat: str
    position: int
    width: int
    p: float | None = None


def stat_hits(tokens: Sequence[Token], taken: set[int]) -> list[Hit]:
    """The statistic words of a question in one pass: "standard deviation" is one hit of two words, "max minus min"
    one range, "the 10th and 90th percentiles" two hits (one per rank), "total number of" no sum (a count); a
    `taken` word is not read."""
    hits: list[Hit] = []
    i = 0
    while i < len(tokens):
        if i in taken:
            i += 1
            continue
        said = [t.low for t in tokens[i: i + 3]] + ["", ""]
        width, stat = next(((n, PHRASE_STATS[key]) for n in (3, 2) if (key := tuple(said[:n])) in PHRASE_STATS),
                           (1, _one(said[0])))
        if (stat, said[1], _one(said[2])) in (("max", "minus", "min"), ("max", "-", "min")):
            width, stat = 3, "range"              # "(max minus min)": the range, said by its definition
        elif said[:3] in (["q3", "minus", "q1"], ["q3", "-", "q1"]) and any(h.stat == "iqr" for h in hits[-2:]):
            width, stat = 3, "iqr"                # "the interquartile range (Q3 minus Q1)": said again
        if stat is None and tokens[i].low[:1] == "p" and tokens[i].low[1:].isdigit() and len(tokens[i].low) <= 3:
            hits.append(Hit("percentile", i, 1, float(tokens[i].low[1:])))
        elif stat == "percentile":
            hits += [Hit(stat, at, 1, p) for at, p in _percentiles(tokens, i)]
        elif stat == "sum" and i + 1 < len(tokens) and tokens[i + 1].low in ("number", "count"):
            pass                                   # "total number of orders" is a count
        elif stat is not None:
            hits.append(Hit(stat, i, width))
        i += width if stat else 1
    return hits


def _one(word: str) -> str | None:
    return ONE_WORD_STATS.get(word) or SUPERLATIVES.get(word)


def _percentiles(tokens: Sequence[Token], i: int) -> list[tuple[int, float]]:
    """(position, p) of each percentile "the 10th and 90th percentiles" names; the word itself for a quartile or
    a bare "percentile" (the median)."""
    before = tokens[i - 1].low if i else ""
    if tokens[i].low == "quartile":
        return [(i, 25.0 if before in ("lower", "first", "1st", "bottom") else 75.0)]
    start = next((j + 1 for j in range(i - 1, -1, -1)
                  if tokens[j].low not in ("and", ",", "the") and _ordinal(tokens[j]) is None), 0)
    return [(j, p) for j in range(start, i) if (p := _ordinal(tokens[j])) is not None] or [(i, 50.0)]


def _ordinal(token: Token) -> float | None:
    """90 of "90th" (or of "90"): a percentile's rank."""
    digits = token.low.rstrip("stndrh")
    value = number(digits) if digits and digits[:1].isdigit() else None
    return value if value is not None and 0 < value < 100 else None
