"""The generated parts of report.md: the run-record appendix, and the stand-in for a missing report.

Both are pure functions of the `RunView` (no clock, no absolute paths), so rendering twice gives the
same text and `write_reports` is idempotent.
"""

from __future__ import annotations

from agentic_ds.evidence.status import CONFIDENCE_RULE
from agentic_ds.report import formatting as fmt
from agentic_ds.report.model import RunView, StageView
from agentic_ds.report.view import APPENDIX_END_MARKER, APPENDIX_MARKER, GENERATED_MARKER

_LIST_CAP = 20  # file names listed per artifact group before "… and N more"
_SKIPPED_CAP = 100  # skipped inputs listed with their reasons; run.json holds every one


def render_markdown_appendix(view: RunView) -> str:
    """The run record appended to report.md, between the appendix markers."""
    parts = [APPENDIX_MARKER, "---", "", "## Run record", "", *_summary_table(view), ""]
    parts += _section("Answer by ask", _ask_lines(view))
    parts += _section("Follow-up questions", _followup_lines(view))
    parts += _section("Stages", _stage_table(view.stages))
    parts += _section("Success criteria", _criteria_table(view))
    parts += _section("Warnings", [f"- {_inline(w)}" for w in view.warnings])
    parts += _section("Skipped inputs", _skipped_lines(view))
    parts += _section("Gaps in the run directory", [f"- {_inline(p)}" for p in view.problems])
    parts += _section("Artifacts", _artifact_lines(view))
    parts += _section("Cost", _cost_lines(view))
    return "\n".join([*parts, APPENDIX_END_MARKER]).rstrip() + "\n"


def render_missing_report(view: RunView) -> str:
    """What report.md says when the summary step wrote nothing: the truth, and what was done."""
    title = view.task or view.id
    lines = [GENERATED_MARKER, f"# {_inline(title)}", ""]
    if view.final_answer and view.final_answer.answer.strip():
        lines += [f"**Answer:** {view.final_answer.answer}", ""]
    else:
        lines += ["**No answer.** " + _status_sentence(view), ""]
    lines += ["The summary step did not write a report, so this one was generated from the run directory.", ""]
    done = [_stage_line(i, s) for i, s in enumerate(view.stages, 1)]
    if done:
        lines += ["## What was done", "", *done, ""]
    figures, outputs = len(view.all_figures), len(view.outputs)
    if figures or outputs:
        lines += [f"The run left {figures} figure(s) and {outputs} output file(s); see the artifacts below.", ""]
    return "\n".join(lines)


def _status_sentence(view: RunView) -> str:
    sentence = f"The run ended with status **{fmt.status_label(view.status)}**"
    return sentence + (f": {_inline(view.reason)}" if view.reason else ".")


def _stage_line(number: int, stage: StageView) -> str:
    if stage.not_run:
        outcome = "not run"
    else:
        outcome = f"{fmt.status_label(stage.status)} after {fmt.attempts(stage.attempts)}"
    summary = f" {_inline(stage.summary)}" if stage.summary else ""
    return f"- Stage {number}, {_inline(stage.title)}: {outcome}.{summary}"


def _summary_table(view: RunView) -> list[str]:
    rows = [
        ("Status", f"**{fmt.status_label(view.status)}**" + (f": {view.reason}" if view.reason else "")),
        ("Run", f"`{view.id}`" + (f" ({view.mode} mode)" if view.mode else "")),
        *([("Title", view.title)] if view.title else []),
        ("Task", view.task or "-"),
        ("Started", fmt.when(view.started_at)),
        ("Wall time", fmt.duration(view.wall_s)),
    ]
    if view.attempts_note:
        rows.append(("Attempts", view.attempts_note))
    if view.final_answer and view.final_answer.confidence:
        basis = view.final_answer.confidence_basis
        rows.append(("Confidence", view.final_answer.confidence + (f" ({basis})" if basis else "")))
    if view.models:
        rows.append(("Models", ", ".join(f"{role}: `{model}`" for role, model in view.models.items())))
    if view.isolation:
        rows.append(("Code isolation", view.isolation))
    return ["| | |", "|---|---|", *(f"| {name} | {_cell(value)} |" for name, value in rows)]


def _ask_lines(view: RunView) -> list[str]:
    """Each ask of the task and what the answer says about it, then the confidence rule."""
    final = view.final_answer
    if final is None or not final.asks:
        return []
    lines = ["| Ask | Answered | Answer | Why | Judge |", "|---|---|---|---|---|"]
    for ask in final.asks:
        answered = f"yes ({ask.basis})" if ask.answered else "**no**"
        lines.append(f"| {_cell(ask.ask)} | {answered} | {_cell(ask.answer) or '-'} | {_cell(ask.why) or '-'} "
                     f"| {_cell(ask.judge) or '-'} |")
    if final.untraced_numbers:
        lines += ["", "Figures of the answer found in no output of executed code: "
                  + ", ".join(f"`{n}`" for n in final.untraced_numbers[:_LIST_CAP]) + "."]
    return lines + ["", f"Confidence rule: {CONFIDENCE_RULE}."]


