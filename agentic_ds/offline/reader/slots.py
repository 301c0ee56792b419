"""Bind the `@name[value]` slots of a task to the asks and outputs that fill them.

`@mean_salary` and `@std_salary` go to the mean and standard-deviation asks, `@p_value` to the p-value of a
test, `@normal` to a normality verdict, `@department` to the arg-max ask over departments; a slot that names
no statistic takes the next ask still without one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.mentions import words
from agentic_ds.offline.reader.vocabulary import FAMILIES as _FAMILIES
from agentic_ds.offline.reader.vocabulary import NORMALITY_TESTS, SLOT_PARTS, TESTS
from agentic_ds.offline.reader.vocabulary import ONE_COLUMN_STATS as _ONE_COLUMN
from agentic_ds.offline.reader.vocabulary import SLOT_STATS as _STAT_WORDS


def slot_part(slot: str) -> str:
    """Which output of an ask a slot wants: value, p_value, statistic, normal, significant, slope, intercept, r2."""
    parts = slot.lower().split("_")
    if "pvalue" in parts or "p" in parts and "value" in parts or parts == ["p"]:
        return "p_value"
    if "reject" in parts or "rejected" in parts:
        return "significant"
    if parts[0] == "r" and len(parts) > 1 and parts[1] in ("squared", "sq", "2"):
        return "r2"
    found = [SLOT_PARTS[p] for p in parts if p in SLOT_PARTS]
    return found[0] if found else "value"


def _family(stat: str) -> str:
    return _FAMILIES.get(stat, stat)


def _stat_of_slot(slot: str) -> str:
    for part in slot.lower().split("_"):
        if part in _STAT_WORDS:
            return _STAT_WORDS[part]
        if part[:1] == "p" and part[1:].isdigit():
            return "percentile"
    return ""


def asks_from_slots(slots: Sequence[str], asks: list[Ask], column_for: Callable[[str], str]) -> list[Ask]:
    """Slots that name a one-column statistic no ask has ("Give @std_price[value] for salary") add that ask, on
    the column the slot names, else the question's main numeric column (`column_for` decides)."""
    have = {_family(a.stat) for a in asks}
    added = []
    for slot in slots:
        stat = _stat_of_slot(slot) if slot_part(slot) == "value" else ""
        if stat in _ONE_COLUMN and stat not in have:
            column = column_for(slot)
            if column:
                added.append(Ask(stat, column))
                have.add(stat)
    return asks + added


def bind_slots(slots: Sequence[str], asks: list[Ask], levels: Mapping[str, Sequence[str]] | None = None) -> list[Ask]:
    """Set `ask.slots`; when the task has slots, asks none of them names are dropped (words like "mean" in
    "a normal with the sample mean" are part of a method, not extra answers). A slot naming one level of a
    per-group ask's groups (`@mean_salary_engineering`) takes that group's value; `levels` lists them."""
    if not slots or not asks:
        return asks
    for slot in slots:
        part = slot_part(slot)
        grouped = _group_slot(slot, asks, levels or {})
        if grouped is not None:
            ask, level = grouped
            ask.slots[f"group:{level}"] = slot
            continue
        best = _best(slot, part, asks)
        if best is not None:
            best.slots[part] = slot
    bound = [a for a in asks if a.slots]
    return bound or asks


def _group_slot(slot: str, asks: list[Ask], levels: Mapping[str, Sequence[str]]) -> tuple[Ask, str] | None:
    slot_words = set(slot.lower().split("_"))
    for ask in asks:
        if not ask.group or ask.extreme:
            continue
        for level in ask.params.get("levels") or levels.get(ask.group, ()):
            text = _level_text(level)
            level_words = set(text.lower().replace("-", "_").split())
            if level_words and level_words <= slot_words or any(_names_level(w, text, ask.group) for w in slot_words):
                return ask, text
    return None


def _level_text(level: object) -> str:
    """A level as the answer writes it: 3, not 3.0."""
    text = str(level)
    return text[:-2] if text.endswith(".0") and text[:-2].lstrip("-").isdigit() else text


def _names_level(word: str, level: str, group: str) -> bool:
    """A slot word naming one level of a group: "jan" for January, "q4" for quarter 4, "rel1" for religious 1."""
    low, name = level.lower(), group.lower()
    if len(word) >= 3 and low.isalpha() and low.startswith(word):
        return True
    head = word[: len(word) - len(low)]
    return bool(head) and word.endswith(low) and low.isdigit() and name.startswith(head)


def _best(slot: str, part: str, asks: list[Ask]) -> Ask | None:
    free = [a for a in asks if part not in a.slots]
    if part in ("p_value", "statistic"):
        free = [a for a in free if a.stat in TESTS] or free
    elif part == "normal":
        free = [a for a in free if a.stat in NORMALITY_TESTS]
    elif part in ("significant", "slope", "intercept", "r2", "dof"):
        free = [a for a in free if a.stat in TESTS]
    if not free:
        return None
    slot_words = set(words(slot))
    wanted = _stat_of_slot(slot) if part == "value" else ""
    if part == "value":
        grouped = [a for a in free if a.extreme and slot_words & set(words(a.group))]
        if grouped:
            return grouped[0]
        same = [a for a in free if _family(a.stat) == wanted] if wanted else []
        if same:
            named = [a for a in same if slot_words & set(words(a.column))]
            return (named or same)[0]
        plain = [a for a in free if not a.slots] or free
        named = [a for a in plain if slot_words & set(words(a.column))]
        return (named or plain)[0]
    return free[0]
