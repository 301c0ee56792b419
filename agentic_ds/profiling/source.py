"""What DuckDB reads for a file: the file itself when it is UTF-8, else a UTF-8 copy in a scratch folder.

Excel sheets become CSV (formats.excel_to_csv); text in another encoding is transcoded, streaming
(encoding.transcode_to_utf8). A file whose first 64 KB are UTF-8 but which DuckDB later finds is
not gets `encoding_after_head`: the encoding of its first non-UTF-8 stretch, or a clear refusal
when UTF-8 and another encoding are mixed (that would turn "München" into mojibake either way).
"""

from __future__ import annotations

import codecs
import gzip
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from agentic_ds.profiling import formats
from agentic_ds.profiling.encoding import TextEncoding, detect_encoding, transcode_to_utf8
from agentic_ds.profiling.errors import UnreadableFile
from agentic_ds.profiling.sniff import SNIFF_BYTES, Sniffed

SCAN_BLOCK = 1024 * 1024
TARGET_NAMES = {"csv": "data.csv", "tsv": "data.tsv", "json": "data.json"}


@dataclass
class TableSource:
    """The file DuckDB reads (`path`, as `read_as`), the encoding of the original, and how it was prepared."""

    path: Path
    read_as: str
    encoding: TextEncoding | None
    notes: list[str] = field(default_factory=list)

    @property
    def native_utf8(self) -> bool:
        """The original file is read directly as UTF-8 text (so a late invalid byte is DuckDB's to find)."""
        return self.encoding is not None and self.encoding.is_utf8


def open_source(stack: ExitStack, path: Path, sniffed: Sniffed) -> TableSource:
    """The table to profile for `path`; scratch files live as long as `stack`."""
    if sniffed.format == "excel":
        target = _scratch(stack) / "sheet.csv"
        return TableSource(target, "csv", None, formats.excel_to_csv(path, target))
    encoding = sniffed.encoding
    # DuckDB's CSV reader skips a UTF-8 BOM; its JSON reader does not (it reads one row named "json").
    bom_in_json = sniffed.format == "json" and encoding is not None and encoding.codec == "utf-8-sig"
    if encoding is None or (encoding.is_utf8 and not bom_in_json):
        return TableSource(path, sniffed.format, encoding)
    return transcoded(stack, path, sniffed.format, encoding)


def transcoded(stack: ExitStack, path: Path, file_format: str, encoding: TextEncoding) -> TableSource:
    """A UTF-8 copy of `path` (decompressed when it was gzip), decoded with `encoding`."""
    target = _scratch(stack) / TARGET_NAMES[file_format]
    with _open_raw(path) as raw:
        used = transcode_to_utf8(raw, target, encoding)
    return TableSource(target, file_format, used, [f"encoding {used.label}: read it with encoding={used.codec!r}"])


def encoding_after_head(path: Path) -> TextEncoding:
    """The encoding of a file that starts as UTF-8 and stops being UTF-8 further on.

    When the part before the first invalid byte is pure ASCII, the file is in a single-byte encoding
    whose special characters start late: detect it from that stretch. When that part already holds
    UTF-8 characters, two encodings are mixed and no single codec reads the file right.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    ascii_so_far, offset = True, 0
    with _open_raw(path) as raw:
        while block := raw.read(SCAN_BLOCK):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                ascii_so_far = ascii_so_far and block[: exc.start].isascii()
                if not ascii_so_far:
                    raise UnreadableFile(
                        f"mixes encodings: UTF-8 text, then bytes that are not UTF-8 near byte {offset + exc.start:,}; "
                        "export the file again as UTF-8"
                    ) from exc
                stretch = block[exc.start :][:SNIFF_BYTES]
                return detect_encoding(stretch, complete=False)
            ascii_so_far = ascii_so_far and block.isascii()
            offset += len(block)
    return TextEncoding("utf-8")


def _open_raw(path: Path) -> BinaryIO:
    if path.name.lower().endswith(".gz"):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb")


def _scratch(stack: ExitStack) -> Path:
    return Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="agentic-ds-profile-")))
