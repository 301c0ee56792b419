"""Which text encoding a file is in, and a streaming copy of it as UTF-8 for DuckDB.

Detection looks at a sample of bytes (the profiler's first 64 KB), in this order:

1. a byte-order mark: UTF-8, UTF-16 or UTF-32 with BOM;
2. UTF-16 without BOM, recognised by its zero bytes on every other position (ASCII-heavy text);
3. strict UTF-8 (ASCII is UTF-8);
4. otherwise charset-normalizer, the maintained detector, steered to the encodings people actually
   have: Windows-1252 when it reads the bytes about as well as the detector's best guess (short
   Western samples are otherwise often called cp1250 or cp775), else the best Windows code page
   among the near-best guesses, else the best guess.

Windows-1252 and Latin-1 differ only on bytes 0x80-0x9F (curly quotes, the euro sign...): a sample
with such bytes is Windows-1252, one without is Latin-1, and `transcode_to_utf8` settles it on the
whole file. DuckDB reads UTF-8 only (its other encodings miss Windows-1252 and UTF-16 BE), so every
other encoding is profiled through a UTF-8 copy; the codec recorded is what pandas needs.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from agentic_ds.profiling.errors import UnreadableFile

UTF8_CODECS = ("utf-8", "utf-8-sig")
LABELS = {
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8 with BOM",
    "utf-16": "UTF-16 with BOM",
    "utf-16-le": "UTF-16 LE without BOM",
    "utf-16-be": "UTF-16 BE without BOM",
    "utf-32": "UTF-32 with BOM",
    "cp1252": "Windows-1252",
    "latin-1": "Latin-1 (ISO-8859-1)",
}
_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UTF16_ZERO_SHARE = 0.3      # ASCII-heavy UTF-16: at least this share of one byte lane is zero...
UTF16_OTHER_LANE = 0.05     # ...and almost none of the other
NUL_TEXT_SHARE = 0.01       # more NUL bytes than this in non-UTF-16 text: binary, not text with stray NULs
WESTERN_CHAOS_MARGIN = 0.1  # how much worse than the best guess Windows-1252 may read and still be chosen
CONTROL_SHARE = 0.05        # decoded text with more C0 control characters than this is binary
CP1252_UNDEFINED = b"\x81\x8d\x8f\x90\x9d"
_C1_BYTES = re.compile(rb"[\x80-\x9f]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
TRANSCODE_BLOCK = 1024 * 1024


@dataclass(frozen=True)
class TextEncoding:
    """An encoding as a Python codec name (what `pandas.read_csv(encoding=...)` takes)."""

    codec: str

    @property
    def label(self) -> str:
        return LABELS.get(self.codec, self.codec)

    @property
    def is_utf8(self) -> bool:
        """DuckDB reads the file as it is (it skips a UTF-8 BOM itself)."""
        return self.codec in UTF8_CODECS


def normalise_codec(name: str) -> str:
    """A codec's canonical Python name with our spelling of the common ones (`latin-1`, `utf-16-le`)."""
    canonical = codecs.lookup(name).name
    return "latin-1" if canonical == "iso8859-1" else canonical


def detect_encoding(sample: bytes, *, complete: bool, kind: str = "text") -> TextEncoding:
    """The encoding of `sample` (the whole file when `complete`); `UnreadableFile` when it is not text."""
    for bom, codec in _BOMS:
        if sample.startswith(bom):
            return TextEncoding(codec)
    utf16 = _utf16_without_bom(sample, complete)
    if utf16:
        return TextEncoding(utf16)
    nuls = sample.count(0)
    if nuls:
        _refuse_nul_bytes(sample, nuls, kind)
    if _decodes(sample, "utf-8", complete):
        return TextEncoding("utf-8")
    return _guess_single_byte(sample, kind)


def _utf16_without_bom(sample: bytes, complete: bool) -> str | None:
    size = len(sample) - len(sample) % 2
    if size < 4:
        return None
    even, odd = sample[0:size:2], sample[1:size:2]
    half = size // 2
    for codec, zeros, others in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) >= UTF16_ZERO_SHARE * half and others.count(0) <= UTF16_OTHER_LANE * half:
            if _decodes(sample[:size], codec, complete) and _mostly_text(sample[:size].decode(codec, "replace")):
                return codec
    return None


