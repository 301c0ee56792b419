"""The prompt rendering: one line per column, problems first, never over budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_ds.profiling import DataProfile, profile_inputs, render_profile

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def sample_profile(tmp_path_factory: pytest.TempPathFactory) -> DataProfile:
    bad = tmp_path_factory.mktemp("bad") / "broken.csv"
    bad.write_bytes(b"\x00garbage")
    profile = profile_inputs([EXAMPLES / "data"], base=EXAMPLES)
    extra = profile_inputs([bad], base=bad.parent)
    return DataProfile(files=profile.files + extra.files, problems=profile.problems + extra.problems)


def test_full_rendering_has_one_line_per_column_and_the_details(sample_profile: DataProfile) -> None:
    text = render_profile(sample_profile, max_chars=20_000)

    lines = text.splitlines()
    assert lines[0] == "PROBLEMS:" and lines[1].startswith("! broken.csv: binary content")
    assert "data/retail_sales.csv (csv," in text and "10,803 rows x 12 columns, 3 duplicate rows" in text
    column_lines = [line for line in lines if line.startswith("  - ")]
    assert len(column_lines) == sum(len(file.columns) for file in sample_profile.files)
    channel = next(line for line in column_lines if line.startswith("  - channel "))
    assert "categorical" in channel and "top In-store (" in channel and "Online (" in channel
    satisfaction = next(line for line in column_lines if line.startswith("  - satisfaction "))
    assert "nulls 329" in satisfaction and "mean 3.9" in satisfaction
    assert "same value spelled differently" in text
    assert "  row: order_id=O000001" in text


@pytest.mark.parametrize("budget", [120, 400, 1000, 1500, 2500, 4000])
def test_budget_is_respected_and_detail_is_shed_first(sample_profile: DataProfile, budget: int) -> None:
    text = render_profile(sample_profile, max_chars=budget)

    assert len(text) <= budget
    assert text.startswith("PROBLEMS:")
    if budget >= 1000:  # enough for every column name: nothing is cut, only detail is dropped
        for file in sample_profile.files:
            for column in file.columns:
                assert column.name in text
        assert "cut to fit" not in text
    if budget <= 400:
        assert text.endswith("(profile cut to fit; the full profile is in data_profile.json)")


def test_no_usable_files_is_said(tmp_path: Path) -> None:
    (tmp_path / "empty.csv").write_bytes(b"")

    text = render_profile(profile_inputs([tmp_path], base=tmp_path))

    assert text.splitlines() == [
        "PROBLEMS:",
        "! empty.csv: the file is empty (0 bytes); supply the data or remove the file",
        "No usable input files.",
    ]
