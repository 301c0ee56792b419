"""Startup benchmark: median wall time of `agentic-ds --help` in fresh processes.

Run: `.venv/bin/python bench/startup.py [--runs N]`. Bar < 1 s, goal 0.3 s. The last line is
`startup: help_median_s=X`; the figures also go to BENCHMARKS.md under `## startup`.
Exits 1 when the median misses the bar.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import record_section  # noqa: E402

BAR_S = 1.0
GOAL_S = 0.3


def command() -> list[str]:
    """The installed `agentic-ds` script next to this Python, else `python -m agentic_ds`."""
    script = Path(sys.executable).with_name("agentic-ds")
    return [str(script), "--help"] if script.exists() else [sys.executable, "-m", "agentic_ds", "--help"]


def time_once(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs (after 2 warm-up runs)")
    parser.add_argument("--no-record", action="store_true", help="do not rewrite BENCHMARKS.md")
    args = parser.parse_args()

    argv = command()
    for _ in range(2):  # warm the OS file cache and .pyc files
        time_once(argv)
    times = sorted(time_once(argv) for _ in range(args.runs))
    median = statistics.median(times)
    verdict = "meets the goal" if median <= GOAL_S else ("meets the bar" if median < BAR_S else "MISSES THE BAR")
    lines = [
        f"- command: `{' '.join(Path(a).name if i == 0 else a for i, a in enumerate(argv))}`, "
        f"{args.runs} fresh processes after 2 warm-up runs",
        f"- wall time: min {times[0]:.3f} s, median {median:.3f} s, max {times[-1]:.3f} s ({verdict})",
        f"- bars: median < {BAR_S} s, goal {GOAL_S} s",
    ]
    result = f"startup: help_median_s={median:.3f}"
    for line in lines:
        print(line.removeprefix("- "))
    if not args.no_record:
        record_section("startup", lines, result=result)
    print(result)
    return 0 if median < BAR_S else 1


if __name__ == "__main__":
    sys.exit(main())
