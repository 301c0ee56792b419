"""Plan an analysis from the reading of the task and the data profile.

A direct question gets an audit, then one stage that computes every ask with `direct-answers/compute_answers`.
An open task gets an audit and descriptive statistics, then the relationships, group comparisons, trends,
distributions or model the task asks for and the column types allow (`add_open`). A question the
reader could not read gets the audit and a description of the data, and says in its notes why it is not answered.
Each step keeps its bound template (`Method`) in typed form; the coder derives the same plan again from the same
task and profile (`plan_for`), so no method travels through the plan's text.

The plan for "what drives X" (`add_drivers`): structure first, then time, every dimension and joinable tables, a
model last.

    clean (drop duplicate rows, tidy spellings) -> is X a product/sum of other columns? -> trend of X over time
    -> X across every categorical dimension -> X per key of each joinable table vs that table's attributes
    -> an in-sample model (with a cross-validated R²) that leaves out the columns defining X

Each stage is a `drivers-analysis` (or cleaning / time-series) template bound to the profile's columns; the
stages after the cleaning read the cleaned copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePosixPath

from agentic_ds.offline.planner.markdown import PlanStage, render_plan
from agentic_ds.offline.planner.methods import Method, Roles, candidate_methods
from agentic_ds.offline.profile import ID_NAME, encoding_of, is_groupable, of_kind, primary_file, readable_files
from agentic_ds.offline.reader import Reading, describe_ask, read_question
from agentic_ds.offline.reader.mentions import mentioned_columns
from agentic_ds.offline.reader.sources import join_key
from agentic_ds.offline.reader.vocabulary import ADDITIVE, INTERESTING
from agentic_ds.profiling.model import ColumnProfile, DataProfile, FileProfile
from agentic_ds.skills import SkillLibrary
from agentic_ds.workspace import slugify

DEFAULT_MAX_STAGES = 6
REPLAN_STAGES = 20          # the coder re-derives the plan without the planner's cap: its first steps are the same
MAX_DESCRIBED = 20
MAX_CORRELATED = 12
MAX_FEATURES = 10
MAX_JOINS = 2


@dataclass
class PlannedStep:
    title: str
    text: str                          # what to do, for a human reader
    method: Method
    criteria: list[str]                # end states that prove the step, each naming its result file
    goal: str = ""                     # what the step is for ("answers", "trend", ...): its template's kind
    roles: Roles | None = None         # the columns it works with, which other templates can bind too

    @property
    def result_path(self) -> str:
        return str(self.method.params["result_path"])

    def stage(self) -> PlanStage:
        outputs = [self.result_path, f"{self.method.params['fig_prefix']}-*.png (figures)"]
        return PlanStage(title=self.title, description=self.text, expected_outputs=outputs)


@dataclass
class Plan:
    steps: list[PlannedStep]
    notes: list[str] = field(default_factory=list)

    def markdown(self, task: str) -> str:
        preamble = f"Plan for: {task}"
        if self.notes:
            preamble += "\n\n" + "\n".join(f"Note: {n}" for n in self.notes)
        return render_plan([s.stage() for s in self.steps], [c for s in self.steps for c in s.criteria], preamble)

    def step_for(self, title: str, outputs: list[str]) -> PlannedStep | None:
        """The step a stage of this plan became: the one writing a result the stage expects, else by title."""
        return next((s for s in self.steps if s.result_path in outputs), None) or next(
            (s for s in self.steps if s.title.strip().lower() == title.strip().lower()), None)


def plan_for(task: str, profile: DataProfile, library: SkillLibrary, max_stages: int = DEFAULT_MAX_STAGES) -> Plan:
    """The plan of `task` (the same plan for the same task, profile and cap: planner and coder share it)."""
    return make_plan(read_question(task, profile), library, max_stages)


@lru_cache(maxsize=16)
def make_plan(reading: Reading, library: SkillLibrary, max_stages: int = DEFAULT_MAX_STAGES) -> Plan:
    spec, profile = reading.spec, reading.profile
    data = spec.data if reading.direct else primary_file(profile, spec.columns)
    if data is None:
        problems = "; ".join(profile.problems) or "no readable input file"
        raise ValueError(f"nothing to analyse: {problems}")
    builder = PlanBuilder(data, library, max_stages, profile)
    ids = [c.name for c in data.columns if (c.kind == "id" or ID_NAME.search(c.name)) and c.distinct == data.rows]
    builder.add("audit", "Audit data quality",
                f"Audit the data quality of `{data.path}`: missing values, duplicates, types and ranges.",
                f"{{path}} lists the data-quality problems of {data.path} with counts.", slug="audit", id_columns=ids)
    if reading.direct:
        builder.add_answers(reading)
        return Plan(builder.steps, notes=spec.caveats)
    if reading.kind == "unread":
        builder.notes.append(f"The offline model could not read this question with confidence: {reading.why_unread()}. "
                             "It describes the data instead and leaves the question unanswered.")
    target = pick_target(reading.task, data)
    if reading.drivers and target is not None:
        add_drivers(builder, target, reading.task)
    else:
        add_open(builder, reading, target)
    return Plan(builder.steps, notes=builder.notes)


class PlanBuilder:
    def __init__(self, data: FileProfile, library: SkillLibrary, max_stages: int, profile: DataProfile) -> None:
        self.data, self.profile, self.library = data, profile, library
        self.max_stages = max(max_stages, 2)
        self.steps: list[PlannedStep] = []
        self.notes: list[str] = []

    def add(self, goal: str, title: str, text: str, criterion: str | list[str], *, slug: str = "",
            **roles: object) -> bool:
        if len(self.steps) >= self.max_stages:
            return False
        slug = f"{len(self.steps) + 1:02d}-{slugify(slug or title, 28)}"
        data_path = str(roles.pop("data_path", self.data.path))
        bound = Roles(data_path=data_path, result_path=f"outputs/{slug}.json", fig_prefix=f"figures/{slug}",
                      encoding=encoding_of(self.profile, data_path), **roles)  # type: ignore[arg-type]
        methods = candidate_methods(self.library, goal, bound, context=text)
        if not methods:
            self.notes.append(f"No skill template fits the step '{title}'; it was left out.")
            return False
        criteria = [criterion] if isinstance(criterion, str) else criterion
        criteria = [c.replace("{path}", bound.result_path) for c in criteria]
        self.steps.append(PlannedStep(title, text, methods[0], criteria, goal, bound))
        return True

    def add_answers(self, reading: Reading) -> None:
        """One stage computing every ask of the question; one criterion per ask, so each is checked."""
        spec = reading.spec
        first = describe_ask(spec.asks[0]).replace("`", "")
        more = f" (+{len(spec.asks) - 1} more)" if len(spec.asks) > 1 else ""
        criteria = [f"{{path}} states {describe_ask(a)}." for a in spec.asks]
        self.add("answers", f"Answer: {first}{more}"[:90], spec.describe(), criteria, slug="answer",
                 given=spec.params())


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
    telling = (c for keyword in INTERESTING for c in numeric if keyword in c.name.lower())
    return named[0] if named else next(telling, numeric[0] if numeric else None)


def pick_groups(task: str, data: FileProfile, n: int) -> list[ColumnProfile]:
    """Up to `n` grouping columns: those the task names first, then the ones with the fewest levels."""
    groupable = [c for c in data.columns if is_groupable(c)]
    named = mentioned_columns(task, groupable)
    by_levels = sorted(groupable, key=lambda c: (c.distinct if c.distinct and c.distinct > 1 else 99, c.name))
    return list({c.name: c for c in [*named, *by_levels]}.values())[:n]     # named are groupable's own objects


def add_drivers(builder: PlanBuilder, target: ColumnProfile, task: str) -> None:
    data, profile = builder.data, builder.profile
    name, source = target.name, data.path
    if data.duplicate_rows or any("spell" in note.lower() for c in data.columns for note in c.notes):
        clean = f"outputs/clean/{PurePosixPath(data.path).stem}.csv"
        dropped = f"{data.duplicate_rows} duplicate row(s)" if data.duplicate_rows else "no duplicate rows"
        if builder.add("clean", "Drop duplicate rows and tidy spellings",
                       f"Load `{data.path}`, drop exact duplicate rows (the profile counts {dropped}), trim and merge "
                       f"category spellings, and write the cleaned copy `{clean}` that the next stages use.",
                       f"{{path}} states how many duplicate rows were dropped and that `{clean}` was written.",
                       slug="clean", given={"clean_path": clean}):
            source = clean
    # Every later stage reads the cleaned copy: its description says so (the coder and the reviewers read it).
    reads = f"Read the cleaned copy `{source}`. " if source != data.path else ""
    others = [c.name for c in of_kind(data, "numeric") if not ID_NAME.search(c.name) and c.name != name]
    builder.add("identity", f"Is {name} defined by other columns?",
                f"{reads}Check whether `{name}` is a product, sum, difference or ratio of other numeric columns "
                f"({', '.join(f'`{c}`' for c in others)}) before looking for drivers; if it is, split its "
                "variation between the factors.",
                f"{{path}} states whether {name} is determined by other columns and how its variation splits "
                "between them.", slug="identity", data_path=source, target=name, columns=others[:14])
    time = next(iter(of_kind(data, "datetime")), None)
    if time is not None:
        builder.add("trend", f"{name} over time",
                    f"{reads}Follow `{name}` over `{time.name}`: trend, growth and seasonality.",
                    f"{{path}} states the trend of {name} over {time.name}.", data_path=source, target=name,
                    time=time.name, statistic=aggregate(name))
    dimensions = [c.name for c in data.columns if is_groupable(c) and c.kind != "numeric" and c.name != name]
    dimensions += [c.name for c in data.columns if c.kind in ("id", "categorical") and not is_groupable(c)
                   and c.distinct is not None and 2 <= c.distinct <= 50 and c.name not in dimensions]
    if dimensions:
        builder.add("dimensions", f"{name} across every dimension",
                    f"{reads}Break `{name}` down by every categorical dimension "
                    f"({', '.join(f'`{d}`' for d in dimensions)}) and rank them by the share of its variance between "
                    "their levels.",
                    f"{{path}} ranks every categorical dimension by how much of {name}'s variance it explains.",
                    data_path=source, target=name,
                    given={"dimensions": dimensions, "named": [c.name for c in mentioned_columns(task, data.columns)
                                                               if c.name in dimensions]})
    joinable = [(other, key) for other in readable_files(profile) if other.path != data.path
                and (key := join_key(data, other))]
    for other, key in joinable[:MAX_JOINS]:
        builder.add("joined", f"{name} per {key} vs {PurePosixPath(other.path).stem}",
                    f"{reads}Join `{other.path}` on `{key}`, total `{name}` per `{key}` and relate it to the "
                    f"attributes of `{other.path}`.",
                    f"{{path}} relates the total {name} per {key} to the attributes in {other.path}.",
                    data_path=source, target=name, given={"key": key, "other_path": other.path,
                                                          "other_encoding": encoding_of(profile, other.path) or None})
    features = [c.name for c in data.columns if c.name != name and not ID_NAME.search(c.name) and c.kind != "datetime"
                and (c.kind == "numeric" or is_groupable(c) or c.name in dimensions)]
    builder.add("driver_model", f"In-sample model of {name}",
                f"{reads}Fit a linear model of `{name}` on {', '.join(f'`{f}`' for f in features)}, leaving out the "
                f"columns that define `{name}`; report it as an in-sample description with a cross-validated R² "
                "next to it.",
                f"{{path}} states the in-sample and cross-validated R² of the model of {name} and its largest effects.",
                data_path=source, target=name, columns=features)
