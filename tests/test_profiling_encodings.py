"""Encodings are detected, recorded, and read right: what pandas reads with the recorded codec is the truth."""

from __future__ import annotations

import codecs
from pathlib import Path

import pandas as pd
import pytest

from agentic_ds.profiling import DataProfile, profile_file, render_profile
from agentic_ds.profiling.encoding import TextEncoding, detect_encoding

TEXT = "city,amount,note\nMünchen,10,größer\nKöln,12,Straße\nZürich,7,Ærø\nMünchen,9,très\n"
WINDOWS = "city,amount,note\nMünchen,10,“quoted”\nKöln,12,5 €\nZürich,7,–\nMünchen,9,…\n"

CASES = {
    # name: (bytes, recorded codec)
    "utf-8": (TEXT.encode("utf-8"), "utf-8"),
    "utf-8 with BOM": (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
    "utf-16 LE with BOM": (TEXT.encode("utf-16"), "utf-16"),
    "utf-16 BE with BOM": (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16"),
    "utf-16 LE without BOM": (TEXT.encode("utf-16-le"), "utf-16-le"),
    "utf-16 BE without BOM": (TEXT.encode("utf-16-be"), "utf-16-be"),
    "latin-1": (TEXT.encode("latin-1"), "latin-1"),
    "windows-1252": (WINDOWS.encode("cp1252"), "cp1252"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_encoding_is_recorded_and_reads_as_pandas_reads_it(name: str, tmp_path: Path) -> None:
    data, codec = CASES[name]
    path = tmp_path / "cities.csv"
    path.write_bytes(data)

    profile = profile_file(path)

    assert profile.error is None
    assert profile.encoding == codec
    expected = pd.read_csv(path, encoding=codec)
    assert [column.name for column in profile.columns] == list(expected.columns)
    assert [row["city"] for row in profile.sample] == list(expected["city"])
    assert profile.sample[0]["city"] == "München"
    assert profile.column("city").top_values[0] == ("München", 2)
    if codec not in ("utf-8", "utf-8-sig"):
        assert f"encoding={codec!r}" in "; ".join(profile.notes)


def test_the_encoding_survives_every_level_of_the_prompt_rendering(tmp_path: Path) -> None:
    path = tmp_path / "cities.csv"
    path.write_bytes(TEXT.encode("latin-1"))
    profile = DataProfile(files=[profile_file(path)])

    for budget in (4000, 300, 150):
        text = render_profile(profile, max_chars=budget)
        assert "encoding latin-1: read it with encoding='latin-1'" in text.splitlines()[0], text


def test_a_latin1_byte_after_the_first_64_kb_is_found_and_read_right(tmp_path: Path) -> None:
    path = tmp_path / "late.csv"
    rows = "".join(f"Leeds,{i % 90}\n" for i in range(12_000))
    path.write_bytes(("city,amount\n" + rows + "München,5\nKöln,6\n").encode("latin-1"))

    profile = profile_file(path)

    assert profile.error is None and profile.encoding == "latin-1"
    assert profile.rows == 12_002
    assert set(profile.column("city").top_values) >= {("München", 1), ("Köln", 1)}


def test_windows_1252_is_settled_on_the_whole_file(tmp_path: Path) -> None:
    """The first 64 KB look Latin-1; a euro sign further on makes it Windows-1252."""
    path = tmp_path / "late_euro.csv"
    rows = "".join(f"Köln,{i % 90}\n" for i in range(12_000))
    path.write_bytes(("city,amount\n" + rows + "5 €,1\n").encode("cp1252"))

    profile = profile_file(path)

    assert profile.encoding == "cp1252"
    assert pd.read_csv(path, encoding=profile.encoding)["city"].iloc[-1] == "5 €"


def test_utf8_then_latin1_is_refused_rather_than_half_garbled(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    head = ("city,amount\nZürich,1\n" + "".join(f"Leeds,{i}\n" for i in range(12_000))).encode("utf-8")
    path.write_bytes(head + "München,5\n".encode("latin-1"))

    profile = profile_file(path)

    assert profile.error.startswith("mixes encodings: UTF-8 text, then bytes that are not UTF-8 near byte")


def test_cyrillic_windows_text_is_read_as_cp1251(tmp_path: Path) -> None:
    path = tmp_path / "ru.csv"
    path.write_bytes("город,сумма\nМосква,1\nСанкт-Петербург,2\nНовосибирск,3\nМосква,4\n".encode("cp1251"))

    profile = profile_file(path)

    assert profile.encoding == "cp1251"
    assert profile.sample[0] == {"город": "Москва", "сумма": 1}


@pytest.mark.parametrize(
    ("data", "complete", "codec"),
    [
        (b"a,b\n1,2\n", True, "utf-8"),
        ("a,b\nM\u00fcnchen,2\n".encode()[:-1], False, "utf-8"),  # a sample may stop mid-character
        ("Zürich".encode()[:2], False, "utf-8"),
        (codecs.BOM_UTF32_LE + "a,b\n".encode("utf-32-le"), True, "utf-32"),
        ("a,b\nM\u00fcnchen\n".encode("latin-1"), True, "latin-1"),
    ],
)
def test_detection_on_samples(data: bytes, complete: bool, codec: str) -> None:
    assert detect_encoding(data, complete=complete) == TextEncoding(codec)


@pytest.mark.parametrize(
    ("prefix", "codec", "recorded"), [(codecs.BOM_UTF8, "utf-8", "utf-8-sig"), (b"", "utf-16", "utf-16")]
)
def test_json_with_a_byte_order_mark_is_read_as_records(
    prefix: bytes, codec: str, recorded: str, tmp_path: Path
) -> None:
    """DuckDB's JSON reader takes a UTF-8 BOM for data (one row, one column "json"): it reads a clean copy."""
    path = tmp_path / "records.json"
    path.write_bytes(prefix + '[{"city": "München", "n": 1}, {"city": "Köln", "n": 2}]'.encode(codec))

    profile = profile_file(path)

    assert (profile.encoding, profile.rows, [c.name for c in profile.columns]) == (recorded, 2, ["city", "n"])
    assert profile.sample[0] == {"city": "München", "n": 1}
