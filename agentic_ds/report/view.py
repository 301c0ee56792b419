"""`RunView`: everything a report shows, read from a run directory and nothing else.

Loading never fails on a partial or broken run: a missing or unreadable file becomes an entry in
`RunView.problems` and the parts that depend on it are shown as missing. Every path read from the
run's own JSON goes through `Workspace.resolve`, so a record cannot make a report embed a file from
outside the run directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentic_ds.errors import PathEscape
from agentic_ds.report import tables
from agentic_ds.report.coerce import (
    as_dict,
    as_float,
    as_int,
    as_list,
    as_str,
    dicts,
    duration_s,
    read_json_object,
    read_tail,
    read_text,
    strings,
)
from agentic_ds.report.formatting import count
from agentic_ds.report.model import (
    REPORT_FILES,
    AgentUsage,
    CriterionView,
    FigureRef,
    FinalAnswer,
    InputView,
    ModelCost,
    RunView,
    StageView,
)
from agentic_ds.report.quotes import ANSWER_CHARS, ITEM_CHARS, REPORT_TEXT_CHARS, calls_note, quote
from agentic_ds.report.tables import TableView
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
    record = _read_json(ws, "run.json", problems, quiet=True)
    plan = _read_json(ws, "plan.json", problems)
    profile = _read_json(ws, "data_profile.json", problems, quiet=True)

    view = RunView(root=ws.root, id=as_str(record.get("id")) or ws.root.name, problems=problems)
    view.task = as_str(record.get("task"))
    view.mode = as_str(record.get("mode"))
    view.status = as_str(record.get("status")) or "unknown"
    view.reason = quote(as_str(record.get("reason")), ANSWER_CHARS)
    view.started_at = as_str(record.get("started_at"))
    view.ended_at = as_str(record.get("ended_at"))
    view.wall_s = as_float(record.get("wall_s"))
    if view.wall_s is None:
        view.wall_s = duration_s(view.started_at, view.ended_at)
    view.models = {str(k): as_str(v) for k, v in as_dict(record.get("models")).items()}
    view.isolation = as_str(record.get("isolation"))
    view.agents = [_agent(name, as_dict(data)) for name, data in as_dict(record.get("agents")).items()]
    cost = as_dict(record.get("cost"))
    view.costs = [_model_cost(name, as_dict(data)) for name, data in as_dict(cost.get("by_model")).items()]
    view.total_usd = as_float(cost.get("total_usd")) if "total_usd" in cost else _sum_usd(view.costs)
    view.context_note = context_note(as_dict(record.get("context")))
    view.calls_note = calls_note(as_dict(record.get("calls")))
    view.criteria = _criteria(record, plan)
    view.warnings = [quote(w, ITEM_CHARS) for w in strings(record.get("warnings"))]
    view.final_answer = _final_answer(as_dict(record.get("final_answer")))
    view.inputs = _inputs(ws, record, profile)
    view.stages = _stages(ws, record, plan, problems)
    view.report_text = _report_text(ws, problems)
    _attach_unclaimed(ws, view)
    view.artifacts = {name: ws.file(name).exists() for name in
                      ("run.json", "plan.md", "plan.json", "data_profile.json", "analysis.ipynb",
                       "events.jsonl", *REPORT_FILES)}
    if not view.has_record:
        problems.append("run.json is missing: status, timings and cost are unknown")
    return view


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
    text = read_text(ws.file("report.md")) if ws.file("report.md").is_file() else None
    head = split_report(text)[0] if text is not None else ""
    if not head.strip() or head.lstrip().startswith(GENERATED_MARKER):
        # One wording whether the file is absent or is our own stand-in, so re-rendering is stable.
        problems.append(NO_AGENT_REPORT)
        return None
    return quote(head.strip(), REPORT_TEXT_CHARS, "the model's reply in events.jsonl")


def _stages(ws: Workspace, record: dict[str, Any], plan: dict[str, Any], problems: list[str]) -> list[StageView]:
    """Stages as the run recorded them, then planned stages that never ran, then stray stage dirs."""
    stages: list[StageView] = []
    planned = {(as_str(p.get("id")) or f"s{i + 1}"): p for i, p in enumerate(dicts(plan.get("stages")))}
    for raw in dicts(record.get("stages")):
        stages.append(StageView(id=as_str(raw.get("id")), title=as_str(raw.get("title")), status=as_str(raw.get("status")) or "pending",
                                attempts=as_int(raw.get("attempts")), dir=as_str(raw.get("dir"))))
    known_ids = {s.id for s in stages}
    for sid, raw in planned.items():
        if sid not in known_ids:
            stages.append(StageView(id=sid, title=as_str(raw.get("title"))))
    claimed_dirs = {s.dir.rstrip("/") for s in stages if s.dir}
    if ws.stages.is_dir():
        for stage_dir in sorted(p for p in ws.stages.iterdir() if p.is_dir()):
            rel = ws.rel(stage_dir)
            if rel in claimed_dirs:
                continue
            result = _read_json(ws, f"{rel}/result.json", problems, quiet=True)
            sid = as_str(result.get("id"))
            match = next((s for s in stages if sid and s.id == sid and not s.dir), None)
            if match:
                match.dir = rel
            else:
                stages.append(StageView(id=sid or stage_dir.name, title=as_str(result.get("title")) or stage_dir.name, dir=rel))
    for stage in stages:
        plan_entry = as_dict(planned.get(stage.id))
        stage.description = as_str(plan_entry.get("description"))
        stage.expected_outputs = strings(plan_entry.get("expected_outputs"))
        stage.title = stage.title or as_str(plan_entry.get("title")) or stage.id
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
    result = _read_json(ws, f"{stage.dir}/result.json", problems, quiet=stage.status == "pending")
    stage.summary = quote(as_str(result.get("summary")), ANSWER_CHARS, f"{stage.dir}/result.json")
    stage.review = as_str(result.get("review")) or read_text(stage_dir / "review.md", limit=_CODE_CAP_CHARS) or ""
    if result.get("status") and stage.status == "pending":
        stage.status = as_str(result.get("status"))
    stage.attempts = stage.attempts or as_int(result.get("attempts"))
    stage.code, stage.code_path = _stage_code(ws, stage_dir)
    stage.last_output = _last_output(stage_dir)
    figures = strings(result.get("figures"))
    # Figures are named after their stage's number (`figures/02-...png`), whatever slug follows it.
    number = stage_dir.name.split("-", 1)[0]
    if number.isdigit():
        figures += [ws.rel(p) for p in _images(ws.figures) if p.name.startswith(f"{number}-")]
    resolved = (_figure(ws, stage_dir, f, problems) for f in dict.fromkeys(figures))
    stage.figures = list({f.path: f for f in resolved}.values())
    stage.files = strings(result.get("files"))
    for rel in stage.files:
        if rel.lower().endswith(".csv"):
            table = _table(ws, rel, problems)
            if table:
                stage.tables.append(table)


def _stage_code(ws: Workspace, stage_dir: Path) -> tuple[str | None, str | None]:
    code_file = stage_dir / "code.py"
    if code_file.is_file():
        return read_text(code_file, limit=_CODE_CAP_CHARS) or "", ws.rel(code_file)
    cells = sorted(p for p in stage_dir.glob("cell_*.py") if p.is_file())
    if not cells:
        return None, None
    joined = "\n\n".join(f"# --- {p.name} ---\n{read_text(p, limit=_CODE_CAP_CHARS) or ''}" for p in cells)
    return _cap(joined, _CODE_CAP_CHARS), ws.rel(stage_dir)


def _last_output(stage_dir: Path) -> str | None:
    outs = sorted(p for p in stage_dir.glob("cell_*.out.txt") if p.is_file())
    if not outs:
        return None
    return read_tail(outs[-1], _OUTPUT_TAIL_BYTES)


def _figure(ws: Workspace, stage_dir: Path, path: str, problems: list[str]) -> FigureRef:
    candidates = [path, f"{ws.rel(stage_dir)}/{path}", f"figures/{Path(path).name}"]
    for rel in candidates:
        try:
            full = ws.resolve(rel)
        except PathEscape:
            continue
        if full.is_file():
            return FigureRef(path=ws.rel(full), file=full)
    problems.append(f"figure {path} is missing")
    return FigureRef(path=path, file=None)


def _table(ws: Workspace, rel: str, problems: list[str]) -> TableView | None:
    try:
        full = ws.resolve(rel)
    except PathEscape as exc:
        problems.append(f"table {rel!r} refused ({exc.message})")
        return None
    if not full.is_file():
        problems.append(f"table {rel} is missing")
        return None
    return tables.read_csv_preview(full, ws.rel(full))


def _attach_unclaimed(ws: Workspace, view: RunView) -> None:
    claimed_figures = {f.path for s in view.stages for f in s.figures}
    view.extra_figures = [FigureRef(ws.rel(p), p) for p in _images(ws.figures) if ws.rel(p) not in claimed_figures]
    if ws.outputs.is_dir():
        view.outputs = sorted(ws.rel(p) for p in ws.outputs.rglob("*") if p.is_file() and not p.name.startswith("."))
    claimed_files = {f for s in view.stages for f in s.files}
    for rel in view.outputs:
        if rel.lower().endswith(".csv") and rel not in claimed_files:
            table = _table(ws, rel, view.problems)
            if table:
                view.extra_tables.append(table)


def _images(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def _criteria(record: dict[str, Any], plan: dict[str, Any]) -> list[CriterionView]:
    recorded = [CriterionView(id=as_str(c.get("id")), text=as_str(c.get("text")),
                              met=c.get("met") if isinstance(c.get("met"), bool) else None,
                              evidence=as_str(c.get("evidence"))) for c in dicts(record.get("criteria"))]
    if recorded:
        return recorded
    return [CriterionView(id=f"c{i + 1}", text=as_str(text), met=None)
            for i, text in enumerate(as_list(plan.get("success_criteria"))) if as_str(text)]


def _final_answer(raw: dict[str, Any]) -> FinalAnswer | None:
    answer = as_str(raw.get("answer"))
    if not answer:
        return None
    return FinalAnswer(answer=quote(answer, ANSWER_CHARS), confidence=quote(as_str(raw.get("confidence")), ITEM_CHARS),
                       caveats=[quote(c, ITEM_CHARS) for c in strings(raw.get("caveats"))[:50]],
                       reasoning_trace=[quote(r, ITEM_CHARS) for r in strings(raw.get("reasoning_trace"))[:50]],
                       output_type=as_str(raw.get("output_type"))[:100])


def _inputs(ws: Workspace, record: dict[str, Any], profile: dict[str, Any]) -> list[InputView]:
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
    names = strings(record.get("inputs")) or [ws.rel(p) for p in ws.input_files()]
    views = []
    for name in names or list(shapes):
        match = shapes.get(name) or next((v for k, v in shapes.items() if Path(k).name == Path(name).name), None)
        views.append(InputView(path=name, rows=match.rows, columns=match.columns) if match else InputView(path=name))
    return views


def _agent(name: str, data: dict[str, Any]) -> AgentUsage:
    wall = data.get("wall_s")
    return AgentUsage(name=str(name), llm_calls=as_int(data.get("llm_calls")), input_tokens=as_int(data.get("input_tokens")),
                      output_tokens=as_int(data.get("output_tokens")), wall_s=as_float(wall) if wall is not None else None)


def _model_cost(name: str, data: dict[str, Any]) -> ModelCost:
    usd = data.get("usd")
    return ModelCost(model=str(name), calls=as_int(data.get("calls")), input_tokens=as_int(data.get("input_tokens")),
                     output_tokens=as_int(data.get("output_tokens")), usd=as_float(usd) if usd is not None else None)


def context_note(context: dict[str, Any]) -> str:
    """One sentence on how the run kept its prompts in budget (run.json's `context`); empty when not recorded."""
    parts: list[str] = []
    budget, largest = as_int(context.get("budget_tokens")), as_int(context.get("max_prompt_tokens"))
    if budget:
        over = as_int(context.get("over_budget_calls")) or 0
        limit = f"the {count(budget)}-token budget (largest prompt {count(largest)})"
        parts.append(f"{_plural(over, 'prompt')} went over {limit} even after compaction" if over else f"every prompt fit {limit}")
        parts.append(_plural(as_int(context.get("compactions")) or 0, "compaction"))
    if "loop_divergences" in context:
        redirections = _plural(as_int(context.get("loop_divergences")) or 0, "redirection")
        parts.append(f"loop guard: {redirections}, {_plural(as_int(context.get('loop_stops')) or 0, 'stop')}")
    return ("Context: " + "; ".join(parts) + ".") if parts else ""


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _sum_usd(costs: list[ModelCost]) -> float | None:
    known = [c.usd for c in costs if c.usd is not None]
    return sum(known) if known else None


def _read_json(ws: Workspace, rel: str, problems: list[str], *, quiet: bool = False) -> dict[str, Any]:
    return read_json_object(ws.root / rel, rel, problems, quiet=quiet)


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n# … truncated ({len(text) - limit} more characters)\n"
