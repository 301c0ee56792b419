"""How a question wants its answer: rounding, the method it names, outlier rules, alpha, the answer format.

These words shape an ask without being one: "rounded to two decimals" rounds, "use Spearman" picks the
correlation, "3 times the IQR" sets the outlier fence, `@mean_price[value]` names the answer's slots. Each
reader scans the tokens once (the format slots with one bounded regular expression), so all are linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agentic_ds.offline.reader.mentions import Token, leading, number, value_of
from agentic_ds.offline.reader.vocabulary import (
    ALPHA_WORDS,
    BEYOND,
    DECIMAL_WORDS,
    EACH_WORDS,
    METHOD_WORDS,
    NEGATIONS,
    ROUND_WORDS,
    RULE_FILLERS,
    RULE_LEADS,
    SD_SIDES,
    SD_TAIL,
    SD_UNITS,
    Z_WORDS,
)

SLOT = re.compile(r"@([A-Za-z_][A-Za-z0-9_]{0,60})\[([^\]\n]{0,200})\]")

@dataclass
class Constraints:
    digits: int | None = None
    roundings: set[int] = field(default_factory=set)    # every rounding said (per answer: more than one)
    methods: list[str] = field(default_factory=list)          # in order of mention
    iqr_factor: float | None = None
    z_threshold: float | None = None
    z_side: str = ""                                          # "upper" / "lower": one tail ("2 SD above the mean")
    z_at: int = -1                                            # where the z rule was written
    alpha: float | None = None
    ddof: int | None = None                                   # 1: sample, 0: population standard deviation
    rule_written: bool = False                                # an outlier rule's factor or threshold was written
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
        if low in DECIMAL_WORDS or low == "places" and i > 0 and tokens[i - 1].low == "decimal" or _dp(tokens, i):
            _rounding(tokens, i, found)
        elif low in ("integer", "whole") and i >= 1 and tokens[i - 1].low == "nearest":
            found.digits = 0
            found.taken |= set(range(max(0, i - 3), i + 2 if _next(tokens, i) == "number" else i + 1))
        elif low in ("yates", "yates'", "continuity") and NEGATIONS & {t.low for t in tokens[max(0, i - 3): i]}:
            found.methods.append("no_correction")                  # "without Yates' correction"
            start = max(j for j in range(max(0, i - 3), i) if tokens[j].low in NEGATIONS)
            found.taken |= set(range(start, min(len(tokens), i + 2)))
        elif low in ("equal", "unequal") and _next(tokens, i) in ("variances", "variance"):
            negated = i > 0 and tokens[i - 1].low in NEGATIONS             # "not assuming equal variances"
            found.methods.append("student" if low == "equal" and not negated else "welch")
            found.taken |= {i, i + 1} | ({i + 2} if _next(tokens, i + 1) in ("assumed", "assume") else set())
        elif low in METHOD_WORDS or low == "student" and _next(tokens, i) in ("t", "t-test", "test", "ttest"):
            found.methods.append(METHOD_WORDS.get(low, low))                # "Student's t-test": student
            found.positions.append(i)
            found.taken.add(i)
        elif low in ("iqr", "interquartile"):
            _iqr(tokens, i, found)
        elif low in Z_WORDS or low == "z" and (_next(tokens, i) in ("score", "scores") or _absolute(tokens, i)):
            _z(tokens, i, found)
        elif i and deviations_at(tokens, i):
            _multiple_of_sd(tokens, i, found)
        elif low == "ddof" and _next(tokens, i) == "=" and i + 2 < len(tokens) and tokens[i + 2].text in ("0", "1"):
            found.ddof = int(tokens[i + 2].text)
            found.taken |= {i, i + 1, i + 2}
        elif low in ("sample", "population") and _next(tokens, i) in ("standard", "std", "variance", "sd"):
            found.ddof = 1 if low == "sample" else 0
            found.taken.add(i)
        elif low in ALPHA_WORDS:     # "alpha = 0.01", "significance level of 5%": the first number within four words
            j = next((j for j in range(i + 1, min(len(tokens), i + 5)) if tokens[j].is_number), None)
            if j is not None:
                _level(tokens[j], found, set(range(i, j + 1)))
        elif low == "level" and i >= 1 and tokens[i - 1].is_number:     # "at the 5% level", "the 0.05 level"
            _level(tokens[i - 1], found, {i - 1, i})
    return found


def _dp(tokens: Sequence[Token], i: int) -> bool:
    """"d.p." (decimal places), which the tokenizer splits at its points."""
    return i >= 2 and tokens[i].low == "p" and tokens[i - 1].text == "." and tokens[i - 2].low == "d"


def _absolute(tokens: Sequence[Token], i: int) -> bool:
    """`|z|`: a z written as an absolute value."""
    return 0 < i < len(tokens) - 1 and tokens[i - 1].text == "|" and tokens[i + 1].text == "|"


def _next(tokens: Sequence[Token], i: int) -> str:
    return tokens[i + 1].low if i + 1 < len(tokens) else ""


def _digits(token: Token) -> int | None:
    value = value_of(token)
    return int(value) if value is not None and value == int(value) and 0 <= value <= 10 else None


def _rounding(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"rounded to two decimals", "(3 decimal places)", "to 2 dp"."""
    at = i - 1 if tokens[i].low == "places" else i - 2 if _dp(tokens, i) else i
    for back in (1, 2):
        if at - back >= 0 and (digits := _digits(tokens[at - back])) is not None:
            start = at - back
            start = next((j for j in range(max(0, start - 4), start) if tokens[j].low in ROUND_WORDS), start)
            start = leading(tokens, start, EACH_WORDS | ROUND_WORDS | {"to", "with"})    # "each rounded to", "both to"
            end = i + 1 + (_next(tokens, i) in EACH_WORDS)                                 # "3 decimals each"
            found.digits = digits
            found.roundings.add(digits)
            found.taken |= set(range(start, end))
            return


