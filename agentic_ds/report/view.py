"""`RunView`: everything a report shows, read from a run directory and nothing else.

Loading never fails on a partial or broken run: a missing or unreadable file becomes an entry in
`RunView.problems` and the parts that depend on it are shown as missing. Every path read from the
run's own JSON goes through `Workspace.resolve`, so a record cannot make a report embed a file from
outside the run directory.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_ds.errors import PathEscape
from agentic_ds.followups.record import FollowupRecord, folder_of, list_records
from agentic_ds.report import tables
from agentic_ds.report.coerce import (
    as_int,
    as_str,
    dicts,
    duration_s,
    read_json_object,
    read_tail,
    read_text,
)
from agentic_ds.report.formatting import count, duration
from agentic_ds.report.model import REPORT_FILES, FigureRef, InputView, RunView, StageView
from agentic_ds.report.quotes import ANSWER_CHARS, ITEM_CHARS, REPORT_TEXT_CHARS, calls_note, quote
from agentic_ds.report.tables import TableView
from agentic_ds.runs import run_lock, safe_files
from agentic_ds.schema import (
    Attempt,
    CriterionRecord,
    FinalAnswer,
    PlanFile,
    RunRecord,
    RunStatus,
    StageResult,
    StageStatus,
    read_model,
)
from agentic_ds.workspace import Workspace

APPENDIX_MARKER = "<!-- agentic-ds:appendix -->"
APPENDIX_END_MARKER = "<!-- /agentic-ds:appendix -->"
GENERATED_MARKER = "<!-- agentic-ds:generated -->"  # report.md written by us, not by the summary agent
NO_AGENT_REPORT = "the summary step did not write report.md"

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp"}
_CODE_CAP_CHARS = 200_000
_OUTPUT_TAIL_BYTES = 4_000


# -- loading ----------------------------------------------------------------------------------------
def load_run_view(root: Path | str) -> RunView:
    """Read a run directory into a `RunView`. Never raises on missing or malformed content."""
    ws = Workspace(Path(root))
    problems: list[str] = []
    # Wrong types become defaults: a run.json edited by hand, or cut short, still shows what it holds.
    record = read_model(RunRecord, _read_json(ws, "run.json", problems, quiet=True), problems, "run.json: ")
    # Simple mode makes no plan: a missing plan.json is a gap only in orchestrated mode.
    planless = (record is not None and record.mode == "simple")
    plan = read_model(PlanFile, _read_json(ws, "plan.json", problems, quiet=planless), problems, "plan.json: ")
    record, plan = record or RunRecord(), plan or PlanFile()
    profile = _read_json(ws, "data_profile.json", problems, quiet=True)

    view = RunView(root=ws.root, **{name: value for name, value in record if name != "stages"})
    view.problems = problems  # the same list: what is read below adds to it
    view.id = record.id or ws.root.name
    if run_lock.died(ws.root, view.status):
        view.status, view.reason = RunStatus.INTERRUPTED, run_lock.DIED_REASON
    if view.wall_s is None:
        view.wall_s = duration_s(view.started_at, view.ended_at or "")
    view.reason = quote(view.reason, ANSWER_CHARS)
    view.warnings = [quote(w, ITEM_CHARS) for w in view.warnings]
    view.final_answer = _quoted_answer(view.final_answer)
    view.context_note = context_note(record.context)
    view.calls_note = calls_note(record.calls)
    view.attempts_note = attempts_note(record.attempts)
    view.criteria = _criteria(record, plan)
    view.input_views = _inputs(ws, record, profile)
    view.not_profiled = len(profile.get("not_profiled") or []) if isinstance(profile.get("not_profiled"), list) else 0
    view.stages = _stages(ws, record, plan, problems)
    view.report_text = _report_text(ws, problems)
    view.followups = _followups(ws)
    _attach_unclaimed(ws, view)
    view.artifacts = {name: ws.file(name).exists() for name in
                      ("run.json", "plan.md", "plan.json", "data_profile.json", "analysis.ipynb",
                       "events.jsonl", *REPORT_FILES)}
    if not view.has_record:
        problems.append("run.json is missing: status, timings and cost are unknown")
    return view


def _followups(ws: Workspace) -> list[FollowupRecord]:
    """The follow-up questions asked on the run; one whose process died says so."""
    out = []
    for record in list_records(ws.root):
        if run_lock.died(folder_of(ws.root) / record.id, record.status):
            record.status, record.reason = RunStatus.INTERRUPTED, run_lock.DIED_REASON
        record.answer, record.reason = quote(record.answer, ANSWER_CHARS), quote(record.reason, ANSWER_CHARS)
        out.append(record)
    return out


def split_report(text: str) -> tuple[str, str]:
    """Split report.md into (text before our appendix, text after the appendix's end marker)."""
    start = text.find(APPENDIX_MARKER)
    if start < 0:
        return text, ""
    end = text.find(APPENDIX_END_MARKER, start)
    after = text[end + len(APPENDIX_END_MARKER):] if end >= 0 else ""
    return text[:start], after


def _report_text(ws: Workspace, problems: list[str]) -> str | None:
    """The summary agent's markdown, or None when it wrote none (missing, empty, or ours)."""
    text = read_text(ws.file("report.md"), root=ws.root)
    head = split_report(text)[0] if text is not None else ""
    if not head.strip() or head.lstrip().startswith(GENERATED_MARKER):
        # One wording whether the file is absent or is our own stand-in, so re-rendering is stable.
        problems.append(NO_AGENT_REPORT)
        return None
    return quote(head.strip(), REPORT_TEXT_CHARS, "the model's reply in events.jsonl")


def _stages(ws: Workspace, record: RunRecord, plan: PlanFile, problems: list[str]) -> list[StageView]:
    """Stages as the run recorded them, then planned stages that never ran, then stray stage dirs."""
    planned = {(p.id or f"s{i + 1}"): p for i, p in enumerate(plan.stages)}
    stages = [StageView(**dict(stage)) for stage in record.stages]
    known_ids = {s.id for s in stages}
    for sid, entry in planned.items():
        if sid not in known_ids:
            stages.append(StageView(id=sid, title=entry.title))
    claimed_dirs = {s.dir.rstrip("/") for s in stages if s.dir}
    if ws.stages.is_dir():
        for stage_dir in sorted(p for p in ws.stages.iterdir() if stat.S_ISDIR(p.lstat().st_mode)):
            rel = ws.rel(stage_dir)
            if rel in claimed_dirs:
                continue
            result = _stage_result(ws, rel, problems, quiet=True)
            match = next((s for s in stages if result.id and s.id == result.id and not s.dir), None)
            number = stage_dir.name.split("-", 1)[0]
            if match is None and not result.id and number.isdigit() and 0 < int(number) <= len(stages):
                # A stage that had begun when the run stopped: its folder is named after its place in the plan.
                match = stages[int(number) - 1] if not stages[int(number) - 1].dir else None
            if match:
                match.dir = rel
            else:
                stages.append(StageView(id=result.id or stage_dir.name, title=result.title or stage_dir.name, dir=rel))
    for stage in stages:
        plan_entry = planned.get(stage.id)
        if plan_entry is not None:
            stage.description = plan_entry.description
            stage.expected_outputs = plan_entry.expected_outputs
        stage.title = stage.title or (plan_entry.title if plan_entry else "") or stage.id
        if stage.dir:
            _fill_stage(ws, stage, problems)
    return stages


def _fill_stage(ws: Workspace, stage: StageView, problems: list[str]) -> None:
    try:
        stage_dir = ws.resolve(stage.dir)
    except PathEscape as exc:
        problems.append(f"stage {stage.id}: directory {stage.dir!r} refused ({exc.message})")
        stage.dir = ""
        return
    if not stage_dir.is_dir():
        problems.append(f"stage {stage.id}: directory {stage.dir} is missing")
        return
    result = _stage_result(ws, stage.dir, problems, quiet=stage.status in (StageStatus.PENDING, StageStatus.RUNNING))
    stage.summary = quote(result.summary, ANSWER_CHARS, f"{stage.dir}/result.json")
    stage.review = result.review or read_text(stage_dir / "review.md", root=ws.root, limit=_CODE_CAP_CHARS) or ""
    if result.status is not None and stage.status is StageStatus.PENDING:
        stage.status = result.status
    stage.attempts = stage.attempts or result.attempts
    stage.code, stage.code_path = _stage_code(ws, stage_dir)
    stage.last_output = _last_output(ws, stage_dir)
    figures = list(result.figures)
    # Figures are named after their stage's number (`figures/02-...png`), whatever slug follows it.
    number = stage_dir.name.split("-", 1)[0]
    if number.isdigit():
        figures += [ws.rel(p) for p in _images(ws) if p.name.startswith(f"{number}-")]
    resolved = (_figure(ws, stage_dir, f, problems) for f in dict.fromkeys(figures))
    stage.figures = list({f.path: f for f in resolved}.values())
    stage.files = list(result.files)
    for rel in stage.files:
        if rel.lower().endswith(".csv"):
            table = _table(ws, rel, problems)
            if table:
                stage.tables.append(table)


def _stage_code(ws: Workspace, stage_dir: Path) -> tuple[str | None, str | None]:
    code_file = stage_dir / "code.py"
    code = read_text(code_file, root=ws.root, limit=_CODE_CAP_CHARS)
    if code is not None:
        return code, ws.rel(code_file)
    cells = _plain_files(ws, stage_dir, lambda name: name.startswith("cell_") and name.endswith(".py"))
    if not cells:
        return None, None
    joined = "\n\n".join(
        f"# --- {p.name} ---\n{read_text(p, root=ws.root, limit=_CODE_CAP_CHARS) or ''}" for p in cells
    )
    return _cap(joined, _CODE_CAP_CHARS), ws.rel(stage_dir)


def _last_output(ws: Workspace, stage_dir: Path) -> str | None:
    outs = _plain_files(ws, stage_dir, lambda name: name.startswith("cell_") and name.endswith(".out.txt"))
    if not outs:
        return None
    return read_tail(outs[-1], _OUTPUT_TAIL_BYTES, root=ws.root)


def _plain_files(ws: Workspace, folder: Path, wanted: Callable[[str], bool]) -> list[Path]:
    """The plain files directly in `folder` whose names pass `wanted`, sorted; links are never listed."""
    try:
        entries = safe_files.walk(folder, root=ws.root)
    except (OSError, ValueError):
        return []
    return sorted(
        ws.root / e.rel for e in entries
        if e.suspicious is None and "/" not in os.path.relpath(ws.root / e.rel, folder) and wanted(Path(e.rel).name)
    )


def _figure(ws: Workspace, stage_dir: Path, path: str, problems: list[str]) -> FigureRef:
    candidates = [path, f"{ws.rel(stage_dir)}/{path}", f"figures/{Path(path).name}"]
    for rel in candidates:
        try:
            full = ws.resolve(rel)
        except PathEscape:
            continue
        if safe_files.file_problem(full, root=ws.root) is None:
            return FigureRef(path=ws.rel(full), file=full)
    problems.append(f"figure {path} is missing")
    return FigureRef(path=path, file=None)


def _table(ws: Workspace, rel: str, problems: list[str]) -> TableView | None:
    try:
        full = ws.resolve(rel)
    except PathEscape as exc:
        problems.append(f"table {rel!r} refused ({exc.message})")
        return None
    problem = safe_files.file_problem(full, root=ws.root)
    if problem is not None:
        problems.append(f"table {rel} is {problem}" + ("" if problem == "missing" else ": not read"))
        return None
    return tables.read_csv_preview(full, ws.rel(full), root=ws.root)


def _attach_unclaimed(ws: Workspace, view: RunView) -> None:
    claimed_figures = {f.path for s in view.stages for f in s.figures}
    view.extra_figures = [FigureRef(ws.rel(p), p) for p in _images(ws) if ws.rel(p) not in claimed_figures]
    view.outputs = sorted(
        e.rel for e in safe_files.walk(ws.outputs, root=ws.root)
        if e.suspicious is None and not Path(e.rel).name.startswith(".")
    )
    claimed_files = {f for s in view.stages for f in s.files}
    for rel in view.outputs:
        if rel.lower().endswith(".csv") and rel not in claimed_files:
            table = _table(ws, rel, view.problems)
            if table:
                view.extra_tables.append(table)


def _images(ws: Workspace) -> list[Path]:
    return _plain_files(ws, ws.figures, lambda name: Path(name).suffix.lower() in IMAGE_SUFFIXES)


def _criteria(record: RunRecord, plan: PlanFile) -> list[CriterionRecord]:
    """The criteria as last checked, else as planned (unchecked)."""
    if record.criteria:
        return record.criteria
    return [CriterionRecord(id=f"c{i + 1}", text=text.strip()) for i, text in enumerate(plan.success_criteria)
            if text.strip()]


def _stage_result(ws: Workspace, rel_dir: str, problems: list[str], *, quiet: bool) -> StageResult:
    where = f"{rel_dir}/result.json"
    return (
        read_model(StageResult, _read_json(ws, where, problems, quiet=quiet), problems, f"{where}: ") or StageResult()
    )


def _quoted_answer(answer: FinalAnswer | None) -> FinalAnswer | None:
    """The final answer as the reports quote it: a runaway reply is cut, its lists kept to 50 items."""
    if answer is None:
        return None
    return answer.model_copy(update={
        "answer": quote(answer.answer, ANSWER_CHARS),
        "caveats": [quote(c, ITEM_CHARS) for c in answer.caveats[:50]],
        "reasoning_trace": [quote(r, ITEM_CHARS) for r in answer.reasoning_trace[:50]],
    })


def _inputs(ws: Workspace, record: RunRecord, profile: dict[str, Any]) -> list[InputView]:
    """Input files with their shape when the profile says it (tolerant of the profile's layout)."""
    shapes: dict[str, InputView] = {}
    entries = dicts(profile.get("files")) or dicts(profile.get("tables"))
    for entry in entries:
        name = as_str(entry.get("path") or entry.get("file") or entry.get("name"))
        if not name:
            continue
        columns = entry.get("columns")
        n_cols = len(columns) if isinstance(columns, list | dict) else as_int(entry.get("n_columns")) or None
        rows = entry.get("rows", entry.get("row_count"))
        shapes[name] = InputView(path=name, rows=as_int(rows) if rows is not None else None, columns=n_cols)
    by_file_name: dict[str, InputView] = {}          # the first profiled file of each name (paths may differ)
    for key, view in shapes.items():
        by_file_name.setdefault(Path(key).name, view)
    names = record.inputs or [ws.rel(p) for p in ws.input_files()]
    views = []
    for name in names or list(shapes):
        match = shapes.get(name) or by_file_name.get(Path(name).name)
        views.append(InputView(path=name, rows=match.rows, columns=match.columns) if match else InputView(path=name))
    return views


def attempts_note(attempts: list[Attempt]) -> str:
    """`2 attempts (resumed once): 1. interrupted after 3.1 s; 2. completed after 2.8 s.`; empty for one attempt."""
    if len(attempts) < 2:
        return ""
    parts = [f"{i}. {a.status.label} after {duration(a.wall_s)}" for i, a in enumerate(attempts, 1)]
    resumed = len(attempts) - 1
    return (f"{len(attempts)} attempts (resumed {'once' if resumed == 1 else f'{resumed} times'}): "
            + "; ".join(parts) + ".")


def context_note(context: dict[str, Any]) -> str:
    """One sentence on how the run kept its prompts in budget (run.json's `context`); empty when not recorded."""
    parts: list[str] = []
    budget, largest = as_int(context.get("budget_tokens")), as_int(context.get("max_prompt_tokens"))
    if budget:
        over = as_int(context.get("over_budget_calls")) or 0
        limit = f"the {count(budget)}-token budget (largest prompt {count(largest)})"
        parts.append(
            f"{_plural(over, 'prompt')} went over {limit} even after compaction"
            if over
            else f"every prompt fit {limit}"
        )
        parts.append(_plural(as_int(context.get("compactions")) or 0, "compaction"))
    if "loop_divergences" in context:
        redirections = _plural(as_int(context.get("loop_divergences")) or 0, "redirection")
        parts.append(f"loop guard: {redirections}, {_plural(as_int(context.get('loop_stops')) or 0, 'stop')}")
    return ("Context: " + "; ".join(parts) + ".") if parts else ""


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _read_json(ws: Workspace, rel: str, problems: list[str], *, quiet: bool = False) -> dict[str, Any]:
    return read_json_object(ws.root / rel, rel, problems, root=ws.root, quiet=quiet)


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n# … truncated ({len(text) - limit} more characters)\n"
