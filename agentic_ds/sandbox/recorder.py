"""Every executed cell on disk: `stages/NN-slug/cell_NNN.py`, the stage's `code.py`, `analysis.ipynb`.

Stages may run at once: the notebook keeps its cells in stage order (each stage's heading, then its cells in the
order they ran), whatever order they ran in across stages. The notebook re-executes top to bottom from the run
directory: cells that raised are tagged
`raises-exception` (nbclient lets them fail), and cells the sandbox had to stop (timeout, output
flood, dead kernel) are kept as raw cells, so a re-run does not hang on them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_raw_cell

from agentic_ds.runs import safe_files
from agentic_ds.sandbox.capture import CellResult

NOTEBOOK = "analysis.ipynb"


class Recorder:
    """Writes the record of a run's cells; one instance per `CodeRunner`."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.notebook = new_notebook()
        self.notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        self.notebook.metadata["language_info"] = {"name": "python"}
        self._cells_in: dict[Path, int] = {}     # cells recorded so far, per stage folder
        self._order: dict[Path, int] = {}        # each stage folder's place in the notebook (its stage index)
        self.execution_count = 0
        self._continue_notebook()

    def _continue_notebook(self) -> None:
        """A resumed run adds to the notebook of its earlier attempts (each cell also has its own file)."""
        try:
            earlier = nbformat.reads(safe_files.read_text(self.run_dir / NOTEBOOK, root=self.run_dir), as_version=4)
        except FileNotFoundError:
            return
        except Exception as exc:  # noqa: BLE001 - unreadable (links refused, bad JSON, invalid): cells stay in their files
            note = f"The notebook of an earlier attempt could not be read ({exc}); its cells are in stages/*/cell_*.py."
            self.notebook.cells.append(new_markdown_cell(note))
            return
        self.notebook.cells = list(earlier.cells)
        counts = [cell.get("execution_count") or 0 for cell in earlier.cells if cell.get("cell_type") == "code"]
        self.execution_count = max(counts, default=0)

    def begin_stage(self, stage_dir: Path, heading: str, order: int = 0) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)   # the run directory itself is ours: trusted as it is
        safe_files.make_dirs(stage_dir, self.run_dir)
        self._order[stage_dir] = order
        # A stage begun again (another attempt) continues its numbering: earlier cells stay on record.
        cells = self._cells_in[stage_dir] = len(list(stage_dir.glob("cell_[0-9][0-9][0-9].py")))
        if cells:
            heading += f" (begun again after cell {cells:03d})"
        at = self._place(order)
        last = self.notebook.cells[at - 1] if at else None
        if last is None or last.cell_type != "markdown" or last.source != f"## {heading}":
            cell = new_markdown_cell(f"## {heading}")
            cell.metadata["agentic_ds"] = {"stage": order}
            self.notebook.cells.insert(at, cell)
        self.save_notebook()

    def next_cell(self, code: str, stage_dir: Path) -> tuple[Path, Path]:
        """Write the cell's code before it runs (so it is on disk whatever happens); return its paths."""
        if stage_dir not in self._cells_in:
            raise RuntimeError("begin_stage() must come before the stage's first cell")
        self._cells_in[stage_dir] += 1
        number = self._cells_in[stage_dir]
        cell_path = stage_dir / f"cell_{number:03d}.py"
        with safe_files.create_new(cell_path, root=self.run_dir) as handle:
            handle.write(code if code.endswith("\n") else code + "\n")
        with safe_files.open_append(stage_dir / "code.py", root=self.run_dir) as handle:
            handle.write(("\n" if number > 1 else "") + f"# %% cell {number:03d}\n{code.rstrip()}\n")
        return cell_path, stage_dir / f"cell_{number:03d}.out.txt"

    def record(self, code: str, result: CellResult, outputs: list[dict[str, Any]], stage_dir: Path) -> None:
        """Add the executed cell to the notebook, at the end of its stage's cells, and rewrite it."""
        if result.timed_out or result.restarted:
            reason = "timed out" if result.timed_out else "stopped by the sandbox"
            cell = new_raw_cell(f"# not re-executed: {reason} ({result.cell_path})\n{code}")
        else:
            self.execution_count += 1
            cell = new_code_cell(code, execution_count=self.execution_count)
            cell.outputs = [nbformat.from_dict(o) for o in outputs]
            if not result.ok:
                cell.metadata["tags"] = ["raises-exception"]
        order = self._order.get(stage_dir, 0)
        # What the cell ran, printed and wrote, for the run's evidence checks (`agentic_ds/evidence/sources.py`).
        cell.metadata["agentic_ds"] = {"cell": result.cell_path, "duration_s": round(result.duration_s, 3),
                                       "ok": result.ok, "output": result.output_path, "files": list(result.files),
                                       "stage": order}
        self.notebook.cells.insert(self._place(order), cell)
        self.save_notebook()

    def _place(self, order: int) -> int:
        """Where a new cell of stage `order` goes: after every cell of that stage and of the stages before it. A
        cell that names no stage (an earlier attempt's notebook from before stages ran at once) stays first."""
        at = len(self.notebook.cells)
        while at and _stage_of(self.notebook.cells[at - 1]) > order:
            at -= 1
        return at

    def save_notebook(self) -> None:
        # The cells are built with nbformat's own constructors; skipping re-validation of the whole
        # notebook on every cell keeps recording cheap as the notebook grows.
        safe_files.write_atomic(self.run_dir / NOTEBOOK, nbformat.v4.writes(self.notebook))


def _stage_of(cell: Any) -> int:
    stage = (cell.get("metadata") or {}).get("agentic_ds", {}).get("stage")
    return stage if isinstance(stage, int) else -1
