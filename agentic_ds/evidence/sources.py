"""What executed code left in a run directory: the cells that ran, what they printed, the files they wrote.

Only records the host wrote are believed: `analysis.ipynb` (each cell's metadata says whether it ran without
error, where its output went and which files it wrote) and the cell outputs under `stages/` (read-only to
agents and code). A file under `outputs/` counts when a cell that ran wrote it: one a model wrote with
`write_file`, or one only a failing cell wrote, is not an output of executed code. Everything is read through
`safe_files`, never through a link, and within byte caps (what a cap left unread is said in `notes`).

Figures are traced within a scope, never against everything at once: the files an answer cites, or else each
output of code that ran on its own (`proven_in`). A file is indexed when it is first asked for.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from agentic_ds.evidence.numbers import Number, NumberIndex, indexed, offset_of, written_at
from agentic_ds.runs import safe_files
from agentic_ds.workspace import Workspace

NOTEBOOK = "analysis.ipynb"
TEXT_SUFFIXES = frozenset({".json", ".csv", ".tsv", ".txt", ".md", ".html", ".log", ".yaml", ".yml", ".jsonl", ""})
FILE_CAP_BYTES = 4 * 1024 * 1024        # read of one output file (its head beyond this)
TOTAL_CAP_BYTES = 16 * 1024 * 1024      # read of all output files together
NOTEBOOK_CAP_BYTES = 64 * 1024 * 1024
MAX_LINE_CHARS = 240                    # of the line a figure was found on, as the judge is shown it


@dataclass
class Cell:
    path: str                  # stages/NN-slug/cell_NNN.py
    ok: bool
    output: str                # stages/NN-slug/cell_NNN.out.txt
    files: list[str] | None    # files it wrote; None when the record does not say (a run of an older version)

    @property
    def stage(self) -> str:
        """The stage folder the cell belongs to (`stages/NN-slug`)."""
        return str(PurePosixPath(self.path).parent)


@dataclass
class CodeEvidence:
    """The outputs of a run's executed code, indexed by file and by stage when first asked for."""

    workspace: Workspace | None = None
    cells: list[Cell] = field(default_factory=list)
    # outputs/ and figures/ files written by cells that ran -> the stage whose cell wrote them last
    written: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _texts: dict[str, str | None] = field(default_factory=dict)
    _indexes: dict[str, NumberIndex] = field(default_factory=dict)
    _budget: int = TOTAL_CAP_BYTES
    _outputs: dict[str, str] | None = None
    _outputs_all: list[str] | None = None
    _union: NumberIndex | None = None

    @property
    def code_ran(self) -> bool:
        return any(cell.ok for cell in self.cells)

    @property
    def cells_ok(self) -> int:
        return sum(cell.ok for cell in self.cells)

    def outputs_of_ok_cells(self) -> dict[str, str]:
        """Each printed output of a cell that ran without error -> its stage."""
        if self._outputs is None:
            self._outputs = {cell.output: cell.stage for cell in self.cells if cell.ok}
        return self._outputs

    def citable(self, rel: str) -> str | None:
        """Why `rel` cannot be cited as evidence, or None when it can: a file under outputs/ or figures/ written by
        a cell that ran, or the printed output of such a cell."""
        rel = rel.strip().rstrip(".")
        if rel in self.written or rel in self.outputs_of_ok_cells():
            return None
        if self.workspace is None or run_path(self.workspace, rel) is None:
            return "not a path inside the run directory"
        problem = safe_files.file_problem(self.workspace.root / rel, root=self.workspace.root)
        if problem is not None:
            return "does not exist in this run or cannot be read"
        if rel in {cell.output for cell in self.cells}:
            return "is the output of a cell that raised an error"
        return "was not written by code that ran without error"

    def code_of(self, rel: str) -> str:
        """The code of the cells that ran without error and wrote `rel` (or printed it): what names its columns
        when the file itself does not (a CSV of medians by group whose header says only `median`)."""
        if self.workspace is None:
            return ""
        cells = [cell for cell in self.cells if cell.ok and (cell.output == rel or rel in (cell.files or []))]
        codes = (read_run_file(self.workspace, cell.path, self.notes, limit=FILE_CAP_BYTES) for cell in cells)
        return "\n".join(code for code in codes if code)

    def text(self, rel: str) -> str | None:
        """The text of a citable text file (its head within the caps), None for images or what cannot be read."""
        if rel not in self._texts:
            self._texts[rel] = self._read(rel)
        return self._texts[rel]

    def index(self, rel: str) -> NumberIndex | None:
        """The numbers of one citable text file."""
        if rel not in self._indexes:
            text = self.text(rel)
            if text is None:
                return None
            self._indexes[rel] = indexed(text)
        return self._indexes[rel]

    def proven_in(self, claim: Number, rels: list[str] | None = None) -> str | None:
        """The first of `rels` (by default every output of executed code: each cell's printed output, each file
        it wrote) that proves `claim` on its own; None when none does."""
        if rels is None:
            if self._outputs_all is None:
                self._outputs_all = [rel for rel in [*self.outputs_of_ok_cells(), *self.written]
                                     if self.text(rel) is not None]
                self._union = NumberIndex()
                for rel in self._outputs_all:
                    index = self.index(rel)
                    if index is not None:
                        self._union.merge(index)
            if self._union is None or not self._union.traces(claim):   # one pass over all of them rules most out
                return None
            rels = self._outputs_all
        return next((rel for rel in rels if (index := self.index(rel)) is not None and index.proves(claim)), None)

    def line_of(self, claim: Number, rel: str) -> str:
        """The line of `rel` where a number giving `claim` first appears (what the judge is shown)."""
        text, index = self.text(rel) or "", self.index(rel)
        value = index.observed(claim) if index is not None else None
        at = written_at(text, claim.text) if value is not None else None
        if at is None and value is not None:   # written otherwise there (rounded, as a percent...): where it is
            at = offset_of(text, value, signed=claim.signed)
        if at is None:
            return ""
        start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
        line = text[start:end if end >= 0 else len(text)].strip()
        return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " …"

    def _read(self, rel: str) -> str | None:
        if self.workspace is None or self.citable(rel) is not None:
            return None
        if PurePosixPath(rel).suffix.lower() not in TEXT_SUFFIXES:
            return None
        if self._budget <= 0:
            cap = TOTAL_CAP_BYTES // 2**20
            self.notes.append(f"{rel} not read for evidence: {cap} MB of outputs were read already")
            return None
        text = read_run_file(self.workspace, rel, self.notes, limit=min(FILE_CAP_BYTES, self._budget))
        if text is not None:
            self._budget -= len(text)
        return text


