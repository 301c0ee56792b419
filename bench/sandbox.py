"""Sandbox benchmark: kernel start time and `1+1` round trip through the sandboxed kernel.

    .venv/bin/python bench/sandbox.py [--starts N] [--calls N] [--stages N]

Also a stage's first cell of imports (pandas, matplotlib, scipy) when the stage gets the kernel the stage before it
left (reset) and when it starts one of its own (the earlier behaviour: `end_stage(reuse=False)`), alternating in
one run: their ratio is what handing kernels on saves a run per stage.

Also the round trip without the disk quota's guard (its watcher not armed), interleaved with the first in the
same kernel: their ratio is the guard's cost per cell. Prints the figures, updates the `## sandbox` section of
BENCHMARKS.md (keeping the figures of the run it replaces as "before", with their commit), and ends with
`sandbox: kernel_start_s=X roundtrip_ms=X isolation=...`. Bars: start <= 2 s, round trip <= 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_ds.config.settings import SandboxSettings  # noqa: E402
from agentic_ds.sandbox import CodeRunner  # noqa: E402
from agentic_ds.sandbox.capture import CellCapture  # noqa: E402
from agentic_ds.workspace import Workspace  # noqa: E402
from bench.record import BENCHMARKS, record_section  # noqa: E402

START_BAR_S = 2.0
ROUNDTRIP_BAR_MS = 20.0


async def measure(starts: int, calls: int) -> tuple[list[float], list[float], list[float], list[float], str]:
    start_times: list[float] = []
    round_trips: list[float] = []
    unguarded: list[float] = []
    recorded: list[float] = []
    isolation = ""
    with tempfile.TemporaryDirectory(prefix="ads-bench-") as tmp:
        for i in range(starts):
            runner = CodeRunner(Workspace(Path(tmp) / f"run{i}"), SandboxSettings())
            isolation = runner.isolation
            began = time.perf_counter()
            first = await runner.run("1")   # starts the kernel, then one cell
            start_times.append(time.perf_counter() - began)
            assert first.ok, first.error
            if i == 0:
                kernel = runner.kernel   # the bare kernel round trip, without the runner's recording
                assert kernel is not None
                guard = kernel.watchdog.quota_guard
                watcher = guard._watcher
                for n in range(2 * calls):   # interleaved: with the quota guard, and without (its cost per cell)
                    guard._watcher = watcher if n % 2 == 0 else None
                    capture = CellCapture(
                        run_dir=runner.workspace.root, output_file=runner.workspace.root / f"rt{n}.txt",
                        figure_names=iter(()), keep_chars=1000, max_output_bytes=1 << 20,
                    )
                    t0 = time.perf_counter()
                    await kernel.execute("1+1", capture, timeout_s=10, grace_s=1)
                    (round_trips if n % 2 == 0 else unguarded).append((time.perf_counter() - t0) * 1000)
                    assert capture.result().stdout.strip() == "2"
                guard._watcher = watcher
                for _ in range(calls):
                    t0 = time.perf_counter()
                    result = await runner.run("1+1")
                    recorded.append((time.perf_counter() - t0) * 1000)
                    assert result.stdout.strip() == "2"
            await runner.close()
    return start_times, round_trips, unguarded, recorded, isolation


STAGE_CELL = "import pandas as pd, matplotlib.pyplot as plt\nfrom scipy import stats\nprint(len(dir(stats)))"


def busy_cpu_s() -> float:
    """CPU-seconds the whole machine has been busy (a kernel's own CPU reaches no parent's rusage)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / 100


async def measure_handover(stages: int) -> dict[bool, list[tuple[float, float]]]:
    """(wall s, machine CPU s) of each stage's first cell, by whether the stage was handed the kernel."""
    found: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="ads-bench-") as tmp:
        runner = CodeRunner(Workspace(Path(tmp) / "run"), SandboxSettings())
        try:
            for index in range(2 * stages + 1):
                handed = index % 2 == 1          # odd stages get the kernel the stage before left them
                await runner.begin_stage(index, f"stage {index}")
                t0, c0 = time.perf_counter(), busy_cpu_s()
                result = await runner.run(STAGE_CELL)
                assert result.ok, result.error
                if index:
                    found[handed].append((time.perf_counter() - t0, busy_cpu_s() - c0))
                await runner.end_stage(index, reuse=not handed)   # even stages after it start a kernel of their own
        finally:
            await runner.close()
    return found


