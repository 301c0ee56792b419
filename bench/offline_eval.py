"""Offline accuracy on the bundled eval set: run each question with the offline model and grade the answer.

    .venv/bin/python bench/offline_eval.py                      # every question, simple then orchestrated mode
    .venv/bin/python bench/offline_eval.py --only emp-pearson   # some questions (repeat --only)
    .venv/bin/python bench/offline_eval.py --mode simple

Each question of examples/eval/manifest.jsonl runs in its own run directory (in-process, through the same
`copy_inputs` and `execute_run` as the CLI) and its final answer (run.json `final_answer.answer`, and in
orchestrated mode the report's `## Answer` section) is graded by `bench/eval_grading.py`. The last line
printed is always:

    offline_eval: mode=M n=N graded=G correct=C accuracy=A open=O errors=E median_wall_s=W

With the whole set (no --only), the result is written to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.eval_grading import grade  # noqa: E402

MANIFEST = ROOT / "examples" / "eval" / "manifest.jsonl"
# Measured with this script on the commit before the offline analyst work (56c4cab), simple mode.
BASELINE = "before (commit 56c4cab): n=60 graded=56 correct=7 accuracy=0.125"


def load_manifest(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


async def run_question(question: dict[str, Any], base: Path, workdir: Path, mode: str) -> tuple[str, str, str]:
    """(status, final answer text, run directory) of one question."""
    from agentic_ds.config.settings import Settings
    from agentic_ds.runs.workdir import copy_inputs, create_run_dir
    from agentic_ds.testing.harness import offline_models
    from agentic_ds.workflow.runner import RunRequest, execute_run

    settings = Settings(workdir=workdir)
    workspace = create_run_dir(workdir, question["task"])
    copy_inputs([base / f for f in question["files"]], workspace)
    outcome = await execute_run(RunRequest(task=question["task"], mode=mode, workspace=workspace,
                                           settings=settings, models=offline_models("eval")))
    return outcome.status, final_answer_text(workspace.root), str(workspace.root)


def final_answer_text(run: Path) -> str:
    """The answer the user sees: run.json's final answer, else the report's `## Answer` section."""
    record = json.loads((run / "run.json").read_text()) if (run / "run.json").exists() else {}
    final = record.get("final_answer") or {}
    if final.get("answer"):
        return str(final["answer"])
    report = (run / "report.md").read_text() if (run / "report.md").exists() else ""
    return report.split("## Answer", 1)[-1].split("\n## ", 1)[0].strip()


async def evaluate(questions: list[dict[str, Any]], base: Path, mode: str, workdir: Path) -> list[dict[str, Any]]:
    results = []
    for question in questions:
        started = time.perf_counter()
        try:
            status, answer, run = await run_question(question, base, workdir, mode)
            error = ""
        except Exception as exc:  # noqa: BLE001 - one broken question must not stop the measurement
            status, answer, run, error = "error", "", "", f"{type(exc).__name__}: {exc}"
        verdict = grade(question, answer) if not error else False
        wall = time.perf_counter() - started
        mark = {True: "ok  ", False: "FAIL", None: "open"}[verdict]
        print(f"{mark} {question['id']:<28} {wall:5.1f}s {status:<24} {answer[:150]!r}{' ' + error if error else ''}",
              flush=True)
        results.append({"id": question["id"], "checker": question["checker"], "correct": verdict, "status": status,
                        "error": error, "wall_s": round(wall, 2), "answer": answer, "run": run})
    return results


def summary_line(results: list[dict[str, Any]], mode: str) -> str:
    graded = [r for r in results if r["correct"] is not None]
    correct = sum(1 for r in graded if r["correct"])
    accuracy = correct / len(graded) if graded else 0.0
    errors = sum(1 for r in results if r["error"])
    median = statistics.median(r["wall_s"] for r in results) if results else 0.0
    return (f"offline_eval: mode={mode} n={len(results)} graded={len(graded)} correct={correct} "
            f"accuracy={accuracy:.3f} open={len(results) - len(graded)} errors={errors} median_wall_s={median:.1f}")


def by_checker(results: list[dict[str, Any]]) -> list[str]:
    totals: Counter[str] = Counter()
    rights: Counter[str] = Counter()
    for r in results:
        if r["correct"] is not None:
            totals[r["checker"]] += 1
            rights[r["checker"]] += bool(r["correct"])
    return [f"| {c} | {totals[c]} | {rights[c]} | {rights[c] / totals[c]:.2f} |" for c in sorted(totals)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--mode", choices=("simple", "orchestrated", "both"), default="both")
    parser.add_argument("--only", action="append", default=[], help="question id (repeatable)")
    parser.add_argument("--keep", type=Path, help="keep run directories here (default: a temporary folder)")
    args = parser.parse_args()
    questions = load_manifest(args.manifest)
    if args.only:
        questions = [q for q in questions if q["id"] in set(args.only)]
    modes = ("simple", "orchestrated") if args.mode == "both" else (args.mode,)
    lines, tables, misses = [], [], []
    for mode in modes:
        with tempfile.TemporaryDirectory(prefix="agentic-ds-eval-") as temporary:
            workdir = args.keep / mode if args.keep else Path(temporary)
            results = asyncio.run(evaluate(questions, args.manifest.parent, mode, workdir))
        lines.append(summary_line(results, mode))
        tables += [row.replace("| ", f"| {mode} | ", 1) for row in by_checker(results)]
        misses.append(f"{mode}: {', '.join(r['id'] for r in results if r['correct'] is False) or 'none'}")
        print(lines[-1], flush=True)
    if not args.only and args.manifest == MANIFEST:
        from bench.record import record_section

        record_section("offline_eval", [
            "Every question of `examples/eval/manifest.jsonl` run with the offline model, each in its own run "
            "directory, graded by `bench/eval_grading.py` (numbers within 0.5% + 0.006; `@name[value]` slots when the "
            "task asks for them). Open \"what drives\" questions (checker `none`) are run, not graded. The set was "
            "written alongside this work, so it measures coverage of the question kinds it holds; "
            "`tests/test_offline_questions.py` checks other phrasings of them.",
            "", "| mode | checker | graded | correct | accuracy |", "|---|---|--:|--:|--:|", *tables, "",
            "Not answered right: " + "; ".join(misses) + ".", "", f"Baseline, {BASELINE}.",
        ], result="\n".join(lines))


if __name__ == "__main__":
    main()
