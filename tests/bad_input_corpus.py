"""The bad-input corpus: files and folders with real defects, each with the exit code and message expected.

Every case is generated (no committed binaries): `build` writes it under a folder and returns the
`--files` arguments. `python -m tests.bad_input_corpus DIR` writes the whole corpus to DIR, one folder
per case, for trying by hand. tests/test_bad_input_corpus.py runs each one through `agentic-ds run`.

Cases that stop at validation (exit 2) expect `message` in the error line; cases that run expect the
run's status and the checks in `expect` (run.json, data_profile.json, report.md).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GOOD_ROWS = "city,amount\nLeeds,10\nYork,12\nBath,7\nLeeds,9\n"
CITIES = "city,amount\nMünchen,10\nKöln,12\nZürich,7\nMünchen,9\n"


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[Path], list[str]]
    exit_code: int
    message: str = ""
    """Exit 2: in the `error:` line. Runs: in the final `status:` line."""
    expect: dict[str, Any] = field(default_factory=dict)
    """For runs: `skipped` (paths), `encoding` {path: codec}, `report_has`, `columns` {path: names}, ..."""
    task: str = "Mean amount by city"
    needs_dropped_privileges: bool = False  # root reads any file: run the CLI without CAP_DAC_OVERRIDE


def _write(folder: Path, name: str, data: bytes | str) -> str:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return name


def _file(name: str, data: bytes | str) -> Callable[[Path], list[str]]:
    return lambda folder: [_write(folder, name, data)]


def _random_bytes(size: int, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(size)


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _parquet(folder: Path) -> bytes:
    import duckdb

    target = folder / "_tmp.parquet"
    with duckdb.connect() as con:
        con.execute(f"COPY (SELECT 'Leeds' AS city, range AS amount FROM range(50)) TO '{target}' (FORMAT parquet)")
    data = target.read_bytes()
    target.unlink()
    return data


def _bad_footer_parquet(folder: Path) -> list[str]:
    data = _parquet(folder)
    return [_write(folder, "bad_footer.parquet", data[:-6] + b"XXXXXX")]


def _fifo(folder: Path) -> list[str]:
    os.mkfifo(folder / "pipe.csv")
    return ["pipe.csv"]


def _symlink_loop(folder: Path) -> list[str]:
    (folder / "loop").symlink_to("loop")
    return ["loop"]


def _unreadable(folder: Path) -> list[str]:
    _write(folder, "secret.csv", GOOD_ROWS)
    (folder / "secret.csv").chmod(0)
    return ["secret.csv"]


def _empty_folder(folder: Path) -> list[str]:
    (folder / "data").mkdir()
    return ["data"]


def _hidden_only(folder: Path) -> list[str]:
    _write(folder, "data/.DS_Store", b"\x00\x01junk")
    _write(folder, "data/.hidden.csv", GOOD_ROWS)
    _write(folder, "data/.git/config", "[core]\n")
    return ["data"]


def _nothing_readable(folder: Path) -> list[str]:
    _write(folder, "data/empty.csv", b"")
    _write(folder, "data/garbage.csv", _random_bytes(2048))
    _write(folder, "data/notes.docx", b"PK\x03\x04")
    return ["data"]


def _mixed_folder(folder: Path) -> list[str]:
    _write(folder, "data/good.csv", GOOD_ROWS)
    _write(folder, "data/empty.csv", b"")
    _write(folder, "data/garbage.csv", _random_bytes(2048))
    _write(folder, "data/archive.zip", _zip({"x.csv": GOOD_ROWS.encode()}))
    _write(folder, "data/header_only.csv", "city,amount\n")
    os.mkfifo(folder / "data" / "pipe.csv")
    (folder / "data" / "loop").symlink_to(Path("..") / "data")
    (folder / "data" / "gone.csv").symlink_to(folder / "nowhere.csv")
    return ["data"]


def _header_names(folder: Path) -> list[str]:
    rows = "".join(f"{city},{i},{i * 2},{i % 3},x{i}, {i} \n" for i, city in enumerate(["Leeds", "York", "Bath"] * 4))
    return [_write(folder, "names.csv", "city,,amount,amount,,  pad \n" + rows)]


def _ragged(folder: Path) -> list[str]:
    body = "city,amount,note\nLeeds,10,a\nYork,12\nBath,7,c,extra\nLeeds,9,d\n"
    return [_write(folder, "ragged.csv", body)]


def _quoted_newlines(folder: Path) -> list[str]:
    body = 'city,amount,comment\nLeeds,10,"first line\nsecond line"\nYork,12,"a, b"\nBath,7,plain\nLeeds,9,"x\ny\nz"\n'
    return [_write(folder, "quoted.csv", body)]


def _wide(folder: Path) -> list[str]:
    rng = random.Random(3)
    lines = [",".join(["city", "amount"] + [f"c{i}" for i in range(9_998)])]
    for row in range(20):
        lines.append(",".join([["Leeds", "York"][row % 2], str(row)] + [str(rng.randint(0, 9)) for _ in range(9_998)]))
    return [_write(folder, "wide.csv", "\n".join(lines) + "\n")]


def _many_files(folder: Path) -> list[str]:
    for index in range(2_000):
        _write(folder, f"many/part-{index:04d}.csv", "city,amount\n" + "".join(
            f"{['Leeds', 'York', 'Bath'][j % 3]},{(index * 7 + j) % 50}\n" for j in range(5)))
    return ["many"]


def _late_latin1(folder: Path) -> list[str]:
    ascii_rows = "".join(f"Leeds,{i % 90}\n" for i in range(12_000))  # ~110 KB before the first non-ASCII byte
    return [_write(folder, "late.csv", ("city,amount\n" + ascii_rows + "München,5\n").encode("latin-1"))]


def _mixed_encodings(folder: Path) -> list[str]:
    head = ("city,amount\n" + "Zürich,1\n" + "".join(f"Leeds,{i % 90}\n" for i in range(12_000))).encode("utf-8")
    return [_write(folder, "mixed.csv", head + "München,5\n".encode("latin-1"))]


def _huge_line(folder: Path) -> list[str]:
    return [_write(folder, "oneline.csv", ("x," * 1_600_000).encode())]  # 3.2 MB, no line break


def _damaged_gzip(folder: Path) -> list[str]:
    data = gzip.compress(GOOD_ROWS.encode() * 100)
    return [_write(folder, "data.csv.gz", data[:40] + _random_bytes(200))]


def _nul_bytes(folder: Path) -> list[str]:
    rows = "".join(f"Leeds,{i}\n" for i in range(300))
    return [_write(folder, "nul.csv", ("city,amount\n" + rows).encode() + b"York,1\x00\x002\n" + b"Bath,3\n")]


def _encoded(name: str, codec: str, bom: bytes = b"", text: str = CITIES) -> Callable[[Path], list[str]]:
    return _file(name, bom + text.encode(codec))


def _folder_holding_the_run_root(folder: Path) -> list[str]:
    _write(folder, "sales.csv", GOOD_ROWS)
    (folder / "workdirs").mkdir()
    return ["."]


def _excel_with_bad_header(folder: Path) -> list[str]:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["city", None, "amount", "amount"])
    for i, city in enumerate(["Leeds", "York", "Bath", "Leeds"]):
        sheet.append([city, i, i * 10, i * 100])
    workbook.save(folder / "book.xlsx")
    return ["book.xlsx"]


EXIT_USAGE = 2
CASES: list[Case] = [
    # -- refused before the run directory exists (exit 2) -------------------------------------
    Case("empty file", _file("empty", b""), EXIT_USAGE, "the file is empty (0 bytes)"),
    Case("zero-byte csv", _file("empty.csv", b""), EXIT_USAGE, "the file is empty (0 bytes)"),
    Case("whitespace only", _file("blank.csv", "\n  \n\t\n"), EXIT_USAGE, "the file holds only whitespace"),
    Case("binary garbage", _file("garbage.csv", _random_bytes(4096)), EXIT_USAGE, "binary content in a .csv file"),
    Case("NUL bytes in a csv", _nul_bytes, EXIT_USAGE, "2 NUL byte(s) in the text (the first on line 302)"),
    Case(
        "only a header",
        _file("header.csv", "date,region,revenue\n"),
        EXIT_USAGE,
        "no data rows (only a header with 3 columns: date, region, revenue)",
    ),
    Case(
        "corrupt xlsx",
        _file("broken.xlsx", _random_bytes(3000)),
        EXIT_USAGE,
        "not a readable Excel workbook (not a zip archive",
    ),
    Case(
        "xlsx that is a zip of garbage",
        _file("fake.xlsx", _zip({"junk.bin": _random_bytes(500)})),
        EXIT_USAGE,
        "a zip archive without xl/workbook.xml",
    ),
    Case("zip archive", _file("data.zip", _zip({"data.csv": GOOD_ROWS.encode()})), EXIT_USAGE, "an archive (.zip)"),
    Case("legacy xls", _file("old.xls", b"\xd0\xcf\x11\xe0" + _random_bytes(500)), EXIT_USAGE, "legacy .xls workbooks"),
    Case("docx", _file("notes.docx", b"PK\x03\x04whatever"), EXIT_USAGE, "unsupported file type '.docx'"),
    Case("parquet with a bad footer", _bad_footer_parquet, EXIT_USAGE, "a damaged Parquet file (no PAR1 footer"),
    Case("parquet that is text", _file("fake.parquet", GOOD_ROWS), EXIT_USAGE, "not a Parquet file (no PAR1 header)"),
    Case(
        "json array of numbers",
        _file("numbers.json", "[1, 2, 3]"),
        EXIT_USAGE,
        "JSON that is not a table: it holds a number",
    ),
    Case("json scalar", _file("scalar.json", '"hello"'), EXIT_USAGE, "JSON that is not a table: it holds a string"),
    Case("json lines of lists", _file("lists.jsonl", "[1, 2]\n[3, 4]\n"), EXIT_USAGE, "JSON that is not a table"),
    Case("broken json", _file("broken.json", '{"a": 1, "b": '), EXIT_USAGE, "could not be read as JSON"),
    Case(
        "json nested thousands deep",
        _file("deep.json", "[" * 5000 + "]" * 5000),
        EXIT_USAGE,
        "JSON nested too deeply to be a table",
    ),
    Case("empty json array", _file("none.json", "[]"), EXIT_USAGE, "an empty JSON array"),
    Case("csv named json", _file("table.json", GOOD_ROWS), EXIT_USAGE, "not JSON (it starts with 'city,amount"),
    Case("huge single line", _huge_line, EXIT_USAGE, "no line break in the first 2 MB"),
    Case("damaged gzip", _damaged_gzip, EXIT_USAGE, "a damaged compressed file"),
    Case("fifo", _fifo, EXIT_USAGE, "input pipe.csv is neither a file nor a folder"),
    Case("directory symlink loop", _symlink_loop, EXIT_USAGE, "input loop is a symbolic link that leads nowhere"),
    Case("missing path", lambda folder: ["nowhere.csv"], EXIT_USAGE, "input not found: nowhere.csv"),
    Case(
        "unreadable permission",
        _unreadable,
        EXIT_USAGE,
        "input secret.csv is not readable",
        needs_dropped_privileges=True,
    ),
    Case(
        "folder holding the run root",
        _folder_holding_the_run_root,
        EXIT_USAGE,
        "input folder . contains the run root workdirs; a run would copy itself",
    ),
    Case("empty folder", _empty_folder, EXIT_USAGE, "input folder data holds no files to copy"),
    Case("folder of only hidden files", _hidden_only, EXIT_USAGE, "input folder data holds no files to copy"),
    Case(
        "folder with nothing readable",
        _nothing_readable,
        EXIT_USAGE,
        "no file in input folder data can be read (3 tried): inputs/data/empty.csv: the file is empty",
    ),
    # -- the run starts --------------------------------------------------------------------------
    Case(
        "folder with one readable and several unreadable files",
        _mixed_folder,
        0,
        "completed_with_warnings",
        {
            "skipped": {
                "inputs/data/empty.csv": "the file is empty",
                "inputs/data/garbage.csv": "binary content",
                "inputs/data/archive.zip": "an archive (.zip)",
                "inputs/data/header_only.csv": "no data rows",
                "inputs/data/pipe.csv": "a named pipe (FIFO)",
                "inputs/data/loop": "links to folders are not followed",
                "inputs/data/gone.csv": "a link that leads nowhere",
            }
        },
    ),
    Case(
        "latin-1 csv",
        _encoded("latin1.csv", "latin-1"),
        0,
        "completed",
        {"encoding": {"inputs/latin1.csv": "latin-1"}, "report_has": ["München", "Zürich"]},
    ),
    Case(
        "cp1252 csv",
        _encoded("cp1252.csv", "cp1252", text=CITIES.replace("Köln", "“Köln” €")),
        0,
        "completed",
        {"encoding": {"inputs/cp1252.csv": "cp1252"}, "report_has": ["München", "“Köln” €"]},
    ),
    Case(
        "utf-16 LE with BOM",
        _encoded("u16le_bom.csv", "utf-16-le", b"\xff\xfe"),
        0,
        "completed",
        {"encoding": {"inputs/u16le_bom.csv": "utf-16"}, "report_has": ["München"]},
    ),
    Case(
        "utf-16 BE with BOM",
        _encoded("u16be_bom.csv", "utf-16-be", b"\xfe\xff"),
        0,
        "completed",
        {"encoding": {"inputs/u16be_bom.csv": "utf-16"}, "report_has": ["München"]},
    ),
    Case(
        "utf-16 LE without BOM",
        _encoded("u16le.csv", "utf-16-le"),
        0,
        "completed",
        {"encoding": {"inputs/u16le.csv": "utf-16-le"}, "report_has": ["München"]},
    ),
    Case(
        "utf-16 BE without BOM",
        _encoded("u16be.csv", "utf-16-be"),
        0,
        "completed",
        {"encoding": {"inputs/u16be.csv": "utf-16-be"}, "report_has": ["München"]},
    ),
    Case(
        "utf-8 with BOM",
        _encoded("bom.csv", "utf-8", b"\xef\xbb\xbf"),
        0,
        "completed",
        {"encoding": {"inputs/bom.csv": "utf-8-sig"}, "columns": {"inputs/bom.csv": ["city", "amount"]}},
    ),
    Case(
        "gzip of a latin-1 csv",
        _file("cities.csv.gz", gzip.compress(CITIES.encode("latin-1"))),
        0,
        "completed",
        {"encoding": {"inputs/cities.csv.gz": "latin-1"}, "report_has": ["München"]},
    ),
    Case(
        "json with a UTF-8 BOM",
        _file(
            "records.json",
            b"\xef\xbb\xbf"
            + json.dumps(
                [{"city": c, "amount": a} for c, a in (("München", 10), ("Köln", 12), ("München", 9))]
            ).encode(),
        ),
        0,
        "completed",
        {
            "encoding": {"inputs/records.json": "utf-8-sig"},
            "columns": {"inputs/records.json": ["city", "amount"]},
            "report_has": ["München"],
        },
    ),
    Case("latin-1 after 100 KB of ASCII", _late_latin1, 0, "completed", {"encoding": {"inputs/late.csv": "latin-1"}}),
    Case(
        "header with blank and duplicate names",
        _header_names,
        0,
        "completed",
        {
            "columns": {"inputs/names.csv": ["city", "Unnamed: 1", "amount", "amount.1", "Unnamed: 4", "  pad "]},
            "report_has": ["The mean of Unnamed: 1 is 5.5 (n = 12"],
        },
        task="What is the mean of Unnamed: 1?",
    ),
    Case(
        "excel header with blank and duplicate names",
        _excel_with_bad_header,
        0,
        "completed",
        {"columns": {"inputs/book.xlsx": ["city", "Unnamed: 1", "amount", "amount.1"]}},
    ),
    Case("ragged rows", _ragged, 0, "completed", {"rows": {"inputs/ragged.csv": 4}}),
    Case("quoted newlines", _quoted_newlines, 0, "completed", {"rows": {"inputs/quoted.csv": 4}}),
    Case("10,000 columns", _wide, 0, "completed", {"columns_not_profiled": {"inputs/wide.csv": 9_500}}),
    Case("folder of 2,000 files", _many_files, 0, "completed_with_warnings", {"not_profiled": 1_900}),
    # -- the run starts, but the full profile finds what the first 64 KB did not: no model is called
    Case(
        "utf-8 then latin-1 in one file",
        _mixed_encodings,
        1,
        "failed - no input file can be read (1 tried): inputs/mixed.csv: mixes encodings",
    ),
]


def build_corpus(root: Path) -> dict[str, list[str]]:
    """Write every case under `root/<case name>/`; return the `--files` arguments of each."""
    built = {}
    for case in CASES:
        folder = root / case.name.replace(" ", "_").replace(",", "")
        folder.mkdir(parents=True, exist_ok=False)
        built[case.name] = case.build(folder)
    return built


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "bad-input-corpus")
    print(json.dumps(build_corpus(target), indent=2))
