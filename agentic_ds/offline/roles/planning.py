"""The planning roles: plan_maker writes the plan, plan_reviewer checks it, plan_parser structures it, and the
confirmations turn a review into a decision."""

from __future__ import annotations

import difflib
import re

from agentic_ds.offline.planner.markdown import PlanStage, parse_plan, render_plan
from agentic_ds.offline.planner.plan import DEFAULT_MAX_STAGES, plan_for
from agentic_ds.offline.reader import read_question
from agentic_ds.offline.reader.addressing import content, covers
from agentic_ds.offline.request import ParsedRequest, Reply
from agentic_ds.profiling.model import DataProfile
from agentic_ds.skills import SkillLibrary
from agentic_ds.workflow.verdicts import explicit_verdict

_BACKTICKED = re.compile(r"`([^`\n]{1,200})`")
_STAGE_LINE = re.compile(r"^#+\s*(stage|step)|^\s*\d+[.)]\s", re.I | re.M)
_FILE_NAMED = re.compile(r"outputs/|figures/|\.json|\.csv|\.png")
MAX_LISTED_COLUMNS = 12
_PROBLEMS = "outputs/01-input-problems.json"


def plan_maker_turn(req: ParsedRequest, library: SkillLibrary) -> Reply:
    task = req.task()
    max_stages = int(req.context.get("max_stages") or DEFAULT_MAX_STAGES)
    try:
        plan = plan_for(task, req.profile(), library, max_stages)
    except ValueError as exc:   # nothing to analyse: one stage that reports the input problems
        stage = PlanStage("Report the input problems", "List the input files and why they could not be read.",
                          [_PROBLEMS])
        return Reply.say(render_plan([stage], [f"{_PROBLEMS} explains why no analysis was possible."],
                                     f"No input file could be analysed ({exc})."))
    text = plan.markdown(task)
    review = req.text_of("review")
    if review and not explicit_verdict(review):
        text += ("\n## Response to review\nThe stages use only files and columns listed in the data profile; each "
                 "stage's method is bound to those columns and each criterion names the file that proves it.\n")
    notes = req.text_of("user_notes")
    if notes.strip():
        # The offline planner plans from the task and the profile alone: it says so rather than claim a change.
        # The notes are quoted line by line, so no heading in them reads as a stage of the plan.
        quoted = "\n".join("> " + line for line in notes.strip().splitlines())
        text += ("\n## Response to the user's notes\n" + quoted + "\n\nThe offline model plans from the task "
                 "and the data profile only: these stages are the ones it can bind to the data; a capable model "
                 "revises the plan to the notes.\n")
    return Reply.say(text)


def plan_reviewer_turn(req: ParsedRequest) -> Reply:
    plan_text = req.text_of("plan")
    problems = review_plan(plan_text, req.task(), req.profile())
    if problems:
        return Reply.changes_requested(problems)
    parsed = parse_plan(plan_text)
    return Reply.say(f"APPROVED. {len(parsed.stages)} stage(s) use only columns that exist in the profile, cover the "
                     f"task, and {len(parsed.success_criteria)} success criteria name the files that will show them.")


def review_plan(plan_text: str, task: str, profile: DataProfile) -> list[str]:
    """Concrete problems of a plan: unknown columns, missing stages or criteria, the question not covered."""
    if not plan_text.strip():
        return ["The plan is empty: write stages and success criteria."]
    parsed = parse_plan(plan_text)
    problems: list[str] = []
    if not _STAGE_LINE.search(plan_text):
        problems.append("No stages found: list them as `### Stage N: Title` blocks.")
    if not parsed.success_criteria:
        problems.append("No success criteria: add a `## Success criteria` list of end states.")
    elif not any(_FILE_NAMED.search(c) for c in parsed.success_criteria):
        problems.append("No success criterion names a file; say which output shows each end state.")
    columns = {c.name for f in profile.files for c in f.columns}
    paths = {f.path for f in profile.files}
    if columns:
        listed = ", ".join(sorted(columns)[:MAX_LISTED_COLUMNS])
        problems += [f"`{token}` is not a column of the data (columns: {listed})."
                     for token in sorted(set(_BACKTICKED.findall(plan_text)))
                     if _looks_like_column(token, columns) and token not in columns and token not in paths]
    reading = read_question(task, profile)
    if reading.direct:
        problems += [f"No stage uses `{c}`, which the question is about." for c in reading.spec.columns
                     if c not in plan_text]
    return problems


def _looks_like_column(token: str, columns: set[str]) -> bool:
    """Snake-case words, or words spelled almost like a real column (a typo), are meant as columns."""
    if not re.fullmatch(r"[A-Za-z_][\w\-]{0,60}", token):
        return False
    return "_" in token or bool(difflib.get_close_matches(token, list(columns), n=1, cutoff=0.8))


def plan_parser_turn(req: ParsedRequest) -> Reply:
    parsed = parse_plan(req.text_of("plan"))
    document = parsed.as_json()
    if not document["success_criteria"]:
        outputs = [o for s in parsed.stages for o in s.expected_outputs if "*" not in o]
        document["success_criteria"] = ([f"{o} exists and states its result." for o in outputs]
                                        or [f"Stage '{s.title}' has produced its results." for s in parsed.stages])
    asks = [(a["id"], content(a["text"])) for a in req.asks()]
    document["success_criteria"] = [
        {"text": text, "asks": [ask for ask, terms in asks if covers(terms, said)]}
        for text, said in ((t, set(content(t))) for t in document["success_criteria"])]
    return Reply.json(document)


def confirmation_turn(req: ParsedRequest) -> Reply:
    """A review that starts with APPROVED ends the loop; anything else sends it round again."""
    review = req.text_of("review").strip()
    first = review.splitlines()[0].strip() if review else ""
    return Reply.json({"exit": bool(explicit_verdict(first)), "reason": first[:300] or "no review was given"})
