"""Loop detection for one agent: repeated passages, repeated tool calls, repeated errors, and paging through
one file (the same file read at one offset after another, with nothing done in between).

A pure module (no ADK): feed it what an agent says and does, it answers `LoopSignal` or None.

Repeated passage, in time linear in the text length
---------------------------------------------------
A looping model makes its output *periodic*: the same cycle of text comes back again and again.
The detector therefore looks for a cycle of at least `min_chars` normalised characters repeated
`repeats` times in a row, not for a passage that merely recurs somewhere (a table header above
each table, or the same `plt.savefig` line in every code block, recurs legitimately).

1. Segmentation, at C speed with `re`: text is cut at newlines and at whitespace after sentence
   punctuation, after a code fence or between two table rows on one line. Segments longer than
   `_LONG_SEGMENT` chars are cut again at a content-defined anchor (whitespace before a word starting
   with "th", then, for pieces still too long, before a word starting with t/a/s/c), so a repeated
   passage is cut at the same places in every copy whatever its alignment; whitespace-free runs fall
   back to fixed-size pieces. Each segment is whitespace-normalised and hashed (Python's `hash`).
2. Period tracking over the segment-hash sequence h[0..m): the candidate period `p` is the
   distance to the previous occurrence of the newest hash; `run` counts consecutive positions
   with h[i] == h[i-p]. When `run` reaches (repeats - 1) * p and the p segments of one cycle hold
   at least `min_chars` characters, the text ends in `repeats` copies of that cycle. Switching to
   a new period re-checks at most p (<= `_MAX_PERIOD`) positions backwards, so the work per
   segment is bounded by a constant and the whole scan is O(text length).
3. Streaming: `feed(chunk)` looks for boundaries only in the new chunk (one char of carry for
   "punctuation then space" across chunks) and keeps the unfinished tail in a list of pieces, so
   every character is segmented once. `find_repeated_passage(text)` is feed + finish.

Numbers are kept, so "row 1: 3.2" and "row 2: 4.7" are different segments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

LoopKind = Literal["repeated_text", "repeated_tool_call", "repeated_error", "repeated_reading"]

DEFAULT_MIN_CHARS = 100
DEFAULT_REPEATS = 3
DEFAULT_PAGES = 8           # reads of one file in a row, each at another offset, that count as paging
_LONG_SEGMENT = 256          # segments longer than this are cut at content-defined anchors
_FIXED_PIECE = 128           # last resort for whitespace-free runs
_MAX_PERIOD = 256            # longest cycle, in segments, that is tracked
_WHAT_CHARS = 160            # how much of the repeated thing a signal quotes

# newline; whitespace after sentence punctuation, after a code fence, or between two table rows
_BOUNDARY = re.compile(r"\n|(?:(?<=[.!?;:])|(?<=```)|(?<=\|)(?=\s+\|))[ \t\r\f\v]")
# Anchored at the start of a whitespace run: without `(?<!\s)`, each position of a long run of spaces
# rescans the rest of the run (quadratic: 7 s for 20 KB of spaces).
_ANCHORS = (re.compile(r"(?<!\s)\s+(?=[tT][hH])"), re.compile(r"(?<!\s)\s+(?=[tTaAsScC])"))
_HEX_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class LoopSignal:
    """What repeats (`kind`, a short quote in `what`) and how many times in a row (`count`)."""

    kind: LoopKind
    what: str
    count: int

    def describe(self) -> str:
        noun = {"repeated_text": "the same passage", "repeated_tool_call": "the same tool call",
                "repeated_error": "the same error", "repeated_reading": "reads of one file"}[self.kind]
        return f"{noun} {self.count} times in a row: {self.what}"


def _quote(text: str) -> str:
    return text if len(text) <= _WHAT_CHARS else text[: _WHAT_CHARS - 3] + "..."


class PassageRepeatDetector:
    """Streams text and signals when it ends in `repeats` back-to-back copies of a long cycle."""

    def __init__(self, min_chars: int = DEFAULT_MIN_CHARS, repeats: int = DEFAULT_REPEATS) -> None:
        if repeats < 2 or min_chars < 1:
            raise ValueError("repeats must be >= 2 and min_chars >= 1")
        self.min_chars = min_chars
        self.repeats = repeats
        self.chars_seen = 0
        self._pending: list[str] = []        # text after the last boundary, not yet a segment
        self._pending_len = 0
        self._carry = ""                     # last char of the previous chunk (for ". " across chunks)
        self._segments: list[str] = []
        self._hashes: list[int] = []
        self._ends: list[int] = [0]          # prefix sums of normalised segment lengths
        self._last_index: dict[int, int] = {}
        self._period = 0
        self._run = 0
        self._signal: LoopSignal | None = None

    # -- public ---------------------------------------------------------------------------------
    def feed(self, chunk: str) -> LoopSignal | None:
        """Add streamed text; returns a signal while the text is looping, else None."""
        if not chunk:
            return None
        self.chars_seen += len(chunk)
        self._signal = None
        shift = len(self._carry)
        probe = self._carry + chunk
        starts = [0]
        ends: list[int] = []
        for match in _BOUNDARY.finditer(probe, shift):
            ends.append(match.start() - shift)
            starts.append(match.end() - shift)
        if ends:
            # `starts` holds one more entry than `ends`: the unfinished tail, which stays in the carry.
            pieces = [chunk[a:b] for a, b in zip(starts, ends, strict=False)]
            pieces[0] = "".join(self._pending) + pieces[0]
            self._pending = []
            self._pending_len = 0
            self._add_segments(pieces)
        rest = chunk[starts[-1] :]
        if rest:
            self._pending.append(rest)
            self._pending_len += len(rest)
            if self._pending_len > 2 * _LONG_SEGMENT:
                self._split_long_pending()
        self._carry = probe[-3:]  # enough look-behind for a code fence split across chunks
        return self._signal

    def finish(self) -> LoopSignal | None:
        """End of the text: the unfinished tail becomes a segment."""
        self._signal = None
        self._flush_pending()
        return self._signal

    @property
    def looping(self) -> bool:
        """True while the newest segments continue a detected loop."""
        return (
            self._period > 0
            and self._run >= (self.repeats - 1) * self._period
            and self._cycle_chars() >= self.min_chars
        )

    # -- segmentation ---------------------------------------------------------------------------
    def _flush_pending(self) -> None:
        text = "".join(self._pending)
        self._pending = []
        self._pending_len = 0
        self._add_segments([text])

    def _split_long_pending(self) -> None:
        """Emit all content-defined pieces of a long unfinished tail but the last (it may grow)."""
        pieces = self._cut_long("".join(self._pending))
        self._pending = [pieces.pop()]
        self._pending_len = len(self._pending[0])
        self._add_segments(pieces)

    @staticmethod
    def _cut_long(text: str, level: int = 0) -> list[str]:
        if level == len(_ANCHORS):
            return [text[i : i + _FIXED_PIECE] for i in range(0, len(text), _FIXED_PIECE)]
        pieces: list[str] = []
        for piece in _ANCHORS[level].split(text):
            if len(piece) <= _LONG_SEGMENT:
                pieces.append(piece)
            else:
                pieces.extend(PassageRepeatDetector._cut_long(piece, level + 1))
        return pieces

    # -- period tracking ------------------------------------------------------------------------
    def _add_segments(self, pieces: list[str]) -> None:
        # the hot loop of the detector: kept flat, with locals, for speed
        segments, hashes, ends, last_index = self._segments, self._hashes, self._ends, self._last_index
        period, run = self._period, self._run
        need = self.repeats - 1
        for raw in pieces:
            if len(raw) > _LONG_SEGMENT:
                self._period, self._run = period, run
                self._add_segments(self._cut_long(raw))
                period, run = self._period, self._run
                continue
            segment = " ".join(raw.split())
            if not segment:
                continue
            index = len(hashes)
            digest = hash(segment)
            segments.append(segment)
            hashes.append(digest)
            ends.append(ends[-1] + len(segment) + 1)
            previous = last_index.get(digest)
            last_index[digest] = index
            if period and hashes[index - period] == digest:
                run += 1
            elif previous is not None and index - previous <= _MAX_PERIOD:
                period = index - previous
                run = 1
                j = index - 1
                while j - period >= 0 and run < period and hashes[j] == hashes[j - period]:
                    run += 1
                    j -= 1
            else:
                period = run = 0
                continue
            if run >= need * period and ends[index + 1] - ends[index + 1 - period] - 1 >= self.min_chars:
                cycle = " ".join(segments[index - period + 1 : index + 1])
                self._signal = LoopSignal("repeated_text", _quote(cycle), run // period + 1)
        self._period, self._run = period, run

    def _cycle_chars(self) -> int:
        n = len(self._hashes)
        return self._ends[n] - self._ends[n - self._period] - 1


def find_repeated_passage(
    text: str, min_chars: int = DEFAULT_MIN_CHARS, repeats: int = DEFAULT_REPEATS
) -> LoopSignal | None:
    """The strongest loop signal for a whole text (None when it does not loop)."""
    detector = PassageRepeatDetector(min_chars, repeats)
    best: LoopSignal | None = None
    for signal in (detector.feed(text), detector.finish()):
        if signal and (best is None or signal.count >= best.count):
            best = signal
    return best


def canonical_call(name: str, args: Any) -> str:
    """A tool call as `name(json)` with sorted keys, so argument order does not matter."""
    return f"{name}({json.dumps(args, sort_keys=True, default=str, separators=(',', ':'))})"


class ConsecutiveRepeatDetector:
    """Counts how many times in a row the same key was observed."""

    def __init__(self, kind: LoopKind, repeats: int = DEFAULT_REPEATS) -> None:
        self.kind = kind
        self.repeats = repeats
        self._last: str | None = None
        self.count = 0

    def observe(self, key: str) -> LoopSignal | None:
        self.count = self.count + 1 if key == self._last else 1
        self._last = key
        return LoopSignal(self.kind, _quote(key), self.count) if self.count >= self.repeats else None

    def reset(self) -> None:
        self._last = None
        self.count = 0


def normalise_error(message: str) -> str:
    """The part of an error that identifies it: its last non-empty line, memory addresses masked."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return _HEX_ADDRESS.sub("0x?", lines[-1] if lines else "")


