"""The bundled eval set through the user's own command: `agentic-ds eval examples/eval/manifest.jsonl --model offline`.

    .venv/bin/python bench/eval_command.py                       # simple then orchestrated mode
    .venv/bin/python bench/eval_command.py --mode simple --parallel 2

Each mode is one real `agentic-ds eval` (a child process per task, graded against run.json's structured final
answer by `agentic_ds/evaluation/grading.py`); this script only reads the eval directory it leaves (summary.json)
and writes the `eval_command` section of BENCHMARKS.md, saying whether each mode's count of right answers agrees
with the in-process harness `bench/offline_eval.py` as last recorded there. The last lines printed are the
command's own summary lines, one per mode:

    eval: n=N correct=C accuracy=A errors=E median_wall_s=W
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.record import read_section, record_section  # noqa: E402

MANIFEST = ROOT / "examples" / "eval" / "manifest.jsonl"
_COMMIT = re.compile(r"commit (\w+)\)")
_HARNESS_LINE = re.compile(r"^offline_eval: mode=(\w+) n=\d+ graded=(\d+) correct=(\d+)", re.M)


def run_mode(mode: str, parallel: int, workdir: Path) -> dict[str, Any]:
    """summary.json of one `agentic-ds eval` of the bundled set in `mode` (its progress shown as it runs)."""
    argv = [sys.executable, "-m", "agentic_ds", "eval", str(MANIFEST), "--model", "offline", "--mode", mode,
            "--parallel", str(parallel), "--workdir", str(workdir)]
    completed = subprocess.run(argv, cwd=ROOT, check=False)
    if completed.returncode not in (0, 1):      # 1: some task could not run, still a measurement
        raise SystemExit(f"agentic-ds eval exited {completed.returncode}")
    (eval_dir,) = sorted(workdir.glob("eval-*"))[-1:]
    return read_eval(eval_dir)


def read_eval(eval_dir: Path) -> dict[str, Any]:
    """An eval directory's summary.json, with the ids of the tasks graded wrong (from results.jsonl) and why."""
    summary = json.loads((eval_dir / "summary.json").read_text())
    results = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines() if line.strip()]
    summary["wrong"] = [f"`{r['id']}` ({r['status']}: {r['reason'][:120]})" for r in results if r["correct"] is False]
    return summary


def harness_counts() -> tuple[dict[str, tuple[int, int]], str]:
    """(graded, correct) per mode as `bench/offline_eval.py` last recorded them in BENCHMARKS.md, and the commit."""
    section = read_section("offline_eval")
    commit = _COMMIT.search(section)
    counts = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in _HARNESS_LINE.finditer(section)}
    return counts, commit.group(1) if commit else "unknown"


def section(summaries: dict[str, dict[str, Any]]) -> list[str]:
    harness, commit = harness_counts()
    lines = ["Every question of `examples/eval/manifest.jsonl` run by the user's command, `agentic-ds eval "
             "examples/eval/manifest.jsonl --model offline --mode M`: each task an `agentic-ds run` of its own, "
             "graded against run.json's structured final answer. Accuracy is over graded questions (the four open "
             "\"what drives\" questions, checker `none`, are run, not graded).", "",
             "| mode | checker | graded | correct | accuracy |", "|---|---|--:|--:|--:|"]
    for mode, s in summaries.items():
        for checker, c in s["by_checker"].items():
            if checker == "none":
                continue
            accuracy = f"{c['correct'] / c['graded']:.2f}" if c["graded"] else "-"
            lines.append(f"| {mode} | {checker} | {c['graded']} | {c['correct']} | {accuracy} |")
    lines += ["", "| mode | statuses | confidence: graded/correct | wall time (s) | tokens in/out | model calls |",
              "|---|---|---|--:|--:|--:|"]
    for mode, s in summaries.items():
        statuses = ", ".join(f"{k} {v}" for k, v in s["by_status"].items())
        confidence = ", ".join(f"{k} {v['graded']}/{v['correct']}" for k, v in sorted(s["by_confidence"].items()))
        lines.append(f"| {mode} | {statuses} | {confidence} | {s['total_wall_s']:.0f} | "
                     f"{s['input_tokens']:,}/{s['output_tokens']:,} | {s['llm_calls']:,} |")
    lines.append("")
    for mode, s in summaries.items():
        lines.append(f"- {mode}, not answered right: {'; '.join(s['wrong']) or 'none'}.")
    for mode, s in summaries.items():
        if mode in harness:
            graded, correct = harness[mode]
            same = (graded, correct) == (s["graded"], s["correct"])
            lines.append(f"- {mode}: {s['correct']} of {s['graded']} right; `bench/offline_eval.py` (in-process, the "
                         f"same grader) recorded {correct} of {graded} at commit {commit}: "
                         + ("the two agree." if same else "they differ."))
        else:
            lines.append(f"- {mode}: {s['correct']} of {s['graded']} right; no `bench/offline_eval.py` figure.")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("simple", "orchestrated", "both"), default="both")
    parser.add_argument("--parallel", type=int, default=max(1, len(os.sched_getaffinity(0))))
    parser.add_argument("--keep", type=Path, help="keep the eval directories here (default: a temporary folder)")
    parser.add_argument("--record-from", type=Path, metavar="DIR",
                        help="record the evals kept in DIR by an earlier --keep DIR instead of running them again")
    args = parser.parse_args()
    modes = ("simple", "orchestrated") if args.mode == "both" else (args.mode,)
    summaries: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="agentic-ds-eval-") as temporary:
        for mode in modes:
            if args.record_from:
                (eval_dir,) = sorted((args.record_from / mode).glob("eval-*"))[-1:]
                summaries[mode] = read_eval(eval_dir)
                continue
            workdir = (args.keep or Path(temporary)) / mode
            summaries[mode] = run_mode(mode, args.parallel, workdir)
    result = "\n".join(f"{s['line']}  # mode={mode}" for mode, s in summaries.items())
    print(result, flush=True)
    if args.mode == "both":
        record_section("eval_command", section(summaries), result=result)


if __name__ == "__main__":
    main()