def previous_figures() -> tuple[str, dict[str, str]]:
    """The commit and figures of the section this run replaces ("", {} when there is none)."""
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else ""
    section = re.search(r"^## sandbox\n(.*?)(?=^## |\Z)", text, re.DOTALL | re.MULTILINE)
    if not section:
        return "", {}
    commit = re.search(r"commit (\w+)\)", section.group(1))
    result = re.search(r"^sandbox: (.*)$", section.group(1), re.MULTILINE)
    figures = dict(part.split("=", 1) for part in result.group(1).split()) if result else {}
    return (commit.group(1) if commit else "?"), figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--stages", type=int, default=5)
    args = parser.parse_args()
    starts, trips, unguarded, recorded, isolation = asyncio.run(measure(args.starts, args.calls))
    handover = asyncio.run(measure_handover(args.stages))
    handed_s, own_s = (statistics.median(w for w, _ in handover[k]) for k in (True, False))
    handed_cpu, own_cpu = (statistics.median(c for _, c in handover[k]) for k in (True, False))
    guard_ratio = statistics.median(trips) / statistics.median(unguarded)
    cell_ms = statistics.median(recorded)
    start_s = statistics.median(starts)
    trip_ms = statistics.median(trips)
    print(f"kernel start (incl. first cell), median of {len(starts)}: {start_s:.3f} s "
          f"(min {min(starts):.3f}, max {max(starts):.3f}; bar {START_BAR_S} s)")
    print(f"1+1 round trip, median of {len(trips)}: {trip_ms:.2f} ms "
          f"(p90 {sorted(trips)[int(len(trips) * 0.9) - 1]:.2f} ms; bar {ROUNDTRIP_BAR_MS} ms)")
    print(
        f"1+1 round trip without the disk quota's guard (interleaved), median: {statistics.median(unguarded):.2f} ms; "
        f"with it / without: {guard_ratio:.2f}"
    )
    print(f"1+1 through CodeRunner.run (cell files, notebook rewrite, process sweep), median: {cell_ms:.2f} ms")
    print(f"a stage's first cell of imports, median of {args.stages} each: {handed_s:.3f} s ({handed_cpu:.2f} CPU-s) "
          f"with the kernel handed on, {own_s:.3f} s ({own_cpu:.2f} CPU-s) with a kernel of its own")
    result = (
        f"sandbox: kernel_start_s={start_s:.3f} roundtrip_ms={trip_ms:.2f} cell_ms={cell_ms:.2f} "
        f"guard_ratio={guard_ratio:.2f} stage_handed_s={handed_s:.3f} stage_own_s={own_s:.3f} "
        f"stage_cpu_ratio={handed_cpu / own_cpu:.2f} isolation={isolation}"
    )
    before_commit, before = previous_figures()
    record_section("sandbox", [
        f"{platform.machine()}, Python {platform.python_version()}, isolation `{isolation}`, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        "",
        f"| measure | median | before (commit {before_commit or '-'}) | bar |",
        "|---|---|---|---|",
        f"| kernel start + first cell ({len(starts)} starts) | {start_s:.3f} s | {before.get('kernel_start_s', '-')} s "
        f"| <= {START_BAR_S:g} s |",
        f"| `1+1` round trip through the sandboxed kernel ({len(trips)} calls) | {trip_ms:.2f} ms "
        f"| {before.get('roundtrip_ms', '-')} ms | <= {ROUNDTRIP_BAR_MS:g} ms |",
        f"| the same round trip with / without the disk quota's guard (interleaved) | {guard_ratio:.2f} "
        f"| {before.get('guard_ratio', '-')} | - |",
        f"| `1+1` as a recorded cell (`CodeRunner.run`: files, notebook, sweep, limits) | {cell_ms:.2f} ms "
        f"| {before.get('cell_ms', '-')} ms | - |",
        f"| a stage's first cell importing pandas, matplotlib, scipy: handed the kernel an earlier stage left "
        f"({args.stages} stages) | {handed_s:.3f} s, {handed_cpu:.2f} CPU-s | {before.get('stage_handed_s', '-')} s "
        "| - |",
        f"| the same with a kernel of its own (interleaved in the same run) | {own_s:.3f} s, {own_cpu:.2f} CPU-s "
        f"| {before.get('stage_own_s', '-')} s | - |",
        f"| CPU of the first, handed on / own | {handed_cpu / own_cpu:.2f} | {before.get('stage_cpu_ratio', '-')} "
        f"| - |",
    ], result=result)
    print(result)


if __name__ == "__main__":
    main()
