"""Column names in the profile are the names pandas gives the generated code (checked against pandas itself)."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from agentic_ds.profiling import profile_file
from agentic_ds.profiling.names import pandas_names

POOL = ["a", "a", "a.1", "a.2", "", "", "b", " b", "B", "Unnamed: 1", "x.1.1", "x", "x.1", "x.2", "é", "a b"]


def _pandas_header(fields: list[str]) -> list[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(fields)
    writer.writerow(["1"] * len(fields))
    return [str(name) for name in pd.read_csv(io.StringIO(buffer.getvalue())).columns]


def test_pandas_names_match_pandas_on_thousands_of_random_headers() -> None:
    rng = random.Random(20)
    checked = 0
    for _ in range(3_000):
        fields = [rng.choice(POOL) for _ in range(rng.randint(2, 10))]
        assert pandas_names(fields) == _pandas_header(fields), fields
        checked += 1
    assert checked == 3_000


def test_many_duplicates_stay_linear() -> None:
    names = pandas_names(["a"] * 20_000 + [""] * 5_000)
    assert names[:3] == ["a", "a.1", "a.2"] and names[-1] == "Unnamed: 24999" and len(set(names)) == 25_000


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_profile_names_and_sample_keys_are_pandas_names(delimiter: str, tmp_path: Path) -> None:
    header = ["city", "", "amount", "amount", "", " pad ", "Amount", "a,b" if delimiter != "," else "a;b"]
    rows = [
        [c, str(i), str(i * 2), str(i % 3), f"x{i}", str(i), str(-i), "q"] for i, c in enumerate(["Leeds", "York"] * 3)
    ]
    path = tmp_path / ("names.tsv" if delimiter == "\t" else "names.csv")
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(header)
        writer.writerows(rows)

    profile = profile_file(path)

    expected = [str(c) for c in pd.read_csv(path, sep=delimiter).columns]
    assert expected[:6] == ["city", "Unnamed: 1", "amount", "amount.1", "Unnamed: 4", " pad "]
    assert [column.name for column in profile.columns] == expected
    assert list(profile.sample[0]) == expected
    assert profile.column("amount.1").max == 2  # the numbers under each name are that column's


def test_excel_header_names_are_read_excel_names(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["city", None, "amount", "amount", " spaced ", 2024])
    for i in range(5):
        sheet.append(["Leeds", i, i * 10, i * 100, "s", i])
    path = tmp_path / "book.xlsx"
    workbook.save(path)

    profile = profile_file(path)

    expected = [str(c) for c in pd.read_excel(path).columns]
    assert expected == ["city", "Unnamed: 1", "amount", "amount.1", " spaced ", "2024"]
    assert [column.name for column in profile.columns] == expected
    assert profile.column("amount.1").max == 400


def test_rows_longer_than_the_header_add_no_columns_the_code_would_not_see(tmp_path: Path) -> None:
    # DuckDB pads the header with `column3`, `column4`; pandas keeps the header's columns (the skill templates
    # drop the extra fields), so a column named in the profile must be one the code can use.
    path = tmp_path / "long_rows.csv"
    path.write_text("a,b,c\n1,2,3\n4,5,6,7,8\n9,10,11\n12,13,14,15\n")

    profile = profile_file(path)

    pandas_columns = list(pd.read_csv(path, engine="python", on_bad_lines="skip").columns)
    assert [column.name for column in profile.columns] == pandas_columns == ["a", "b", "c"]
    assert all(set(row) == {"a", "b", "c"} for row in profile.sample)
    assert profile.rows == 4 and any("2 row(s) had more fields than the header's 3" in n for n in profile.notes)
