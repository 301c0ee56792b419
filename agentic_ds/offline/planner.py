"""Plan an analysis from the task and the data profile.

A direct question gets an audit, then one stage that computes the answer with the fitting template.
An open task gets an audit and descriptive statistics, then the relationships, group comparisons,
trends, distributions or predictive baseline that the task asks for and the column types allow.
Each stage carries its bound template (`Method:` / `Params:` lines) so the coder runs exactly that.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agentic_ds.offline.binding import Roles
from agentic_ds.offline.columns import mentioned_columns
from agentic_ds.offline.drivers_plan import add_drivers
from agentic_ds.offline.intent import Intent, asks_for_drivers, has_open_signal
from agentic_ds.offline.methods import Method, choose_method
from agentic_ds.offline.plan_markdown import PlanStage, render_plan
from agentic_ds.offline.profile import encoding_of, is_groupable, of_kind
from agentic_ds.offline.question import Question, bind_question, data_for_task
from agentic_ds.offline.spec import QuestionSpec, build_spec, describe_ask
from agentic_ds.profiling.model import ColumnProfile as Column
from agentic_ds.profiling.model import DataProfile, FileProfile
from agentic_ds.skills import SkillLibrary
from agentic_ds.workspace import slugify

DEFAULT_MAX_STAGES = 6
# Column names that usually hold the quantity an analyst cares about.
_INTERESTING = re.compile(r"revenue|sales|amount|price|total|profit|value|score|income|cost|spend|salary|units|qty")
_ADDITIVE = re.compile(r"revenue|sales|amount|units|qty|quantity|profit|orders|volume|count|spend|cost|income")
_LABELS = {"nunique": "number of distinct values", "missing": "number of missing values", "count": "count",
           "std": "standard deviation", "sum": "total", "min": "minimum", "max": "maximum"}
_ID_NAME = re.compile(r"(^|_)(id|uuid|key|code)$|^id_", re.I)


@dataclass
class PlannedStep:
    title: str
    text: str                          # what to do, for a human reader
    method: Method
    criteria: list[str]                # end states that prove the step, each naming its result file

    @property
    def result_path(self) -> str:
        return str(self.method.params["result_path"])

    def stage(self) -> PlanStage:
        outputs = [self.result_path, f"{self.method.params['fig_prefix']}-*.png (figures)"]
        return PlanStage(title=self.title, description=f"{self.text}\n{self.method.lines()}", expected_outputs=outputs)


@dataclass
class Plan:
    steps: list[PlannedStep]
    notes: list[str] = field(default_factory=list)

    def markdown(self, task: str) -> str:
        preamble = f"Plan for: {task}"
        if self.notes:
            preamble += "\n\n" + "\n".join(f"Note: {n}" for n in self.notes)
        return render_plan([s.stage() for s in self.steps], [c for s in self.steps for c in s.criteria], preamble)


def direct_spec(intent: Intent, profile: DataProfile, reading: QuestionSpec | None = None) -> QuestionSpec | None:
    """The full reading of a direct question when the `direct-answers` skill should answer it: several asks,
    filters, derived columns, joins, a named method, tests, rounding or a format. A single plain statistic
    keeps the `statistic` template (exact over any file size through DuckDB), unless only this reading binds it.
    `reading`: the task's `build_spec`, when the caller has it already."""
    if has_open_signal(intent.task):
        return None
    spec = reading or build_spec(intent.task, profile)
    if spec.unread:
        return None         # the question says more than its reading used: answered, it would be answered wrong
    if not spec.answerable:
        return None
    if intent.kind in ("top_values", "comparison", "trend"):
        return spec if spec.shaped else None
    if spec.rich or intent.kind == "open":
        return spec
    if intent.kind == "statistic":
        data = data_for_task(profile, intent.task)
        if data is None:
            return spec
        question = bind_question(intent, data)
        # The whole reading names columns by their words ("distinct customers" -> customer_id); the single-statistic
        # reading matches the phrase loosely ("customers placed an order" -> order_id): when they differ, the
        # whole reading is kept.
        named = spec.asks[0].column
        differs = bool(named) and (named != question.target or spec.data is not None and spec.data.path != data.path)
        return spec if not question.answerable or differs else None
    return None


def bind_direct(intent: Intent, data: FileProfile, unread: Sequence[str]) -> Question:
    """`bind_question`, which reads one statistic of one column; a number the whole reading could not use
    (`unread`: "aged between 30 and 40", "the 10 oldest") makes it a problem, not a statistic of every row."""
    question = bind_question(intent, data)
    if question.answerable and intent.kind == "statistic":
        if unread:
            question.problem = (f"the question's {', '.join(unread[:5])} could not be tied to a column, a period or a "
                                "rule, so no statistic of all rows is given as its answer")
    return question


