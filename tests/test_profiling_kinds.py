"""Column kinds, and the notes that tell an analyst about messy columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_ds.profiling import ProfilerSettings, profile_file
from agentic_ds.profiling.kinds import ColumnFacts, classify, looks_like_key

ROWS = 200


def _write_csv(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    lines = [",".join(header)] + [",".join("" if value is None else str(value) for value in row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def kinds_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    header = [
        "customer_id", "order_ref", "store_id", "signup", "visit_date", "flag01", "active", "age",
        "score", "amount", "segment", "comment", "year",
    ]
    rows = [
        [
            1000 + i,  # unique integer with a key-like name
            f"R-{i * 7919 % 100003:05d}",  # unique single-token text
            i % 8,  # foreign key: integer, key-like name, repeats
            f"2023-{1 + i % 12:02d}-{1 + i % 28:02d}",  # ISO date, read as DATE by DuckDB
            f"{1 + i % 28:02d}/{1 + i % 12:02d}/2024",  # day-first date text
            i % 2,  # 0/1 integer
            "true" if i % 3 else "false",
            20 + i % 50,
            1 + i % 5,  # few-valued integer: stays numeric
            round(10.5 + i * 1.25, 2),
            ["gold", "silver", "bronze"][i % 3],
            f"customer said thing number {i} about the store",  # unique free text
            2000 + i,  # unique integer without a key-like name: a measurement, not an id
        ]
        for i in range(ROWS)
    ]
    return _write_csv(tmp_path_factory.mktemp("kinds") / "kinds.csv", header, rows)


def test_kinds_follow_the_documented_rules(kinds_csv: Path) -> None:
    profile = profile_file(kinds_csv)

    assert profile.error is None
    assert {column.name: column.kind for column in profile.columns} == {
        "customer_id": "id",
        "order_ref": "id",
        "store_id": "categorical",
        "signup": "datetime",
        "visit_date": "datetime",
        "flag01": "boolean",
        "active": "boolean",
        "age": "numeric",
        "score": "numeric",
        "amount": "numeric",
        "segment": "categorical",
        "comment": "text",
        "year": "numeric",
    }


def test_date_text_reports_its_format_and_true_range(kinds_csv: Path) -> None:
    visit = profile_file(kinds_csv).column("visit_date")

    assert visit.dtype == "VARCHAR"
    assert any("%d/%m/%Y" in note for note in visit.notes)
    # min/max are chronological, not alphabetical ("01/01/2024" < "28/12/2024" would be wrong order otherwise)
    assert visit.min == "2024-01-01 00:00:00"
    assert visit.max == "2024-12-28 00:00:00"


def test_few_valued_integers_keep_their_levels_and_mean(kinds_csv: Path) -> None:
    score = profile_file(kinds_csv).column("score")

    assert score.mean == pytest.approx(3.0)
    assert dict(score.top_values) == {1: 40, 2: 40, 3: 40, 4: 40, 5: 40}


def test_spelling_variants_and_numbers_as_text_are_noted(tmp_path: Path) -> None:
    regions = ["North", " North ", "north", "South", "SOUTH", "East"]
    prices = [str(10 + i) for i in range(ROWS)]
    prices[5] = "N/A"
    path = _write_csv(tmp_path / "messy.csv", ["region", "price"], [[regions[i % 6], prices[i]] for i in range(ROWS)])

    profile = profile_file(path)

    region_notes = " ".join(profile.column("region").notes)
    assert "' North '" in region_notes and "'north'" in region_notes and "'SOUTH'" in region_notes
    assert "'East'" not in region_notes  # spelled one way only
    price = profile.column("price")
    assert price.dtype == "VARCHAR"
    assert any("numbers stored as text" in note and "N/A" in note for note in price.notes)


def test_values_missing_from_the_first_rows_still_get_exact_counts(tmp_path: Path) -> None:
    # "c" and 3 only appear after the rows looked at first; "size" stays complete
    rows = [["a", 1, "S"]] * 50 + [["b", 2, None]] * 30 + [["c", 3, "M"]] * 70
    path = _write_csv(tmp_path / "late.csv", ["letter", "level", "size"], rows)

    profile = profile_file(path, settings=ProfilerSettings(head_rows=20))

    letter, level = profile.column("letter"), profile.column("level")
    assert letter.top_values == [("c", 70), ("a", 50), ("b", 30)]
    assert letter.distinct == 3 and (letter.min, letter.max) == ("a", "c")
    assert level.top_values == [(3, 70), (1, 50), (2, 30)]
    assert (level.min, level.max, level.distinct) == (1, 3, 3)
    assert profile.column("size").top_values == [("M", 70), ("S", 50)]
    assert profile.column("size").nulls == 30


def test_a_late_row_that_breaks_the_guessed_type_is_handled(tmp_path: Path) -> None:
    rows = [[i, i * 2] for i in range(30_000)] + [[30_000, "oops"]]
    path = _write_csv(tmp_path / "late_type.csv", ["n", "m"], rows)

    profile = profile_file(path)

    assert profile.error is None
    assert profile.rows == 30_001
    assert profile.column("m").dtype == "VARCHAR"
    assert any("whole file" in note for note in profile.notes)


def test_latin1_text_is_read(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("name;city\nJosé;München\nAnn;Paris\n".encode("latin-1"))

    profile = profile_file(path)

    assert profile.error is None
    assert profile.sample[0] == {"name": "José", "city": "München"}
    assert any("Latin-1" in note for note in profile.notes)


@pytest.mark.parametrize(
    ("name", "key"),
    [("id", True), ("customer_id", True), ("customerId", True), ("store code", True), ("order_no", True),
     ("idea", False), ("video", False), ("price", False), ("Nr of items", False), ("paid", False), ("casino", False)],
)
def test_key_like_names(name: str, key: bool) -> None:
    assert looks_like_key(name) is key


def test_nested_types_are_text_with_counts_only() -> None:
    facts = ColumnFacts(name="tags", dtype="VARCHAR[]", non_null=10, distinct=None, distinct_approx=False)

    assert classify(facts) == "text"


def test_approximate_distinct_counts_relax_the_uniqueness_rule() -> None:
    facts = ColumnFacts(name="order_id", dtype="BIGINT", non_null=1_000_000, distinct=930_000, distinct_approx=True)

    assert classify(facts) == "id"
    assert classify(ColumnFacts(**{**facts.__dict__, "distinct_approx": False})) == "categorical"


def test_ragged_rows_are_padded_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("a,b,c\n1,2,3\n4,5\n6,7,8,9\n")

    profile = profile_file(path)

    assert profile.rows == 3  # DuckDB's sniffer alone would skip the first three lines and keep one row
    assert [column.name for column in profile.columns][:3] == ["a", "b", "c"]
    assert profile.column("c").nulls == 1
    assert any("ragged" in note for note in profile.notes)


def test_a_title_preamble_is_skipped_and_said(tmp_path: Path) -> None:
    path = tmp_path / "report.csv"
    path.write_text("Sales report 2024\nexported by tool\nx,y\n1,2\n3,4\n")

    profile = profile_file(path)

    assert (profile.rows, [column.name for column in profile.columns]) == (2, ["x", "y"])
    assert any("first 2 lines were skipped" in note for note in profile.notes)
