"""Which reader a file needs, and the DuckDB table expression that reads it.

CSV/TSV, Parquet and JSON are read by DuckDB itself, streaming, so any size works. Excel is streamed
row by row with openpyxl (read-only mode) into a temporary CSV that DuckDB then reads: DuckDB's excel
extension would need the network, and pandas would hold the whole sheet in memory.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

FORMAT_BY_SUFFIX = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
    ".xlsx": "excel",
    ".xlsm": "excel",
    ".xls": "excel",
}
COMPRESSION_SUFFIXES = (".gz", ".zst")
TEXT_FORMATS = ("csv", "tsv", "json")
PARQUET_MAGIC = b"PAR1"


class UnreadableFile(Exception):
    """The file cannot be profiled; the message says why and what the user can do."""


@dataclass
class CsvDialect:
    """`read_csv` options beyond auto-detection; each fallback adds some and says why in `notes`."""

    options: dict[str, str | int | bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def detect_format(path: Path) -> str:
    """`csv`, `tsv`, `parquet`, `json`, `excel`, or `unknown`, from the name (compression suffix allowed)."""
    name = path.name.lower()
    for suffix in COMPRESSION_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return FORMAT_BY_SUFFIX.get(Path(name).suffix, "unknown")


def check_readable(path: Path, file_format: str) -> None:
    """Refuse, with an actionable message, files that no reader will make sense of."""
    size = path.stat().st_size
    if size == 0:
        raise UnreadableFile("the file is empty (0 bytes); supply the data or remove the file")
    with path.open("rb") as handle:
        head = handle.read(65536)
    if file_format == "parquet" and not head.startswith(PARQUET_MAGIC):
        raise UnreadableFile("not a Parquet file (no PAR1 header); check the file or rename it to its real type")
    compressed = path.name.lower().endswith(COMPRESSION_SUFFIXES)
    if file_format in TEXT_FORMATS and not compressed and b"\x00" in head:
        raise UnreadableFile(
            f"binary content in a .{path.suffix.lstrip('.')} file, not text; "
            "export the data as UTF-8 CSV, Parquet or JSON"
        )
    if file_format in TEXT_FORMATS and not compressed and not head.strip():
        raise UnreadableFile("the file holds only whitespace; supply the data or remove the file")


def sql_string(value: str | Path) -> str:
    """A SQL string literal (DuckDB table functions take literals, not bound parameters, in views)."""
    return "'" + str(value).replace("'", "''") + "'"


def quote_identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_expression(path: Path, file_format: str, dialect: CsvDialect | None = None) -> str:
    """The `FROM` clause target that reads `path` (CSV/TSV, Parquet or JSON; Excel goes through a CSV)."""
    if file_format in ("csv", "tsv"):
        options = dict(dialect.options if dialect else {})
        if file_format == "tsv":
            options.setdefault("delim", "\t")
        rendered = "".join(f", {key}={sql_value(value)}" for key, value in options.items())
        return f"read_csv({sql_string(path)}{rendered})"
    if file_format == "parquet":
        return f"read_parquet({sql_string(path)})"
    if file_format == "json":
        return f"read_json({sql_string(path)}, format='auto')"
    raise ValueError(f"no DuckDB reader for format {file_format!r}")


def csv_fallbacks(error_message: str) -> CsvDialect | None:
    """The dialect to retry with after `error_message`, or None when a retry cannot help."""
    lowered = error_message.lower()
    if "not utf-8 encoded" in lowered or "invalid unicode" in lowered:
        return CsvDialect({"encoding": "latin-1"}, ["not UTF-8: read as Latin-1"])
    if "could not convert" in lowered or "conversion error" in lowered or "expected" in lowered:
        # The sniffer looked at the first rows only; a later row broke its guess. Sniff everything.
        return CsvDialect(
            {"sample_size": -1, "strict_mode": False, "null_padding": True},
            ["types guessed from the whole file (a late row broke the first guess); rows with missing fields padded with nulls"],
        )
    return None


def sniff(con: duckdb.DuckDBPyConnection, path: Path, file_format: str, dialect: CsvDialect) -> tuple[str, bool, int]:
    """(delimiter, has header, leading lines skipped) as DuckDB's sniffer reads `path` with `dialect`."""
    options = dict(dialect.options)
    if file_format == "tsv":
        options.setdefault("delim", "\t")
    rendered = "".join(f", {key}={sql_value(value)}" for key, value in options.items())
    row = con.execute(f"SELECT Delimiter, HasHeader, SkipRows FROM sniff_csv({sql_string(path)}{rendered})").fetchone()
    if row is None:
        raise UnreadableFile("DuckDB could not work out the CSV dialect; check the delimiter and quoting")
    return str(row[0]), bool(row[1]), int(row[2])


