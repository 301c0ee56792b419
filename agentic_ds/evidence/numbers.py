"""Numbers in text, and whether a claimed number is one that executed code printed or wrote.

A claim is traced when some observed number rounds (or truncates) to it at the precision it was written
with: `0.457`, `0.46` and `45.7%` all trace to an output holding `0.4567`; `71,374` and `71.4 thousand` to
`71374.39`; `1.7 × 10^-10` to `1.72e-10`; `0.12` to `-0.12` (a sign is often said in words: "fell by 0.12"), but
`+6.02` never to `-6.02`. A claim proves something only when a made-up number at its precision would rarely be
traced there (`proves`). A bound (`p < 0.001`, "under 5%") is traced by any observed number on its side of it,
and proves nothing.

Everything is one left-to-right scan with regular expressions free of nested quantifiers, so the cost is
linear in the text; matching is a binary search in the sorted observed values.
"""

from __future__ import annotations

import bisect
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

# Paths, ISO dates/times and `label 3` references are not claims: they are masked before numbers are read.
# Each alternative starts only where a token starts (a lookbehind, not \b), so no run of word characters is
# rescanned from each of its positions: the scan stays linear.
_MASKS = re.compile(
    r"(?<![\w.\-/])[\w.\-]*/[\w.\-/]*"                         # outputs/01-answer.json, figures/02-x.png
    r"|(?<![\w.\-])[\w\-]+\.(?:json|csv|png|txt|md|py|html|ipynb|parquet|xlsx|svg|jpg)\b"
    r"|\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?\b"  # 2009-01-01, 2009-01-01 12:00:00
    r"|\b(?:stage|step|attempt|round|iteration|criterion|cell|line|section|part|item|ask|question)s? #?\d+\b"
    r"|^[ \t]*\d{1,2}[.)][ \t]",                              # numbered list markers
    re.I | re.M,
)
_NUMBER = re.compile(
    r"(?<![\w.])"
    r"(?:(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?|(?P<bare>\.\d+))"
    r"(?:(?P<exp>[eE][-+]?\d{1,3})|\s?[×x*]\s?10(?:\^\s?(?P<pow>[-+−]?\d{1,3})|(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})))?"
    r"(?P<scale>\s?(?:thousand|million|billion|trillion)\b|[kKMB]\b|bn\b)?"
    r"(?P<pct>\s?%|\s(?:percent|per cent|percentage points?|pp)\b)?"
    r"(?:[x×](?![\w]))?"                                        # 3.3x, 2×: a ratio written as a multiple
    r"(?![\w])"
)
# An observed number, its sign when a minus stands right before it (not after a word or digit: 2024-06 is no -6).
_OBSERVED = re.compile(r"(?:(?<![\w.\-−])([-−]))?(?<![\w.])"
                       r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.?\d+(?:[eE][-+]?\d{1,3})?)(\s?%)?")
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "b": 1e9, "bn": 1e9,
           "trillion": 1e12}
_BOUND = re.compile(r"(<=|>=|≤|≥|<|>)\s?$|\b(under|below|less than|fewer than|at most|over|above|more than|"
                    r"greater than|at least|exceeding|exceeds)\s$", re.I)
_UPPER = frozenset({"under", "below", "less than", "fewer than", "at most"})
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_APPROX = re.compile(r"(?:~|≈|\babout|\baround|\bapprox(?:imately|\.)?|\broughly|\bnearly|\balmost)\s?$", re.I)
_LOOKBACK = 16          # characters before a number searched for a bound or an approximation word
_LOOKBACK_ENDS = frozenset("<>=≤≥~≈.")   # the last characters of a bound or an approximation other than letters
MINOR_LIMIT = 12        # whole numbers up to this are too common to hold against an answer when untraced
YEARS = (1800, 2100)    # a whole number in this range, written without separators, may be a year
# A trace is evidence only when a number made up at the claim's precision would rarely be found there: the observed
# values within NEIGHBOURHOOD tolerance-widths either side of the claim are counted, and a made-up claim would match
# one of them with probability about 1 - exp(-count / (2 * NEIGHBOURHOOD)). Above CHANCE_LIMIT, the match proves
# nothing (a printed table of thousands of numbers holds nearly every 3-digit value).
NEIGHBOURHOOD = 20
CHANCE_LIMIT = 0.5


