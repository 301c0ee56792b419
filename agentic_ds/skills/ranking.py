"""BM25 relevance of skills to a task or stage text (pure Python; the library is small).

A skill has two fields: its head (name, description, template names and descriptions: what the skill
is for) and its body (how to do it); a head match weighs more. Words are lower-cased, stop words dropped and reduced
by a light suffix stemmer so that "compare", "comparing" and "comparison" meet.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from agentic_ds.skills.spec import Skill

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    """a about all an and any are as at be between by can do does for from has have how i if in into is it
    its me my of on or our over per show should so than that the their them then there these this to us
    use using vs was we what when where which while who why will with within you your""".split()
)
# Longest first; a suffix is removed only if at least three letters remain.
_SUFFIXES = ("ational", "ization", "ations", "ation", "ities", "ings", "ness", "ment", "ing", "ity", "ies",
             "ed", "es", "al", "ly", "s", "e")

HEAD_WEIGHT = 2.0  # a match in the name, description or template descriptions counts double a body match


def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def tokenize(text: str) -> list[str]:
    return [stem(word) for word in _WORD.findall(text.lower()) if word not in _STOP]


def skill_fields(skill: Skill) -> tuple[list[str], list[str]]:
    """(head, body) words: the head says what the skill is for, the body how to do it."""
    templates = " ".join(f"{spec.name.replace('_', ' ')} {spec.description}" for spec in skill.templates)
    head = tokenize(f"{skill.name.replace('-', ' ')} {skill.name.replace('-', ' ')} {skill.description} {templates}")
    return head, tokenize(skill.body)


class _Bm25:
    """Okapi BM25 over one field of every document."""

    def __init__(self, documents: list[list[str]], k1: float, b: float) -> None:
        self.k1, self.b = k1, b
        self.counts = [Counter(words) for words in documents]
        self.lengths = [len(words) for words in documents]
        self.average_length = (sum(self.lengths) / len(self.lengths)) if documents else 0.0
        document_frequency: Counter[str] = Counter()
        for counts in self.counts:
            document_frequency.update(counts.keys())
        total = len(documents)
        self.idf = {term: math.log(1 + (total - df + 0.5) / (df + 0.5)) for term, df in document_frequency.items()}

    def score(self, index: int, query: set[str]) -> float:
        counts, length = self.counts[index], self.lengths[index]
        norm = self.k1 * (1 - self.b + self.b * length / self.average_length) if self.average_length else self.k1
        total = 0.0
        for term in sorted(query):  # a fixed order: float sums over a hash-ordered set differ between processes
            frequency = counts.get(term, 0)
            if frequency:
                total += self.idf[term] * frequency * (self.k1 + 1) / (frequency + norm)
        return total


class SkillRanker:
    """BM25 over two fields (head and body) of each skill, the head weighted by HEAD_WEIGHT."""

    def __init__(self, skills: list[Skill], k1: float = 1.2, b: float = 0.75) -> None:
        self.skills = skills
        fields = [skill_fields(skill) for skill in skills]
        self._head = _Bm25([head for head, _ in fields], k1, b)
        self._body = _Bm25([body for _, body in fields], k1, b)

    def score(self, text: str) -> list[tuple[Skill, float]]:
        """Skills with a positive score for `text`, best first; ties broken by name for determinism."""
        query = set(tokenize(text))
        scored = []
        for index, skill in enumerate(self.skills):
            total = HEAD_WEIGHT * self._head.score(index, query) + self._body.score(index, query)
            if total > 0:
                scored.append((skill, total))
        scored.sort(key=lambda pair: (-pair[1], pair[0].name))
        return scored
