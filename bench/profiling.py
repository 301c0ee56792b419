"""The profiler's bounds: wide files, big folders, other encodings, and the pre-run sniff.

Run: `.venv/bin/python bench/profiling.py`. Figures (wall seconds, best of 2, on generated data):

- a wide CSV (20 rows) at 500, 2,000 and 10,000 columns: only the first `max_columns` (500) are
  profiled, so the time stays near the 500-column time (before this round: segfault at 10,000);
- one DuckDB query of N `count(DISTINCT ...)` vs batches of 100: why wide tables are batched;
- a folder of 100 and of 2,000 small CSVs: 100 are profiled, the rest only sniffed (before: 146 s);
- the same 50 MB table as UTF-8 and as Latin-1 (read through a UTF-8 copy);
- the pre-run sniff of one file, and `check_inputs` on the 2,000-file folder.

Last line: `profiling: wide_ratio=X folder_ratio=X latin1_ratio=X sniff_ms=X wide_10000_s=X folder_2000_s=X`
where each ratio is against its baseline in the same process (wide 10,000 / 500 columns, folder
2,000 / 100 files, Latin-1 / UTF-8). Bars: wide_ratio <= 3, folder_ratio <= 2, latin1_ratio <= 3.
"""

from __future__ import annotations

import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb  # noqa: E402

from agentic_ds.profiling import ProfilerSettings, profile_file, profile_inputs, sniff_file  # noqa: E402
from agentic_ds.runs.input_check import check_inputs  # noqa: E402
from agentic_ds.runs.workdir import validate_inputs  # noqa: E402
from bench.record import record_section  # noqa: E402


def best_of(runs: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def wide_csv(folder: Path, columns: int, rows: int = 20) -> Path:
    rng = random.Random(columns)
    path = folder / f"wide-{columns}.csv"
    lines = [",".join(f"c{i}" for i in range(columns))]
    lines += [",".join(str(rng.randint(0, 9)) for _ in range(columns)) for _ in range(rows)]
    path.write_text("\n".join(lines) + "\n")
    return path


def folder_of_csvs(folder: Path, count: int) -> Path:
    target = folder / f"parts-{count}"
    target.mkdir()
    for index in range(count):
        (target / f"part-{index:04d}.csv").write_text(
            "city,amount\n" + "".join(f"{['Leeds', 'York', 'Bath'][j % 3]},{(index + j) % 50}\n" for j in range(5)))
    return target


def encoded_tables(folder: Path) -> tuple[Path, Path]:
    """The same ~50 MB table in UTF-8 and in Latin-1 (cities with umlauts)."""
    utf8, latin1 = folder / "cities-utf8.csv", folder / "cities-latin1.csv"
    with duckdb.connect() as con:
        con.execute(
            f"""COPY (SELECT ['München', 'Köln', 'Zürich', 'Düsseldorf'][1 + i % 4] AS city, i % 1000 AS amount,
                       'row number ' || i::VARCHAR AS note FROM range(1500000) t(i)) TO '{utf8}' (HEADER)"""
        )
    latin1.write_bytes(utf8.read_text(encoding="utf-8").encode("latin-1"))
    return utf8, latin1


def distinct_query_seconds(path: Path, columns: int, batch: int) -> float:
    with duckdb.connect(config={"threads": 2}) as con:
        con.execute(f"CREATE TABLE t AS SELECT * FROM read_csv('{path}')")
        names = [row[0] for row in con.execute("DESCRIBE t").fetchall()][:columns]
        start = time.perf_counter()
        for first in range(0, len(names), batch):
            part = names[first : first + batch]
            con.execute("SELECT " + ", ".join(f'count(DISTINCT "{name}")' for name in part) + " FROM t").fetchone()
        return time.perf_counter() - start


def main() -> None:
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        wide_files = {n: wide_csv(folder, n) for n in (500, 2_000, 10_000)}  # written before the clock starts
        wide = {n: best_of(2, functools.partial(profile_file, path)) for n, path in wide_files.items()}
        lines.append("| wide CSV, 20 rows | columns profiled | seconds |")
        lines.append("|---|--:|--:|")
        lines += [f"| {n:,} columns | {min(n, 500)} | {s:.2f} |" for n, s in wide.items()]
        one_query = {n: distinct_query_seconds(folder / "wide-2000.csv", n, n) for n in (100, 200, 400)}
        batched = {n: distinct_query_seconds(folder / "wide-2000.csv", n, 100) for n in (100, 200, 400)}
        lines += ["", "| count(DISTINCT) over N columns | one query s | batches of 100 s |", "|---|--:|--:|"]
        lines += [f"| {n} | {one_query[n]:.2f} | {batched[n]:.2f} |" for n in one_query]

        small_folder, big_folder = folder_of_csvs(folder, 100), folder_of_csvs(folder, 2_000)
        folders = {count: best_of(2, functools.partial(profile_inputs, [f], base=folder))
                   for count, f in ((100, small_folder), (2_000, big_folder))}
        check_s = best_of(2, lambda: check_inputs(validate_inputs([big_folder], folder / "workdirs")))
        lines += ["", "| folder of small CSVs | files profiled | seconds |", "|---|--:|--:|"]
        lines += [
            f"| {count:,} files | {min(count, ProfilerSettings().max_files)} | {s:.2f} |"
            for count, s in folders.items()
        ]
        lines.append(f"| pre-run check of the 2,000-file folder (validate + sniff) | - | {check_s:.2f} |")

        utf8, latin1 = encoded_tables(folder)
        encodings = {
            name: best_of(2, functools.partial(profile_file, p)) for name, p in (("UTF-8", utf8), ("Latin-1", latin1))
        }
        sniff_ms = best_of(5, lambda: sniff_file(latin1)) * 1000
        size_mb = utf8.stat().st_size / 1e6
        lines += ["", f"| {size_mb:.0f} MB table | seconds |", "|---|--:|"]
        lines += [f"| {name} | {s:.2f} |" for name, s in encodings.items()]
        lines.append(f"| sniff of the Latin-1 file (first 64 KB, encoding detection) | {sniff_ms / 1000:.4f} |")

    wide_ratio = wide[10_000] / wide[500]
    folder_ratio = folders[2_000] / folders[100]
    latin1_ratio = encodings["Latin-1"] / encodings["UTF-8"]
    summary = (
        f"profiling: wide_ratio={wide_ratio:.2f} folder_ratio={folder_ratio:.2f} latin1_ratio={latin1_ratio:.2f} "
        f"sniff_ms={sniff_ms:.2f} wide_10000_s={wide[10_000]:.2f} folder_2000_s={folders[2_000]:.2f}"
    )
    record_section("profiling", [
        "Bounds (`ProfilerSettings`): 500 columns per file (the rest named in `columns_not_profiled`), 100 files per "
        "run (the rest sniffed and named in `not_profiled`), DuckDB queries of at most 100 columns. Before this "
        "round: 20 x 10,000 columns segfaulted DuckDB; 2,000 small CSVs took 146 s.",
        "",
        *lines,
        "",
        "Bars: wide_ratio (10,000 / 500 columns) <= 3, folder_ratio (2,000 / 100 files) <= 2, "
        "latin1_ratio (Latin-1 / UTF-8, same table) <= 3.",
    ], result=summary)
    print("\n".join(lines))
    print(summary)


if __name__ == "__main__":
    main()