def _iqr(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"1.5 IQR", "3 times the IQR", "1.5 x IQR"; 1.5 when no factor is written. The word itself stays free:
    without an outlier rule, "interquartile range" is a statistic."""
    for j in range(i - 1, max(-1, i - 5), -1):
        value = tokens[j].value
        if value is not None and 0 < value <= 10:
            found.iqr_factor, found.rule_written = value, True
            found.taken |= set(range(leading(tokens, j, RULE_LEADS), i))      # "more than 1.5 IQR beyond ..."
            return
        if tokens[j].low not in RULE_FILLERS:
            break
    found.iqr_factor = found.iqr_factor or 1.5


def _z(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"absolute z-score above 3", "|z| > 2.5"; 3 when no threshold is written."""
    found.taken.add(i)
    if i and tokens[i - 1].low == "absolute":                   # "absolute z-score above 3"
        found.taken.add(i - 1)
    if _absolute(tokens, i):
        found.taken |= {i - 1, i + 1}
    for j in range(i + 1, min(len(tokens), i + 6)):
        value = tokens[j].value
        if value is not None and 0 < value <= 10:
            found.z_threshold, found.rule_written = value, True
            found.taken |= set(range(i, j + 1))
            return
    found.z_threshold = found.z_threshold or 3.0


def deviations_at(tokens: Sequence[Token], i: int) -> int:
    """How many words at `i` name a standard deviation as a unit ("3 standard deviations", "2 SD"); 0 if none."""
    if tokens[i].low == "standard" and _next(tokens, i) in ("deviation", "deviations"):
        return 2
    return int(tokens[i].low in SD_UNITS)


def _multiple_of_sd(tokens: Sequence[Token], i: int, found: Constraints) -> None:
    """"more than three standard deviations away from the mean" is the z rule |z| > 3; with a direction after it,
    "more than 2 SD above the mean" is z > 2 (one tail). Only said as "more than", "beyond" or "outside" is it
    this rule: "within 2 SD" keeps what it would count."""
    value = value_of(tokens[i - 1])
    if value is None or not 0 < value <= 10:
        return
    lead = leading(tokens, i - 1, RULE_LEADS)
    if not {t.low for t in tokens[lead: i - 1]} & BEYOND:         # "within 2 SD", "less than 2 SD": not this rule
        return
    end = i + deviations_at(tokens, i)
    side = SD_SIDES.get(tokens[end].low) if end < len(tokens) else None
    found.z_threshold, found.rule_written, found.z_side, found.z_at = value, True, side or "", i
    end += side is not None
    while end < len(tokens) and tokens[end].low in SD_TAIL:      # "away from the mean (sample sd)": the rule's own
        end += 1
    found.taken |= set(range(lead, end))


def _level(token: Token, found: Constraints, span: set[int]) -> None:
    """A significance level written as a number ("0.05", "5%") is alpha when it is at most 0.5; `span` is read."""
    value = (number(token.text) or 0.0) / (100 if token.text.endswith("%") else 1)
    if 0 < value <= 0.5:
        found.alpha = value
        found.taken |= span
