"""Turn a cell's iopub messages into a `CellResult`, streaming the full output to disk.

Memory stays bounded whatever the cell prints: text goes to the cell's output file as it arrives
(up to `max_output_bytes`), and only a head and a tail of each stream are kept in memory.
"""

from __future__ import annotations

import base64
import os
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds.runs import safe_files

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TRACEBACK_LINES = 14
MAX_NAME_TRIES = 1000


@dataclass
class CellResult:
    """What one executed cell did. Paths are relative to the run directory."""

    ok: bool
    stdout: str = ""
    stderr: str = ""
    error: str = ""                     # "ename: evalue" + trimmed traceback ("" when ok)
    figures: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    duration_s: float = 0.0
    timed_out: bool = False
    restarted: bool = False
    cell_path: str = ""
    output_path: str = ""
    notes: list[str] = field(default_factory=list)   # what the sandbox did about the cell (stopped processes...)

    def for_model(self, cap_chars: int) -> str:
        """A text of at most about `cap_chars`: head and tail of everything, with the full-output path."""
        parts: list[str] = []
        if self.stdout:
            parts.append(self.stdout.rstrip("\n"))
        if self.stderr:
            parts.append("[stderr]\n" + self.stderr.rstrip("\n"))
        for table in self.tables:
            parts.append(table.rstrip("\n"))
        if self.figures:
            parts.append("[figures saved] " + ", ".join(self.figures))
        if self.files:
            parts.append("[files written] " + ", ".join(safe_files.shown(f) for f in self.files))
        for note in self.notes:
            parts.append(f"[sandbox] {note}")
        if self.error:
            parts.append("[error] " + self.error)
        body = "\n".join(parts) or "(no output)"
        footer = f"\n[full output: {self.output_path}]" if self.output_path else ""
        return _head_tail(body, max(cap_chars - len(footer), 200), self.output_path) + footer


