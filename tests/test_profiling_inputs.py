"""Bad files become profiles with an error and a problem line; a directory of mixed files keeps going."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentic_ds.profiling import DataProfile, profile_file, profile_inputs

GOOD_CSV = "city,sales\nLeeds,10\nYork,12\nBath,7\n"


def test_binary_garbage_named_csv(tmp_path: Path) -> None:
    path = tmp_path / "garbage.csv"
    path.write_bytes(os.urandom(4096) + b"\x00" * 16)

    profile = profile_file(path)

    assert profile.rows is None and profile.columns == []
    assert "binary" in profile.error and "CSV" in profile.error


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")

    profile = profile_file(path)

    assert "empty" in profile.error
    assert profile.size_bytes == 0


def test_header_only_csv_names_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "header.csv"
    path.write_text("date,region,revenue\n")

    profile = profile_file(path)

    assert profile.rows is None and profile.columns == []
    assert "no data rows" in profile.error and "3 columns: date, region, revenue" in profile.error


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("notes.docx", b"PK\x03\x04whatever", "unsupported file type '.docx'"),
        ("fake.parquet", b"this is not parquet", "not a Parquet file"),
        ("broken.xlsx", b"not a zip archive", "not a readable Excel workbook"),
        ("old.xls", b"\xd0\xcf\x11\xe0", ".xls workbooks are not supported"),
        ("broken.json", b"{\"a\": 1, \"b\": ", "could not be read as JSON (Expecting value: line 1 column 15"),
        ("blank.csv", b"\n\n   \n", "only whitespace"),
    ],
)
def test_unreadable_files_say_what_is_wrong(tmp_path: Path, name: str, content: bytes, expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)

    profile = profile_file(path)

    assert profile.error is not None and expected in profile.error


def test_missing_file(tmp_path: Path) -> None:
    profile = profile_file(tmp_path / "nowhere.csv")

    assert "could not be opened" in profile.error


def test_directory_with_one_bad_file_keeps_going(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs"
    (inputs / "sub").mkdir(parents=True)
    (inputs / "a.csv").write_text(GOOD_CSV)
    (inputs / "sub" / "b.tsv").write_text(GOOD_CSV.replace(",", "\t"))
    (inputs / "bad.csv").write_bytes(b"\x00\x01\x02garbage")
    (inputs / ".hidden.csv").write_text(GOOD_CSV)

    profile = profile_inputs([inputs], base=tmp_path)

    assert [file.path for file in profile.files] == ["inputs/a.csv", "inputs/bad.csv", "inputs/sub/b.tsv"]
    assert [file.rows for file in profile.files] == [3, None, 3]
    assert len(profile.problems) == 1
    assert profile.problems[0].startswith("inputs/bad.csv: binary content")


def test_json_round_trip(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text(GOOD_CSV)
    (tmp_path / "bad.csv").write_bytes(b"")
    profile = profile_inputs([tmp_path / "a.csv", tmp_path / "bad.csv"], base=tmp_path)

    text = json.dumps(profile.to_json())
    again = DataProfile.from_json(json.loads(text))

    assert again == profile
    assert json.loads(text)["version"] == 1
    assert again.file("a.csv").column("city").top_values == []  # unique strings: no frequency table
    assert again.file("a.csv").column("sales").max == 12
