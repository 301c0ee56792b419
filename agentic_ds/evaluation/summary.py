"""What an eval leaves in its directory: results.jsonl, summary.json, summary.md, and its one-line summary.

Accuracy is over graded tasks (checker other than `none`); a task whose run crashed or timed out is graded wrong
and counted in `errors`. Accuracy by confidence shows whether the run's confidence means anything.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds.evaluation.runner import EvalOptions, TaskResult
from agentic_ds.runs import safe_files

CHECKERS = ("exact", "numeric", "contains", "none")


@dataclass
class Summary:
    n: int = 0
    graded: int = 0
    correct: int = 0
    errors: int = 0
    retried: int = 0
    median_wall_s: float = 0.0
    total_wall_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    llm_calls: int = 0
    cost_usd: float | None = None
    by_checker: dict[str, dict[str, int]] = field(default_factory=dict)
    by_status: dict[str, int] = field(default_factory=dict)
    by_confidence: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct / self.graded if self.graded else 0.0

    def line(self) -> str:
        return (f"eval: n={self.n} correct={self.correct} accuracy={self.accuracy:.3f} errors={self.errors} "
                f"median_wall_s={self.median_wall_s:.1f}")


def summarize(results: list[TaskResult], elapsed_s: float = 0.0) -> Summary:
    summary = Summary(n=len(results), total_wall_s=round(elapsed_s, 1))
    graded = [r for r in results if r.correct is not None]
    summary.graded, summary.correct = len(graded), sum(bool(r.correct) for r in graded)
    summary.errors = sum(bool(r.error) for r in results)
    summary.retried = sum(r.attempts > 1 for r in results)
    walls = [r.wall_s for r in results]
    summary.median_wall_s = round(statistics.median(walls), 2) if walls else 0.0
    summary.input_tokens = sum(r.input_tokens for r in results)
    summary.output_tokens = sum(r.output_tokens for r in results)
    summary.llm_calls = sum(r.llm_calls for r in results)
    costs = [r.cost_usd for r in results if r.cost_usd is not None]
    summary.cost_usd = round(sum(costs), 6) if costs else None
    for checker in CHECKERS:
        mine = [r for r in results if r.checker == checker]
        if mine:
            summary.by_checker[checker] = {"tasks": len(mine), "graded": sum(r.correct is not None for r in mine),
                                           "correct": sum(bool(r.correct) for r in mine)}
    summary.by_status = dict(Counter(r.status for r in results).most_common())
    for result in graded:
        level = result.confidence or "no answer"
        entry = summary.by_confidence.setdefault(level, {"graded": 0, "correct": 0})
        entry["graded"] += 1
        entry["correct"] += bool(result.correct)
    return summary


def write_results(eval_dir: Path, results: list[TaskResult]) -> Path:
    path = eval_dir / "results.jsonl"
    text = "".join(json.dumps(r.as_json(), ensure_ascii=False) + "\n" for r in results)
    safe_files.write_atomic(path, text, root=eval_dir)
    return path


def write_summary(eval_dir: Path, manifest: Path, options: EvalOptions, results: list[TaskResult], summary: Summary,
                  *, interrupted: bool = False, runs_on: str = "") -> None:
    data: dict[str, Any] = {"manifest": str(manifest), "mode": options.mode, "models": list(options.models),
                            "executor": options.executor, "runs_on": runs_on, "parallel": options.parallel,
                            "interrupted": interrupted, **summary.__dict__,
                            "accuracy": round(summary.accuracy, 4), "line": summary.line()}
    safe_files.write_json(eval_dir / "summary.json", data, root=eval_dir)
    markdown = render_markdown(manifest, options, results, summary, interrupted, runs_on)
    safe_files.write_atomic(eval_dir / "summary.md", markdown, root=eval_dir)


def render_markdown(manifest: Path, options: EvalOptions, results: list[TaskResult], summary: Summary,
                    interrupted: bool = False, runs_on: str = "") -> str:
    models = ", ".join(options.models) or "configured default"
    lines = [f"# Eval of `{manifest.name}`", "",
             f"Mode `{options.mode}`, models: {models}, {runs_on or f'{options.parallel} at once'}."
             + (" **Interrupted**: tasks not run are listed as such." if interrupted else ""), "",
             f"`{summary.line()}`", "", "## Accuracy by checker", "",
             *accuracy_table(summary), "", "## Status of the runs", "", "| status | runs |", "|---|--:|",
             *(f"| {status} | {count} |" for status, count in summary.by_status.items()), "",
             "## Accuracy by the run's confidence", "",
             "| confidence | graded | correct | accuracy |", "|---|--:|--:|--:|",
             *(f"| {level} | {c['graded']} | {c['correct']} | {_ratio(c['correct'], c['graded'])} |"
               for level, c in sorted(summary.by_confidence.items())), "",
             "## Time, tokens and cost", "",
             f"- Wall time: {summary.total_wall_s:.1f} s in all; per task median {summary.median_wall_s:.1f} s, "
             f"max {max((r.wall_s for r in results), default=0):.1f} s",
             f"- Tokens: {summary.input_tokens:,} in, {summary.output_tokens:,} out, {summary.llm_calls:,} model calls",
             f"- Cost: {f'${summary.cost_usd:.4f}' if summary.cost_usd is not None else 'unknown'}", ""]
    wrong = [r for r in results if r.correct is False and not r.error]
    if wrong:
        lines += ["## Not answered right", "", *(f"- `{r.id}` ({r.status}): {r.grade}" for r in wrong), ""]
    retried = [r for r in results if r.attempts > 1]
    if retried:
        lines += ["## Tried again after their worker died", "",
                  *(f"- `{r.id}`: {r.attempts} attempts, {'an error' if r.error else r.status}" for r in retried), ""]
    failed = [r for r in results if r.error]
    if failed:
        lines += ["## Errors", "", *(f"- `{r.id}`: {r.error}" for r in failed), ""]
    return "\n".join(lines)


def accuracy_table(summary: Summary) -> list[str]:
    rows = ["| checker | tasks | graded | correct | accuracy |", "|---|--:|--:|--:|--:|"]
    for checker, c in summary.by_checker.items():
        accuracy = _ratio(c["correct"], c["graded"])
        rows.append(f"| {checker} | {c['tasks']} | {c['graded']} | {c['correct']} | {accuracy} |")
    accuracy = _ratio(summary.correct, summary.graded)
    rows.append(f"| **all** | {summary.n} | {summary.graded} | {summary.correct} | {accuracy} |")
    return rows


def _ratio(correct: int, graded: int) -> str:
    return f"{correct / graded:.2f}" if graded else "-"
