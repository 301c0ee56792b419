"""What a task asks for, read in code: each quantity, relation, comparison, period and requested answer value.

"How did unemployment relate to inflation and real GDP growth over 1959-2009?" asks three things: how
unemployment relates to inflation, how it relates to real GDP growth, and the period 1959-2009. A run is
judged against these asks, whatever its model planned or answered: the plan gets a criterion for any ask
it left out (`coverage.py`) and the final answer must answer each (`answers.py`).

When the task names its answers (`@mean_price[value]`), those named values are the asks (with any period).
Otherwise each sentence is read for relations ("X relate to A and B", "relationship between X and Y",
"effect of X on Y"), comparisons, drivers ("what drives X"), statistics ("the mean and standard deviation of
X"), extremes ("which X has the highest Y"), counts and trends; a question that yields none of these is one
ask as a whole. Sentences are read one by one, in pieces of at most `MAX_SENTENCE` characters, with patterns
free of nested quantifiers, and at most `MAX_ASKS` asks are kept, so any task is read in time linear in its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agentic_ds.offline.wording import STOP, SYNONYMS, content, sentences, stem

MAX_ASKS = 24
MAX_PHRASE_WORDS = 6
MAX_SENTENCE = 1000       # characters of a sentence read at once (a question is far shorter)
SLOT = re.compile(r"@([A-Za-z_]\w{0,60})\[([^\]\n]{0,200})\]")
_YEAR = r"(?:1[6-9]|20)\d\d"
_PERIODS = (
    re.compile(rf"\b({_YEAR})s?\s*(?:-|–|—|to|through|until|till|and)\s*({_YEAR})s?\b", re.I),
    re.compile(rf"\b(?:since|after|from)\s+({_YEAR})\b()", re.I),
    re.compile(rf"\b(?:before|until|up to)\s+()({_YEAR})\b", re.I),
    re.compile(rf"\b(?:in|during|for)\s+(?:the\s+)?(?:year\s+)?({_YEAR})s?\b()", re.I),
)
_STAT_WORDS = {alias: key for key, aliases in SYNONYMS.items() for alias in aliases
               if " " not in alias and len(alias) > 2}
_STAT_WORDS.update({"standard deviation": "std", "how many": "count", "number of": "count", "percentage of": "percent"})
_STAT = r"(?:standard deviations?|interquartile range|mean|average|median|std|variance|minimum|maximum|min|max|" \
        r"sum|total|skewness|kurtosis|percentage|proportion|share|range|iqr|mode|count|number)"
_STATS = re.compile(rf"\b({_STAT}(?:\s*(?:,|and|&)\s*(?:the\s+)?{_STAT})*)\s+(?:(?:of|for|in)\s+(?:the\s+)?)?", re.I)
_RELATE = re.compile(
    r"\b(?:relat(?:e|es|ed|ing)|correlat(?:e|es|ed|ing)|associat(?:e|es|ed)|link(?:s|ed)?|connect(?:s|ed)?|"
    r"co-?mov(?:e|es|ed)|var(?:y|ies|ied))\s+(?:to|with)\s+", re.I)
_BETWEEN = re.compile(
    r"\b(?:relationships?|relations?|correlations?|associations?|links?|connections?|dependence|interplay|"
    r"covariance)(?:\s+coefficients?)?\s+(?:between|among|of)\s+", re.I)
_EFFECT = re.compile(r"\b(?:effects?|impacts?|influences?|role)\s+of\s+", re.I)
_AFFECT = re.compile(r"\b(?:affect|affects|affected|influence|influences|influenced|predict|predicts|impact|impacts|"
                     r"determine|determines|cause|causes)\s+", re.I)
_DRIVERS = re.compile(r"\b(?:what|which factors?|which variables?)\s+(?:drives?|explains?|determines?|"
                      r"influences?|affects?|predicts?)\s+(?:the\s+)?|\b(?:drivers?|determinants?|predictors?)\s+of\s+"
                      r"(?:the\s+)?", re.I)
_COMPARE = re.compile(r"\bcompare\s+(?:the\s+)?", re.I)
_VERSUS = re.compile(r"\s+(?:vs\.?|versus|compared (?:to|with)|against)\s+", re.I)
_EXTREME = re.compile(r"\bwhich\s+(\w+(?:\s\w+)?)\s+(?:has|had|have|shows?|showed|is|was|with|gets?|got)\s+(?:the\s+)?"
                      r"(highest|lowest|largest|smallest|most|least|greatest|biggest|fewest|best|worst|maximum|minimum)"
                      r"\s+", re.I)
_TREND = re.compile(r"\b(?:trends?|evolution|growth|change)\s+(?:of|in)\s+(?:the\s+)?|"
                    r"\bhow\s+(?:did|has|have|does|do)\s+"
                    r"(?:the\s+)?(\w+(?:\s\w+){0,3}?)\s+(?:change|changed|evolve|evolved|develop|developed|grow|grew|"
                    r"trend)\b", re.I)
_HOW_MANY = re.compile(r"\bhow many\s+", re.I)
_ASKING = re.compile(r"^\s*(?:what|which|how|why|when|where|who|is|are|does|do|did|was|were|can|compute|calculate|"
                     r"find|give|report|estimate|determine|test|show|list|identify|describe|summari[sz]e|plot|count|"
                     r"rank|tell|check|analy[sz]e|explore|predict|forecast|quantify|measure|compare)\b", re.I)
# Words that end a noun phrase read after an anchor: a new clause, a period, a condition.
_ENDS = frozenset("""over during between from since in for by per across within among when where while that which who
whose compared versus vs than using with on at after before until to as if is are was were has have had do does did
can could would should will whether so but because rounded round answer expressed measured""".split())
_LEADING = frozenset("the a an its their his her our your this that these those each every all overall".split())
_FREQUENT = frozenset("common frequent popular often frequently usual typical".split())
# "the differences in life expectancy" is about life expectancy.
_GENERIC = frozenset("difference differences variation variations change changes level levels gap gaps spread".split())


@dataclass(frozen=True)
class Ask:
    """One thing the task asks for. `terms`: groups of alternative phrases an answer or criterion must mention
    (one of each group); `slot`: the name of a requested answer value (`@slot[...]`)."""

    id: str
    kind: str     # value | relation | comparison | drivers | statistic | extreme | count | trend | period | question
    text: str
    terms: tuple[tuple[str, ...], ...] = ()
    slot: str = ""
    years: tuple[str, ...] = ()

    def as_record(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "text": self.text}


@lru_cache(maxsize=8)
def _cached(task: str) -> tuple[Ask, ...]:
    return tuple(extract_asks(task))


def task_asks(task: object) -> list[Ask]:
    """`extract_asks` of a run's task, read once per task (every agent's prompt and check asks again)."""
    return list(_cached(str(task or "")))


def extract_asks(task: str) -> list[Ask]:
    """The asks of `task`, in the order they are written (at most `MAX_ASKS`)."""
    found: list[tuple[str, str, tuple[tuple[str, ...], ...], str, tuple[str, ...]]] = []
    slots = list(dict.fromkeys(m.group(1) for m in SLOT.finditer(task)))[:MAX_ASKS]
    for name in slots:
        terms = ((name.replace("_", " "), name),)
        found.append(("value", f"the value of {name} (answer as @{name}[...])", terms, name, ()))
    for sentence in sentences(task):
        if len(found) >= MAX_ASKS:
            break
        # Every step below looks around a match within a sentence; reading a run-on "sentence" in pieces of
        # bounded length keeps each step's cost bounded, so the whole read stays linear.
        for start in range(0, len(sentence), MAX_SENTENCE):
            text = sentence[start:start + MAX_SENTENCE]
            if not slots:
                found += _sentence_asks(text)
            found += _periods(text)
            if len(found) >= MAX_ASKS:
                break
    if not found and content(task):
        # Nothing read as a question: the task as a whole is the one ask.
        found.append(("question", task.strip(), tuple((w,) for w in content(task)[:4]), "", ()))
    asks: list[Ask] = []
    seen: set[tuple[str, tuple[tuple[str, ...], ...], tuple[str, ...]]] = set()
    for kind, text, ask_terms, slot, years in found:
        key = (kind, tuple(tuple(sorted(set(content(" ".join(g))))) for g in ask_terms), years)
        if key in seen or len(asks) >= MAX_ASKS:
            continue
        seen.add(key)
        asks.append(Ask(f"a{len(asks) + 1}", kind, _clip(text), ask_terms, slot, years))
    return asks


Found = tuple[str, str, tuple[tuple[str, ...], ...], str, tuple[str, ...]]


def _periods(sentence: str) -> list[Found]:
    out: list[Found] = []
    taken: list[tuple[int, int]] = []
    for pattern in _PERIODS:
        for m in pattern.finditer(sentence):
            if any(a <= m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            start, end = m.group(1), m.group(2)
            years = tuple(y for y in (start, end) if y)
            if start and end:
                text = f"the period {start}-{end}"
            elif start:
                text = f"the period from {start}" if not pattern.pattern.startswith(r"\b(?:in") else f"the year {start}"
            else:
                text = f"the period up to {end}"
            out.append(("period", text, tuple((y,) for y in years), "", years))
    return out


def _sentence_asks(sentence: str) -> list[Found]:
    out: list[Found] = []
    out += _relations(sentence)
    out += _comparisons(sentence)
    for m in _DRIVERS.finditer(sentence):
        target = _phrase_after(sentence, m.end())
        if target:
            out.append(("drivers", f"what drives {target}", ((target,),), "", ()))
    extremes: list[tuple[int, int]] = []
    for m in _EXTREME.finditer(sentence):
        measure = _phrase_after(sentence, m.end(), lists=False)
        group = _strip(m.group(1))
        if measure and group:
            extremes.append((m.start(), m.end() + len(measure) + 1))
            # An answer names the winning group ("Engineering has the highest median salary"), rarely the
            # grouping word: the measure is the term, or for "which department is most common", the grouping.
            if measure.split()[0].lower() in _FREQUENT:
                out.append(("extreme", f"which {group} is {m.group(2).lower()} {measure}", ((group,),), "", ()))
            else:
                direction = SYNONYMS["min" if stem(m.group(2).lower()) == "min" else "max"]
                out.append(("extreme", f"which {group} has the {m.group(2).lower()} {measure}",
                            ((measure,), direction), "", ()))
    out += _statistics(sentence, extremes)
    for m in _HOW_MANY.finditer(sentence):
        what = _phrase_after(sentence, m.end(), lists=False)
        if what and not out:
            out.append(("count", f"how many {_clip(sentence[m.end():].strip(' ?.'), 80)}", ((what,),), "", ()))
    for m in _TREND.finditer(sentence):
        subject = _strip(m.group(1)) if m.group(1) else _phrase_after(sentence, m.end())
        if subject and not any(kind in ("relation", "trend") for kind, *_ in out):
            out.append(("trend", f"how {subject} changed", ((subject,), SYNONYMS["trend"]), "", ()))
    if not out and _ASKING.search(sentence):
        words = content(sentence)[:4]
        if words:
            out.append(("question", sentence.strip(), tuple((w,) for w in words), "", ()))
    return out


def _relations(sentence: str) -> list[Found]:
    out: list[Found] = []
    for m in _RELATE.finditer(sentence):
        subject = _phrase_before(sentence, m.start())
        for other in _list_after(sentence, m.end()):
            if subject and other != subject:
                out.append(_relation(subject, other))
    for m in _BETWEEN.finditer(sentence):
        items = _list_after(sentence, m.end(), joiners=r"\s*(?:,|\band\b|\bwith\b|&)\s*")
        for i, first in enumerate(items):
            for second in items[i + 1:]:
                out.append(_relation(first, second))
    for m in _EFFECT.finditer(sentence):
        cause = _phrase_after(sentence, m.end(), lists=False)
        on = re.compile(r"\s+on\s+", re.I).search(sentence, m.end())
        if cause and on and on.start() - m.end() <= 80:
            for effect in _list_after(sentence, on.end()):
                out.append(_relation(cause, effect))
    if not out:
        for m in _AFFECT.finditer(sentence):
            cause = _phrase_before(sentence, m.start())
            for effect in _list_after(sentence, m.end()):
                if cause and effect != cause:
                    out.append(_relation(cause, effect))
    return out


def _relation(first: str, second: str) -> Found:
    return ("relation", f"how {first} relates to {second}", ((first,), (second,)), "", ())


def _comparisons(sentence: str) -> list[Found]:
    out: list[Found] = []
    for m in _COMPARE.finditer(sentence):
        items = _list_after(sentence, m.end(), joiners=r"\s*(?:,|\band\b|\bwith\b|\bto\b|\bversus\b|\bvs\.?)\s*")
        for other in items[1:]:
            out.append(("comparison", f"{items[0]} compared with {other}", ((items[0],), (other,)), "", ()))
    for m in _VERSUS.finditer(sentence):
        first, second = _phrase_before(sentence, m.start()), _phrase_after(sentence, m.end(), lists=False)
        if first and second:
            out.append(("comparison", f"{first} compared with {second}", ((first,), (second,)), "", ()))
    return out


def _statistics(sentence: str, skip: list[tuple[int, int]]) -> list[Found]:
    out: list[Found] = []
    for m in _STATS.finditer(sentence):
        if any(a <= m.start() < b for a, b in skip):
            continue
        stats = [s for s in re.split(r"\s*(?:,|\band\b|&)\s*(?:the\s+)?", m.group(1).lower()) if s]
        # "the mean price and the mean units": a listed item led by a statistic is its own match.
        variables = [v for v in _list_after(sentence, m.end()) if not re.match(rf"{_STAT}\b", v, re.I)]
        group = re.compile(r"\b(?:per|by|for each|in each|within each|across|grouped by|for every)\s+", re.I).search(
            sentence, m.end())
        by = _phrase_after(sentence, group.end(), lists=False) if group else ""
        for stat in stats:
            key = _STAT_WORDS.get(stat.rstrip("s"), _STAT_WORDS.get(stat, stat))
            aliases = SYNONYMS.get(key, (stat,))
            for variable in variables:
                # An answer names the groups ("South: 21.0"), rarely the grouping word: only the statistic and
                # its variable are terms.
                text = f"the {stat} of {variable}" + (f" per {by}" if by else "")
                out.append(("statistic", text, (aliases, (variable,)), "", ()))
    return out


def _tokens_after(sentence: str, start: int, limit: int) -> list[tuple[str, int]]:
    found = re.finditer(r"[\w'%-]+|[,&]", sentence[start:start + 200])
    return [(m.group(0), m.start()) for _, m in zip(range(limit), found, strict=False)]


def _list_after(sentence: str, start: int, joiners: str = r"\s*(?:,|\band\b|\bor\b|&)\s*") -> list[str]:
    """The noun phrases listed after `start` ("inflation and real GDP growth"), up to a word that starts a new
    clause or period."""
    kept: list[str] = []
    tokens = _tokens_after(sentence, start, 3 * MAX_PHRASE_WORDS)
    for at, (token, _) in enumerate(tokens):
        low = token.lower()
        if low in _ENDS or re.fullmatch(_YEAR, low) or at + 1 < len(tokens) and _starts_clause(low, kept):
            break
        kept.append(token)
    text = " ".join(kept).replace(" ,", ",")
    items = [_strip(part) for part in re.split(joiners, text, flags=re.I)]
    return list(dict.fromkeys(item for item in items if item))


def _starts_clause(low: str, kept: list[str]) -> bool:
    """A past participle after a plural noun, with words after it, starts a clause about the noun: "orders [placed
    in March]", "employees [hired after 2020]"; the phrase is the noun. Last, it is the predicate ("students
    passed"), kept."""
    return len(low) > 4 and low.endswith("ed") and bool(kept) and kept[-1].lower().endswith("s") \
        and not kept[-1].lower().endswith("ss")


