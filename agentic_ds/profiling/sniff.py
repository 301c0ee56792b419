"""A cheap look at a file that says whether it can be read, and how: its format and text encoding.

It reads the first `SNIFF_BYTES` (a little more to find the end of a very long first line), a
Parquet footer or a zip directory - never the whole file. `agentic-ds run` sniffs every input
before the run directory is created, so an unreadable file is a usage error before any model call;
the profiler sniffs again before its full scan, so both say the same thing. `sniff_file` raises
`UnreadableFile` with what is wrong and what to do.
"""

from __future__ import annotations

import csv
import gzip
import json
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from agentic_ds.profiling.encoding import TextEncoding, detect_encoding
from agentic_ds.profiling.errors import UnreadableFile

SNIFF_BYTES = 64 * 1024
MAX_LINE_BYTES = 2 * 1024 * 1024  # DuckDB's default max_line_size
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
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".7z", ".rar", ".bz2", ".xz")
PARQUET_MAGIC = b"PAR1"
CANDIDATE_DELIMITERS = (",", ";", "\t", "|")


@dataclass(frozen=True)
class Sniffed:
    """What the profiler needs to read the file: its format and, for text, its encoding."""

    format: str
    encoding: TextEncoding | None = None
    """None for binary formats, and for text compressed in a way the sniffer cannot peek into (.zst)."""


def detect_format(path: Path) -> str:
    """`csv`, `tsv`, `parquet`, `json`, `excel`, or `unknown`, from the name (compression suffix allowed)."""
    name = path.name.lower()
    for suffix in COMPRESSION_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return FORMAT_BY_SUFFIX.get(Path(name).suffix, "unknown")


def sniff_file(path: Path) -> Sniffed:
    """The file's format and encoding; `UnreadableFile` when no reader will make sense of it."""
    try:
        info = path.stat()
    except OSError as exc:
        raise UnreadableFile(
            f"could not be opened ({exc.strerror or exc}); check that it exists and is readable"
        ) from exc
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(f"not a regular file ({_file_kind(info.st_mode)}); pass regular data files")
    if info.st_size == 0:
        raise UnreadableFile("the file is empty (0 bytes); supply the data or remove the file")
    file_format = detect_format(path)
    if file_format == "unknown":
        raise _unsupported(path)
    try:
        if file_format == "parquet":
            _check_parquet(path, info.st_size)
            return Sniffed(file_format)
        if file_format == "excel":
            _check_excel(path)
            return Sniffed(file_format)
        return Sniffed(file_format, _check_text(path, file_format))
    except PermissionError as exc:
        raise UnreadableFile(
            f"permission denied ({exc.strerror}); make it readable (chmod +r) or leave it out"
        ) from exc
    except OSError as exc:
        raise UnreadableFile(f"could not be read ({exc.strerror or exc}); check the file and the disk") from exc


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def _unsupported(path: Path) -> UnreadableFile:
    suffix = path.suffix.lower()
    if suffix in ARCHIVE_SUFFIXES:
        return UnreadableFile(
            f"an archive ({suffix}), not a data file; extract it and pass the extracted files or folder to --files"
        )
    return UnreadableFile(
        f"unsupported file type {path.suffix or '(no extension)'!r}; "
        "convert it to CSV, TSV, Parquet, JSON or Excel (.xlsx), or leave it out of the inputs"
    )


def _check_parquet(path: Path, size: int) -> None:
    with path.open("rb") as handle:
        if handle.read(4) != PARQUET_MAGIC:
            raise UnreadableFile("not a Parquet file (no PAR1 header); check the file or rename it to its real type")
        if size < 12:
            raise UnreadableFile("a damaged Parquet file (too short to hold a footer); write it again")
        handle.seek(-8, 2)
        tail = handle.read(8)
    if tail[4:] != PARQUET_MAGIC:
        raise UnreadableFile("a damaged Parquet file (no PAR1 footer: truncated or overwritten); write it again")
    footer = int.from_bytes(tail[:4], "little")
    if footer + 12 > size:
        raise UnreadableFile(f"a damaged Parquet file (its footer claims {footer:,} bytes of {size:,}); write it again")


def _check_excel(path: Path) -> None:
    if path.suffix.lower() == ".xls":
        raise UnreadableFile("legacy .xls workbooks are not supported; save it as .xlsx or CSV")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile as exc:
        raise UnreadableFile(
            f"not a readable Excel workbook (not a zip archive: {exc}); re-save it as .xlsx or CSV"
        ) from exc
    if "xl/workbook.xml" not in names:
        raise UnreadableFile(
            "not a readable Excel workbook (a zip archive without xl/workbook.xml); re-save it as .xlsx or CSV"
        )


