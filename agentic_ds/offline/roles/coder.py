"""The offline coding agent: run each step's attempts with `run_python`, read the result, report it.

One call per turn, decided from the typed context (the task, the profile, the stage, the feedback of a retry) and
the tool history in the request:
  a step without a success     -> run_python(next attempt not run before)
  a run that went ok           -> read_file(its result JSON)
  every step done (or failed)  -> text: the result's summary sentences, the files, the failures
Successes count only in the current turn (a retry re-does the stage); code already run in any turn is never run
again, so a retry always tries something different.

A stage (or simple mode's task) becomes steps, each an ordered list of code attempts.

An attempt is rendered code plus the result file it must write. For a stage of the offline planner's plan the
first attempt is the method it planned (the plan is derived again from the same task and profile, and the stage
found by its result file or title); for a stage someone else wrote, the template its words and the profile point
to. Later attempts are other templates that bind the same columns and, last, the plain-pandas fallback. Retries
walk down this list, so no code runs twice.

The fallback is the last resort when every skill template failed: plain pandas, few assumptions. It still computes
everything it reports (counts, and mean/median/min/max of the named numeric columns) and writes the same result
JSON shape as the templates, so the stage can finish honestly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from agentic_ds.context.cut import cut_from
from agentic_ds.offline.planner.methods import Method, Roles, candidate_methods
from agentic_ds.offline.planner.plan import REPLAN_STAGES, PlannedStep, plan_for
from agentic_ds.offline.profile import encoding_of, is_groupable, of_kind, primary_file, readable_files
from agentic_ds.offline.reader import read_question
from agentic_ds.offline.reader.mentions import mentioned_columns, words
from agentic_ds.offline.reader.vocabulary import STAGE_GOALS
from agentic_ds.offline.request import ParsedRequest, Reply, ToolExchange, has_summary, read_json_file
from agentic_ds.profiling.model import DataProfile
from agentic_ds.schema import StageRecord
from agentic_ds.skills import SkillLibrary
from agentic_ds.skills.templates import python_literal
from agentic_ds.workspace import slugify

log = logging.getLogger(__name__)
SIMPLE_STEPS = 3
MAX_RUNS_PER_TURN = 6
_TAIL_CHARS = 400          # enough of a generated script's end to recognise it in clipped code


@dataclass(frozen=True)
class Attempt:
    label: str                 # "skill/template" or "fallback"
    code: str
    result_path: str


@dataclass
class Step:
    title: str
    attempts: list[Attempt] = field(default_factory=list)


def stage_step(stage: StageRecord, task: str, profile: DataProfile, library: SkillLibrary) -> Step:
    """The attempts of one stage of an orchestrated run."""
    try:
        planned = plan_for(task, profile, library, REPLAN_STAGES).step_for(stage.title, stage.expected_outputs)
    except ValueError:
        planned = None
    if planned is not None and planned.roles is not None:
        return _step(stage.title, [planned.method, *_others(planned, library)], library)
    return _step(stage.title, infer_methods(stage, profile, library), library)


def task_steps(task: str, profile: DataProfile, library: SkillLibrary) -> list[Step]:
    """Simple mode: the answer step of a direct question, or the first analysis steps of an open task."""
    plan = plan_for(task, profile, library, SIMPLE_STEPS + 1)
    steps = plan.steps[1:] if len(plan.steps) > 1 else plan.steps          # no audit in quick mode
    return [_step(s.title, [s.method, *_others(s, library)], library) for s in steps[:SIMPLE_STEPS]]


def _others(step: PlannedStep, library: SkillLibrary) -> list[Method]:
    """Other templates for a retry: those binding the same columns, except for the answer of a direct question,
    which no description answers (a retry would only overwrite its result with one)."""
    if step.goal == "answers" or step.roles is None:
        return []
    return candidate_methods(library, step.goal, step.roles, context=step.text)


def infer_methods(stage: StageRecord, profile: DataProfile, library: SkillLibrary) -> list[Method]:
    """Templates for a stage the offline planner did not write: a closed question its words state, else the goal
    its words name, bound to the columns they mention."""
    text = f"{stage.title}. {stage.description}"
    wanted = [c.name for f in readable_files(profile) for c in mentioned_columns(text, f.columns)]
    data = primary_file(profile, wanted)
    if data is None:
        return []
    result_path = next((o for o in stage.expected_outputs if o.startswith("outputs/") and o.endswith(".json")),
                       f"outputs/{slugify(stage.id, 8)}-{slugify(stage.title, 24)}.json")
    roles = Roles(data_path=data.path, result_path=result_path,
                  fig_prefix=result_path.replace("outputs/", "figures/").removesuffix(".json"),
                  encoding=encoding_of(profile, data.path))
    reading = read_question(text, profile)
    if reading.spec.answerable and reading.spec.data is not None:
        roles.data_path, roles.given = reading.spec.data.path, reading.spec.params()
        return candidate_methods(library, "answers", roles, context=text)[:1]
    said = set(words(text))
    goal = next((g for g, vocabulary in STAGE_GOALS if said & vocabulary), "descriptive")
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
    return candidate_methods(library, goal, roles, context=text)


def _step(title: str, methods: list[Method], library: SkillLibrary) -> Step:
    step = Step(title)
    for method in methods:
        try:
            code = method.render(library)
        except Exception:  # noqa: BLE001 - a template that does not render is simply not an option
            # ...but a broken template in the skills folder must still be visible to whoever maintains it.
            log.warning("skipped %s/%s: it does not render", method.skill, method.template, exc_info=True)
            continue
        if any(code == attempt.code for attempt in step.attempts):
            continue
        step.attempts.append(Attempt(f"{method.skill}/{method.template}", code, str(method.params["result_path"])))
    if step.attempts and methods[0].template != "compute_answers":
        first = methods[0].params
        columns = [str(v) for k, v in sorted(first.items())
                   if isinstance(v, str) and k not in ("data_path", "result_path", "fig_prefix", "stat", "encoding")]
        code = _FALLBACK_CODE.format(data_path=python_literal(str(first["data_path"])), columns=python_literal(columns),
                                     result_path=python_literal(step.attempts[0].result_path),
                                     encoding=python_literal(first.get("encoding")))
        step.attempts.append(Attempt("fallback", code, step.attempts[0].result_path))
    return step


_FALLBACK_CODE = '''\
"""Fallback summary written by the offline model after the skill templates failed."""
import json
from pathlib import Path

import pandas as pd

DATA_PATH = {data_path}
RESULT_PATH = {result_path}
COLUMNS = {columns}
ENCODING = {encoding}

path = Path(DATA_PATH)
suffix = path.suffix.lower()
if suffix in (".parquet", ".pq"):
    df = pd.read_parquet(path)
elif suffix in (".xlsx", ".xls"):
    df = pd.read_excel(path)
elif suffix in (".json", ".jsonl"):
    df = pd.read_json(path, lines=suffix == ".jsonl", encoding=ENCODING)
else:
    df = pd.read_csv(path, sep=None, engine="python", encoding=ENCODING)
summary = [f"{{DATA_PATH}} has {{len(df):,}} rows and {{df.shape[1]}} columns."]
stats = {{}}
for column in [c for c in COLUMNS if c in df.columns]:
    values = pd.to_numeric(df[column], errors="coerce")
    if values.notna().sum() == 0:
        missing = int(df[column].isna().sum())
        summary.append(f"{{column}}: {{df[column].nunique()}} distinct values, {{missing}} missing.")
        continue
    stats[column] = {{k: float(getattr(values, k)()) for k in ("mean", "median", "min", "max")}}
    s = stats[column]
    summary.append(
        f"{{column}}: mean {{s['mean']:.4g}}, median {{s['median']:.4g}}, min {{s['min']:.4g}}, max {{s['max']:.4g}} "
        f"(n={{int(values.notna().sum())}})."
    )
Path(RESULT_PATH).parent.mkdir(parents=True, exist_ok=True)
Path(RESULT_PATH).write_text(json.dumps({{"skill": "fallback", "template": "basic_summary", "summary": summary,
                                         "figures": [], "tables": {{"stats": stats}}}}, indent=2))
print("\\n".join(summary))
'''


@dataclass
class StepOutcome:
    title: str
    label: str = ""
    result_path: str = ""
    result: dict[str, Any] | None = None
    files: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.result is not None


def coding_turn(req: ParsedRequest, library: SkillLibrary) -> Reply:
    profile, task = req.profile(), req.task()
    if not readable_files(profile):
        problems = "; ".join(profile.problems) or "the data profile lists no readable file"
        return Reply.say(f"Nothing was run: {problems}.")
    stage = req.stage()
    try:
        steps = [stage_step(stage, task, profile, library)] if stage is not None else task_steps(task, profile, library)
    except ValueError as exc:
        return Reply.say(f"Nothing was run: {exc}.")
    earlier = [a for a in req.context.get("earlier_attempts") or [] if isinstance(a, dict)]
    # An earlier attempt that ran no code (the model's reply was lost) says nothing against the first choice.
    retrying = bool(req.text_of("feedback") or req.text_of("last_error")) or any(a.get("ran", True) for a in earlier)
    return _next_action(req, steps, retrying)


def _already_run(req: ParsedRequest, code: str, retrying: bool) -> bool:
    """Run in a call this request shows, or, on a retry, part of the stage's code run so far (tail-clipped)."""
    shown = req.text_of("previous_code") if retrying else ""
    ran = any(ex.name == "run_python" and cut_from(str(ex.args.get("code")), code) for ex in req.exchanges)
    return ran or bool(shown) and code.strip()[-_TAIL_CHARS:] in shown