@dataclass(frozen=True)
class Number:
    """One number as written in a text."""

    text: str
    value: float            # as written: a percentage's number, the scale applied, the sign kept
    decimals: int           # digits after the point (of the mantissa when written with an exponent)
    exponent: int = 0
    percent: bool = False
    scale: float = 1.0
    bound: str = ""         # "<", ">", "<=", ">=" when written as a bound
    approx: bool = False
    signed: bool = False    # written with a sign ("-0.21", "+6.02"): an observation must have the same sign
    start: int = 0

    @property
    def minor(self) -> bool:
        """A small whole number (a count, a rank, "2 decimals"): traced if it can be, never held against a text."""
        return (self.decimals == 0 and not self.exponent and not self.percent and self.scale == 1.0
                and abs(self.value) <= MINOR_LIMIT)

    @property
    def weak(self) -> bool:
        """A small whole number or a year: too common in any output to prove a claim unless a result file the
        claim cites holds it."""
        plain_whole = (self.decimals == 0 and not self.exponent and not self.percent and self.scale == 1.0
                       and "," not in self.text)
        return self.minor or (plain_whole and YEARS[0] <= abs(self.value) <= YEARS[1])

    def half_step(self, *, exact: bool = False) -> float:
        """Half a unit of the last written digit: how far the true value may be from what was written. Unless
        `exact`, three or more trailing zeros of a whole number are read as rounding (71,000; 1,200,000)."""
        step = 10.0 ** (self.exponent - self.decimals) * self.scale
        digits = self.text.split(".")[0].replace(",", "").lstrip("-+")
        zeros = len(digits) - len(digits.rstrip("0")) if self.decimals == 0 and digits.strip("0") else 0
        if zeros >= 3 and not exact:
            step *= 10.0 ** zeros
        return step / 2


def _masked(text: str) -> str:
    return _MASKS.sub(lambda m: " " * len(m.group(0)), text)


def extract(text: str, *, claims: bool = True) -> list[Number]:
    """Every number written in `text`, in order. Read as claims, paths, dates and `stage 2`-style labels are
    left out; read as observations (`claims=False`), everything counts."""
    scanned = _masked(text) if claims else text
    found: list[Number] = []
    for match in _NUMBER.finditer(scanned):
        number = _number(scanned, match)
        if number is not None:
            found.append(number)
    return found


def _number(text: str, match: re.Match[str]) -> Number | None:
    start = match.start()
    whole, frac = match.group("int") or "0", match.group("frac") or match.group("bare") or ""
    if whole.startswith("0") and len(whole) > 1 and "," not in whole and not frac:
        return None      # 007, 01: a code or an identifier, not a quantity
    before = text[max(0, start - _LOOKBACK):start]
    negative = signed = False
    if before.endswith(("-", "−", "+")):
        glued = before[:-1][-1:]
        if glued.isalnum() or glued == "_":
            if glued.isalpha():
                return None   # COVID-19, X-2: a name
        else:
            negative, signed = not before.endswith("+"), True
    exp = match.group("exp") or ""
    power = match.group("pow") or (match.group("sup") or "").translate(_SUPERSCRIPTS)
    if power:
        exp = "e" + power.replace("−", "-")
    scale_word = (match.group("scale") or "").strip().lower()
    scale = _SCALES.get(scale_word, 1.0)
    try:
        value = float(whole.replace(",", "") + frac + exp) * scale
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    # Both lookbacks end at a symbol or a letter (a word, "approx."): skip them where what precedes cannot.
    tail = before.rstrip("-−+").rstrip()[-1:]
    looks_back = tail.isalpha() or (tail != "" and tail in _LOOKBACK_ENDS)
    bound = _BOUND.search(before.rstrip("-−")) if looks_back else None
    text_value = match.group(0).strip()
    relation = ""
    if bound:
        relation = bound.group(1) or ("<" if bound.group(2).lower() in _UPPER else ">")
    return Number(
        text=("-" if negative else "") + text_value,
        value=-value if negative else value,
        decimals=len(frac) - 1 if frac else 0,
        exponent=int(exp[1:]) if exp else 0,
        percent=bool(match.group("pct")),
        scale=scale,
        bound=relation.replace("≤", "<=").replace("≥", ">="),
        approx=looks_back and bool(_APPROX.search(before)),
        signed=signed,
        start=start,
    )


