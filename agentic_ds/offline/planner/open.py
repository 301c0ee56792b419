"""The stages of an open task ("explore the sales data", "summarise the survey"): describe the columns, then the
trend, group comparisons, correlations, distribution and model its words ask for and its columns allow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentic_ds.offline.profile import ID_NAME, is_groupable, of_kind
from agentic_ds.offline.reader.mentions import mentioned_columns
from agentic_ds.offline.reader.vocabulary import ADDITIVE, INTERESTING
from agentic_ds.profiling.model import ColumnProfile, FileProfile

if TYPE_CHECKING:
    from agentic_ds.offline.planner.plan import PlanBuilder
    from agentic_ds.offline.reader import Reading

MAX_DESCRIBED = 20
MAX_CORRELATED = 12
MAX_FEATURES = 10


def add_open(builder: PlanBuilder, reading: Reading, target: ColumnProfile | None) -> None:
    data, task, goals = builder.data, reading.task, reading.goals or ("audit", "descriptive")
    numeric = [c for c in of_kind(data, "numeric") if not ID_NAME.search(c.name)]
    described = [c.name for c in data.columns if c.kind != "id" and not ID_NAME.search(c.name)][:MAX_DESCRIBED]
    builder.add("descriptive", "Descriptive statistics", f"Describe the columns of `{data.path}`: centre, spread, "
                "levels.", "{path} holds summary statistics of the columns.", columns=described)
    if target is None or reading.kind == "unread":
        return
    name = target.name
    time = next(iter(mentioned_columns(task, of_kind(data, "datetime")) or of_kind(data, "datetime")), None)
    if "trends" in goals and time is not None:
        builder.add("trend", f"Trend of {name}", f"Follow `{name}` over `{time.name}`; measure the trend.",
                    f"{{path}} states the trend of {name} over {time.name}.", target=name, time=time.name,
                    statistic=aggregate(name))
    groups = pick_groups(task, data, 2 if "predictive" in goals else 1)
    for compared in groups if "group_comparisons" in goals else []:
        builder.add("compare", f"{name} by {compared.name}",
                    f"Compare `{name}` between the groups of `{compared.name}` with a suitable test.",
                    f"{{path}} states the test of {name} across {compared.name} groups with its p-value.",
                    target=name, group=compared.name)
    if "relationships" in goals and len(numeric) >= 2:
        columns = [c.name for c in numeric][:MAX_CORRELATED]
        builder.add("relationships", "Relationships between numeric columns",
                    f"Correlate the numeric columns ({', '.join(f'`{c}`' for c in columns)}) and rank the strongest "
                    "pairs.", "{path} ranks the strongest correlations between numeric columns.", columns=columns,
                    target=name)
    if "distributions" in goals:
        builder.add("distributions", f"Distribution of {name}",
                    f"Describe the distribution of `{name}`: shape, skew and outliers.",
                    f"{{path}} describes the distribution and outliers of {name}.", target=name, columns=[name])
    if "predictive" in goals:
        features = [c.name for c in numeric if c is not target][:MAX_FEATURES] + [g.name for g in groups[:1]]
        builder.add("regression", f"Model of {name}",
                    f"Fit a linear model of `{name}` on {', '.join(f'`{f}`' for f in features)}; report the variance "
                    "explained, the typical error, each predictor's effect with its interval, and the diagnostics.",
                    f"{{path}} states how much of the variance of {name} the model explains and which predictors "
                    "matter.", target=name, columns=features, group=groups[0].name if groups else "")


def aggregate(column: str) -> str:
    """How to roll a column up per period: additive quantities are summed, levels (prices, days) averaged."""
    return "sum" if any(word in column.lower() for word in (*ADDITIVE, "count")) else "mean"


def pick_target(task: str, data: FileProfile) -> ColumnProfile | None:
    """The quantity an open task is about: the numeric column it names, else the most telling name."""
    numeric = [c for c in of_kind(data, "numeric") if not ID_NAME.search(c.name)]
    named = mentioned_columns(task, numeric)
    if named:
        return named[0]
    for keyword in INTERESTING:
        for column in numeric:
            if keyword in column.name.lower():
                return column
    return numeric[0] if numeric else None


def pick_groups(task: str, data: FileProfile, n: int) -> list[ColumnProfile]:
    """Up to `n` grouping columns: those the task names first, then the ones with the fewest levels."""
    groupable = [c for c in data.columns if is_groupable(c)]
    named = mentioned_columns(task, groupable)
    by_levels = sorted(groupable, key=lambda c: (c.distinct if c.distinct and c.distinct > 1 else 99, c.name))
    picked: list[ColumnProfile] = []
    for column in [*named, *by_levels]:
        if all(column.name != p.name for p in picked):
            picked.append(column)
    return picked[:n]