def _refuse_nul_bytes(sample: bytes, nuls: int, kind: str) -> None:
    """Text with a few NUL bytes is damaged text; mostly NULs or undecodable bytes is binary."""
    cleaned = sample.replace(b"\x00", b"")
    if nuls <= NUL_TEXT_SHARE * len(sample) and _decodes(cleaned, "utf-8", False):
        line = sample[: sample.index(0)].count(b"\n") + 1
        raise UnreadableFile(
            f"{nuls} NUL byte(s) in the text (the first on line {line}): the file is damaged or not plain text; "
            "remove them (e.g. tr -d '\\000' < in.csv > clean.csv) or export the data again"
        )
    raise _binary(kind)


def _binary(kind: str) -> UnreadableFile:
    return UnreadableFile(
        f"binary content in a {kind} file, not text; export the data as UTF-8 CSV, Parquet or JSON"
    )


def _decodes(data: bytes, codec: str, complete: bool) -> bool:
    """`data` is valid in `codec` (a sample may end inside a multi-byte character)."""
    try:
        codecs.getincrementaldecoder(codec)("strict").decode(data, final=complete)
    except UnicodeDecodeError:
        return False
    return True


def _mostly_text(text: str) -> bool:
    return len(_CONTROLS.findall(text)) <= CONTROL_SHARE * max(1, len(text))


def _guess_single_byte(sample: bytes, kind: str) -> TextEncoding:
    import charset_normalizer  # only non-UTF-8 files pay for the import

    matches = charset_normalizer.from_bytes(sample)
    best = matches.best()
    western = charset_normalizer.from_bytes(sample, cp_isolation=["cp1252"]).best()
    if western is not None and (best is None or western.chaos <= best.chaos + WESTERN_CHAOS_MARGIN):
        codec = _western_codec(sample)
    elif best is not None:
        near = [m.encoding for m in matches if m.chaos <= best.chaos + WESTERN_CHAOS_MARGIN]
        codec = next((name for name in near if re.fullmatch(r"cp125\d", name)), best.encoding)
    else:
        raise _binary(kind)
    if not _mostly_text(sample.decode(codec, "replace")):
        raise _binary(kind)
    return TextEncoding(normalise_codec(codec))


def _western_codec(data: bytes) -> str:
    """Windows-1252 when bytes 0x80-0x9F occur and all are defined in it, else Latin-1 (identical elsewhere)."""
    if any(byte in data for byte in CP1252_UNDEFINED):
        return "latin-1"
    return "cp1252" if _C1_BYTES.search(data) else "latin-1"


def transcode_to_utf8(source: BinaryIO, target: Path, encoding: TextEncoding) -> TextEncoding:
    """Copy `source` to `target` as UTF-8 without BOM, streaming; return the encoding that decoded it all.

    A Western file detected from its first bytes is settled here on every byte: Windows-1252 when bytes
    0x80-0x9F occur and all are defined in it, else Latin-1. Other codecs decode strictly; a byte they
    cannot decode is an `UnreadableFile` naming its offset.
    """
    western = encoding.codec in ("cp1252", "latin-1")
    codec = "cp1252" if western else encoding.codec
    start = source.tell()
    while True:
        try:
            saw_c1 = _copy_decoded(source, target, codec)
        except _BadByte as bad:
            if western and codec == "cp1252":
                source.seek(start)
                codec = "latin-1"
                continue
            raise UnreadableFile(
                f"not valid {encoding.label} at byte {bad.offset:,} ({bad.reason}); "
                "the file mixes encodings: export it again as UTF-8"
            ) from None
        if western and codec == "cp1252" and not saw_c1:
            codec = "latin-1"  # the same text: name it by the narrower standard
        return TextEncoding(codec)


class _BadByte(Exception):
    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(reason)
        self.offset, self.reason = offset, reason


def _copy_decoded(source: BinaryIO, target: Path, codec: str) -> bool:
    """Stream-decode `source` into `target` (a BOM is dropped by the codec); True when bytes 0x80-0x9F occur."""
    decoder = codecs.getincrementaldecoder(codec)("strict")
    saw_c1 = False
    done = 0
    with target.open("w", encoding="utf-8", newline="") as out:
        while True:
            block = source.read(TRANSCODE_BLOCK)
            try:
                out.write(decoder.decode(block, final=not block))
            except UnicodeDecodeError as exc:
                raise _BadByte(done + exc.start, exc.reason) from None
            if not block:
                return saw_c1
            saw_c1 = saw_c1 or bool(_C1_BYTES.search(block))
            done += len(block)