class NumberIndex:
    """The numbers observed in an output of executed code, for tracing claims to them: their values, signed and
    not, and where each first appears."""

    def __init__(self) -> None:
        self._values: list[float] = []         # magnitudes: a claim written without a sign is traced by these
        self._signed: list[float] = []
        # Numbers as written, by their count of decimals (signed, and magnitudes): a claim written exactly so is
        # literal, and only numbers written at its precision compete with it (see `chance`).
        self._literal: dict[int, list[float]] = {}
        self._literal_signed: dict[int, list[float]] = {}
        self._sorted = True

    def __len__(self) -> int:
        return len(self._ready(signed=False))

    def add_text(self, text: str) -> None:
        """Index every number of `text`; a percentage also as its fraction (45.7% is 0.457). Observations are
        read with one plain pattern (no masks, no records): an output of megabytes is indexed in about a second."""
        for sign, digits, percent in set(_OBSERVED.findall(text)):    # each distinct spelling once
            try:
                value = float(digits.replace(",", ""))
            except ValueError:
                continue
            if not math.isfinite(value):
                continue
            signed = -value if sign else value
            self._values.append(value)
            self._signed.append(signed)
            if "e" not in digits.lower():
                decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
                self._literal.setdefault(decimals, []).append(value)
                self._literal_signed.setdefault(decimals, []).append(signed)
            if percent:
                self._values.append(value / 100)
                self._signed.append(signed / 100)
        self._sorted = False

    def merge(self, other: NumberIndex) -> None:
        """Add every number `other` observed."""
        self._values += other._values
        self._signed += other._signed
        for mine, theirs in ((self._literal, other._literal), (self._literal_signed, other._literal_signed)):
            for decimals, values in theirs.items():
                mine.setdefault(decimals, []).extend(values)
        self._sorted = False

    def _ready(self, *, signed: bool) -> list[float]:
        if not self._sorted:
            self._values = sorted(set(self._values))
            self._signed = sorted(set(self._signed))
            for literal in (self._literal, self._literal_signed):
                for decimals, values in literal.items():
                    literal[decimals] = sorted(set(values))
            self._sorted = True
        return self._signed if signed else self._values

    def _first_between(self, low: float, high: float, *, signed: bool) -> float | None:
        values = self._ready(signed=signed)
        i = bisect.bisect_left(values, low)
        return values[i] if i < len(values) and values[i] <= high else None

    def _count_between(self, low: float, high: float, *, signed: bool) -> int:
        values = self._ready(signed=signed)
        return bisect.bisect_right(values, high) - bisect.bisect_left(values, low)

    @staticmethod
    def _windows(claim: Number) -> list[tuple[float, float]]:
        """The ranges of observed values that give `claim` as written, tightest reading first: rounded (within half
        a step either way) or truncated (up to a whole step beyond) at the digits written, then with trailing zeros
        read as rounding (71,000). A percentage is also read as its fraction, and a plain fraction as a percentage
        (0.080 for a `gap_pct` of 7.98). A claim written with a sign ("-0.21", "+6.02") must have that sign; one
        without may be said in words ("fell by 0.12")."""
        value = claim.value if claim.signed else abs(claim.value)
        magnitude = abs(value)
        factors = [1.0, 0.01] if claim.percent else [1.0, 100.0] if 0 < magnitude < 1 else [1.0]
        windows = []
        for loose in (False, True):
            for factor in factors:
                target = value * factor
                half = claim.half_step(exact=not loose) * factor
                low, high = target - half * (1 + 1e-9) - 1e-12, target + 2 * half * (1 - 1e-9)
                window = (low, high) if target >= 0 else (target - 2 * half * (1 - 1e-9), target + half * (1 + 1e-9))
                if window not in windows:
                    windows.append(window)
        return windows

    def _matches(self, claim: Number) -> list[tuple[float, float, float]]:
        """(low, high, first observed value) of each reading of `claim` that something here gives."""
        found = []
        for low, high in self._windows(claim):
            first = self._first_between(low, high, signed=claim.signed)
            if first is not None:
                found.append((low, high, first))
        return found

    def traces(self, claim: Number) -> bool:
        """Whether some observed number, written as `claim` was written, gives `claim`."""
        if not self._values:
            return False
        if claim.bound:
            return self._bound_holds(claim)
        return bool(self._matches(claim))

    def chance(self, claim: Number) -> float | None:
        """How likely a number made up at `claim`'s precision would be traced here anyway; None when nothing here
        traces `claim`. A claim written here exactly as it is written (same digits, same decimals) competes only
        with the numbers written at its precision nearby; otherwise the tightest reading that traces it counts
        (every value that rounds or truncates to it, at any precision)."""
        literal = self._literal_chance(claim)
        if literal is not None:
            return literal
        for low, high, _first in self._matches(claim):
            width = high - low
            nearby = self._count_between(low - NEIGHBOURHOOD * width, high + NEIGHBOURHOOD * width,
                                         signed=claim.signed)
            return 1.0 - math.exp(-nearby / (2 * NEIGHBOURHOOD))
        return None

    def _literal_chance(self, claim: Number) -> float | None:
        if claim.exponent or claim.scale != 1.0 or claim.approx:
            return None
        self._ready(signed=False)
        values = (self._literal_signed if claim.signed else self._literal).get(claim.decimals, [])
        target = claim.value if claim.signed else abs(claim.value)
        step = 10.0 ** -claim.decimals
        i = bisect.bisect_left(values, target - step / 4)
        if not (i < len(values) and values[i] <= target + step / 4):
            return None
        nearby = (bisect.bisect_right(values, target + NEIGHBOURHOOD * step)
                  - bisect.bisect_left(values, target - NEIGHBOURHOOD * step))
        return 1.0 - math.exp(-nearby / (2 * NEIGHBOURHOOD))

    def proves(self, claim: Number) -> bool:
        """`claim` is traced here, and not merely by chance (see CHANCE_LIMIT). A bound proves nothing."""
        if claim.bound or not self._values:
            return False
        chance = self.chance(claim)
        return chance is not None and chance <= CHANCE_LIMIT

    def observed(self, claim: Number) -> float | None:
        """The observed number that gives `claim` in its tightest reading (signed when `claim` is)."""
        for _low, _high, first in self._matches(claim):
            return first
        return None


    def _bound_holds(self, claim: Number) -> bool:
        values = self._ready(signed=False)
        targets = [abs(claim.value)] + ([abs(claim.value) / 100] if claim.percent else [])
        for target in targets:
            if claim.bound.startswith("<") and values and values[0] <= target:
                return True
            if claim.bound.startswith(">") and values and values[-1] >= target:
                return True
        return False