def starting_dialect(con: duckdb.DuckDBPyConnection, path: Path, file_format: str) -> CsvDialect:
    """Auto-detection, unless the sniffer would skip leading lines that are really ragged data rows.

    DuckDB skips leading lines whose field count disagrees with the rest. That is right for a title
    preamble (lines without the delimiter), but on a file with ragged rows it silently drops data:
    there, missing fields are padded with nulls instead.
    """
    try:
        delimiter, _, skipped = sniff(con, path, file_format, CsvDialect())
    except (duckdb.Error, UnreadableFile):
        return CsvDialect()  # reading will fail with a clearer error, or fall back
    if skipped == 0:
        return CsvDialect()
    skipped_lines = _first_lines(path, skipped)
    if skipped_lines and all(delimiter in line for line in skipped_lines):
        return CsvDialect({"null_padding": True}, ["ragged rows: missing fields read as nulls"])
    return CsvDialect({}, [f"the first {skipped} lines were skipped as a preamble (not data)"])


def _first_lines(path: Path, count: int) -> list[str]:
    if path.name.lower().endswith(COMPRESSION_SUFFIXES):
        return []
    with path.open("r", encoding="utf-8", errors="replace", newline="") as handle:
        return [line for line, _ in zip(handle, range(count))]


def describe_dialect(con: duckdb.DuckDBPyConnection, path: Path, file_format: str, dialect: CsvDialect) -> str:
    try:
        delimiter, has_header, _ = sniff(con, path, file_format, dialect)
    except (duckdb.Error, UnreadableFile):
        return "read with DuckDB read_csv (dialect auto-detected)"
    shown = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(delimiter, repr(delimiter))
    return f"delimiter {shown}, {'header row' if has_header else 'no header row (columns named column0..)'}"


def sql_value(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return sql_string(value)


def excel_to_csv(path: Path, target: Path) -> list[str]:
    """Stream the first non-empty sheet of `path` into `target` as CSV; return notes on what was read.

    openpyxl's read-only mode keeps memory flat whatever the sheet size. Dates are written in ISO form
    so DuckDB's sniffer types them; the first non-empty row is the header.
    """
    if path.suffix.lower() == ".xls":
        raise UnreadableFile("legacy .xls workbooks are not supported; save it as .xlsx or CSV")
    import openpyxl  # only Excel inputs pay for the import
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise UnreadableFile(f"not a readable Excel workbook ({exc}); re-save it as .xlsx or CSV") from exc
    except Exception as exc:  # zipfile.BadZipFile and friends: openpyxl raises many types for corrupt files
        raise UnreadableFile(f"not a readable Excel workbook ({type(exc).__name__}); re-save it as .xlsx or CSV") from exc
    try:
        for sheet in workbook.worksheets:
            rows = (row for row in sheet.iter_rows(values_only=True) if any(cell is not None for cell in row))
            header = next(rows, None)
            if header is None:
                continue
            names = [str(cell).strip() if cell is not None else f"column{i}" for i, cell in enumerate(header)]
            with target.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(names)
                for row in rows:
                    writer.writerow([_excel_cell(cell) for cell in row[: len(names)]])
            others = [other.title for other in workbook.worksheets if other.title != sheet.title]
            notes = [f"sheet {sheet.title!r}"]
            if others:
                notes.append(f"other sheets not profiled: {', '.join(others)} (read them with pandas.read_excel(sheet_name=...))")
            return notes
    finally:
        workbook.close()
    raise UnreadableFile("every sheet of the workbook is empty; supply the data or remove the file")


def _excel_cell(value: object) -> object:
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") if value.time() != dt.time(0) else value.date().isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return value
