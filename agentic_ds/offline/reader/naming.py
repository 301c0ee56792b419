"""Names of a question's asks and the rows they count: what the answer calls each thing it states.

`name_asks` gives each ask the name its result is filed under (`mean_salary`, `count_rows_department`); a row count
the question words as "orders" says "number of orders", so the answer speaks of what was asked.
"""

from __future__ import annotations

from collections.abc import Callable

from agentic_ds.offline.reader.asks import Ask
from agentic_ds.offline.reader.mentions import Token, words
from agentic_ds.offline.reader.vocabulary import DISTINCT_WORDS, NOT_NOUNS


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
