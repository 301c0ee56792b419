"""Wide files and big folders within documented bounds: profile what fits, say what was not profiled."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from agentic_ds.profiling import DataProfile, ProfilerSettings, profile_file, profile_inputs, render_profile
from agentic_ds.profiling.sniff import SNIFF_BYTES, sniff_file


@pytest.fixture(scope="module")
def wide_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20 rows x 10,000 columns: the file that segfaulted DuckDB in one query."""
    rng = random.Random(5)
    path = tmp_path_factory.mktemp("wide") / "wide.csv"
    lines = [",".join(f"c{i}" for i in range(10_000))]
    lines += [",".join(str(rng.randint(0, 9)) for _ in range(10_000)) for _ in range(20)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_ten_thousand_columns_profile_the_first_ones_and_name_the_rest(wide_csv: Path) -> None:
    profile = profile_file(wide_csv)

    assert profile.error is None and profile.rows == 20
    assert [c.name for c in profile.columns] == [f"c{i}" for i in range(500)]
    assert profile.columns_not_profiled == [f"c{i}" for i in range(500, 10_000)]
    assert "10,000 columns: profiled the first 500" in "; ".join(profile.notes)
    assert profile.duplicate_rows is None  # not counted on part of the columns
    text = render_profile(DataProfile(files=[profile]), max_chars=4000)
    assert len(text) <= 4000 and "wide.csv (csv, " in text and "20 rows x 10000 columns" in text


def test_batched_queries_give_the_same_exact_statistics_as_pandas(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({f"v{i}": rng.integers(0, 50 + i, 300) for i in range(250)})
    frame["label"] = rng.choice(["a", "b", "c"], 300)
    path = tmp_path / "medium.csv"
    frame.to_csv(path, index=False)

    profile = profile_file(path)  # 251 columns: three batches of at most 100

    assert profile.columns_not_profiled == []
    for column in profile.columns[:-1]:
        assert column.distinct == frame[column.name].nunique()
        assert (column.min, column.max) == (frame[column.name].min(), frame[column.name].max())
        assert column.mean == pytest.approx(frame[column.name].mean())
    assert dict(profile.column("label").top_values) == frame["label"].value_counts().to_dict()


def test_a_folder_past_the_file_bound_profiles_the_first_readable_files(tmp_path: Path) -> None:
    folder = tmp_path / "parts"
    folder.mkdir()
    (folder / "a-empty.csv").write_bytes(b"")  # unreadable files do not use up the bound
    for index in range(12):
        (folder / f"part-{index:02d}.csv").write_text("city,amount\nLeeds,1\nYork,2\nBath,3\n")

    profile = profile_inputs([folder], base=tmp_path, settings=ProfilerSettings(max_files=5))

    readable = [f.path for f in profile.files if not f.error]
    assert readable == [f"parts/part-{i:02d}.csv" for i in range(5)]
    assert profile.not_profiled == [f"parts/part-{i:02d}.csv" for i in range(5, 12)]
    assert [item["path"] for item in profile.skipped()] == ["parts/a-empty.csv"]
    assert profile.problems[-1].startswith("7 more readable files were not profiled (the bound is 5 files per run)")
    text = render_profile(profile, max_chars=700)
    assert "parts/part-00.csv ... parts/part-04.csv: 5 csv files with the same 2 columns, 15 rows in all" in text
    assert "Not profiled (past the bound on files): parts/part-05.csv" in text


def test_the_problems_list_in_the_prompt_is_capped(tmp_path: Path) -> None:
    for index in range(30):
        (tmp_path / f"empty-{index:02d}.csv").write_bytes(b"")
    (tmp_path / "good.csv").write_text("city,amount\nLeeds,1\nYork,2\n")

    text = render_profile(profile_inputs([tmp_path], base=tmp_path))

    assert text.count("\n! empty-") == 10 and "! ... and 20 more problems (data_profile.json lists them)" in text
    assert "good.csv (csv, " in text  # the readable file is not crowded out by the unreadable ones


def test_the_sniff_reads_only_the_head_of_a_file(tmp_path: Path) -> None:
    """Garbage after the first MB would fail a full read; the sniff never gets there."""
    path = tmp_path / "big.csv"
    head = ("city,amount\n" + "Leeds,1\n" * (SNIFF_BYTES // 4)).encode()
    path.write_bytes(head + b"\x00\xff" * 1_000_000)

    assert sniff_file(path).format == "csv"
