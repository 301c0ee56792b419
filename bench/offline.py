"""Offline benchmark: the file analyzer on a >= 1 GiB CSV, and offline orchestrated runs.

    .venv/bin/python bench/offline.py                  # everything (needs the `agentic-ds` CLI)
    .venv/bin/python bench/offline.py --analyzer-only  # the profiler alone

The last line printed is always:

    offline: sample_wall_s=X bigcsv_mb=N analyzer_mb_per_s=X peak_rss_mb=N

- `bigcsv_mb`: size of the generated CSV in MiB (2^20 bytes). It is cached in bench/.data/ (gitignored)
  and written by DuckDB (`COPY (SELECT ... FROM range(N))`) in about 15 s.
- `analyzer_mb_per_s`: MiB/s of `profile_file` on that CSV, median of `--repeats` runs in this process.
- `sample_wall_s`: wall time of `agentic-ds run --mode orchestrated ... --model offline` on examples/data,
  run as a subprocess.
- `peak_rss_mb`: peak RSS of the offline orchestrated run on the big CSV, for the whole process tree
  (the CLI and every descendant, sandbox kernel included). psutil sums the RSS of the tree every 0.2 s
  and the maximum is kept. A spike shorter than 0.2 s can be missed, and pages shared between
  processes are counted once per process, so the figure errs high.
With `--analyzer-only`, the two run figures print as `skipped`.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentic_ds.profiling import profile_file  # noqa: E402  (after the path fix, for runs from a checkout)

DATA_DIR = ROOT / "bench" / ".data"
BIG_CSV_DIR = DATA_DIR / "bigcsv"  # holds only the big CSV, so it can be passed as --files
BIG_CSV = BIG_CSV_DIR / "orders_big.csv"
BIG_CSV_ROWS = 12_500_000  # ~92 bytes a row: ~1.1 GiB
MIN_BIG_CSV_BYTES = 1024**3
GENERATOR_VERSION = "1"  # bump when the query below changes, to regenerate cached files
CLI = ROOT / ".venv" / "bin" / "agentic-ds"
SAMPLE_TASK = (
    "Which sales channel brings more revenue per order, how does revenue trend over time in each region, "
    "and what else drives revenue?"
)
BIG_TASK = "Describe this dataset: summary statistics of every column, and how amount differs between channels."
POLL_SECONDS = 0.2
RUN_TIMEOUT_SECONDS = 3600

BIG_CSV_QUERY = """
COPY (
  SELECT i AS order_id,
    TIMESTAMP '2022-01-01' + to_seconds((hash(i, 1) % 63072000)::BIGINT) AS ordered_at,
    ['North', 'South', 'East', 'West', 'Central', 'Islands'][1 + (hash(i, 2) % 6)::INT] AS region,
    'cat_' || (hash(i, 3) % 20)::VARCHAR AS category,
    CASE WHEN hash(i, 4) % 3 = 0 THEN 'online' ELSE 'store' END AS channel,
    (hash(i, 5) % 2 = 0) AS returning,
    1 + (hash(i, 6) % 12)::INT AS units,
    round(1 + (hash(i, 7) % 100000) / 100.0, 2) AS unit_price,
    CASE WHEN hash(i, 8) % 50 = 0 THEN NULL ELSE round((hash(i, 9) % 1000000) / 100.0, 2) END AS amount,
    1 + (hash(i, 10) % 5)::INT AS score,
    'C' || lpad((hash(i, 11) % 2000000)::VARCHAR, 7, '0') AS customer_code,
    ['fast delivery', 'late', 'ok', 'great service, will buy again', 'damaged box', 'n/a'][1 + (hash(i, 12) % 6)::INT]
      AS comment
  FROM range({rows}) t(i)
) TO '{path}' (HEADER, DELIMITER ',')
"""


def ensure_big_csv() -> Path:
    """The cached big CSV, generated when missing, too small or from another generator version."""
    stamp = DATA_DIR / "orders_big.version"  # kept out of BIG_CSV_DIR, which is passed as --files
    if BIG_CSV.exists() and stamp.exists() and stamp.read_text() == GENERATOR_VERSION:
        if BIG_CSV.stat().st_size >= MIN_BIG_CSV_BYTES:
            return BIG_CSV
    BIG_CSV_DIR.mkdir(parents=True, exist_ok=True)
    partial = DATA_DIR / (BIG_CSV.name + ".partial")
    started = time.perf_counter()
    with duckdb.connect(config={"threads": 2, "memory_limit": "1GB"}) as con:
        con.execute(BIG_CSV_QUERY.format(rows=BIG_CSV_ROWS, path=partial))
    if partial.stat().st_size < MIN_BIG_CSV_BYTES:
        raise SystemExit(f"generated CSV is only {partial.stat().st_size:,} bytes; raise BIG_CSV_ROWS")
    partial.replace(BIG_CSV)
    stamp.write_text(GENERATOR_VERSION)
    print(f"generated {BIG_CSV} ({BIG_CSV.stat().st_size / 2**20:,.0f} MiB) in {time.perf_counter() - started:.1f}s")
    return BIG_CSV


def measure_analyzer(path: Path, repeats: int) -> float:
    """Median MiB/s of `profile_file` on `path`."""
    size_mib = path.stat().st_size / 2**20
    speeds = []
    for attempt in range(1, repeats + 1):
        cpu_before = _cpu_seconds()
        started = time.perf_counter()
        profile = profile_file(path)
        seconds = time.perf_counter() - started
        cpu = _cpu_seconds() - cpu_before
        if profile.error:
            raise SystemExit(f"profiling the big CSV failed: {profile.error}")
        speeds.append(size_mib / seconds)
        # CPU time does not depend on other load on the machine; wall time does.
        print(f"analyzer run {attempt}: {seconds:.2f}s, {speeds[-1]:.0f} MiB/s, {profile.rows:,} rows, "
              f"{cpu:.1f} CPU-s ({size_mib / cpu:.0f} MiB per CPU-second)")
    print(f"analyzer peak RSS (this process): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return statistics.median(speeds)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_offline(task: str, files: Path, workdir: Path) -> tuple[float, float]:
    """Run the CLI on `files`; return (wall seconds, peak RSS of the process tree in MiB)."""
    if not CLI.exists():
        raise SystemExit(f"{CLI} not found: install the package (pip install -e .) or use --analyzer-only")
    command = [str(CLI), "run", "--mode", "orchestrated", task, "--files", str(files), "--model", "offline",
               "--quiet", "--workdir", str(workdir)]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = _poll_tree_rss(process)
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - started
    print(f"run on {files.name}: exit {process.returncode}, {wall:.1f}s, peak tree RSS {peak:.0f} MiB; "
          f"last line: {(stdout.strip().splitlines() or [''])[-1]}")
    if process.returncode not in (0, 3):  # completed (with warnings) or incomplete; anything else is a failure
        raise SystemExit(f"`{' '.join(command)}` failed with exit {process.returncode}:\n{stderr[-2000:]}")
    return wall, peak


def _poll_tree_rss(process: subprocess.Popen[str]) -> float:
    root = psutil.Process(process.pid)
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    peak = 0
    while process.poll() is None:
        if time.monotonic() > deadline:
            process.kill()  # the sandbox's bwrap runs with --die-with-parent, so the kernel goes too
            raise SystemExit(
                f"the run took more than {RUN_TIMEOUT_SECONDS}s and was stopped; peak tree RSS so far "
                f"{peak / 2**20:.0f} MiB"
            )
        total = 0
        try:
            members = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for member in members:
            try:
                total += member.memory_info().rss
            except psutil.NoSuchProcess:  # a child ended between listing and reading
                pass
        peak = max(peak, total)
        time.sleep(POLL_SECONDS)
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--analyzer-only", action="store_true", help="only profile the big CSV; skip the CLI runs")
    parser.add_argument("--repeats", type=int, default=3, help="analyzer runs; the median is reported")
    parser.add_argument("--csv", type=Path, help="use this CSV instead of generating the big one (smoke tests)")
    args = parser.parse_args()

    big_csv = args.csv or ensure_big_csv()
    bigcsv_mb = big_csv.stat().st_size / 2**20
    speed = measure_analyzer(big_csv, args.repeats)
    sample_wall, peak_rss = "skipped", "skipped"
    if not args.analyzer_only:
        with tempfile.TemporaryDirectory(prefix="agentic-ds-bench-") as workdir:
            wall, _ = run_offline(SAMPLE_TASK, ROOT / "examples" / "data", Path(workdir) / "sample")
            _, peak = run_offline(BIG_TASK, big_csv.parent, Path(workdir) / "big")
        sample_wall, peak_rss = f"{wall:.1f}", f"{peak:.0f}"
    line = (
        f"offline: sample_wall_s={sample_wall} bigcsv_mb={bigcsv_mb:.0f} analyzer_mb_per_s={speed:.0f} "
        f"peak_rss_mb={peak_rss}"
    )
    if not args.analyzer_only and args.csv is None:
        from bench.record import record_section

        record_section(
            "offline",
            [
                f"Orchestrated offline run on `examples/data` (wall, subprocess) and on a generated {bigcsv_mb:,.0f} "
                f"MiB CSV "
                "(peak RSS of the whole process tree, sandbox kernel included, polled every 0.2 s); analyzer speed is "
                "the "
                f"median of {args.repeats} `profile_file` runs on that CSV. Bars: sample < 60 s, analyzer >= 200 MB/s, "
                "peak RSS < 2 GB. Files above 256 MB are analysed on a 1M-row DuckDB sample; direct statistics stay "
                "exact.",
            ],
            result=line,
        )
    print(line)


if __name__ == "__main__":
    main()
