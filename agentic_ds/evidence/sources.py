"""What executed code left in a run directory: the cells that ran, what they printed, the files they wrote.

Only records the host wrote are believed: `analysis.ipynb` (each cell's metadata says whether it ran without
error, where its output went and which files it wrote) and the cell outputs under `stages/` (read-only to
agents and code). A file under `outputs/` counts when a cell that ran wrote it: one a model wrote with
`write_file` is not an output of executed code. Everything is read through `safe_files`, never through a
link, and within byte caps (what a cap left unread is said in `notes`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from agentic_ds.evidence.numbers import NumberIndex
from agentic_ds.evidence.wording import words
from agentic_ds.runs import safe_files
from agentic_ds.workspace import Workspace

NOTEBOOK = "analysis.ipynb"
TEXT_SUFFIXES = frozenset({".json", ".csv", ".tsv", ".txt", ".md", ".html", ".log", ".yaml", ".yml", ".jsonl", ""})
FILE_CAP_BYTES = 4 * 1024 * 1024        # read of one output file (its head beyond this)
TOTAL_CAP_BYTES = 16 * 1024 * 1024      # read of all output files together
NOTEBOOK_CAP_BYTES = 64 * 1024 * 1024


@dataclass
class Cell:
    path: str                  # stages/NN-slug/cell_NNN.py
    ok: bool
    output: str                # stages/NN-slug/cell_NNN.out.txt
    files: list[str] | None    # files it wrote; None when the record does not say (a run of an older version)


@dataclass
class CodeEvidence:
    """The outputs of a run's executed code, and an index of every number in them."""

    cells: list[Cell] = field(default_factory=list)
    written: list[str] = field(default_factory=list)    # files under outputs/ written by cells that ran
    index: NumberIndex = field(default_factory=NumberIndex)
    words: set[str] = field(default_factory=set)         # the words of those outputs (names, categories)
    notes: list[str] = field(default_factory=list)

    @property
    def code_ran(self) -> bool:
        return any(cell.ok for cell in self.cells)

    @property
    def cells_ok(self) -> int:
        return sum(cell.ok for cell in self.cells)

    def add_text(self, text: str) -> None:
        self.index.add_text(text)
        self.words.update(w for w in words(text) if w[:1].isalpha())


def read_cells(workspace: Workspace) -> tuple[list[Cell], list[str]]:
    """The executed cells as the notebook records them, and notes on what could not be read."""
    notes: list[str] = []
    try:
        raw = safe_files.read_text(workspace.file(NOTEBOOK), root=workspace.root, limit=NOTEBOOK_CAP_BYTES)
        notebook = json.loads(raw)
    except FileNotFoundError:
        return [], []
    except (OSError, ValueError) as exc:
        return [], [f"{NOTEBOOK} could not be read ({type(exc).__name__}): no cell counts as run"]
    cells = []
    for entry in notebook.get("cells") or []:
        cell = _cell(entry)
        if cell is not None:
            cells.append(cell)
    return cells, notes


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
    """Every cell that ran, and the numbers of their outputs and of the files they wrote under outputs/."""
    cells, notes = read_cells(workspace)
    evidence = CodeEvidence(cells=cells, notes=notes)
    budget = TOTAL_CAP_BYTES
    for cell in cells:
        if cell.ok:
            text = read_run_file(workspace, cell.output, notes, limit=FILE_CAP_BYTES)
            if text is not None:
                evidence.add_text(text)
    written = _written_files(workspace, cells)
    for rel in written:
        if PurePosixPath(rel).suffix.lower() not in TEXT_SUFFIXES:
            continue
        if budget <= 0:
            notes.append(f"{rel} not read for evidence: {TOTAL_CAP_BYTES // 2**20} MB of outputs were read already")
            continue
        text = read_run_file(workspace, rel, notes, limit=min(FILE_CAP_BYTES, budget))
        if text is not None:
            budget -= len(text)
            evidence.add_text(text)
    evidence.written = written
    return evidence


def _written_files(workspace: Workspace, cells: list[Cell]) -> list[str]:
    """Files under outputs/ written by cells that ran; with no record of which (older runs), all of them."""
    if any(cell.files is None for cell in cells if cell.ok):
        entries = safe_files.walk(workspace.outputs, root=workspace.root)
        return sorted(e.rel for e in entries if e.suspicious is None)
    wanted = {f for cell in cells if cell.ok for f in cell.files or [] if f.startswith("outputs/")}
    return sorted(rel for rel in wanted if safe_files.file_problem(workspace.root / rel, root=workspace.root) is None)


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
