"""Match the words of a task to the real column names of the data.

A phrase matches a column by its name ("unit_price", "UnitPrice", "unit price"), by a token-level
paraphrase ("price" ~ "unit_price", "delivery time" ~ "delivery_days"), through a small synonym
table ("sales" ~ "revenue") that only counts when nothing matches better, or by spelling
(difflib ratio). Ties are broken deterministically and reported as ambiguity for the caveats.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from agentic_ds.profiling.model import ColumnProfile as Column

MAX_SPELLING_WORDS = 6
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")

# Words that carry no column meaning in a question.
_FILLER = frozenset(
    """a an the of per by for in on at to and or is are was were what which how many much does do did
    across between over with vs versus each every average mean median total sum number count distinct
    unique value values column data dataset overall""".split()
)

# Paraphrases: a task word -> column words it may stand for. Used only when no direct match exists.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "sales": ("revenue", "amount", "sales", "turnover"),
    "revenue": ("sales", "amount", "turnover", "income"),
    "income": ("revenue", "salary", "earnings", "pay", "wage", "compensation"),
    "earnings": ("salary", "income", "pay", "wage", "compensation", "earnings"),
    "earn": ("salary", "income", "pay", "wage", "compensation", "earnings"),
    "paid": ("salary", "pay", "wage", "income", "compensation"),
    "pay": ("salary", "wage", "income", "compensation"),
    "wage": ("salary", "pay", "income", "compensation"),
    "price": ("cost", "amount", "price"),
    "cost": ("price", "expense", "amount"),
    "spend": ("amount", "cost", "spending"),
    "units": ("quantity", "qty", "units", "volume"),
    "quantity": ("units", "qty", "volume"),
    "store": ("shop", "outlet", "branch", "store"),
    "shop": ("store", "outlet"),
    "customer": ("client", "buyer", "user"),
    "client": ("customer",),
    "time": ("duration", "days", "hours", "minutes", "seconds", "lead"),
    "duration": ("time", "days", "hours", "minutes"),
    "date": ("day", "timestamp", "time", "month", "period"),
    "age": ("years",),
    "category": ("type", "class", "group", "segment", "kind"),
    "type": ("category", "kind", "class"),
    "region": ("area", "zone", "territory", "country", "state"),
    "channel": ("source", "medium"),
    "discount": ("rebate", "markdown", "promo"),
    "salary": ("pay", "wage", "income", "compensation"),
    "rating": ("score", "stars", "satisfaction"),
    "score": ("rating", "grade", "points"),
    "profit": ("margin", "earnings"),
}


def words(text: str) -> list[str]:
    """`unitPrice` / `Unit_Price` / `unit price` -> ['unit', 'price']; plurals reduced ('units' stays)."""
    spaced = _CAMEL.sub(" ", text)
    return [_singular(w) for w in _WORD.findall(spaced.lower())]


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_SYNONYMS = {_singular(k): tuple(_singular(v) for v in vs) for k, vs in SYNONYMS.items()}


def normalise(text: str) -> str:
    return "_".join(words(text))


@dataclass(frozen=True)
class ColumnMatch:
    column: Column
    score: float
    how: str                      # "exact" | "tokens" | "synonym" | "spelling"
    rivals: tuple[str, ...] = ()  # other columns that matched as well

    @property
    def name(self) -> str:
        return self.column.name

    @property
    def ambiguous(self) -> bool:
        return bool(self.rivals)

    def caveat(self, phrase: str) -> str:
        if self.how == "exact" and not self.rivals:
            return ""
        note = f'"{phrase}" was taken to mean the column `{self.name}`'
        if self.rivals:
            note += f" (also possible: {', '.join(f'`{r}`' for r in self.rivals)})"
        return note + "."


def match_column(phrase: str, columns: Iterable[Column], *, kinds: tuple[str, ...] = ()) -> ColumnMatch | None:
    """The column `phrase` names, or None when nothing is close enough.

    `kinds` restricts the candidates (e.g. numeric only for a mean); a phrase that names a column
    exactly wins even if its kind differs, because the user said so.
    """
    pool = list(columns)
    target = normalise(phrase)
    if not target:
        return None
    for column in pool:
        if normalise(column.name) == target:
            return ColumnMatch(column, 1.0, "exact")
    candidates = [c for c in pool if not kinds or c.kind in kinds]
    phrase_words = words(phrase)
    asked = [w for w in phrase_words if w not in _FILLER] or phrase_words
    scored = [(s, how, c) for c in candidates for s, how in [_score(asked, c.name)] if s > 0]
    if not scored:
        return None
    scored.sort(key=lambda item: (-item[0], len(item[2].name), item[2].name))
    best_score, how, best = scored[0]
    rivals = tuple(c.name for s, _, c in scored[1:] if s >= best_score - 0.05)
    return ColumnMatch(best, round(best_score, 3), how, rivals)


def _score(asked: list[str], name: str) -> tuple[float, str]:
    """How well the words of a phrase (fillers removed) name the column `name`."""
    have = words(name)
    if not asked or not have:
        return 0.0, ""
    shared = set(asked) & set(have)
    if shared:
        # Cover what was asked first, then how much of the name is explained.
        coverage = len(shared) / len(set(asked))
        precision = len(shared) / len(set(have))
        return 0.6 + 0.3 * coverage + 0.1 * precision, "tokens"
    prefix = _prefix_overlap(asked, have)
    if prefix:
        return 0.55 + 0.1 * prefix, "tokens"
    synonyms = {s for w in asked for s in _SYNONYMS.get(w, ())}
    via = synonyms & set(have)
    if via:
        return 0.45 + 0.1 * len(via) / len(set(have)), "synonym"
    if len(asked) > MAX_SPELLING_WORDS:
        return 0.0, ""                # a long phrase is not a misspelt column name (and difflib is quadratic)
    ratio = difflib.SequenceMatcher(None, " ".join(asked), " ".join(have)).ratio()
    if ratio >= 0.75:
        return 0.3 + 0.1 * ratio, "spelling"
    return 0.0, ""


def _prefix_overlap(asked: list[str], have: list[str]) -> float:
    """Abbreviations: 'qty' vs 'quantity' does not count, 'cust' vs 'customer' does (>= 4 letters)."""
    hits = sum(1 for a in asked for h in have if min(len(a), len(h)) >= 4 and (a.startswith(h) or h.startswith(a)))
    return hits / max(len(asked), 1)


def mentioned_columns(text: str, columns: Iterable[Column]) -> list[Column]:
    """Columns a free text names literally (as words, any case/spacing), in order of appearance."""
    text_words = words(text)
    joined = " " + " ".join(text_words) + " "
    found: list[tuple[int, str, Column]] = []
    for column in columns:
        name_words = words(column.name)
        if not name_words:
            continue
        needle = " " + " ".join(name_words) + " "
        at = joined.find(needle)
        if at >= 0:
            found.append((at, column.name, column))
    found.sort(key=lambda item: (item[0], -len(item[1])))
    return [column for _, _, column in found]
