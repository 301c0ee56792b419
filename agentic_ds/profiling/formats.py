"""The DuckDB table expression that reads a file, the CSV dialect fallbacks, and Excel as CSV.

CSV/TSV, Parquet and JSON are read by DuckDB itself, streaming, so any size works. Excel is streamed
row by row with openpyxl (read-only mode) into a temporary CSV that DuckDB then reads: DuckDB's excel
extension would need the network, and pandas would hold the whole sheet in memory. Which format a
file is, and whether it can be read at all, is `sniff.py`'s job.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from agentic_ds.profiling.errors import UnreadableFile
from agentic_ds.profiling.names import pandas_names
from agentic_ds.profiling.sniff import CANDIDATE_DELIMITERS, COMPRESSION_SUFFIXES


@dataclass(frozen=True)
class CsvShape:
    """How DuckDB's sniffer reads a CSV: what the header names and the describing note are built from."""

    delimiter: str
    has_header: bool
    skip_rows: int
    quote: str


@dataclass
class CsvDialect:
    """`read_csv` options beyond auto-detection; each fallback adds some and says why in `notes`."""

    options: dict[str, str | int | bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    shape: CsvShape | None = None
    """What the sniffer found with these options, when already asked (a sniff of a wide file takes ~1 s)."""


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


def is_invalid_utf8(error_message: str) -> bool:
    """DuckDB met a byte sequence that is not UTF-8 (the file is in another encoding from some point on)."""
    lowered = error_message.lower()
    return "not utf-8 encoded" in lowered or "invalid unicode" in lowered


def csv_fallbacks(error_message: str) -> CsvDialect | None:
    """The dialect to retry with after `error_message`, or None when a retry cannot help."""
    lowered = error_message.lower()
    if "could not convert" in lowered or "conversion error" in lowered or "expected" in lowered:
        # The sniffer looked at the first rows only; a later row broke its guess. Sniff everything.
        return CsvDialect(
            {"sample_size": -1, "strict_mode": False, "null_padding": True},
            [
                "types guessed from the whole file (a late row broke the first guess); "
                "rows with missing fields padded with nulls"
            ],
        )
    return None


def sniff(con: duckdb.DuckDBPyConnection, path: Path, file_format: str, dialect: CsvDialect) -> CsvShape:
    """The dialect DuckDB's sniffer finds in `path` when read with `dialect`."""
    options = dict(dialect.options)
    if file_format == "tsv":
        options.setdefault("delim", "\t")
    rendered = "".join(f", {key}={sql_value(value)}" for key, value in options.items())
    row = con.execute(
        f"SELECT Delimiter, HasHeader, SkipRows, Quote FROM sniff_csv({sql_string(path)}{rendered})"
    ).fetchone()
    if row is None:
        raise UnreadableFile("DuckDB could not work out the CSV dialect; check the delimiter and quoting")
    quote = str(row[3] or "")
    return CsvShape(str(row[0]), bool(row[1]), int(row[2]), quote if len(quote) == 1 else '"')  # "(empty)": none found


def starting_dialect(con: duckdb.DuckDBPyConnection, path: Path, file_format: str) -> CsvDialect:
    """Auto-detection, unless the sniffer would skip leading lines that are really ragged data rows.

    DuckDB skips leading lines whose field count disagrees with the rest. That is right for a title
    preamble (lines without the delimiter), but on a file with ragged rows it silently drops data:
    there, missing fields are padded with nulls instead.
    """
    try:
        shape = sniff(con, path, file_format, CsvDialect())
    except (duckdb.Error, UnreadableFile):
        return CsvDialect()  # reading will fail with a clearer error, or fall back
    delimiter, skipped = shape.delimiter, shape.skip_rows
    header = _first_lines(path, 1)
    said = max(CANDIDATE_DELIMITERS, key=header[0].count) if header and file_format != "tsv" else delimiter
    if header and delimiter not in header[0] and header[0].count(said):
        # A ragged row can make the sniffer settle on a delimiter the header never uses ("a,b,c" read as one
        # column): the header's own delimiter is read instead, short rows padded and long ones cut.
        return CsvDialect({"delim": said, "null_padding": True, "strict_mode": False},
                          [f"ragged rows: the header's delimiter {said!r} used; missing fields read as nulls"])
    if skipped == 0:
        return CsvDialect(shape=shape)
    skipped_lines = _first_lines(path, skipped)
    if skipped_lines and all(delimiter in line for line in skipped_lines):
        return CsvDialect({"null_padding": True}, ["ragged rows: missing fields read as nulls"])
    return CsvDialect({}, [f"the first {skipped} lines were skipped as a preamble (not data)"])


def _first_lines(path: Path, count: int) -> list[str]:
    if path.name.lower().endswith(COMPRESSION_SUFFIXES):
        return []
    with path.open("r", encoding="utf-8", errors="replace", newline="") as handle:
        return [line for line, _ in zip(handle, range(count), strict=False)]  # the file may be shorter


def describe_dialect(shape: CsvShape | None) -> str:
    if shape is None:
        return "read with DuckDB read_csv (dialect auto-detected)"
    shown = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(shape.delimiter, repr(shape.delimiter))
    return f"delimiter {shown}, {'header row' if shape.has_header else 'no header row (columns named column0..)'}"


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
    import openpyxl  # only Excel inputs pay for the import
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, KeyError, OSError, ValueError) as exc:
        raise UnreadableFile(f"not a readable Excel workbook ({exc}); re-save it as .xlsx or CSV") from exc
    except Exception as exc:  # zipfile.BadZipFile and friends: openpyxl raises many types for corrupt files
        raise UnreadableFile(
            f"not a readable Excel workbook ({type(exc).__name__}); re-save it as .xlsx or CSV"
        ) from exc
    try:
        for sheet in workbook.worksheets:
            rows = (row for row in sheet.iter_rows(values_only=True) if any(cell is not None for cell in row))
            header = next(rows, None)
            if header is None:
                continue
            names = pandas_names(["" if cell is None else str(cell) for cell in header])  # as read_excel names them
            with target.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(names)
                for row in rows:
                    writer.writerow([_excel_cell(cell) for cell in row[: len(names)]])
            others = [other.title for other in workbook.worksheets if other.title != sheet.title]
            notes = [f"sheet {sheet.title!r}"]
            if others:
                notes.append(
                    f"other sheets not profiled: {', '.join(others)} (read them with pandas.read_excel(sheet_name=...))"
                )
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