def read_cells(workspace: Workspace) -> tuple[list[Cell], list[str]]:
    """The executed cells as the notebook records them, and notes on what could not be read."""
    try:
        raw = safe_files.read_text(workspace.file(NOTEBOOK), root=workspace.root, limit=NOTEBOOK_CAP_BYTES)
        notebook = json.loads(raw)
    except FileNotFoundError:
        return [], []
    except (OSError, ValueError) as exc:
        return [], [f"{NOTEBOOK} could not be read ({type(exc).__name__}): no cell counts as run"]
    cells = [cell for cell in map(_cell, notebook.get("cells") or []) if cell is not None]
    return cells, []


def _cell(entry: Any) -> Cell | None:
    if not isinstance(entry, dict) or entry.get("cell_type") != "code":
        return None       # markdown headings, and raw cells: those the sandbox stopped (timeout, dead kernel)
    meta = (entry.get("metadata") or {}).get("agentic_ds") or {}
    path = str(meta.get("cell") or "")
    if not path:
        return None
    tags = (entry.get("metadata") or {}).get("tags") or []
    ok = bool(meta.get("ok", "raises-exception" not in tags))
    output = str(meta.get("output") or path.removesuffix(".py") + ".out.txt")
    files = meta.get("files")
    return Cell(path=path, ok=ok, output=output, files=[str(f) for f in files] if isinstance(files, list) else None)


def collect(workspace: Workspace) -> CodeEvidence:
    """Every cell that ran and the files they wrote under outputs/ and figures/ (read when a check asks)."""
    cells, notes = read_cells(workspace)
    return CodeEvidence(workspace=workspace, cells=cells, written=_written_files(workspace, cells), notes=notes)


def _written_files(workspace: Workspace, cells: list[Cell]) -> dict[str, str]:
    """Files under outputs/ and figures/ written by cells that ran -> the stage of the last such cell; with no
    record of which (a run of an older version), every file there, as one scope."""
    if any(cell.files is None for cell in cells if cell.ok):
        found = {}
        for folder in (workspace.outputs, workspace.figures):
            entries = safe_files.walk(folder, root=workspace.root)
            found.update({e.rel: "outputs" for e in entries if e.suspicious is None})
        return found
    wanted = {f: cell.stage for cell in cells if cell.ok for f in cell.files or []
              if f.startswith(("outputs/", "figures/"))}
    return {rel: stage for rel, stage in sorted(wanted.items())
            if safe_files.file_problem(workspace.root / rel, root=workspace.root) is None}


def read_run_file(workspace: Workspace, rel: str, notes: list[str], *, limit: int = FILE_CAP_BYTES) -> str | None:
    """A file of the run directory by its relative path, never through a link or outside the run; None (with a
    note) when it is missing or refused."""
    path = run_path(workspace, rel)
    if path is None:
        notes.append(f"{rel} refused: not a path inside the run directory")
        return None
    try:
        return safe_files.read_text(path, root=workspace.root, limit=limit)
    except FileNotFoundError:
        notes.append(f"{rel} is missing")
    except safe_files.UnsafeFile as exc:
        notes.append(f"{rel} not read: {exc.what}")
    except OSError as exc:
        notes.append(f"{rel} not read: {exc.strerror or exc}")
    return None


def run_path(workspace: Workspace, rel: str) -> Path | None:
    """`rel` as a path under the run directory, without resolving links (safe_files refuses them); None when it is
    absolute or climbs out."""
    parts = PurePosixPath(rel.strip()).parts
    if not parts or parts[0] == "/" or ".." in parts or "\x00" in rel:
        return None
    return workspace.root.joinpath(*parts)
