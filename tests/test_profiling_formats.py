"""Every supported format profiles to the same, exact statistics (checked against pandas on small data)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from agentic_ds.profiling import ColumnProfile, FileProfile, profile_file

ROWS = 60


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    price = rng.normal(50, 10, ROWS).round(2)
    price[[3, 17, 40]] = np.nan
    return pd.DataFrame(
        {
            "order_id": [f"A{i:04d}" for i in range(ROWS)],
            "day": [dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in range(ROWS)],
            "region": [["North", "South", "East"][i % 3] for i in range(ROWS)],
            "units": rng.integers(1, 30, ROWS),
            "price": price,
            "member": [i % 4 == 0 for i in range(ROWS)],
        }
    )


@pytest.fixture(scope="module")
def files(frame: pd.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("formats")
    csv = folder / "data.csv"
    frame.to_csv(csv, index=False)
    written = {"csv": csv}
    written["tsv"] = folder / "data.tsv"
    frame.to_csv(written["tsv"], index=False, sep="\t")
    written["semicolon"] = folder / "semi.csv"
    frame.to_csv(written["semicolon"], index=False, sep=";")
    written["ndjson"] = folder / "data.ndjson"
    frame.to_json(written["ndjson"], orient="records", lines=True, date_format="iso")
    written["json"] = folder / "data.json"
    written["json"].write_text(json.dumps(json.loads(frame.to_json(orient="records", date_format="iso"))))
    written["excel"] = folder / "data.xlsx"
    frame.to_excel(written["excel"], index=False, sheet_name="orders")
    written["parquet"] = folder / "data.parquet"
    with duckdb.connect() as con:  # pyarrow is not a dependency; DuckDB writes Parquet itself
        con.execute(f"COPY (SELECT * FROM read_csv('{csv}')) TO '{written['parquet']}' (FORMAT parquet)")
    return written


FORMAT_OF = {
    "csv": "csv",
    "tsv": "tsv",
    "semicolon": "csv",
    "ndjson": "json",
    "json": "json",
    "excel": "excel",
    "parquet": "parquet",
}


@pytest.mark.parametrize("name", list(FORMAT_OF))
def test_each_format_gives_exact_rows_nulls_min_max_mean(
    name: str, files: dict[str, Path], frame: pd.DataFrame
) -> None:
    profile = profile_file(files[name])

    assert profile.error is None
    assert profile.format == FORMAT_OF[name]
    assert profile.rows == ROWS
    assert [column.name for column in profile.columns] == list(frame.columns)
    price, units = profile.column("price"), profile.column("units")
    assert price.nulls == int(frame["price"].isna().sum()) == 3
    assert price.null_pct == pytest.approx(100 * 3 / ROWS, abs=0.01)
    assert price.min == pytest.approx(frame["price"].min())
    assert price.max == pytest.approx(frame["price"].max())
    assert price.mean == pytest.approx(frame["price"].mean())
    assert (units.min, units.max) == (int(frame["units"].min()), int(frame["units"].max()))
    assert units.distinct == frame["units"].nunique()
    assert profile.column("region").distinct == 3
    assert str(profile.column("day").min).startswith("2024-01-01")  # JSON from pandas carries a time
    assert str(profile.column("day").max).startswith((dt.date(2024, 1, 1) + dt.timedelta(days=ROWS - 1)).isoformat())
    assert len(profile.sample) == 5 and profile.sample[0]["order_id"] == "A0000"
    json.dumps(profile.sample)  # sample rows are JSON-safe as they are


@pytest.mark.parametrize("name", list(FORMAT_OF))
def test_each_format_gives_the_same_kinds(name: str, files: dict[str, Path]) -> None:
    profile = profile_file(files[name])

    kinds = {column.name: column.kind for column in profile.columns}
    assert kinds == {
        "order_id": "id",
        "day": "datetime",
        "region": "categorical",
        "units": "numeric",
        "price": "numeric",
        "member": "boolean",
    }


def test_top_values_are_exact_counts(files: dict[str, Path], frame: pd.DataFrame) -> None:
    region = profile_file(files["csv"]).column("region")

    assert dict(region.top_values) == frame["region"].value_counts().to_dict()


def test_delimiter_and_sheet_are_reported(files: dict[str, Path]) -> None:
    assert "semicolon" in profile_file(files["semicolon"]).notes[0]
    assert "tab" in profile_file(files["tsv"]).notes[0]
    assert any("orders" in note for note in profile_file(files["excel"]).notes)


def test_excel_other_sheets_are_named(tmp_path: Path, frame: pd.DataFrame) -> None:
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as writer:
        pd.DataFrame().to_excel(writer, sheet_name="cover")
        frame.to_excel(writer, sheet_name="orders", index=False)
        frame.head(3).to_excel(writer, sheet_name="extra", index=False)

    profile = profile_file(path)

    assert profile.rows == ROWS  # the empty first sheet is passed over
    assert any("extra" in note and "cover" in note for note in profile.notes)


def test_gzip_csv_is_read(tmp_path: Path, frame: pd.DataFrame) -> None:
    path = tmp_path / "data.csv.gz"
    frame.to_csv(path, index=False, compression="gzip")

    profile = profile_file(path)

    assert (profile.format, profile.rows, profile.error) == ("csv", ROWS, None)


def test_duplicate_rows_are_counted_on_small_files(tmp_path: Path, frame: pd.DataFrame) -> None:
    path = tmp_path / "dupes.csv"
    pd.concat([frame, frame.iloc[[4, 9]]]).to_csv(path, index=False)

    assert profile_file(path).duplicate_rows == 2


def test_display_name_and_timing(files: dict[str, Path]) -> None:
    profile = profile_file(files["csv"], display_name="inputs/data.csv", sample_rows=2)

    assert profile.path == "inputs/data.csv"
    assert len(profile.sample) == 2
    assert 0 < profile.seconds < 30
    assert isinstance(profile, FileProfile) and isinstance(profile.columns[0], ColumnProfile)
