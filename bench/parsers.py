"""Every parser of user or model text outside `offline/` stays linear on adversarial megabytes.

Run: `.venv/bin/python bench/parsers.py [--quick]`. Each parser of `agentic_ds.testing.adversarial` gets
each shape at 100 KB and at 1 MB (CPU time, best of 2); the ratio of the two is ~10 for a linear
parser and ~100 for a quadratic one. The last line is
`parsers: max_ratio=X worst="<parser> / <shape>" slowest_1mb_s=X`; the table goes to BENCHMARKS.md
under `## parsers`. Bar: max_ratio <= 20 (tests/test_parsers_linear.py asserts the same on a subset).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_ds.testing.adversarial import SHAPES, parsers  # noqa: E402
from bench.record import record_section  # noqa: E402

SMALL, LARGE = 100_000, 1_000_000
FLOOR_S = 0.001  # below a millisecond, timer noise swamps the ratio


def cpu_seconds(parse: Callable[[str], Any], text: str, repeats: int = 2) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        parse(text)
        best = min(best, time.process_time() - start)
    return best


def ratio(small_s: float, large_s: float) -> float:
    return large_s / max(small_s, FLOOR_S)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--quick", action="store_true", help="10 KB and 100 KB instead of 100 KB and 1 MB")
    args = options.parse_args()
    small, large = (SMALL // 10, LARGE // 10) if args.quick else (SMALL, LARGE)
    rows, worst, slowest = [], ("", 0.0), 0.0
    with tempfile.TemporaryDirectory() as run_dir:
        for parser, parse in parsers(Path(run_dir)).items():
            for shape, make in SHAPES.items():
                small_s, large_s = cpu_seconds(parse, make(small)), cpu_seconds(parse, make(large))
                r = ratio(small_s, large_s)
                rows.append(f"| {parser} | {shape} | {small_s * 1000:.1f} | {large_s * 1000:.1f} | {r:.1f} |")
                print(rows[-1], flush=True)
                if r > worst[1]:
                    worst = (f"{parser} / {shape}", r)
                slowest = max(slowest, large_s)
    summary = f'parsers: max_ratio={worst[1]:.1f} worst="{worst[0]}" slowest_1mb_s={slowest:.2f}'
    if not args.quick:
        record_section("parsers", [
            f"Each parser of user or model text outside `offline/` on each adversarial shape, {small // 1000} KB and "
            f"{large // 1_000_000} MB, CPU ms (best of 2). A linear parser gives a ratio near 10, a quadratic one "
            "near 100. Bar: every ratio <= 20. Before this round, `structured.repair_json` (unclosed fence + spaces), "
            "the loop detector (same) and `compaction` (one long token) were quadratic: 89x, 70x and 99x per 10x.",
            "",
            "| parser | shape | 100 KB ms | 1 MB ms | ratio |",
            "|---|---|--:|--:|--:|",
            *rows,
        ], result=summary)
    print(summary)


if __name__ == "__main__":
    main()
