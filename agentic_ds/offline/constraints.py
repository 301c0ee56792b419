"""How a question wants its answer: rounding, the method it names, outlier rules, alpha, the answer format.

These words shape an ask without being one: "rounded to two decimals" rounds, "use Spearman" picks the
correlation, "3 times the IQR" sets the outlier fence, `@mean_price[value]` names the answer's slots. Each
reader scans the tokens once (the format slots with one bounded regular expression), so all are linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agentic_ds.offline.mentions import Token, number

SLOT = re.compile(r"@([A-Za-z_][A-Za-z0-9_]{0,60})\[([^\]\n]{0,200})\]")
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DECIMAL_WORDS = frozenset({"decimal", "decimals", "dp", "d.p"})
_ROUND_WORDS = frozenset({"round", "rounded", "rounding", "rounds"})
METHOD_WORDS: dict[str, str] = {
    "spearman": "spearman", "spearman's": "spearman", "kendall": "kendall", "kendall's": "kendall",
    "pearson": "pearson", "pearson's": "pearson", "shapiro": "shapiro", "shapiro-wilk": "shapiro",
    "d'agostino": "dagostino", "d'agostino's": "dagostino", "dagostino": "dagostino", "k-squared": "dagostino",
    "normaltest": "dagostino", "kolmogorov": "ks", "kolmogorov-smirnov": "ks", "ks": "ks", "k-s": "ks",
    "welch": "welch", "welch's": "welch", "student's": "student", "mann-whitney": "mannwhitney",
    "mann": "mannwhitney", "wilcoxon": "mannwhitney",
}


@dataclass
class Constraints:
    digits: int | None = None
    methods: list[str] = field(default_factory=list)          # in order of mention
    iqr_factor: float | None = None
    z_threshold: float | None = None
    alpha: float | None = None
    taken: set[int] = field(default_factory=set)              # token positions these words used
    positions: list[int] = field(default_factory=list)        # where each method word is

    def method(self, *allowed: str) -> str:
        return next((m for m in self.methods if m in allowed), "")


def format_slots(text: str) -> list[str]:
    """The `@name[...]` slots a task asks the answer to fill, in order, each once."""
    return list(dict.fromkeys(m.group(1) for m in SLOT.finditer(text)))


def without_slots(text: str) -> str:
    """The task with its slots blanked out (same length, so offsets still hold)."""
    return SLOT.sub(lambda m: " " * len(m.group(0)), text)


def read_constraints(tokens: Sequence[Token]) -> Constraints:
    found = Constraints()
    for i, token in enumerate(tokens):
        low = token.low
        if low in _DECIMAL_WORDS or low == "places" and i > 0 and tokens[i - 1].low == "decimal":
            _rounding(tokens, i, found)
        elif low in ("integer", "whole") and i >= 1 and tokens[i - 1].low == "nearest":
            found.digits = 0
            found.taken |= set(range(max(0, i - 3), i + 2 if _next(tokens, i) == "number" else i + 1))
        elif low in METHOD_WORDS:
            found.methods.append(METHOD_WORDS[low])
            found.positions.append(i)
            found.taken.add(i)
        elif low in ("iqr", "interquartile"):
            _iqr(tokens, i, found)
        elif (
            low in ("z-score", "z-scores", "zscore", "zscores")
            or low == "z"
            and _next(tokens, i) in ("score", "scores")
        ):
            _z(tokens, i, found)
        elif low in ("alpha", "α", "significance"):
            _alpha(tokens, i, found)
        elif low == "level" and i >= 1 and tokens[i - 1].text.endswith("%"):
            value = number(tokens[i - 1].text)
            if value is not None and 0 < value <= 50:
                found.alpha = value / 100
                found.taken |= {i - 1, i}
    return found


def _next(tokens: Sequence[Token], i: int) -> str:
    return tokens[i + 1].low if i + 1 < len(tokens) else ""


def _digits(token: Token) -> int | None:
    if token.low in _NUMBER_WORDS:
        return _NUMBER_WORDS[token.low]
    value = number(token.text) if token.is_number else None
    return int(value) if value is not None and value == int(value) and 0 <= value <= 10 else None


def _rounding(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"rounded to two decimals", "(3 decimal places)", "to 2 dp"."""
    at = i - 1 if tokens[i].low == "places" else i
    for back in (1, 2):
        if at - back >= 0 and (digits := _digits(tokens[at - back])) is not None:
            start = at - back
            for j in range(max(0, start - 4), start):
                if tokens[j].low in _ROUND_WORDS:
                    start = j
                    break
            found.digits = digits
            found.taken |= set(range(start, i + 1))
            return


def _iqr(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"1.5 IQR", "3 times the IQR", "1.5 x IQR"; 1.5 when no factor is written. The word itself stays free:
    without an outlier rule, "interquartile range" is a statistic."""
    for back in range(1, 5):
        j = i - back
        if j < 0:
            break
        value = number(tokens[j].text) if tokens[j].is_number else None
        if value is not None and 0 < value <= 10:
            found.iqr_factor = value
            found.taken |= set(range(j, i))
            return
        if tokens[j].low not in ("x", "×", "*", "times", "the", "of"):
            break
    found.iqr_factor = found.iqr_factor or 1.5


def _z(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"absolute z-score above 3", "|z| > 2.5"; 3 when no threshold is written."""
    found.taken.add(i)
    for j in range(i + 1, min(len(tokens), i + 6)):
        value = number(tokens[j].text) if tokens[j].is_number else None
        if value is not None and 0 < value <= 10:
            found.z_threshold = value
            found.taken |= set(range(i, j + 1))
            return
    found.z_threshold = found.z_threshold or 3.0


def _alpha(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    for j in range(i + 1, min(len(tokens), i + 5)):
        value = number(tokens[j].text) if tokens[j].is_number else None
        if value is not None:
            value = value / 100 if tokens[j].text.endswith("%") else value
            if 0 < value <= 0.5:
                found.alpha = value
                found.taken |= set(range(i, j + 1))
            return
