"""Grade one final answer against a manifest line's expected answer (the offline eval harness's checker).

Checkers (the manifest's `checker` field):
- `numeric`: every expected key must be matched. When the task asks for `@name[value]`, the answer's
  `@name[...]` is compared; otherwise the number after the key's mention (per-group answers) or, for a
  single value, any number in the answer. Numbers match within 0.5% of the expected value plus 0.006
  (a value rounded to two decimals matches); strings match case-insensitively.
- `exact`: like `numeric`, but strings must be equal (case-insensitive, surrounding spaces ignored).
- `contains`: every expected value appears in the answer text (case-insensitive).
- `none`: not graded (open questions).
All scanning is regular-expression matching without nested quantifiers: linear in the answer's length.
"""

from __future__ import annotations

import math
import re
from typing import Any

FORMAT_SLOT = re.compile(r"@([A-Za-z_][\w]*)\[([^\]\n]{0,200})\]")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+")
KEY_WINDOW = 80          # characters after a group's name in which its number must appear


def answer_slots(text: str) -> dict[str, str]:
    """`@name[value]` pairs of a text (the last one wins when a name repeats)."""
    return {m.group(1).lower(): m.group(2).strip() for m in FORMAT_SLOT.finditer(text)}


def numbers(text: str) -> list[float]:
    found = []
    for token in NUMBER.findall(text):
        try:
            found.append(float(token.replace(",", "")))
        except ValueError:
            continue
    return found


def close(got: float, expected: float) -> bool:
    return math.isfinite(got) and abs(got - expected) <= 0.005 * abs(expected) + 0.006


def value_matches(raw: str, expected: Any, *, exact_strings: bool = False) -> bool:
    if isinstance(expected, bool) or isinstance(expected, str):
        wanted = str(expected).strip().lower()
        got = raw.strip().strip("'\"`").strip().lower()
        return got == wanted if exact_strings else wanted in got
    values = numbers(raw)
    return bool(values) and close(values[0], float(expected))


def grade(question: dict[str, Any], answer: str) -> bool | None:
    """True/False for a graded question, None for `checker: none`."""
    checker = question.get("checker")
    expected = question.get("answer")
    if checker == "none" or expected is None:
        return None
    text = answer or ""
    if checker == "contains":
        low = text.lower()
        return all(str(v).lower() in low for v in expected.values())
    asked_format = bool(FORMAT_SLOT.search(question.get("task", "")))
    exact_strings = checker == "exact"
    if asked_format:
        slots = answer_slots(text)
        return all(key.lower() in slots and value_matches(slots[key.lower()], value, exact_strings=exact_strings)
                   for key, value in expected.items())
    if len(expected) == 1:
        (value,) = expected.values()
        if isinstance(value, str):
            return value.lower() in text.lower()
        return any(close(n, float(value)) for n in numbers(text))
    return all(_after_key(text, key, value) for key, value in expected.items())


def _after_key(text: str, key: str, expected: Any) -> bool:
    """A per-group value: the first number within KEY_WINDOW characters after some mention of the group."""
    for match in re.finditer(rf"(?<![\w]){re.escape(key)}(?![\w])", text, re.I):
        window = text[match.end(): match.end() + KEY_WINDOW]
        found = numbers(window)
        if found and close(found[0], float(expected)):
            return True
    return False
