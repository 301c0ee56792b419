"""Pick the skill template for an analysis step and bind it to real columns.

A step names a goal (`statistic`, `compare`, `trend`, ...). The goal's preferred skill is looked up
by name; when it is missing, the library's relevance ranking proposes skills instead. Among the
candidate templates the first one whose params all bind (see `binding.py`) wins, preferring templates
whose name and description share words with the goal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agentic_ds.offline.planner.binding import Roles, bind_params
from agentic_ds.skills import SkillLibrary, TemplateSpec

# goal -> (preferred skill, preferred templates, words describing the template we want)
GOALS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "audit": ("data-quality-audit", ("quality_audit",), "audit quality missing duplicates problems"),
    "clean": ("loading-and-cleaning", ("load_overview",), "clean duplicates spellings cleaned copy"),
    "identity": ("drivers-analysis", ("identity_check",), "identity product sum defined by other columns"),
    "dimensions": ("drivers-analysis", ("dimension_breakdown",), "every categorical dimension variance eta"),
    "joined": ("drivers-analysis", ("joined_drivers",), "join table key attributes per key"),
    "driver_model": ("drivers-analysis", ("driver_model",), "in-sample model cross-validated drivers"),
    "descriptive": ("descriptive-statistics", ("describe",), "describe summary descriptive statistics every column"),
    "answers": ("direct-answers", ("compute_answers",), "answer question statistics filters joins format"),
    "statistic": ("descriptive-statistics", ("statistic",), "single statistic value answer mean median percentile"),
    "top_values": ("descriptive-statistics", ("top_values",), "most common frequent values frequency counts top"),
    "correlation": ("correlation-and-association", ("pairwise_association",), "correlation between two columns pair"),
    "relationships": ("correlation-and-association", ("correlation_matrix",), "correlation matrix numeric columns"),
    "compare": ("group-comparisons", ("compare_groups",), "compare groups test difference means"),
    "trend": ("time-series", ("trend_seasonality", "trend"), "trend over time change growth resample"),
    "distributions": ("distributions-and-outliers", ("distribution_outliers",), "distribution histogram skew outliers"),
    "regression": ("regression", ("ols_regression",), "regression baseline predict numeric target model"),
    "classification": ("classification", ("classification_baseline", "logistic_regression"),
                       "classification predict class binary target model"),
}

@dataclass(frozen=True)
class Method:
    skill: str
    template: str
    params: dict[str, Any]

    def render(self, library: SkillLibrary) -> str:
        return library.render(self.skill, self.template, **self.params)


def _overlap(spec: TemplateSpec, words: str) -> int:
    have = set(re.findall(r"[a-z]+", f"{spec.name.replace('_', ' ')} {spec.description}".lower()))
    return len(have & set(words.split()))


def candidate_methods(library: SkillLibrary, goal: str, roles: Roles, *, context: str = "") -> list[Method]:
    """Every bindable template for `goal`, best first (deterministic)."""
    skill_name, preferred, words = GOALS.get(goal, ("", (), goal))
    skills = [library.get(skill_name)] if skill_name in library.names() else []
    for ranked in library.rank(f"{words} {context}", k=3):
        if ranked not in skills:
            skills.append(ranked)
    methods: list[Method] = []
    for skill in skills:
        specs = sorted(skill.templates, key=lambda s: (s.name not in preferred, -_overlap(s, words), s.name))
        for spec in specs:
            params = bind_params(spec, roles)
            if params is not None:
                methods.append(Method(skill.name, spec.name, params))
    return methods
