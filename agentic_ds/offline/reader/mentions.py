"""Tokens of a question and the columns they name, found in one left-to-right pass.

The question parsers (filters, asks, file choice) work on this token list rather than on regular expressions
over the raw text, so each is linear in the length of the task. A column is named by its words in order
(`years of experience` -> `years_experience`, filler words such as "of" skipped), by an exact spelling
(`unit_price`), or by one telling word (`experience`, `price`), preferring the last noun of a run
("order quantity" names `quantity`, not `order_id`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from agentic_ds.offline.reader import vocabulary
from agentic_ds.offline.reader.vocabulary import DOUBT_WORDS, NOT_ALONE, NUMBER_WORDS, SKIP_IN_NAMES, STOP_WORDS
from agentic_ds.profiling.model import ColumnProfile

_TOKEN = re.compile(
    r"`[^`\n]{1,200}`|\d+(?:[.,]\d+)*(?:%|st|nd|rd|th)?|[A-Za-z]\^2|[A-Za-z_][A-Za-z0-9_\-']*|\*\*|[<>!=]=?"
    r"|[()*/+\-%@?.!;,\[\]×|]"
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_INITIALS = re.compile(r"[A-Za-z]{3,5}")
SENTENCE_END = frozenset({".", "?", "!", ";"})
MAX_WORDS = 4
MAX_CLIPPED = 32
CLIP = 3                  # the shortest beginning of a word that stands for it in a name ("int" for interest)


@dataclass(frozen=True)
class Token:
    text: str              # as written ("Engineering", "10", ">=")
    low: str               # lower case, backticks removed
    word: str              # singular word form ("employees" -> "employee"), "" for numbers and symbols
    possessive: bool = False   # "country's": ends a noun phrase

    @property
    def value(self) -> float | None:
        """The number the token writes (`10`, `1,000`, `30%`), else None."""
        return number(self.text) if self.text[:1].isdigit() else None

    @property
    def is_number(self) -> bool:
        return self.value is not None

    @property
    def is_word(self) -> bool:
        return bool(self.word)


@dataclass(frozen=True)
class Mention:
    start: int             # token index of the first token
    end: int               # one past the last token
    column: str
    exact: bool            # every word of the column's name is there
    run: int = 0           # mentions next to each other share a run: one noun phrase ("order quantity")


def words(text: str) -> list[str]:
    """`unitPrice` / `Unit_Price` / `unit price` -> ['unit', 'price']; plurals reduced ('units' stays)."""
    return [_singular(w) for w in _WORD.findall(_CAMEL.sub(" ", text).lower())]


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("xes"):
        return word[:-2]                               # sexes, boxes
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def mentioned_columns(text: str, columns: Iterable[ColumnProfile]) -> list[ColumnProfile]:
    """Columns a free text names literally (as words, any case/spacing), in order of appearance."""
    joined = " " + " ".join(words(text)) + " "
    found: list[tuple[int, str, ColumnProfile]] = []
    for column in columns:
        name_words = words(column.name)
        at = joined.find(" " + " ".join(name_words) + " ") if name_words else -1
        if at >= 0:
            found.append((at, column.name, column))
    found.sort(key=lambda item: (item[0], -len(item[1])))
    return [column for _, _, column in found]


def number(text: str) -> float | None:
    """`10`, `1,000`, `2.5`, `30%` -> float; None when it is not a number."""
    try:
        return float(text.rstrip("%").replace(",", ""))
    except ValueError:
        return None


def value_of(token: Token) -> float | None:
    """The number a token states: `10`, `2.5`, or a number word ("four")."""
    return token.value if token.is_number else float(NUMBER_WORDS[token.low]) if token.low in NUMBER_WORDS else None


def tokenize(text: str) -> list[Token]:
    tokens = []
    for match in _TOKEN.finditer(text):
        raw = match.group(0)
        if raw.startswith("`"):
            inner = raw[1:-1]
            tokens.append(Token(inner, inner.lower(), "_".join(words(inner)) or inner.lower()))
            continue
        raw = raw.strip("'") or raw              # 'Sales' in quotes is the value Sales
        low = raw.lower()
        possessive = low.endswith("'s")
        if possessive:
            low, raw = low[:-2], raw[:-2]
        found = words(raw.strip("'")) if raw[0].isalpha() or raw[0] == "_" else []
        tokens.append(Token(raw, low, "_".join(found), possessive))
    return tokens


class ColumnIndex:
    """Column names by their words, for constant-time lookups per token."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(dict.fromkeys(n for n in names if n))
        self.words = {name: words(name) for name in self.names}
        self.exact: dict[str, list[str]] = {}
        self.by_word: dict[str, list[str]] = {}
        self.by_prefix: dict[str, list[str]] = {}
        self.closed: dict[str, list[str]] = {}      # AIRFLOW, TVnews: a name written as one word ("air flow")
        self.initials: dict[str, list[str]] = {}    # bmi, gdp: a short all-letter name ("body mass index")
        self.clipped: dict[str, list[str]] = {}     # realint, realcons: word beginnings joined, by their first 3
        for name, parts in self.words.items():
            self.exact.setdefault("_".join(parts), []).append(name)
            self.closed.setdefault("".join(_WORD.findall(name.lower())), []).append(name)
            if _INITIALS.fullmatch(name):
                self.initials.setdefault(name.lower(), []).append(name)
            if len(parts) == 1 and parts[0].isalpha() and 2 * CLIP <= len(parts[0]) <= MAX_CLIPPED:
                self.clipped.setdefault(parts[0][:CLIP], []).append(name)
            for part in dict.fromkeys(parts):
                self.by_word.setdefault(part, []).append(name)
                if len(part) >= 4:
                    self.by_prefix.setdefault(part[:4], []).append(name)

    def candidates(self, word: str) -> list[str]:
        """Columns with this word, or (for words of 4+ letters) a word that extends or shortens it."""
        found = list(self.by_word.get(word, []))
        if len(word) >= 4:
            for name in self.by_prefix.get(word[:4], []):
                if name not in found and any(min(len(w), len(word)) >= 4 and (w.startswith(word) or word.startswith(w))
                                             for w in self.words[name]):
                    found.append(name)
        return found