def make_plan(
    intent: Intent, profile: DataProfile, library: SkillLibrary, max_stages: int = DEFAULT_MAX_STAGES
) -> Plan:
    reading = build_spec(intent.task, profile)
    spec = direct_spec(intent, profile, reading)
    data = spec.data if spec is not None else data_for_task(profile, intent.task)
    if data is None:
        problems = "; ".join(profile.problems) or "no readable input file"
        raise ValueError(f"nothing to analyse: {problems}")
    builder = PlanBuilder(data, library, max_stages, profile)
    ids = [c.name for c in data.columns if (c.kind == "id" or _ID_NAME.search(c.name)) and c.distinct == data.rows]
    builder.add(
        "audit",
        "Audit data quality",
        f"Audit the data quality of `{data.path}`: missing values, duplicates, types and ranges.",
        f"{{path}} lists the data-quality problems of {data.path} with counts.",
        slug="audit",
        id_columns=ids,
    )
    if spec is not None:
        builder.add_spec(spec)
        return Plan(builder.steps, notes=spec.caveats)
    if intent.is_direct:
        question = bind_direct(intent, data, reading.unread)
        if question.answerable:
            builder.add_question(question)
            return Plan(builder.steps, notes=question.caveats)
        builder.notes.append(f"The question could not be answered directly: {question.problem}. Exploring instead.")
    builder.add_open(intent)
    return Plan(builder.steps, notes=builder.notes)