def _phrase_after(sentence: str, start: int, *, lists: bool = True) -> str:
    items = _list_after(sentence, start) if lists else _list_after(sentence, start, joiners=r"\s*(?:,|&)\s*")
    phrase = items[0] if items else ""
    if phrase.lower() in _GENERIC:
        end = sentence.lower().find(phrase.lower(), start) + len(phrase)
        follows = re.compile(r"\s*(?:in|of)\s+(?:the\s+)?", re.I).match(sentence, end)
        if follows:
            return _phrase_after(sentence, follows.end(), lists=lists) or phrase
    return phrase


def _phrase_before(sentence: str, end: int) -> str:
    """The noun phrase just before `end` ("How did [unemployment] relate..."), stopping at a question word."""
    tokens = re.findall(r"[\w'%-]+", sentence[max(0, end - 200):end])
    kept: list[str] = []
    for token in reversed(tokens):
        if token.lower() in STOP or token.lower() in _ENDS or len(kept) >= MAX_PHRASE_WORDS:
            break
        kept.append(token)
    return _strip(" ".join(reversed(kept)))


def _strip(phrase: str) -> str:
    words = phrase.strip(" ,.?!;:'\"()").split()
    while words and words[0].lower() in _LEADING:
        words = words[1:]
    while words and words[-1].lower() in STOP:
        words = words[:-1]
    return " ".join(words[:MAX_PHRASE_WORDS])


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
