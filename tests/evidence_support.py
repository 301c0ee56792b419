"""Helpers of the evidence tests: a linearity check, and run directories whose executed cells are recorded."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_ds.workspace import Workspace

RATIO_BAR = 20.0          # 10x the input: a linear parser takes about 10x the time, a quadratic one about 100x
FAST_SECONDS = 0.1        # below this at 1 MB, the ratio is noise


def _timed(parse: Callable[[str], Any], text: str) -> float:
    """CPU seconds: other work on a shared machine does not count against the parser."""
    started = time.process_time()
    parse(text)
    return time.process_time() - started


def assert_linear(parse: Callable[[str], Any], shape: str) -> None:
    """`parse` on `shape` repeated to 100 KB and to 1 MB: at most `RATIO_BAR` times longer (CPU time; best of 3
    on 100 KB; on 1 MB the first run, and the best of 3 only when the first misses the bar, since a linear parser
    on 1 MB already takes seconds for some shapes)."""
    small_text = (shape * (100_000 // len(shape) + 1))[:100_000]
    large_text = (shape * (1_000_000 // len(shape) + 1))[:1_000_000]
    small = min(_timed(parse, small_text) for _ in range(3))
    large = _timed(parse, large_text)
    if not (large < FAST_SECONDS or large / max(small, 1e-6) < RATIO_BAR):
        large = min(large, *(_timed(parse, large_text) for _ in range(2)))
    assert large < FAST_SECONDS or large / max(small, 1e-6) < RATIO_BAR, (
        f"{small * 1000:.1f} ms on 100 KB, {large * 1000:.1f} ms on 1 MB (ratio {large / max(small, 1e-6):.1f})")


def record_cells(workspace: Workspace, cells: list[dict[str, Any]]) -> None:
    """An analysis.ipynb and stage files as the sandbox's recorder writes them: each cell is
    `{"out": printed text, "ok": bool, "files": {path: content}}`; files are written under the run directory."""
    stage = workspace.stages / "01-analysis"
    stage.mkdir(parents=True, exist_ok=True)
    notebook_cells = []
    for number, cell in enumerate(cells, 1):
        code_rel = f"stages/01-analysis/cell_{number:03d}.py"
        out_rel = f"stages/01-analysis/cell_{number:03d}.out.txt"
        (workspace.root / code_rel).write_text("# cell\n")
        (workspace.root / out_rel).write_text(cell.get("out", ""))
        for rel, content in cell.get("files", {}).items():
            path = workspace.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)
        ok = cell.get("ok", True)
        notebook_cells.append({
            "cell_type": "code", "source": "# cell", "outputs": [], "execution_count": number,
            "metadata": {"tags": [] if ok else ["raises-exception"],
                         "agentic_ds": {"cell": code_rel, "ok": ok, "output": out_rel,
                                        "files": list(cell.get("files", {}))}},
        })
    (workspace.root / "analysis.ipynb").write_text(json.dumps({"cells": notebook_cells, "metadata": {}, "nbformat": 4,
                                                                "nbformat_minor": 5}))


def new_workspace(root: Path) -> Workspace:
    workspace = Workspace(root / "run")
    for folder in (workspace.inputs, workspace.outputs, workspace.figures):
        folder.mkdir(parents=True)
    return workspace
