"""A file far larger than the sample is profiled by DuckDB alone: pandas is never asked to load it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from agentic_ds.profiling import ProfilerSettings, profile_file

ROWS = 600_000  # ~50 MB of CSV


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.csv"
    with duckdb.connect() as con:
        con.execute(
            f"""COPY (
                SELECT i AS event_id,
                       TIMESTAMP '2024-01-01' + to_seconds(i * 30) AS at,
                       ['red', 'green', 'blue'][1 + i % 3] AS colour,
                       CASE WHEN i % 100 = 0 THEN NULL ELSE (i % 1000) / 10.0 END AS reading,
                       'device-' || (i % 5000)::VARCHAR AS device,
                       'a longer free text field to make the rows wider, number ' || i::VARCHAR AS memo
                FROM range({ROWS}) t(i)
            ) TO '{path}' (HEADER)"""
        )
    return path


def test_large_csv_is_profiled_without_pandas(big_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("pandas must not load a large input")

    for name in ("read_csv", "read_table", "read_json", "read_parquet", "read_excel"):
        monkeypatch.setattr(pd, name, refuse)
    assert big_csv.stat().st_size > 45 * 1024 * 1024

    profile = profile_file(big_csv, settings=ProfilerSettings(exact_distinct_max_bytes=16 * 1024 * 1024))

    assert profile.error is None
    assert profile.rows == ROWS
    reading = profile.column("reading")
    assert reading.nulls == ROWS // 100  # exact, whatever the file size
    assert (reading.min, reading.max) == (0.1, 99.9)
    last = dt.datetime(2024, 1, 1) + dt.timedelta(seconds=(ROWS - 1) * 30)
    assert profile.column("at").max == last.isoformat(sep=" ")
    assert profile.column("colour").top_values == [
        ("blue", 200_000),
        ("green", 200_000),
        ("red", 200_000),
    ]  # ties by name
    device = profile.column("device")
    assert device.distinct_approx and abs(device.distinct - 5000) / 5000 < 0.1
    assert profile.column("event_id").kind == "id"
    assert profile.duplicate_rows is None  # not counted on large files: it would need a full hash of every row
