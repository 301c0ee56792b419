"""Plan an analysis from the reading of the task and the data profile.

A direct question gets an audit, then one stage that computes every ask with `direct-answers/compute_answers`.
An open task gets an audit and descriptive statistics, then the relationships, group comparisons, trends,
distributions or model the task asks for and the column types allow (`open.py`). A question the
reader could not read gets the audit and a description of the data, and says in its notes why it is not answered.
Each step keeps its bound template (`Method`) in typed form; the coder derives the same plan again from the same
task and profile (`plan_for`), so no method travels through the plan's text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from agentic_ds.offline.planner.markdown import PlanStage, render_plan
from agentic_ds.offline.planner.methods import Method, Roles, candidate_methods
from agentic_ds.offline.profile import ID_NAME, encoding_of, primary_file
from agentic_ds.offline.reader import Reading, describe_ask, read_question
from agentic_ds.profiling.model import DataProfile, FileProfile
from agentic_ds.skills import SkillLibrary
from agentic_ds.workspace import slugify

DEFAULT_MAX_STAGES = 6
REPLAN_STAGES = 20          # the coder re-derives the plan without the planner's cap: its first steps are the same


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
    from agentic_ds.offline.planner.open import add_drivers, add_open, pick_target

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