def paged_file(name: str, args: Any) -> str:
    """The file a call pages through: the `path` of a call that reads from an `offset`; "" for any other call."""
    if isinstance(args, dict) and "offset" in args and isinstance(args.get("path"), str):
        return f"{name}({args['path']})"
    return ""


class LoopDetector:
    """All four detectors for one agent. Every method returns a signal or None."""

    def __init__(self, min_chars: int = DEFAULT_MIN_CHARS, repeats: int = DEFAULT_REPEATS,
                 pages: int = DEFAULT_PAGES) -> None:
        self.text = PassageRepeatDetector(min_chars, repeats)
        self.calls = ConsecutiveRepeatDetector("repeated_tool_call", repeats)
        self.errors = ConsecutiveRepeatDetector("repeated_error", repeats)
        self.reads = ConsecutiveRepeatDetector("repeated_reading", pages)

    def new_run(self) -> None:
        """The agent runs again, with a context of its own: the same calls as its last run are no loop (a checker
        reads the same files after every stage). The same passage or the same error again still is."""
        self.calls.reset()
        self.reads.reset()

    def on_text(self, chunk: str) -> LoopSignal | None:
        return self.text.feed(chunk)

    def end_text(self) -> LoopSignal | None:
        """A response ended: flush its last segment (later text starts a new line)."""
        signal = self.text.finish()
        return signal

    def on_tool_call(self, name: str, args: Any) -> LoopSignal | None:
        return self.on_tool_calls([(name, args)])

    def on_tool_calls(self, calls: Sequence[tuple[str, Any]]) -> LoopSignal | None:
        """The tool calls of one response, as one step: the same calls as the responses before it (in any order)
        repeat, so a model that reads two files, loses them to compaction and reads both again is caught; counted
        call by call, the two would alternate and never repeat in a row."""
        return self.calls.observe(" + ".join(sorted(canonical_call(name, args) for name, args in calls)))

    def on_read(self, name: str, args: Any) -> LoopSignal | None:
        """A call that pages through a file counts toward paging; any other call (acting) ends the run of reads.
        The same file at different offsets is not the same call, so `on_tool_call` alone never sees it."""
        page = paged_file(name, args)
        if not page:
            self.reads.reset()
            return None
        return self.reads.observe(page)

    def on_tool_result(self, name: str, error: str | None) -> LoopSignal | None:
        """A tool finished; `error` is its error text, or None when it succeeded."""
        if error is None:
            self.errors.reset()
            return None
        return self.errors.observe(f"{name}: {normalise_error(error)}")