def _open_text(path: Path) -> BinaryIO | None:
    name = path.name.lower()
    if name.endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    if name.endswith(COMPRESSION_SUFFIXES):
        return None  # no reader in the standard library: DuckDB decides
    return path.open("rb")


def _check_text(path: Path, file_format: str) -> TextEncoding | None:
    handle = _open_text(path)
    if handle is None:
        return None
    with handle:
        try:
            head = handle.read(SNIFF_BYTES)
            complete = not handle.read(1)
        except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
            if isinstance(exc, PermissionError):
                raise
            raise UnreadableFile(
                f"a damaged compressed file ({exc}); compress it again or pass it uncompressed"
            ) from exc
        encoding = detect_encoding(head, complete=complete, kind=_kind_name(path, file_format))
        text = head.decode(encoding.codec, "replace").lstrip("\ufeff")
        if complete and not text.strip():
            raise UnreadableFile("the file holds only whitespace; supply the data or remove the file")
        if file_format == "json":
            _check_json(text, complete)
        else:
            _check_lines(handle, text, complete, file_format)
    return encoding


def _kind_name(path: Path, file_format: str) -> str:
    """`.csv`, `.tsv`... as the user named it (a compression suffix left aside)."""
    return Path(path.name.lower().removesuffix(".gz")).suffix or file_format


def _check_lines(handle: BinaryIO, text: str, complete: bool, file_format: str) -> None:
    """A CSV needs a line break within DuckDB's line limit, and a data row after its header."""
    if not complete and "\n" not in text and "\r" not in text:
        seen = SNIFF_BYTES
        while seen < MAX_LINE_BYTES:
            block = handle.read(SNIFF_BYTES)
            if not block or b"\n" in block or b"\r" in block:
                return
            seen += len(block)
        raise UnreadableFile(
            f"no line break in the first {MAX_LINE_BYTES // (1024 * 1024)} MB: not a table with one record per line; "
            "check the file's format and line endings"
        )
    if not complete:
        return
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        names = _header_fields(lines[0], file_format)
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        raise UnreadableFile(
            f"no data rows (only a header with {len(names)} columns: {shown}); supply the data or remove the file"
        )


def _header_fields(line: str, file_format: str) -> list[str]:
    """The fields of one line, split on the delimiter it most likely uses."""
    delimiter = "\t" if file_format == "tsv" else max(CANDIDATE_DELIMITERS, key=line.count)
    return next(csv.reader([line], delimiter=delimiter), [])


def _check_json(text: str, complete: bool) -> None:
    """JSON must hold records: an array of objects, one object per line, or one object."""
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        try:
            value = json.loads(stripped) if complete else None
        except (ValueError, RecursionError):
            value = None
        if value is not None:
            raise _not_records(value)
        raise UnreadableFile(
            f"not JSON (it starts with {stripped[:20]!r}); check the file or rename it to its real type"
        )
    if complete:
        _check_json_document(stripped)
    elif stripped.startswith("["):
        first = _first_array_item(stripped)
        if first is not None and not isinstance(first, dict):
            raise _not_records(first)


def _check_json_document(text: str) -> None:
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise UnreadableFile("JSON nested too deeply to be a table (thousands of levels); check the file") from exc
    except ValueError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            values = [json.loads(line) for line in lines]
        except (ValueError, RecursionError):
            raise UnreadableFile(
                f"could not be read as JSON ({exc}); check that the file is complete, valid JSON or JSON lines"
            ) from exc
        odd = next((item for item in values if not isinstance(item, dict)), None)
        if odd is not None:
            raise _not_records(odd) from exc
        return
    if isinstance(value, list):
        if not value:
            raise UnreadableFile("an empty JSON array: no rows; supply the data or remove the file")
        odd = next((item for item in value if not isinstance(item, dict)), None)
        if odd is not None:
            raise _not_records(odd)
    elif not isinstance(value, dict):
        raise _not_records(value)


def _first_array_item(text: str) -> object | None:
    body = text[1:].lstrip()
    if body.startswith("]"):
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(body)
    except (ValueError, RecursionError):
        return None  # the first item does not fit in the sample; DuckDB will judge the whole
    return value


def _not_records(value: object) -> UnreadableFile:
    kind = {bool: "true/false", int: "a number", float: "a number", str: "a string", list: "a list"}.get(
        type(value), "null" if value is None else type(value).__name__
    )
    return UnreadableFile(
        f"JSON that is not a table: it holds {kind} where a record (an object of column: value) is expected; "
        "give an array of objects or one object per line"
    )