def find_mentions(tokens: Sequence[Token], index: ColumnIndex) -> list[Mention]:
    """Column mentions in order: the longest exact name at each position, else the run's last telling word."""
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        named = _exact_at(tokens, i, index) or _phrase_at(tokens, i, index) or _word_at(tokens, i, index)
        if named is not None:
            found.append(named)
        i = named.end if named else i + 1
    return _runs(found, tokens)


def _telling(token: Token) -> str:
    return token.word.rsplit("_", 1)[-1] if token.is_word and token.low not in NOT_ALONE else ""


def _phrase_at(tokens: Sequence[Token], start: int, index: ColumnIndex) -> Mention | None:
    """The one column every word of a 2-3 word phrase points to ("bill length" -> bill_length_mm)."""
    for size in (3, 2):
        words_here = [_telling(t) for t in tokens[start: start + size]]
        if len(words_here) < size or not all(words_here):
            continue
        common = set.intersection(*(set(index.candidates(word)) for word in words_here))
        if len(common) == 1:
            return Mention(start, start + size, common.pop(), False)
    return None


def _word_at(tokens: Sequence[Token], i: int, index: ColumnIndex) -> Mention | None:
    """The column a lone word names: the only one with that word (or one it shortens); none when several do, since
    "price" among unit_price and list_price, or "real" among realgdp and realinv, names none of them."""
    word = _telling(tokens[i])
    names = index.candidates(word) if word else []
    chosen = [n for n in names if word in index.words[n]] or names
    return Mention(i, i + 1, chosen[0], False) if len(chosen) == 1 else None