def _next_action(req: ParsedRequest, steps: list[Step], retrying: bool) -> Reply:
    turn_runs = [ex for ex in req.turn if ex.name == "run_python"]
    outcomes: list[StepOutcome] = []
    for step in steps:
        outcome = StepOutcome(step.title)
        outcomes.append(outcome)
        mine = [(ex, attempt) for ex in turn_runs for attempt in step.attempts
                if cut_from(str(ex.args.get("code")), attempt.code)]   # a compacted request may show it cut
        errors: list[str] = []
        for run, attempt in mine:
            if run.response is None:
                return Reply.say("Waiting for the last run to finish.")
            if not run.response.get("ok"):
                errors.append(f"{attempt.label}: {_error_text(run)}")
                continue
            asked, document = read_json_file(req, attempt.result_path, req.exchanges.index(run))
            if not asked:
                return Reply.call("read_file", path=attempt.result_path)
            if has_summary(document):
                outcome.label, outcome.result_path, outcome.result = attempt.label, attempt.result_path, document
                outcome.files = tuple(sorted(set(_files(run)) | {attempt.result_path}))
                break
            errors.append(f"{attempt.label}: ran, but {attempt.result_path} is missing or has no summary")
        outcome.errors = tuple(errors)
        ran_before = bool((req.context.get("execution") or {}).get("cells"))   # in this attempt, hidden by compaction
        if not outcome.ok and not mine and not retrying and step.attempts and ran_before:
            # Compaction may have folded this turn's earlier runs into a summary: a result this step
            # already wrote in this turn is on disk, so look before running anything again.
            path = step.attempts[0].result_path
            asked, document = read_json_file(req, path, _turn_start(req))
            if not asked:
                return Reply.call("read_file", path=path)
            if has_summary(document):
                label = f"{document.get('skill', '?')}/{document.get('template', '?')}"
                outcome.label, outcome.result_path, outcome.result, outcome.files = label, path, document, (path,)
        if outcome.ok:
            continue
        # A turn that is no retry (a resumed stage: nothing failed) may run again what an earlier attempt ran.
        untried = [a for a in step.attempts if not _already_run(req, a.code, retrying)]
        if retrying and not mine and untried and len(untried) == len(step.attempts):
            untried = untried[1:]       # the first choice failed in an attempt this request does not show
            if not untried:             # e.g. a direct question's answer: no other template to try
                outcome.errors = (*outcome.errors, f"{step.attempts[0].label}: already ran in an earlier attempt "
                                  "and no other template fits this stage")
        if untried and len(turn_runs) < MAX_RUNS_PER_TURN:
            return Reply.call("run_python", code=untried[0].code)
    return Reply.say(stage_summary(outcomes))