INDEXED_BYTES = 64 * 1024 * 1024   # about what `indexed` keeps (texts and indexes), least recently used out first
_indexed: OrderedDict[str, tuple[NumberIndex, int]] = OrderedDict()
_indexed_bytes = 0
_indexed_lock = threading.Lock()


def indexed(text: str) -> NumberIndex:
    """The numbers of `text`, read once per process for the same text. Every check of a run (each stage's review,
    each criterion, the final answer) reads the run's outputs again, and a copy of the data written to outputs/
    holds a number in every cell. The index returned is shared: nothing changes it once built (`merge` only reads
    the index it is given)."""
    global _indexed_bytes
    with _indexed_lock:
        kept = _indexed.get(text)
        if kept is not None:
            _indexed.move_to_end(text)
            return kept[0]
    index = NumberIndex()
    index.add_text(text)
    index._ready(signed=False)   # sorted before it is shared: from here on it is only read
    weight = index_weight(text, index)
    with _indexed_lock:
        if text not in _indexed:
            _indexed[text] = (index, weight)
            _indexed_bytes += weight
        while _indexed_bytes > INDEXED_BYTES and len(_indexed) > 1:
            _indexed_bytes -= _indexed.popitem(last=False)[1][1]
    return index


def index_weight(text: str, index: NumberIndex) -> int:
    """About the bytes `text` and its index hold: a character each, and 32 for each number kept (a float and a
    list's pointer to it). 4 MB of distinct six-decimal numbers index to about 25 MB."""
    kept = len(index._values) + len(index._signed)
    kept += sum(map(len, index._literal.values())) + sum(map(len, index._literal_signed.values()))
    return len(text) + 32 * kept


def written_at(text: str, written: str) -> int | None:
    """Where a number stands in `text` written exactly as `written` (a figure as an answer wrote it), or None."""
    target = written.replace(" ", "").replace("−", "-").lstrip("+")
    for match in _OBSERVED.finditer(text):
        if match.group(0).replace(" ", "").replace("−", "-") == target:
            return match.start()
    return None


def offset_of(text: str, value: float, *, signed: bool) -> int | None:
    """Where `value` (an observed number: as `NumberIndex` read it) first appears in `text`."""
    for match in _OBSERVED.finditer(text):
        sign, digits, percent = match.groups()
        try:
            number = float(digits.replace(",", ""))
        except ValueError:
            continue
        number = -number if sign and signed else number
        if number == value or (percent and number / 100 == value):
            return match.start()
    return None