def _exact_at(tokens: Sequence[Token], start: int, index: ColumnIndex) -> Mention | None:
    """A column whose whole name starts at `start` (skipping "of"/"the" inside), longest first."""
    taken: list[str] = []
    lows: list[str] = []
    ends: list[int] = []
    for j in range(start, len(tokens)):
        token = tokens[j]
        numbered = bool(taken) and token.is_number and token.low.isdigit()   # a name ending in a number ("Unnamed: 1")
        if len(taken) >= MAX_WORDS * 2 or not token.is_word and not numbered:
            break
        if token.low not in SKIP_IN_NAMES or not taken:
            taken.append(token.word or token.low)
            lows.append(token.low)
            ends.append(j + 1)
    for size in range(len(taken), 0, -1):
        names = index.exact.get("_".join(taken[:size])) or _spelled_apart(lows[:size], index)
        if names:
            return Mention(start, ends[size - 1], names[0], True)
    return None


def _spelled_apart(lows: list[str], index: ColumnIndex) -> list[str]:
    """A name the words spell when joined ("air flow" -> AIRFLOW, "TV news" -> TVnews), or, for three or more
    plain words, by their initials ("body mass index" -> bmi)."""
    if len(lows) < 2:
        return []
    joined = index.closed.get("".join(lows), [])
    if joined or any(w in STOP_WORDS or w in DOUBT_WORDS or not w.isalpha() for w in lows):
        return joined
    clipped = [n for n in index.clipped.get(lows[0][:CLIP], []) if _clipped(n.lower(), lows)]
    return clipped or (index.initials.get("".join(w[0] for w in lows), []) if len(lows) >= 3 else [])


def _clipped(name: str, lows: list[str]) -> bool:
    """Whether `name` is the beginnings of `lows` joined, each of at least 3 letters or the whole word ("real
    interest" -> realint, "real consumption" -> realcons). The places in `name` each word may end at are kept as a
    set; a name or word longer than 32 letters is no such name, which bounds the work per mention."""
    if any(len(word) > MAX_CLIPPED for word in lows):
        return False
    ends = {0}
    for word in lows:
        reached = set()
        for at in ends:
            common = 0
            while common < len(word) and at + common < len(name) and name[at + common] == word[common]:
                common += 1
            reached |= {at + size for size in range(min(CLIP, len(word)), common + 1)}
        ends = reached
    return len(name) in ends


def _runs(found: list[Mention], tokens: Sequence[Token]) -> list[Mention]:
    """Number the noun phrases: adjacent mentions share a run unless a possessive ("country's") ends one."""
    numbered: list[Mention] = []
    run = 0
    for mention in found:
        if numbered and (numbered[-1].end != mention.start or tokens[numbered[-1].end - 1].possessive):
            run += 1
        numbered.append(Mention(mention.start, mention.end, mention.column, mention.exact, run))
    return numbered


def pick(mentions: Sequence[Mention], suits: Callable[[str], bool]) -> Mention | None:
    """The mention a phrase means: the last one of the first run that holds a suitable column."""
    fitting = [m for m in mentions if suits(m.column)]       # in order: the first fitting one is of that run
    return next((m for m in reversed(fitting) if m.run == fitting[0].run), None)


def leading(tokens: Sequence[Token], at: int, words: Collection[str], taken: Collection[int] = ()) -> int:
    """Where the run of `words` (none of them `taken`) that ends right before `at` starts: `at` when there is none."""
    return next((k + 1 for k in range(at - 1, -1, -1) if tokens[k].low not in words or k in taken), 0)


def sentence_ids(tokens: Sequence[Token]) -> list[int]:
    """The sentence number of every token (a sentence ends at . ? ! ;, but not in "no. of")."""
    ids, current = [], 0
    for i, token in enumerate(tokens):
        ids.append(current)
        around = tuple(t.low for t in tokens[max(0, i - 1): i + 2])
        if token.text in SENTENCE_END and around not in vocabulary.PHRASE_STATS:
            current += 1
    return ids
