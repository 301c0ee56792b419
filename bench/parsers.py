"""Every parser of the offline model is linear: time on 1 MB of text over time on 100 KB, per parser and input.

    .venv/bin/python bench/parsers.py              # all parsers, all inputs; writes BENCHMARKS.md
    .venv/bin/python bench/parsers.py --only intent

A parser of user or model text that is quadratic turns a long paste into minutes (a 100 KB task once took 11
minutes). Each parser gets texts of 100 KB and 1 MB of several shapes: prose full of the words the parsers look
for, and adversarial runs (a keyword repeated without what should follow it, a line without newlines, open
brackets and fences). Linear work grows 10x between the two sizes; the bar is a ratio below 20 (quadratic
work grows about 100x). Timings are the best of `--repeats` runs in this process. The last line printed is:

    parsers: n=N worst_ratio=R worst=<parser/input> over_bar=K
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.parser_cases import PARSERS, SHAPES  # noqa: E402

SMALL, LARGE = 100_000, 1_000_000
BAR = 20.0
FAST_SECONDS = 0.1           # below this at 1 MB a parser is bounded whatever its ratio (cache and timer noise dominate)


def best_time(parse: Callable[[str], object], text: str, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        parse(text)
        best = min(best, time.perf_counter() - started)
    return best


SMALL_LIMIT = 2.0            # a parser this slow on 100 KB is not timed on 1 MB (a quadratic one would take minutes)


def measure(name: str, shape: str, repeats: int = 2) -> tuple[float, float, float]:
    """(seconds at 100 KB, seconds at 1 MB, ratio) of one parser on one input shape; the 1 MB time is infinite
    when 100 KB already took more than SMALL_LIMIT."""
    parse = PARSERS[name]
    small = best_time(parse, SHAPES[shape](SMALL), repeats)
    if small > SMALL_LIMIT:
        return small, float("inf"), float("inf")
    large = best_time(parse, SHAPES[shape](LARGE), repeats)
    return small, large, large / max(small, 1e-6)


def within_bar(large: float, ratio: float) -> bool:
    return ratio < BAR or large < FAST_SECONDS


DOUBLING_BAR = 3.0           # time(2 MB) / time(1 MB): linear about 2, quadratic about 4


def doubling_ratio(name: str, shape: str, repeats: int = 3) -> float:
    """A second opinion on a machine under load: how time grows from 1 MB to 2 MB (the small size is the noisy one)."""
    parse = PARSERS[name]
    return best_time(parse, SHAPES[shape](2 * LARGE), repeats) / max(best_time(parse, SHAPES[shape](LARGE), repeats), 1e-6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="parser name (repeatable)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    names = [n for n in PARSERS if not args.only or n in args.only]
    rows, worst = [], (0.0, "")
    for name in names:
        for shape in SHAPES:
            small, large, ratio = measure(name, shape, args.repeats)
            ok = within_bar(large, ratio)
            rows.append(f"| {name} | {shape} | {small * 1000:.1f} | {large * 1000:.1f} | {ratio:.1f} | {'ok' if ok else 'OVER'} |")
            print(rows[-1], flush=True)
            if large >= FAST_SECONDS and ratio > worst[0]:
                worst = (ratio, f"{name}/{shape}")
    over = sum(1 for row in rows if row.endswith("OVER |"))
    line = f"parsers: n={len(rows)} worst_ratio={worst[0]:.1f} worst={worst[1] or 'none'} over_bar={over}"
    if not args.only:
        from bench.record import record_section

        record_section("parsers", [
            f"Each parser of the offline model on 100 KB and 1 MB of text of each shape (best of {args.repeats} runs, "
            f"in-process). Bar: time(1 MB) / time(100 KB) < {BAR:g} (linear work gives about 10, quadratic about 100); "
            f"a parser under {FAST_SECONDS * 1000:g} ms at 1 MB passes whatever its ratio. `worst` counts only those above it.",
            "", "| parser | input | 100 KB (ms) | 1 MB (ms) | ratio | bar |", "|---|---|--:|--:|--:|---|", *rows,
        ], result=line)
    print(line)


if __name__ == "__main__":
    main()
