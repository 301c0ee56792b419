"""The planning roles: plan_maker writes the plan, plan_reviewer checks it, plan_parser structures it."""

from __future__ import annotations

import difflib
import re

from agentic_ds.offline.addressing import addresses
from agentic_ds.offline.intent import parse_intent
from agentic_ds.offline.plan_markdown import parse_plan
from agentic_ds.offline.planner import DEFAULT_MAX_STAGES, make_plan
from agentic_ds.offline.question import bind_question, data_for_task
from agentic_ds.offline.reply import Reply, profile_or_fetch
from agentic_ds.offline.request import ParsedRequest
from agentic_ds.offline.task_parts import Ask, extract_asks
from agentic_ds.profiling.model import DataProfile
from agentic_ds.skills import SkillLibrary

_MAX_STAGES = re.compile(r"(?:to|at most)\s+(\d+)\s+stages", re.I)
_BACKTICKED = re.compile(r"`([^`\n]+)`")


def plan_maker_turn(req: ParsedRequest, library: SkillLibrary) -> Reply:
    profile = profile_or_fetch(req)
    if isinstance(profile, Reply):
        return profile
    task = req.task
    limit = _MAX_STAGES.search(req.instruction)
    max_stages = int(limit.group(1)) if limit else DEFAULT_MAX_STAGES
    try:
        plan = make_plan(parse_intent(task), profile, library, max_stages=max_stages)
    except ValueError as exc:
        return Reply.say(_no_data_plan(str(exc)))
    text = plan.markdown(task)
    review = req.section("Review of your previous plan")
    if review and not review.lstrip().upper().startswith("APPROVED"):
        text += (
            "\n## Response to review\nThe stages use only files and columns listed in the data profile; each "
            "stage's method is bound to those columns and each criterion names the file that proves it.\n"
        )
    return Reply.say(text)


def _no_data_plan(problem: str) -> str:
    return (
        f"No input file could be analysed ({problem}).\n\n## Stages\n\n### Stage 1: Report the input problems\n"
        "List the input files and why they could not be read.\nExpected outputs: outputs/01-input-problems.json\n\n"
        "## Success criteria\n- outputs/01-input-problems.json explains why no analysis was possible.\n"
    )


def plan_reviewer_turn(req: ParsedRequest) -> Reply:
    profile = profile_or_fetch(req)
    if isinstance(profile, Reply):
        return profile
    plan_text = req.section("Plan")
    problems = review_plan(plan_text, req.task, profile)
    if problems:
        return Reply.say("CHANGES REQUESTED\n" + "\n".join(f"{i}. {p}" for i, p in enumerate(problems, start=1)))
    parsed = parse_plan(plan_text)
    return Reply.say(
        f"APPROVED. {len(parsed.stages)} stage(s) use only columns that exist in the profile, cover the task, and "
        f"{len(parsed.success_criteria)} success criteria name the files that will show them."
    )


def review_plan(plan_text: str, task: str, profile: DataProfile) -> list[str]:
    """Concrete problems of a plan: unknown columns, missing stages or criteria, the question not covered."""
    if not plan_text.strip():
        return ["The plan is empty: write stages and success criteria."]
    parsed = parse_plan(plan_text)
    problems: list[str] = []
    if not re.search(r"^#+\s*(stage|step)|^\s*\d+[.)]\s", plan_text, re.I | re.M):
        problems.append("No stages found: list them as `### Stage N: Title` blocks.")
    if not parsed.success_criteria:
        problems.append("No success criteria: add a `## Success criteria` list of end states.")
    elif not any(re.search(r"outputs/|figures/|\.json|\.csv|\.png", c) for c in parsed.success_criteria):
        problems.append("No success criterion names a file; say which output shows each end state.")
    columns = {c.name for f in profile.files for c in f.columns}
    paths = {f.path for f in profile.files}
    if columns:
        for token in sorted(set(_BACKTICKED.findall(plan_text))):
            if _looks_like_column(token, columns) and token not in columns and token not in paths:
                problems.append(f"`{token}` is not a column of the data (columns: {', '.join(sorted(columns)[:12])}).")
    intent = parse_intent(task)
    data = data_for_task(profile, task)
    if intent.is_direct and data is not None:
        question = bind_question(intent, data)
        for column in question.columns:
            if column not in plan_text:
                problems.append(f"No stage uses `{column}`, which the question is about.")
    return problems


def _looks_like_column(token: str, columns: set[str]) -> bool:
    """Snake-case words, or words spelled almost like a real column (a typo), are meant as columns."""
    if not re.fullmatch(r"[A-Za-z_][\w\-]{0,60}", token):
        return False
    return "_" in token or bool(difflib.get_close_matches(token, list(columns), n=1, cutoff=0.8))


def plan_parser_turn(req: ParsedRequest) -> Reply:
    # The prompt's own instructions follow the plan inside the last section; they are not part of the plan.
    plan_text = req.section("Plan").split("\nAnswer with JSON only")[0]
    parsed = parse_plan(plan_text)
    document = parsed.as_json()
    if not document["success_criteria"]:
        outputs = [o for s in parsed.stages for o in s.expected_outputs if "*" not in o]
        document["success_criteria"] = (
            [f"{o} exists and states its result." for o in outputs]
            or [f"Stage '{s.title}' has produced its results." for s in parsed.stages]
        )
    asks = [(str(a.get("id")), _read_ask(str(a.get("text") or ""))) for a in req.context.get("asks") or []]
    document["success_criteria"] = [
        {"text": text, "asks": [i for i, ask in asks if ask is not None and addresses(ask, text, plan=True)]}
        for text in document["success_criteria"]]
    return Reply.json(document)


def _read_ask(text: str) -> Ask | None:
    """An ask as the offline reader reads its own words (the first reading it finds)."""
    found = extract_asks(text)
    return found[0] if found else None
