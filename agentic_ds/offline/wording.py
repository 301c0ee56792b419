"""Words of questions, criteria and answers, compared loosely: case, `_`/`-`, plurals and synonyms do not matter.

A phrase is mentioned by a text when most of its content words are (two of "real GDP growth" are enough: "GDP
growth"); a term is a group of alternative phrases ("mean" or "average"). All linear: texts become word sets once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A sentence ends at a line break, a run of several of . ? ! ; or one of them before a space or the end: not at the
# point of 0.45 or of sales.csv. Scanning for ends (not matching sentences char by char) keeps a long text cheap.
_SENTENCE_END = re.compile(r"[.?!;]{2,}|[.?!;](?=\s|$)|\n")
_ENDERS = ".?!;"
_WORD = re.compile(r"\d+(?:\.\d+)?|[a-z0-9]+")
STOP = frozenset("""
a an the of in on at for to and or with by over between from during did does do is are was were be been being how
what which when where why who whose whom this that these those it its their there has have had per each every all
any some than as into across within vs versus data dataset column columns value values me us we you your our i
can could would should will shall may might please about also both either between among after before since until
through up down out under above below more most less least much many very just only not no yes whether then so such
give tell show find compute calculate report state list describe analyse analyze determine estimate identify
answer rounded round decimals decimal places using use given based file files table csv then first next finally
load read open look
""".split())
SYNONYMS: dict[str, tuple[str, ...]] = {
    "mean": ("mean", "average", "avg"),
    "median": ("median",),
    "std": ("standard deviation", "std", "stdev", "sd"),
    "var": ("variance", "var"),
    "min": ("minimum", "min", "lowest", "smallest"),
    "max": ("maximum", "max", "highest", "largest"),
    "sum": ("sum", "total"),
    "count": ("count", "number", "how many", "n"),
    "corr": ("correlation", "correlated", "correlate", "r", "rho", "tau", "coefficient", "association", "relationship"),
    "skew": ("skewness", "skew", "skewed"),
    "kurtosis": ("kurtosis",),
    "percent": ("percentage", "percent", "proportion", "share", "fraction", "%", "rate"),
    "range": ("range",),
    "iqr": ("interquartile range", "iqr"),
    "mode": ("mode", "most common", "most frequent"),
    "missing": ("missing", "null", "nan", "na"),
    "outliers": ("outlier", "outliers"),
    "trend": ("trend", "change", "changed", "growth", "increase", "decrease", "rose", "fell", "slope"),
    "pvalue": ("p-value", "p value", "pvalue", "p", "significance", "significant"),
    "distribution": ("distribution", "distributed", "histogram", "normality", "normal"),
    "percentile": ("percentile", "quantile", "quartile"),
}


def sentences(text: str) -> list[str]:
    """The sentences of `text`: ended by . ? ! ; or a line break, not by the point of 0.45 or of sales.csv."""
    out: list[str] = []
    start = 0
    for end in [*(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]:
        piece = text[start:end].strip()
        if piece.strip(_ENDERS):
            out.append(piece)
        start = end
    return out


# Words that say the same statistic, read as one: "total revenue" is "sum of revenue", "average" is "mean".
_SAME = {"total": "sum", "summed": "sum", "average": "mean", "avg": "mean", "averaged": "mean", "maximum": "max",
         "highest": "max", "largest": "max", "biggest": "max", "greatest": "max", "minimum": "min", "lowest": "min",
         "smallest": "min", "most": "max", "least": "min", "fewest": "min", "stdev": "std", "sd": "std"}


# Words that do not say which thing a two-word phrase means: "rate" of what, "total" of what.
_VAGUE = frozenset("""sum mean median std var min max count percent rate value level number amount score size index
change growth time date year type share ratio group category name id""".split())


def stem(word: str) -> str:
    """`salaries` -> `salary`, `years` -> `year`, `average` -> `mean`; short words as they are."""
    if word in _SAME:
        return _SAME[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    if len(word) >= 6 and word.endswith("ly"):
        return word[:-2]                           # "remotely" is said "remote", "monthly" "month"
    return word


def words(text: str) -> list[str]:
    """The words of `text`, lower-cased and stemmed; `real_gdp_growth` is three words."""
    return [stem(w) for w in _WORD.findall(text.lower().replace("_", " "))]


def content(text: str) -> list[str]:
    """The words of `text` that carry meaning (no stop words), in order, without repeats."""
    return list(dict.fromkeys(w for w in words(text) if w not in STOP))


class Mentions:
    """A text's words and its normalised form, to ask whether phrases are mentioned in it."""

    def __init__(self, text: str, implied: Iterable[str] = ()) -> None:
        # `implied`: stemmed words the context says for the text, such as the data's row nouns: an answer over
        # students.csv needn't say "students" to speak of "the mean exam_score of female students".
        self.text = text
        self.implied = frozenset(implied)
        self.words = set(words(text))
        self.flat = " " + " ".join(words(text)) + " "
        self.raw = text.lower()

    def phrase(self, phrase: str) -> bool:
        """Enough content words of `phrase` are in the text: of two, one that says which thing ("order quantity"
        is said "quantity", "real GDP" "GDP", but "unemployment rate" is not said "rate" nor "total salary"
        "total"); two of three, and two thirds of a longer phrase."""
        if phrase in ("%",):
            return "%" in self.raw
        wanted = [w for w in content(phrase) if w not in self.implied] or content(phrase) or words(phrase)
        if not wanted:
            return False
        if len(wanted) == 1 or " " in phrase and f" {' '.join(words(phrase))} " in self.flat:
            return wanted[0] in self.words if len(wanted) == 1 else True
        if len(wanted) == 2:
            telling = [w for w in wanted if w not in _VAGUE]
            return any(w in self.words for w in telling) if telling else all(w in self.words for w in wanted)
        found = sum(w in self.words for w in wanted)
        return found >= -(-2 * len(wanted) // 3)

    def term(self, alternatives: Iterable[str]) -> bool:
        return any(self.phrase(a) for a in alternatives)

    def all_terms(self, terms: Iterable[Iterable[str]]) -> bool:
        return all(self.term(group) for group in terms)
