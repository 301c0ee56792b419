"""What a follow-up question remembers of the run it follows, and the files it works on.

The follow-up's folder gets the run's inputs (`inputs/`, copied, or hard-linked when large, as a new run's are)
and a copy of what the run left (`earlier/`: its outputs, plan, data profile, notebook and report), so its code
runs in its own sandbox against the same data, and reads the run's results, without any way to change them.
The memory the agents get (`S.EARLIER_RUN`) is a text: the run's question, status, answer ask by ask, plan,
stage summaries, the files it wrote and the code of its notebook, each capped.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from agentic_ds.runs import safe_files
from agentic_ds.schema import RunRecord
from agentic_ds.workspace import Workspace

EARLIER = "earlier"
EARLIER_FILES = ("plan.md", "plan.json", "data_profile.json", "analysis.ipynb", "report.md")
LINK_BYTES = 64 * 1024 * 1024      # inputs this large are hard-linked, as `runs/workdir.py` does
COPY_CAP_BYTES = 200 * 1024 * 1024  # outputs copied under earlier/ at most; what is left out is named
PLAN_CHARS = 3000
SUMMARY_CHARS = 600
CODE_CHARS = 6000
FILES_LISTED = 40


def copy_parent(run_root: Path, workspace: Workspace) -> list[str]:
    """The run's inputs into the follow-up's `inputs/`, what it left into `earlier/`; the files left out."""
    left_out: list[str] = []
    for entry in safe_files.walk(run_root / "inputs", root=run_root):
        if entry.is_regular:
            _copy(run_root, entry.rel, workspace.root / entry.rel, link=entry.st.st_size >= LINK_BYTES)
        else:
            left_out.append(entry.rel)
    earlier = workspace.root / EARLIER
    earlier.mkdir()
    budget = COPY_CAP_BYTES
    entries = []
    for name in EARLIER_FILES:
        try:
            entries.append(safe_files.Entry(name, os.lstat(run_root / name)))
        except FileNotFoundError:
            continue
    entries += safe_files.walk(run_root / "outputs", root=run_root)
    for entry in entries:
        if not entry.is_regular or entry.st.st_size > budget:
            left_out.append(entry.rel)
            continue
        budget -= entry.st.st_size
        _copy(run_root, entry.rel, earlier / entry.rel, link=False)
    return left_out


def _copy(root: Path, rel: str, destination: Path, *, link: bool) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    if link:
        try:
            os.link(root / rel, destination, follow_symlinks=False)
            return
        except OSError:
            pass   # another filesystem: copy
    with safe_files.open_read(root / rel, root=root, allow_hardlinks=True) as src, open(destination, "xb") as dst:
        shutil.copyfileobj(src, dst, length=1024 * 1024)


def earlier_run(run_root: Path, record: RunRecord, workspace: Workspace) -> str:
    """The memory of the run, as the prompts show it (the follow-up's `## Earlier run` section)."""
    lines = [f"Run {record.id}, asked: {record.task}", f"Status: {record.status.value} - {record.reason}"]
    answer = record.final_answer
    if answer is not None and answer.answer.strip():
        lines.append(f"Answer ({answer.confidence} confidence): {answer.answer.strip()}")
        lines += [f"- {a.ask}: {a.answer or 'not answered'}" for a in answer.asks]
    plan = _text(run_root, "plan.md")
    if plan:
        lines += ["", "### Plan", _capped(plan, PLAN_CHARS, "earlier/plan.md")]
    stages = [s for s in record.stages if s.summary or s.title]
    if stages:
        lines += ["", "### Stages"]
        lines += [f"- {s.title} ({s.status.value})" + (f": {_capped(s.summary, SUMMARY_CHARS, s.dir)}" if s.summary
                                                       else "") for s in stages]
    files = sorted(workspace.rel(p) for p in (workspace.root / EARLIER).rglob("*") if p.is_file())
    if files:
        lines += ["", "### Its files (copies, read-only)"]
        lines += [f"- {f}" for f in files[:FILES_LISTED]]
        if len(files) > FILES_LISTED:
            lines.append(f"- … and {len(files) - FILES_LISTED} more under {EARLIER}/")
    code = notebook_code(run_root)
    if code:
        lines += ["", "### Its code (analysis.ipynb)", "```python", _capped(code, CODE_CHARS,
                                                                          "earlier/analysis.ipynb"), "```"]
    return "\n".join(lines)


def notebook_code(run_root: Path) -> str:
    """The code cells of the run's notebook, in order."""
    try:
        notebook = json.loads(safe_files.read_text(run_root / "analysis.ipynb", root=run_root))
    except (OSError, ValueError):
        return ""
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    out = []
    for cell in cells if isinstance(cells, list) else []:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source")
            text = "".join(source) if isinstance(source, list) else str(source or "")
            if text.strip():
                out.append(text.strip())
    return "\n\n".join(out)


def _text(root: Path, name: str) -> str:
    try:
        return safe_files.read_text(root / name, root=root).strip()
    except OSError:
        return ""


def _capped(text: str, limit: int, where: str) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[:limit].rstrip() + f"\n… ({len(text) - limit} more characters in {where})"