class PlanBuilder:
    def __init__(
        self, data: FileProfile, library: SkillLibrary, max_stages: int, profile: DataProfile | None = None
    ) -> None:
        self.data = data
        self.profile = profile or DataProfile(files=[data])
        self.library = library
        self.max_stages = max(max_stages, 2)
        self.steps: list[PlannedStep] = []
        self.notes: list[str] = []

    def add(
        self, goal: str, title: str, text: str, criterion: str | list[str], *, slug: str = "", **roles: object
    ) -> bool:
        if len(self.steps) >= self.max_stages:
            return False
        number = len(self.steps) + 1
        slug = f"{number:02d}-{slugify(slug or title, 28)}"
        data_path = str(roles.pop("data_path", self.data.path))
        bound = Roles(data_path=data_path, result_path=f"outputs/{slug}.json", fig_prefix=f"figures/{slug}",
                      encoding=encoding_of(self.profile, data_path), **roles)  # type: ignore[arg-type]
        method = choose_method(self.library, goal, bound, context=text)
        if method is None:
            self.notes.append(f"No skill template fits the step '{title}'; it was left out.")
            return False
        criteria = [criterion] if isinstance(criterion, str) else criterion
        self.steps.append(PlannedStep(title, text, method, [c.replace("{path}", bound.result_path) for c in criteria]))
        return True

    # -- direct questions -------------------------------------------------------------------------
    def add_spec(self, spec: QuestionSpec) -> None:
        """One stage computing every ask of the question; one criterion per ask, so each is checked."""
        first = describe_ask(spec.asks[0]).replace("`", "")
        more = f" (+{len(spec.asks) - 1} more)" if len(spec.asks) > 1 else ""
        criteria = [f"{{path}} states {describe_ask(a)}." for a in spec.asks]
        self.add("answers", f"Answer: {first}{more}"[:90], spec.describe(), criteria, slug="answer",
                 given=spec.params())

    def add_question(self, q: Question) -> None:
        intent = q.intent
        if intent.kind == "statistic":
            label = (
                f"{intent.percentile:g}th percentile"
                if intent.statistic == "percentile"
                else _LABELS.get(intent.statistic, intent.statistic)
            )
            target = q.target or self._complete_column()
            what = f"the {label} of `{target}`" if q.target else "the number of rows"
            per = f" per `{q.group}`" if q.group else ""
            self.add(
                "statistic",
                f"Answer: {label} of {target}{per.replace('`', '')}",
                f"Compute {what}{per} in `{q.data_path}`.",
                f"{{path}} states {what}{per} as its answer_value.",
                slug="answer",
                target=target,
                group=q.group,
                statistic=intent.statistic,
                percentile=intent.percentile,
            )
        elif intent.kind == "correlation":
            self.add(
                "correlation",
                f"Answer: correlation of {q.target} and {q.second}",
                f"Measure the correlation between `{q.target}` and `{q.second}` (Pearson and Spearman, with p-values).",
                f"{{path}} states the correlation between {q.target} and {q.second} with its p-value.",
                slug="answer",
                target=q.target,
                second=q.second,
                columns=[q.target, q.second],
            )
        elif intent.kind == "top_values":
            self.add("top_values", f"Answer: most common values of {q.target}",
                     f"Count the values of `{q.target}` and list the {intent.top_n} most frequent with their shares.",
                     f"{{path}} lists the most frequent values of {q.target} with counts.",
                     slug="answer", target=q.target, top_n=intent.top_n)
        elif intent.kind == "comparison":
            groups = f" ({', '.join(q.group_values)})" if q.group_values else ""
            self.add("compare", f"Answer: {q.target} by {q.group}",
                     f"Compare `{q.target}` between the groups of `{q.group}`{groups} with a suitable test.",
                     f"{{path}} states the test of {q.target} between the {q.group} groups with its p-value.",
                     slug="answer", target=q.target, group=q.group, group_values=list(q.group_values))
        elif intent.kind == "trend":
            self.add("trend", f"Answer: trend of {q.target}",
                     f"Follow `{q.target}` over `{q.time}` and measure the direction and size of the trend.",
                     f"{{path}} states the trend of {q.target} over {q.time}.",
                     slug="answer", target=q.target, time=q.time, statistic=_aggregate(q.target))

    def _complete_column(self) -> str:
        complete = [c for c in self.data.columns if c.null_pct == 0]
        return (complete or list(self.data.columns))[0].name

    # -- open tasks -----------------------------------------------------------------------------
    def add_open(self, intent: Intent) -> None:
        data = self.data
        numeric = [c for c in of_kind(data, "numeric") if not _ID_NAME.search(c.name)]
        target = _pick_target(intent.task, numeric)
        groups = _pick_groups(intent.task, data, 2 if "predictive" in intent.goals else 1)
        group = groups[0] if groups else None
        time = _pick_time(intent.task, data)
        if target is not None and asks_for_drivers(intent.task):
            add_drivers(self, target, self.profile, intent.task)
            return
        described = [c.name for c in data.columns if c.kind != "id" and not _ID_NAME.search(c.name)][:20]
        self.add(
            "descriptive",
            "Descriptive statistics",
            f"Describe the columns of `{data.path}`: centre, spread, levels.",
            "{path} holds summary statistics of the columns.",
            columns=described,
        )
        goals = intent.goals
        if "trends" in goals and time and target:
            self.add(
                "trend",
                f"Trend of {target.name}",
                f"Follow `{target.name}` over `{time.name}`; measure the trend.",
                f"{{path}} states the trend of {target.name} over {time.name}.",
                target=target.name,
                time=time.name,
                statistic=_aggregate(target.name),
            )
        for compared in groups if "group_comparisons" in goals else []:
            if target is None:
                break
            self.add("compare", f"{target.name} by {compared.name}",
                     f"Compare `{target.name}` between the groups of `{compared.name}` with a suitable test.",
                     f"{{path}} states the test of {target.name} across {compared.name} groups with its p-value.",
                     target=target.name, group=compared.name)
        if "relationships" in goals and len(numeric) >= 2:
            columns = [c.name for c in numeric][:12]
            self.add(
                "relationships",
                "Relationships between numeric columns",
                f"Correlate the numeric columns ({', '.join(f'`{c}`' for c in columns)}) and rank the strongest pairs.",
                "{path} ranks the strongest correlations between numeric columns.",
                columns=columns,
                target=target.name if target else "",
            )
        if "distributions" in goals and target:
            self.add("distributions", f"Distribution of {target.name}",
                     f"Describe the distribution of `{target.name}`: shape, skew and outliers.",
                     f"{{path}} describes the distribution and outliers of {target.name}.",
                     target=target.name, columns=[target.name])
        if "predictive" in goals and target:
            features = [c.name for c in numeric if c is not target][:10]
            if group:
                features.append(group.name)
            self.add(
                "regression",
                f"Model of {target.name}",
                f"Fit a linear model of `{target.name}` on {', '.join(f'`{f}`' for f in features)}; "
                "report the variance explained, the typical error, each predictor's effect with its interval, "
                "and the diagnostics.",
                f"{{path}} states how much of the variance of {target.name} the model explains "
                "and which predictors matter.",
                target=target.name,
                columns=features,
                group=group.name if group else "",
            )


def _aggregate(column: str) -> str:
    """How to roll a column up per period: additive quantities are summed, levels (prices, days) averaged."""
    return "sum" if _ADDITIVE.search(column.lower()) else "mean"


def _pick_target(task: str, numeric: list[Column]) -> Column | None:
    named = mentioned_columns(task, numeric)
    if named:
        return named[0]
    for keyword in _INTERESTING.pattern.split("|"):          # in order of how telling the name is
        for column in numeric:
            if keyword in column.name.lower():
                return column
    return numeric[0] if numeric else None


def _pick_groups(task: str, data: FileProfile, n: int) -> list[Column]:
    """Up to `n` grouping columns: those the task names first, then the ones with the fewest levels."""
    groupable = [c for c in data.columns if is_groupable(c)]
    named = mentioned_columns(task, groupable)
    by_levels = sorted(groupable, key=lambda c: (c.distinct if c.distinct and c.distinct > 1 else 99, c.name))
    picked: list[Column] = []
    for column in [*named, *by_levels]:
        if column not in picked:
            picked.append(column)
    return picked[:n]


def _pick_time(task: str, data: FileProfile) -> Column | None:
    dated = of_kind(data, "datetime")
    named = mentioned_columns(task, dated)
    return next(iter(named or dated), None)
