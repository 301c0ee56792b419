"""Bind the `@name[value]` slots of a task to the asks and outputs that fill them.

`@mean_salary` and `@std_salary` go to the mean and standard-deviation asks, `@p_value` to the p-value of a
test, `@department` to the arg-max ask over departments; a slot that names no statistic takes the next ask still
without one. A yes/no slot (`@independent[yes/no]`) is a test's verdict, read from its rule ("yes if p < 0.05")
or its name; one whose meaning cannot be read stays unbound, so the question is not read with confidence.

`name_asks` gives each ask the name its result is filed under (`mean_salary`, `count_rows_department`); a row count
the question words as "orders" says "number of orders", so the answer speaks of what was asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.constraints import SLOT
from agentic_ds.offline.reader.mentions import Token, tokenize, words
from agentic_ds.offline.reader.vocabulary import (
    DISTINCT_WORDS,
    FAMILIES,
    NEGATIONS,
    NORMALITY_TESTS,
    NOT_NOUNS,
    ONE_COLUMN_STATS,
    SLOT_PARTS,
    SLOT_STATS,
    TESTS,
    VERDICT_SIGNS,
    VERDICT_WORDS,
)

RULE_CHARS = 160            # how far after a yes/no slot its rule ("(yes if independence is not rejected)") is read
RULE_TOKENS = 30
RULE_WORDS = ("if", "when", "means")        # "yes if p < 0.05", "where yes means normality is not rejected"


def verdict_slots(text: str) -> dict[str, str]:
    """The yes/no slots of a task, each to the verdict it asks: "significant" (yes when p < alpha), "holds" (yes
    when the null stands) or "" when neither its rule nor its name says which."""
    found: dict[str, str] = {}
    for match in SLOT.finditer(text):
        inside = {t.low for t in tokenize(match.group(2))}
        if not ({"yes", "no"} <= inside or {"true", "false"} <= inside):
            continue
        after = text[match.end(): match.end() + RULE_CHARS].split("@")[0]
        rule = [t.low for t in tokenize(match.group(2) + " " + after)]
        lead = next((i for i, w in enumerate(rule[:-1]) if w in ("yes", "true") and rule[i + 1] in RULE_WORDS),
                    None)
        read = _verdict(_clause(rule[lead + 2:])) if lead is not None else ""
        found[match.group(1)] = read or _verdict(match.group(1).lower().split("_"))
    return found


def verdict_rules(tokens: Sequence[Token]) -> list[tuple[int, int, float | None]]:
    """(start, end, alpha) of each "yes if/when ..." rule in the tokens: the rule's words are read with its slot;
    "yes when the p-value is below 0.01" also names the significance level."""
    rules = []
    for i in range(len(tokens) - 1):
        if tokens[i].low in ("yes", "true") and tokens[i + 1].low in RULE_WORDS:
            end = i + 2 + len(_clause([t.low for t in tokens[i + 2: i + 2 + RULE_TOKENS]]))
            signs = [j for j in range(i + 2, end) if tokens[j].low in VERDICT_SIGNS]
            level = next((t.value for t in tokens[signs[0]: end] if t.is_number), None) if signs else None
            rules.append((i, end, level))
    return rules


def _clause(rule: list[str]) -> list[str]:
    """The words of a rule up to where it ends (a bracket, a sentence end, "and no ...")."""
    end = next((i for i, w in enumerate(rule) if w in (")", ".", ";", ",", "otherwise", "else")), len(rule))
    return rule[:end]


def _verdict(rule_words: list[str]) -> str:
    """What "yes" means in these words: a comparison of p with alpha, else a word of a verdict, flipped by each
    negation."""
    sign = next((VERDICT_SIGNS[w] for w in rule_words if w in VERDICT_SIGNS), "")
    rejected = any(w in ("reject", "rejected", "rejects") for w in rule_words)   # "normality is not rejected"
    read = sign or ("significant" if rejected else next((VERDICT_WORDS[w] for w in rule_words if w in VERDICT_WORDS),
                                                         ""))
    if not read or sign:
        return read
    flips = sum(w in NEGATIONS for w in rule_words) % 2
    return {"significant": "holds", "holds": "significant"}[read] if flips else read


def part_of(slot: str, verdicts: Mapping[str, str]) -> str:
    """Which output of an ask a slot wants: its verdict when it is a yes/no slot (maybe "", none), else value,
    p_value, statistic, normal, significant, slope, intercept, r2 or dof."""
    if slot in verdicts:
        return verdicts[slot]
    parts = slot.lower().split("_")
    if "pvalue" in parts or "p" in parts and "value" in parts or parts == ["p"]:
        return "p_value"
    if "reject" in parts or "rejected" in parts:
        return "significant"
    if parts[0] == "r" and len(parts) > 1 and parts[1] in ("squared", "sq", "2"):
        return "r2"
    return next((SLOT_PARTS[p] for p in parts if p in SLOT_PARTS), "value")


def _stat_of_slot(slot: str) -> str:
    for part in slot.lower().split("_"):
        if part in SLOT_STATS:
            return SLOT_STATS[part]
        if part[:1] == "p" and part[1:].isdigit():
            return "percentile"
    return ""


def asks_from_slots(slots: Sequence[str], asks: list[Ask], column_for: Callable[[str], str],
                    verdicts: Mapping[str, str]) -> list[Ask]:
    """Slots that name a one-column statistic no ask has ("Give @std_price[value] for salary") add that ask, on
    the column the slot names, else the question's main numeric column (`column_for` decides)."""
    have = {FAMILIES.get(a.stat, a.stat) for a in asks}
    added = []
    for slot in slots:
        stat = _stat_of_slot(slot) if part_of(slot, verdicts) == "value" else ""
        if stat in ONE_COLUMN_STATS and stat not in have and (column := column_for(slot)):
            added.append(Ask(stat, column))
            have.add(stat)
    return asks + added


