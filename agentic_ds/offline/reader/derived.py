"""Derived columns a question defines, read from its tokens.

    "Let total_comp = salary + bonus"                       -> total_comp = salary + bonus
    "GDP per capita, computed as gdp_billion / population_m" -> gdp_per_capita = gdp_billion / population_m
    "price per unit = revenue divided by units"             -> price_per_unit = revenue / units

The expression is kept only when it is plain arithmetic over real columns and numbers; the definer and the
expression are consumed (the new name stays, so later words can name it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_ds.offline.reader.mentions import ColumnIndex, Token
from agentic_ds.offline.reader.vocabulary import DEFINERS, NAME_STOP, SYMBOL_OPS, TWO_WORD_OPS, WORD_OPS

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
MAX_NAME_WORDS = 4
MAX_EXPRESSION_TOKENS = 40


@dataclass(frozen=True)
class Derived:
    name: str
    expression: str
    start: int          # first consumed token (the definer or "=")
    end: int            # one past the expression
    columns: tuple[str, ...] = ()     # the data columns the expression reads


def find_derived(tokens: Sequence[Token], index: ColumnIndex) -> list[Derived]:
    found: list[Derived] = []
    i = 0
    while i < len(tokens):
        derived = _defined_at(tokens, i, index)
        i = derived.end if derived else i + 1
        if derived is not None:
            found.append(derived)
            index = ColumnIndex([*index.names, derived.name])      # later definitions may use it
    return found


def _defined_at(tokens: Sequence[Token], i: int, index: ColumnIndex) -> Derived | None:
    if i > 0 and tokens[i].text in ("=", ","):      # "each household's food share, foodexp / income"
        name, body = _name_before(tokens, i), i + 1
    elif i > 0 and tokens[i - 1].text == "," and tuple(t.low for t in tokens[i: i + 2]) in DEFINERS:
        name, body = _name_before(tokens, i - 1), i + 2
    else:
        return None
    parsed = _expression(tokens, body, index) if name else None
    return Derived(name, parsed[0], i, parsed[1], parsed[2]) if parsed else None


def _name_before(tokens: Sequence[Token], i: int) -> str:
    parts: list[str] = []
    j = i - 1
    while (j >= 0 and len(parts) < MAX_NAME_WORDS and tokens[j].is_word and tokens[j].low not in NAME_STOP
           and not tokens[j].possessive):
        parts.append(tokens[j].low.strip("'"))
        j -= 1
    return "_".join(reversed(parts))


def _expression(tokens: Sequence[Token], start: int, index: ColumnIndex) -> tuple[str, int, tuple[str, ...]] | None:
    """(expression, end) of the arithmetic starting at `start`, or None when it is not one."""
    pieces: list[str] = []
    names: list[str] = []
    depth = 0
    complete: tuple[int, int, int] = (0, start, 0)       # (pieces, next token, open parentheses) after an operand
    expect_operand = True
    j = start
    limit = min(len(tokens), start + MAX_EXPRESSION_TOKENS)
    while j < limit:
        token = tokens[j]
        if expect_operand:
            if token.text in ("(", "-"):                   # a group, a negative number or a negated column
                pieces.append(token.text)
                depth += token.text == "("
                j += 1
                continue
            operand = _operand(tokens, j, index)
            if operand is None:
                break
            text, j, column = operand
            pieces.append(text)
            names += [column] if column else []
            expect_operand = False
            complete = (len(pieces), j, depth)
            continue
        if token.text == ")" and depth:
            pieces.append(")")
            depth -= 1
            j += 1
            complete = (len(pieces), j, depth)
            continue
        op, width = _operator(tokens, j)
        if op is None:
            break
        pieces.append(op)
        expect_operand = True
        j += width
    kept, end, open_groups = complete
    pieces = pieces[:kept]
    operators = any(p in SYMBOL_OPS.values() for p in pieces)
    used = tuple(dict.fromkeys(n for n in names if f"`{n}`" in pieces or n in pieces))
    return (" ".join(pieces), end, used) if used and operators and not open_groups else None


def _operand(tokens: Sequence[Token], j: int, index: ColumnIndex) -> tuple[str, int, str] | None:
    """(text, next token, column name or "") of one operand."""
    token = tokens[j]
    if token.is_number:
        return token.text.replace(",", "").rstrip("%"), j + 1, ""
    if not token.is_word or token.low in WORD_OPS:
        return None
    names, width = index.exact.get(token.word), 1
    if not names:           # a name written as words: "unit price"
        for size in (3, 2):
            key = "_".join(t.word for t in tokens[j: j + size] if t.is_word)
            if len(tokens[j: j + size]) == size and index.exact.get(key):
                names, width = index.exact[key], size
                break
    if not names:
        candidates = index.candidates(token.word)
        names = candidates if len(candidates) == 1 else []
    if not names:
        return None
    name = names[0]
    return (name if _IDENTIFIER.fullmatch(name) else f"`{name}`"), j + width, name


def _operator(tokens: Sequence[Token], j: int) -> tuple[str | None, int]:
    token = tokens[j]
    pair = (token.low, tokens[j + 1].low) if j + 1 < len(tokens) else ("", "")
    if pair in TWO_WORD_OPS:
        return TWO_WORD_OPS[pair], 2
    return SYMBOL_OPS.get(token.text) or WORD_OPS.get(token.low), 1
