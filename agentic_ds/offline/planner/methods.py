"""Pick the skill template for an analysis step and bind its declared params to the roles columns play.

A step names a goal (`statistic`, `compare`, `trend`, ...). The goal's preferred skill is looked up
by name; when it is missing, the library's relevance ranking proposes skills instead. Among the
candidate templates the first one whose params all bind wins, preferring templates whose name and
description share words with the goal.

Templates declare params by name with a one-line meaning (`value_col: numeric column to compare`).
The binder reads both and fills each param from the analysis roles (the measured column, the grouping
column, the time axis, ...). A required param it cannot fill makes the template unusable for this
analysis (`None`), so the caller can pick another template instead of running broken code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.skills import COMMON_PARAMS, SkillLibrary, TemplateSpec


@dataclass
class Roles:
    """The columns and settings one analysis step works with."""

    data_path: str
    result_path: str
    fig_prefix: str
    target: str = ""                              # the measured column (numeric unless counting)
    second: str = ""                              # the other column of a pair (correlation)
    group: str = ""                               # grouping column
    time: str = ""                                # time axis
    columns: list[str] = field(default_factory=list)   # a set of columns (features, numeric block)
    statistic: str = ""
    top_n: int = 10
    id_columns: list[str] = field(default_factory=list)
    encoding: str = ""                            # the data file's codec as profiled ("" or UTF-8: none passed)
    given: dict[str, Any] = field(default_factory=dict)  # params the question fixes itself (asks, filters, joins...)


def _has(text: str, *needles: str) -> bool:
    return any(re.search(rf"(?<![a-z0-9]){re.escape(n)}(?![a-z0-9])", text) for n in needles)


def _value_for(name: str, meaning: str, roles: Roles) -> tuple[bool, Any]:
    """(known, value) for one param; known=False when no role fits the param at all."""
    n = name.lower()
    wants_list = _has(n, "cols", "columns", "features", "vars", "variables") or meaning.lower().startswith("list")
    ids = roles.id_columns or None
    rules = (   # (the param's name matches, its value): the first match wins
        (_has(n, "id", "ids", "id cols", "id_cols", "key", "keys") or n in ("id_cols", "id_col", "key_cols"),
         ids if wants_list or ids is None else ids[0]),
        (_has(n, "stat", "statistic", "agg", "aggregation", "func", "measure") and not _has(n, "col", "column"),
         roles.statistic or None),
        (_has(n, "q", "p", "quantile", "percentile", "pct"), None),   # no step of the offline plans fixes a percentile
        (_has(n, "top", "n", "k", "limit", "top_n", "n_top"), roles.top_n),
        ("group" in n and _has(n, "values", "levels", "groups", "names"), None),   # ... nor the groups to keep
        (_has(n, "time", "date", "datetime", "period", "timestamp", "time_col", "date_col"), roles.time or None),
        (any(w in n for w in ("group", "by", "segment", "category", "categ", "cat_col", "hue")), roles.group or None),
        (wants_list, roles.columns or None),
        (_has(n, "y", "y_col", "col_b", "second", "other", "col2", "b"), roles.second or None),
        (_has(n, "x", "x_col", "col_a", "first", "col1", "a")
         or any(w in n for w in ("target", "value", "col", "column", "metric", "outcome", "var", "label", "response")),
         roles.target or None),
    )
    return next(((True, value) for matched, value in rules if matched), (False, None))


# Optional params with a non-null default that still carry the analysis' own choice.
_TUNED_OPTIONALS = frozenset({"stat", "statistic", "agg", "p", "q", "percentile", "quantile", "k", "top_k", "top_n",
                              "n"})


def bind_params(spec: TemplateSpec, roles: Roles) -> dict[str, Any] | None:
    """Params for `spec`, or None when a required param has no value in `roles`."""
    params: dict[str, Any] = {"data_path": roles.data_path, "result_path": roles.result_path,
                              "fig_prefix": roles.fig_prefix}
    if roles.encoding and roles.encoding not in ("utf-8", "ascii"):
        params["encoding"] = roles.encoding  # so the template's pandas reads München, not M\ufffdnchen
    for name, meaning in spec.params.items():
        if name in COMMON_PARAMS:
            continue
        if name in roles.given:
            params[name] = roles.given[name]
            continue
        optional = name in spec.defaults
        if optional and spec.defaults[name] is not None and name not in _TUNED_OPTIONALS:
            continue  # a tuning knob with a sensible default (alpha, max_groups, ...): leave it
        known, value = _value_for(name, meaning, roles)
        if value is None or value == [] or value == "":
            if optional:
                continue
            if not (known and re.search(r"\b(or null|or none|optional|null for|none for|null to)\b", meaning.lower())):
                return None
            value = None                      # the param's meaning says it accepts null
        params[name] = value
    return params


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
    skills += [ranked for ranked in library.rank(f"{words} {context}", k=3) if ranked not in skills]
    order = lambda s: (s.name not in preferred, -_overlap(s, words), s.name)  # noqa: E731 (within each skill)
    bound = ((skill, spec, bind_params(spec, roles)) for skill in skills for spec in sorted(skill.templates, key=order))
    return [Method(skill.name, spec.name, params) for skill, spec, params in bound if params is not None]