def bind_slots(slots: Sequence[str], asks: list[Ask], levels: Mapping[str, Sequence[str]] | None = None,
               verdicts: Mapping[str, str] | None = None) -> list[Ask]:
    """Set `ask.slots`; when the task has slots, asks none of them names are dropped (words like "mean" in
    "a normal with the sample mean" are part of a method, not extra answers). A slot naming one level of a
    per-group ask's groups (`@mean_salary_engineering`) takes that group's value; `levels` lists them."""
    if not slots or not asks:
        return asks
    for slot in slots:
        part = part_of(slot, verdicts or {})
        if not part:
            continue                                    # a yes/no slot whose meaning was not read: left unbound
        grouped = _group_slot(slot, asks, levels or {}) if part not in ("significant", "holds") else None
        if grouped is not None:
            ask, level = grouped
            ask.slots[f"group:{level}"] = slot
            continue
        best = _best(slot, part, asks)
        if best is not None:
            best.slots[part] = slot
    return [a for a in asks if a.slots] or asks


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
    if part != "value":     # an output of a test (a p-value or statistic of any ask when no test has one free)
        tests = [a for a in free if a.stat in (NORMALITY_TESTS if part == "normal" else TESTS)]
        return next(iter(tests or (free if part in ("p_value", "statistic") else [])), None)
    if not free:
        return None
    slot_words, wanted = set(words(slot)), _stat_of_slot(slot)
    grouped = [a for a in free if a.extreme and slot_words & set(words(a.group))]
    same = [a for a in free if FAMILIES.get(a.stat, a.stat) == wanted] if wanted else []
    pool = same or [a for a in free if not a.slots] or free
    named = [a for a in pool if slot_words & set(words(a.column))]
    return (grouped or named or pool)[0]


def name_asks(asks: list[Ask]) -> None:
    seen: set[str] = set()
    for ask in asks:
        base = "_".join(p for p in (ask.stat, ask.column or "rows", ask.group) if p)
        name, n = base, 2
        while name in seen:
            name, n = f"{base}_{n}", n + 1
        seen.add(name)
        ask.name = name


def counted_noun(tokens: list[Token], nouns: frozenset[str] | None) -> Token | None:
    """The token of the noun a row count is about ("how many customers" -> customers): one of `nouns` (the files'
    nouns), or with None any plain word ("how many readings")."""
    def counted(token: Token) -> bool:
        return token.word in nouns if nouns is not None else token.low.isalpha() and token.low not in NOT_NOUNS

    for i in range(len(tokens) - 1):
        if (tokens[i].low, tokens[i + 1].low) in (("how", "many"), ("number", "of")):
            at = i + 2
            # Naming reads past "distinct" ("how many distinct customers" counts customers); choosing the file does
            # not: those customers may be counted in orders.csv.
            while nouns is None and at < len(tokens) - 1 and tokens[at].low in DISTINCT_WORDS:
                at += 1
            if at < len(tokens) and counted(tokens[at]):
                return tokens[at] if nouns is not None else _plural_in(tokens, at, counted)
        if tokens[i].low in ("most", "fewest") and counted(tokens[i + 1]):
            return tokens[i + 1]
    return None


def _plural_in(tokens: list[Token], at: int, counted: Callable[[Token], bool]) -> Token:
    """The noun of "how many remote employees are": the first plural word of the next three, else the first."""
    window = [t for t in tokens[at: at + 3] if counted(t)]
    return next((t for t in window if t.low.endswith("s") and not t.low.endswith("ss")), tokens[at])


def name_counted_rows(asks: list[Ask], noun: str) -> None:
    """A row count the question words as "orders" says "number of orders", and a count of distinct ids it words as
    "products" says "distinct products (product_id)", so the answer speaks of the ask."""
    for ask in asks:
        counts_rows = ask.stat == "count" and not ask.column
        counts_ids = ask.stat == "nunique" and set(words(noun)) <= set(words(ask.column))
        if (counts_rows or counts_ids) and noun.isalpha():
            ask.params.setdefault("rows", noun)
