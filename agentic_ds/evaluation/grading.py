"""Grading a run's structured final answer (run.json `final_answer`) against a manifest's expected answer.

The graded text is the final answer as the evidence checks left it (with any `@name[value]` the task asked
for) followed by each ask's answer. Checkers:
- `numeric`: every expected key must match. When the task asks for `@name[value]`, that slot's value is compared;
  otherwise the first number within 80 characters after a mention of the key (per-group answers), or, with a
  single expected value, any number of the answer. Numbers match within 0.5% of the expected value plus 0.006
  (a value rounded to two decimals matches); string values match case-insensitively.
- `exact`: as `numeric`, but a string value must equal the slot (or appear as a whole word without a format).
- `contains`: every expected value appears in the text (case-insensitive).
- `none`: not graded (open questions).
A run with no final answer is graded wrong. All scanning is regular expressions without nested quantifiers.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

SLOT = re.compile(r"@([A-Za-z_]\w{0,60})\[([^\]\n]{0,200})\]")
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
KEY_WINDOW = 80
VERDICTS = {"yes": "no", "no": "yes", "true": "false", "false": "true"}      # a verdict and its opposite
RELATIVE, ABSOLUTE = 0.005, 0.006


@dataclass(frozen=True)
class Grade:
    correct: bool | None       # None: not graded
    detail: str


def graded_text(final_answer: dict[str, Any] | None) -> str:
    if not final_answer:
        return ""
    parts = [str(final_answer.get("answer") or "")]
    parts += [str(a.get("answer") or "") for a in final_answer.get("asks") or [] if isinstance(a, dict)]
    return "\n".join(p for p in parts if p)


def grade(task: str, checker: str, expected: dict[str, Any] | None, final_answer: dict[str, Any] | None) -> Grade:
    if checker == "none" or not expected:
        return Grade(None, "not graded")
    text = graded_text(final_answer)
    if not text:
        return Grade(False, "no final answer")
    if checker == "contains":
        low = text.lower()
        missing = [str(v) for v in expected.values() if str(v).lower() not in low]
        return Grade(not missing, f"missing: {', '.join(missing)}" if missing else "every value found")
    slots = {m.group(1).lower(): m.group(2).strip() for m in SLOT.finditer(text)}
    asked_format = bool(SLOT.search(task))
    wrong = []
    for key, value in expected.items():
        if asked_format:
            got = slots.get(key.lower())
            ok = got is not None and _value_matches(got, value, exact=checker == "exact")
        elif len(expected) == 1:
            ok = _anywhere(text, value, exact=checker == "exact")
        else:
            ok = _after_key(text, key, value)
        if not ok:
            wrong.append(f"{key}={value!r}" + (f" (got {slots.get(key.lower())!r})" if asked_format else ""))
    return Grade(not wrong, f"not matched: {'; '.join(wrong)}" if wrong else "every value matched")


def numbers(text: str) -> list[float]:
    found = []
    for token in NUMBER.findall(text):
        if token and any(c.isdigit() for c in token):
            try:
                found.append(float(token.replace(",", "")))
            except ValueError:
                continue
    return found


def close(got: float, expected: float) -> bool:
    return math.isfinite(got) and abs(got - expected) <= RELATIVE * abs(expected) + ABSOLUTE


def _value_matches(raw: str, expected: Any, *, exact: bool) -> bool:
    if isinstance(expected, (bool, str)):
        wanted, got = str(expected).strip().lower(), raw.strip().strip("'\"`").strip().lower()
        if exact:
            return got == wanted
        # the expected text as a whole word ("not" holds no "no"), and a verdict without its opposite ("yes or no")
        words = set(re.findall(r"\w+", got))
        opposite = VERDICTS.get(wanted)
        return re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", got) is not None and opposite not in words
    values = numbers(raw)
    return bool(values) and close(values[0], float(expected))


def _anywhere(text: str, expected: Any, *, exact: bool) -> bool:
    if isinstance(expected, (bool, str)):
        pattern = rf"(?<!\w){re.escape(str(expected))}(?!\w)" if exact else re.escape(str(expected))
        return re.search(pattern, text, re.I) is not None
    return any(close(n, float(expected)) for n in numbers(text))


def _after_key(text: str, key: str, expected: Any) -> bool:
    """A per-group value: the first number within `KEY_WINDOW` characters after some mention of the group."""
    for match in re.finditer(rf"(?<!\w){re.escape(key)}(?!\w)", text, re.I):
        window = text[match.end(): match.end() + KEY_WINDOW]
        if isinstance(expected, (bool, str)):
            if str(expected).lower() in window.lower():
                return True
            continue
        found = numbers(window)
        if found and close(found[0], float(expected)):
            return True
    return False
