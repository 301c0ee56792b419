"""Turn a stage (or simple mode's task) into steps: each an ordered list of code attempts.

An attempt is rendered code plus the result file it must write. The first attempt is the stage's
own method (the `Method:` line the offline planner embedded) or, for a stage someone else wrote, the
template the stage text and the profile point to; later attempts are other bindable templates and,
last, the plain-pandas fallback. Retries walk down this list, so no code runs twice.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from agentic_ds.offline.binding import Roles
from agentic_ds.offline.columns import mentioned_columns
from agentic_ds.offline.fallback import fallback_code
from agentic_ds.offline.intent import Intent, parse_intent
from agentic_ds.offline.methods import Method, candidate_methods, read_method
from agentic_ds.offline.planner import make_plan
from agentic_ds.offline.profile import encoding_of, is_groupable, of_kind, primary_file, readable_files
from agentic_ds.offline.question import Question, bind_question
from agentic_ds.profiling.model import DataProfile, FileProfile
from agentic_ds.skills import SkillLibrary
from agentic_ds.workspace import slugify

log = logging.getLogger(__name__)

_GOAL_WORDS: tuple[tuple[str, str], ...] = (
    ("audit", r"audit|quality|missing|duplicate|clean"),
    ("trend", r"trend|over time|monthly|time series|season"),
    ("compare", r"compar|differ|between groups|anova|t-test|by group|across"),
    ("relationships", r"correlat|relationship|associat"),
    ("distributions", r"distribut|outlier|histogram|skew"),
    ("classification", r"classif"),
    ("regression", r"predict|regress|model|forecast"),
    ("descriptive", r"describ|summary|overview|descriptive"),
)
_KIND_GOAL = {"statistic": "statistic", "correlation": "correlation", "top_values": "top_values",
              "comparison": "compare", "trend": "trend"}


@dataclass(frozen=True)
class Attempt:
    label: str                 # "skill/template" or "fallback"
    code: str
    result_path: str


@dataclass
class Step:
    title: str
    attempts: list[Attempt] = field(default_factory=list)


@dataclass(frozen=True)
class StageSpec:
    id: str
    title: str
    description: str
    expected_outputs: tuple[str, ...] = ()


def parse_stage(block: str) -> StageSpec:
    """The `Id:` / `Title:` / `Description:` (may span lines) / `Expected outputs:` lines of `## Current stage`."""
    fields: dict[str, list[str]] = {}
    key = ""
    for line in block.splitlines():
        m = re.match(r"^(Id|Title|Description|Expected outputs):\s?(.*)$", line)
        if m:
            key = m.group(1).lower()
            fields[key] = [m.group(2)]
        elif key:
            fields[key].append(line)
    get = lambda k: "\n".join(fields.get(k, [])).strip()  # noqa: E731
    outputs = tuple(
        o.strip() for o in re.split(r";", get("expected outputs")) if o.strip() and o.strip() != "not specified"
    )
    return StageSpec(get("id") or "s", get("title") or "stage", get("description") or get("title"), outputs)


def stage_step(stage: StageSpec, profile: DataProfile, library: SkillLibrary) -> Step:
    methods: list[Method] = []
    own = read_method(stage.description)
    if own is not None and own.skill in library.names():
        methods.append(own)
    methods += infer_methods(f"{stage.title}. {stage.description}", stage, profile, library, own)
    return _step(stage.title, methods, library)


def task_steps(task: str, profile: DataProfile, library: SkillLibrary, max_steps: int = 3) -> list[Step]:
    """Simple mode: the answer step of a direct question, or the first analysis steps of an open task."""
    intent = parse_intent(task)
    plan = make_plan(intent, profile, library, max_stages=max_steps + 1)
    steps = plan.steps[1:] if len(plan.steps) > 1 else plan.steps          # skip the audit in quick mode
    out = []
    for planned in steps[:max_steps]:
        spec = StageSpec("s", planned.title, f"{planned.text}\n{planned.method.lines()}")
        out.append(stage_step(spec, profile, library))
    return out


def infer_methods(
    text: str, stage: StageSpec, profile: DataProfile, library: SkillLibrary, own: Method | None
) -> list[Method]:
    wanted = [c.name for f in readable_files(profile) for c in mentioned_columns(text, f.columns)]
    data = primary_file(profile, wanted)
    if data is None:
        return []
    result_path = _result_path(stage, own)
    fig_prefix = (
        str(own.params.get("fig_prefix")) if own else result_path.replace("outputs/", "figures/").removesuffix(".json")
    )
    data_path = str(own.params.get("data_path") or data.path) if own is not None else data.path
    encoding = str((own.params.get("encoding") if own is not None else "") or encoding_of(profile, data_path))
    roles = Roles(data_path=data_path, result_path=result_path, fig_prefix=fig_prefix, encoding=encoding)
    if own is not None:
        _roles_from_params(roles, own)
    intent = parse_intent(text)
    goal = ""
    if intent.is_direct and own is None:
        question = bind_question(intent, data)
        if question.answerable:
            goal = _KIND_GOAL[intent.kind]
            _roles_from_question(roles, question, intent)
    if not goal:
        goal = next((g for g, pattern in _GOAL_WORDS if re.search(pattern, text.lower())), "descriptive")
        if own is None:
            _roles_from_mentions(roles, text, data)
    return candidate_methods(library, goal, roles, context=text)


def _result_path(stage: StageSpec, own: Method | None) -> str:
    if own is not None and own.params.get("result_path"):
        return str(own.params["result_path"])
    named = [o for o in stage.expected_outputs if o.startswith("outputs/") and o.endswith(".json")]
    return named[0] if named else f"outputs/{slugify(stage.id, 8)}-{slugify(stage.title, 24)}.json"


def _roles_from_params(roles: Roles, method: Method) -> None:
    """Reuse the columns the planner bound, so alternatives analyse the same thing."""
    p = method.params
    roles.target = str(p.get("column") or p.get("value_col") or p.get("target") or p.get("x") or "")
    roles.second = str(p.get("y") or p.get("y_col") or "")
    roles.group = str(p.get("group_col") or "")
    roles.time = str(p.get("time_col") or p.get("date_col") or "")
    roles.columns = [c for c in (p.get("columns") or []) if isinstance(c, str)] or [
        c for c in (roles.target, roles.second, roles.group) if c]
    roles.statistic = str(p.get("stat") or "")
    if isinstance(p.get("p"), (int, float)):
        roles.percentile = float(p["p"])


def _roles_from_question(roles: Roles, question: Question, intent: Intent) -> None:
    roles.target, roles.second, roles.group = question.target, question.second, question.group
    roles.time = question.time
    roles.columns = [c for c in (question.target, question.second) if c]
    roles.statistic, roles.percentile, roles.top_n = intent.statistic, intent.percentile, intent.top_n
    roles.group_values = list(question.group_values)


def _roles_from_mentions(roles: Roles, text: str, data: FileProfile) -> None:
    named = mentioned_columns(text, data.columns)
    numeric = [c.name for c in named if c.kind == "numeric"]
    groups = [c.name for c in named if is_groupable(c)]
    dated = [c.name for c in named if c.kind == "datetime"] or [c.name for c in of_kind(data, "datetime")]
    all_numeric = [c.name for c in of_kind(data, "numeric")]
    roles.target = (numeric or all_numeric or [""])[0]
    roles.second = (numeric[1:] or [c for c in all_numeric if c != roles.target] or [""])[0]
    roles.group = (groups or [c.name for c in data.columns if is_groupable(c)] or [""])[0]
    roles.time = (dated or [""])[0]
    roles.columns = numeric or all_numeric[:12]


def _step(title: str, methods: list[Method], library: SkillLibrary) -> Step:
    step = Step(title)
    seen: set[str] = set()
    result_path = ""
    for method in methods:
        try:
            code = method.render(library)
        except Exception:  # noqa: BLE001 - a template that does not render is simply not an option
            # ...but a broken template in the skills folder must still be visible to whoever maintains it.
            log.warning("skipped %s/%s: it does not render", method.skill, method.template, exc_info=True)
            continue
        if code in seen:
            continue
        seen.add(code)
        result_path = result_path or str(method.params["result_path"])
        step.attempts.append(Attempt(f"{method.skill}/{method.template}", code, str(method.params["result_path"])))
    if step.attempts:
        first = methods[0].params
        columns = [str(v) for k, v in sorted(first.items())
                   if isinstance(v, str) and k not in ("data_path", "result_path", "fig_prefix", "stat", "encoding")]
        code = fallback_code(str(first["data_path"]), result_path, columns, first.get("encoding"))
        step.attempts.append(Attempt("fallback", code, result_path))
    return step