def _followup_lines(view: RunView) -> list[str]:
    lines = []
    for item in view.followups:
        lines.append(f"- **{_inline(item.question)}** ({fmt.status_label(item.status)}"
                     f"{', ' + item.confidence + ' confidence' if item.confidence else ''}; `followups/{item.id}/`)")
        lines.append(f"  {_inline(item.answer) if item.answer else 'No answer: ' + _inline(item.reason or '-')}")
    return lines


def _stage_table(stages: list[StageView]) -> list[str]:
    if not stages:
        return []
    lines = ["| # | Stage | Status | Attempts | Code |", "|---|---|---|---|---|"]
    for number, stage in enumerate(stages, 1):
        code = f"`{stage.code_path}`" if stage.code_path else "-"
        lines.append(
            f"| {number} | {_cell(stage.title)} | {fmt.status_label(stage.status)} | {stage.attempts} | {code} |"
        )
    return lines


def _criteria_table(view: RunView) -> list[str]:
    if not view.criteria:
        return []
    lines = ["| Criterion | Met | Evidence |", "|---|---|---|"]
    for criterion in view.criteria:
        met = {True: "yes", False: "**no**", None: "not checked"}[criterion.met]
        lines.append(f"| {_cell(criterion.text)} | {met} | {_cell(criterion.evidence) or '-'} |")
    return lines


def _skipped_lines(view: RunView) -> list[str]:
    """Every input the run could not use, with the profiler's reason (capped; run.json has them all)."""
    lines = [f"- `{_inline(item.path)}`: {_inline(item.reason)}" for item in view.skipped_inputs[:_SKIPPED_CAP]]
    if len(view.skipped_inputs) > _SKIPPED_CAP:
        lines.append(
            f"- … and {len(view.skipped_inputs) - _SKIPPED_CAP} more (run.json `skipped_inputs` lists every one)"
        )
    if view.not_profiled:
        lines.append(f"- {view.not_profiled} readable input files were not profiled (the bound on files per run); "
                     "data_profile.json names them under `not_profiled`")
    return lines


def _artifact_lines(view: RunView) -> list[str]:
    def present(name: str) -> str:
        return f"`{name}`" if view.artifacts.get(name) else f"`{name}` (missing)"

    lines = [
        "- Reports: `report.md`, `report.html`",
        f"- Notebook: {present('analysis.ipynb')}",
        (f"- Plan: {present('plan.md')}, {present('plan.json')}" if view.mode != "simple"
         else "- Plan: none (simple mode)"),
        f"- Run record: {present('run.json')}, event log {present('events.jsonl')}",
    ]
    lines.append(_file_group("Figures", [f.path for f in view.all_figures if f.file]))
    lines.append(_file_group("Outputs", view.outputs))
    lines.append(_file_group("Inputs", [i.path for i in view.input_views]))
    return lines


def _file_group(label: str, paths: list[str]) -> str:
    if not paths:
        return f"- {label}: none"
    shown = ", ".join(f"`{p}`" for p in paths[:_LIST_CAP])
    more = f" … and {len(paths) - _LIST_CAP} more" if len(paths) > _LIST_CAP else ""
    return f"- {label} ({len(paths)}): {shown}{more}"


def _cost_lines(view: RunView) -> list[str]:
    lines: list[str] = []
    by_model = view.cost.by_model
    if by_model:
        lines += ["| Model | Calls | Input tokens | of them cached | Output tokens | Cost |",
                  "|---|--:|--:|--:|--:|--:|"]
        for model, c in by_model.items():
            lines.append(f"| `{model}` | {fmt.count(c.calls)} | {fmt.count(c.input_tokens)} | "
                         f"{fmt.count(c.cached_tokens)} | {fmt.count(c.output_tokens)} | {fmt.usd(c.usd)} |")
        total = view.usage_totals
        lines.append(f"| **Total** | {fmt.count(total.calls)} | {fmt.count(total.input_tokens)} | "
                     f"{fmt.count(total.cached_tokens)} | {fmt.count(total.output_tokens)} | "
                     f"**{fmt.usd(total.usd)}** |")
        lines.append("")
        if view.unpriced_note:
            lines += [_inline(view.unpriced_note), ""]
    else:
        lines += ["No model usage was recorded.", ""]
    lines.append(f"Wall time: {fmt.duration(view.wall_s)}.")
    for note in (view.context_note, view.calls_note):
        if note:
            lines += ["", _inline(note)]
    return lines


def _section(title: str, body: list[str]) -> list[str]:
    return [f"### {title}", "", *body, ""] if body else []


def _inline(text: str) -> str:
    """One line of text: newlines folded, our markers defused."""
    return " ".join(text.split()).replace("<!--", "&lt;!--")


def _cell(text: str) -> str:
    return _inline(text).replace("|", "\\|")