def _turn_start(req: ParsedRequest) -> int:
    """Index of the exchange before this turn's first one (-1 when the turn starts the history)."""
    return next((i for i, ex in enumerate(req.exchanges) if ex.current_turn), len(req.exchanges)) - 1


def _error_text(run: ToolExchange) -> str:
    error = str((run.response or {}).get("error") or "").strip() or "the code failed"
    return error.splitlines()[-1][:300]


def _files(run: ToolExchange) -> list[str]:
    response = run.response or {}
    files = list(response.get("files") or []) + list(response.get("figures") or [])
    return [f if isinstance(f, str) else str(f.get("path", f)) for f in files]


def stage_summary(outcomes: list[StepOutcome]) -> str:
    """The coder's final text: quotes each result's summary sentences (the numbers) and lists the files."""
    lines: list[str] = []
    for outcome in outcomes:
        lines.append(f"**{outcome.title}**")
        if outcome.ok:
            assert outcome.result is not None
            lines.append(f"Ran `{outcome.label}`; the result is in `{outcome.result_path}`.")
            lines += [f"- {sentence}" for sentence in outcome.result.get("summary") or []]
            notes = outcome.result.get("notes") or []
            if notes:
                lines.append("Notes: " + "; ".join(str(n) for n in notes))
            lines.append("Files: " + ", ".join(f"`{f}`" for f in outcome.files))
            if outcome.errors:
                lines.append("Earlier attempts failed: " + "; ".join(outcome.errors))
        else:
            lines.append("FAILED: no attempt produced a result.")
            lines += [f"- {e}" for e in outcome.errors] or ["- no code could be built for this stage"]
    return "\n".join(lines).strip()
