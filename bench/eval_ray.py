"""Tasks per minute of the same 60-task manifest through `agentic-ds eval` with the local executor and with Ray.

    .venv/bin/python bench/eval_ray.py                 # the bundled set, simple mode, offline model
    .venv/bin/python bench/eval_ray.py --mode orchestrated

Each executor is one real `agentic-ds eval examples/eval/manifest.jsonl --model offline` (`--executor local`, then
`--executor ray` with no address: a local Ray started for the command, as many CPUs as cores), run one after the
other on the same machine. Two rates per executor: over the whole command (Ray's start and stop included), and
over the eval's own run (summary.json's `total_wall_s`, from the first task handed out to the last result). On one
machine the two executors should be close; the point of Ray is that the same command scales out with
`--address`. The section `eval_ray` of BENCHMARKS.md says what was run. The last lines printed:

    eval_ray: executor=E tasks=N tasks_per_min=R command_s=S correct=C
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MANIFEST = ROOT / "examples" / "eval" / "manifest.jsonl"


def run(executor: str, mode: str, workdir: Path) -> dict[str, Any]:
    """One `agentic-ds eval` with `executor`: its wall time, summary.json, and whether it exited cleanly."""
    argv = [sys.executable, "-m", "agentic_ds", "eval", str(MANIFEST), "--model", "offline", "--mode", mode,
            "--executor", executor, "--workdir", str(workdir)]
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    completed = subprocess.run(argv, cwd=ROOT, check=False, stdin=subprocess.DEVNULL)
    command_s = time.perf_counter() - started
    load = (load_before, os.getloadavg()[1] if command_s < 450 else os.getloadavg()[2], os.getloadavg()[0])
    if completed.returncode not in (0, 1):
        raise SystemExit(f"agentic-ds eval --executor {executor} exited {completed.returncode}")
    (eval_dir,) = workdir.glob("eval-*")
    summary = json.loads((eval_dir / "summary.json").read_text())
    return {"executor": executor, "command_s": command_s, "summary": summary, "exit": completed.returncode,
            "load": load}


def rate(tasks: int, seconds: float) -> float:
    return tasks * 60.0 / seconds if seconds > 0 else 0.0


def section(mode: str, figures: list[dict[str, Any]]) -> list[str]:
    cores = len(os.sched_getaffinity(0))
    lines = [f"The bundled set (`examples/eval/manifest.jsonl`, 60 tasks) through `agentic-ds eval --model offline "
             f"--mode {mode} --executor E` on this machine ({cores} cores), one executor after the other: `local` "
             f"(child processes, {cores} at once) and `ray` with no `--address` (a local Ray started for the command "
             f"with {cores} CPUs, one per task; each task the same `agentic-ds run` child, on a Ray worker). "
             "\"Command\" counts Ray's start and stop; \"eval\" is summary.json's `total_wall_s`. The load average "
             "(1 min at the start, 5 or 15 min over the run, 1 min at the end) says how busy the machine was with "
             "other work.", "",
             "| executor | tasks | correct | errors | command (s) | tasks/min (command) | eval (s) | tasks/min (eval) "
             "| median task (s) | load |", "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
    for f in figures:
        s = f["summary"]
        lines.append(f"| {f['executor']} | {s['n']} | {s['correct']}/{s['graded']} | {s['errors']} | "
                     f"{f['command_s']:.0f} | {rate(s['n'], f['command_s']):.1f} | {s['total_wall_s']:.0f} | "
                     f"{rate(s['n'], s['total_wall_s']):.1f} | {s['median_wall_s']:.1f} | "
                     + " / ".join(f"{x:.1f}" for x in f["load"]) + " |")
    local, ray = (next(f for f in figures if f["executor"] == e) for e in ("local", "ray"))
    ratio = rate(ray["summary"]["n"], ray["command_s"]) / max(rate(local["summary"]["n"], local["command_s"]), 1e-9)
    lines += ["", f"- Ray local runs at {ratio:.2f}x the local executor's rate over the whole command; the same "
                  "manifest, graded the same way, gives the same counts when both finish every task."]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("simple", "orchestrated"), default="simple")
    parser.add_argument("--no-record", action="store_true", help="do not rewrite BENCHMARKS.md")
    args = parser.parse_args()
    figures = []
    with tempfile.TemporaryDirectory(prefix="agentic-ds-eval-ray-") as temporary:
        for executor in ("local", "ray"):
            figures.append(run(executor, args.mode, Path(temporary) / executor))
    results = [f"eval_ray: executor={f['executor']} tasks={f['summary']['n']} "
               f"tasks_per_min={rate(f['summary']['n'], f['command_s']):.1f} command_s={f['command_s']:.0f} "
               f"correct={f['summary']['correct']}" for f in figures]
    print("\n".join(results), flush=True)
    if not args.no_record:
        from bench.record import record_section

        record_section("eval_ray", section(args.mode, figures), result="\n".join(results))


if __name__ == "__main__":
    main()
