"""The offline coding agent: run each step's attempts with `run_python`, read the result, report it.

One call per turn, decided from the typed context (the task, the profile, the stage, the feedback of a retry) and
the tool history in the request:
  a step without a success     -> run_python(next attempt not run before)
  a run that went ok           -> read_file(its result JSON)
  every step done (or failed)  -> text: the result's summary sentences, the files, the failures
Successes count only in the current turn (a retry re-does the stage); code already run in any turn is never run
again, so a retry always tries something different.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentic_ds.offline.profile import readable_files
from agentic_ds.offline.request import ParsedRequest, Reply, ToolExchange, has_summary, read_json_file
from agentic_ds.offline.roles.attempts import Step, stage_step, task_steps
from agentic_ds.skills import SkillLibrary

MAX_RUNS_PER_TURN = 6
_TAIL_CHARS = 400          # enough of a generated script's end to recognise it in clipped code


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


def _run_here(req: ParsedRequest, code: str) -> bool:
    return any(ex.name == "run_python" and ex.args.get("code") == code for ex in req.exchanges)


def _already_run(req: ParsedRequest, code: str) -> bool:
    """Run in a call this request shows, or part of the stage's code run so far (tail-clipped)."""
    shown = req.text_of("previous_code")
    return _run_here(req, code) or bool(shown) and code.strip()[-_TAIL_CHARS:] in shown


def _next_action(req: ParsedRequest, steps: list[Step], retrying: bool) -> Reply:
    turn_runs = [ex for ex in req.turn if ex.name == "run_python"]
    outcomes: list[StepOutcome] = []
    for step in steps:
        outcome = StepOutcome(step.title)
        outcomes.append(outcome)
        codes = {a.code: a for a in step.attempts}
        mine = [ex for ex in turn_runs if ex.args.get("code") in codes]
        errors: list[str] = []
        for run in mine:
            attempt = codes[str(run.args["code"])]
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
        untried = [a for a in step.attempts if not (_already_run(req, a.code) if retrying else _run_here(req, a.code))]
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