def _head_tail(text: str, cap: int, path: str) -> str:
    if len(text) <= cap:
        return text
    marker = f"\n... [{{}} characters omitted; see {path or 'the output file'}] ...\n"
    room = max(cap - len(marker) - 8, 40)
    head, tail = text[: room // 2], text[-(room - room // 2):]
    return head + marker.format(len(text) - len(head) - len(tail)) + tail


class BoundedText:
    """Keeps the first and last `keep` characters of a stream, and counts the rest."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.head: list[str] = []
        self.head_len = 0
        self.tail: deque[str] = deque()
        self.tail_len = 0
        self.total = 0

    def add(self, text: str) -> None:
        self.total += len(text)
        if self.head_len < self.keep:
            take = text[: self.keep - self.head_len]
            self.head.append(take)
            self.head_len += len(take)
            text = text[len(take):]
        if not text:
            return
        self.tail.append(text[-self.keep:])
        self.tail_len += min(len(text), self.keep)
        while self.tail and self.tail_len - len(self.tail[0]) >= self.keep:
            self.tail_len -= len(self.tail.popleft())

    def render(self, path: str) -> str:
        head = "".join(self.head)
        tail = "".join(self.tail)[-self.keep:]
        omitted = self.total - len(head) - len(tail)
        if omitted <= 0:
            return head + tail
        return f"{head}\n... [{omitted} characters omitted; see {path}] ...\n{tail}"


class CellCapture:
    """Consumes the iopub messages of one execution."""

    def __init__(
        self,
        *,
        run_dir: Path,
        output_file: Path,
        figure_names: Iterator[str],
        keep_chars: int,
        max_output_bytes: int,
    ) -> None:
        self.run_dir = run_dir
        self.output_rel = output_file.relative_to(run_dir).as_posix()
        self.figure_names = figure_names
        self.stdout = BoundedText(keep_chars)
        self.stderr = BoundedText(keep_chars)
        self.tables: list[str] = []
        self.figures: list[str] = []
        self.outputs: list[dict[str, Any]] = []     # nbformat-style outputs, bounded, for the notebook
        self.error = ""
        self.error_output: dict[str, Any] | None = None
        self.max_output_bytes = max_output_bytes
        self.bytes_written = 0
        self.output_overflow = False
        self.findings: list[str] = []                # links the code planted where the host writes
        self._file = safe_files.create_new(output_file, root=run_dir)

    # -- messages -------------------------------------------------------------------------------
    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg["header"]["msg_type"]
        content = msg.get("content", {})
        if kind == "stream":
            text = content.get("text", "")
            (self.stderr if content.get("name") == "stderr" else self.stdout).add(text)
            self._write(text)
        elif kind in ("execute_result", "display_data"):
            self._rich(content.get("data", {}))
        elif kind == "error":
            self._error(content)

    def _rich(self, data: dict[str, Any]) -> None:
        if "image/png" in data:
            path = self._save_png(data["image/png"])
            self.outputs.append(
                {"output_type": "display_data", "data": {"image/png": data["image/png"]}, "metadata": {}}
            )
            if path is not None:
                self.figures.append(path)
                self._write(f"[figure saved: {path}]\n")
            return
        text = str(data.get("text/markdown") or data.get("text/plain") or "")
        if not text:
            return
        if "text/html" in data and "dataframe" in str(data["text/html"]):
            self.tables.append(text[: self.stdout.keep])
        else:
            self.stdout.add(text + "\n")
        self.outputs.append(
            {"output_type": "display_data", "data": {"text/plain": text[: self.stdout.keep]}, "metadata": {}}
        )
        self._write(text + "\n")

    def _error(self, content: dict[str, Any]) -> None:
        lines = [ANSI.sub("", line) for line in content.get("traceback", [])]
        flat = "\n".join(lines).splitlines()
        trimmed = flat[-TRACEBACK_LINES:]
        if len(flat) > len(trimmed):
            trimmed.insert(0, f"... ({len(flat) - len(trimmed)} traceback lines omitted)")
        self.error = f"{content.get('ename', 'Error')}: {content.get('evalue', '')}"
        if trimmed:
            self.error += "\n" + "\n".join(trimmed)
        self.error_output = {
            "output_type": "error",
            "ename": content.get("ename", "Error"),
            "evalue": content.get("evalue", ""),
            "traceback": trimmed,
        }
        self._write("\n".join(flat) + "\n")

    def _save_png(self, b64: str) -> str | None:
        """Write the figure under the next free name; a name the code took (or planted a link at) is skipped."""
        try:
            data = base64.b64decode(b64)
        except ValueError:
            return None
        for _ in range(MAX_NAME_TRIES):
            path = self.run_dir / "figures" / f"{next(self.figure_names)}.png"
            rel = path.relative_to(self.run_dir).as_posix()
            try:
                with safe_files.create_new(path, root=self.run_dir, text=False) as handle:
                    handle.write(data)
                return rel
            except FileExistsError:
                problem = safe_files.file_problem(path, root=self.run_dir)
                if problem not in (None, "missing"):
                    self.findings.append(
                        f"{rel} is {problem} planted by the code: not followed, the figure was saved under another name"
                    )
            except safe_files.UnsafeFile as exc:
                self.findings.append(
                    f"{os.path.relpath(exc.path, self.run_dir)} is {exc.what} planted by the code: the figure was not "
                    f"saved"
                )
                return None
            except OSError as exc:
                self.findings.append(f"the figure could not be saved: {exc.strerror or exc}")
                return None
        return None

    def _write(self, text: str) -> None:
        if self.output_overflow:
            return
        size = len(text.encode("utf-8", "replace"))
        if self.bytes_written + size > self.max_output_bytes:
            self._file.write(f"\n[output stopped at {self.max_output_bytes // (1024 * 1024)} MB]\n")
            self.output_overflow = True
            return
        self._file.write(text)
        self.bytes_written += size

    # -- result ---------------------------------------------------------------------------------
    def note_error(self, text: str) -> None:
        """An error the sandbox itself reports (timeout, kernel died), added to any the cell raised."""
        self.error = f"{text}\n{self.error}".strip() if self.error else text
        self._write(f"[sandbox] {text}\n")

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def stream_outputs(self) -> list[dict[str, Any]]:
        """Bounded stream outputs for the notebook (head and tail of each stream)."""
        outputs = []
        for name, text in (("stdout", self.stdout), ("stderr", self.stderr)):
            if text.total:
                outputs.append({"output_type": "stream", "name": name, "text": text.render(self.output_rel)})
        return outputs

    def result(self, **timing: Any) -> CellResult:
        self.close()
        return CellResult(
            ok=not self.error,
            stdout=self.stdout.render(self.output_rel),
            stderr=self.stderr.render(self.output_rel),
            error=self.error,
            figures=list(self.figures),
            tables=list(self.tables),
            output_path=self.output_rel,
            **timing,
        )
