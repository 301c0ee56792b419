"""Write one benchmark's section of BENCHMARKS.md in place, keeping the other sections."""

from __future__ import annotations

import re
import subprocess
from datetime import date
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def read_section(name: str) -> str:
    """The text of `## name` in BENCHMARKS.md, its heading included, up to the next section ("" when absent)."""
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else ""
    start = text.find(f"## {name}\n")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def record_section(name: str, lines: list[str], result: str | None = None) -> None:
    """Replace `## name` with `lines`, then the benchmark's fixed last line (`result`) in a code block."""
    if result is not None:
        lines = [*lines, "", "```", result, "```"]
    head = (
        "# Benchmarks\n\nFigures measured on the project's 2-core machine; each section is rewritten by its script.\n"
    )
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else head
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    body = (
        f"## {name}\n\n_Run `python bench/{name}.py` ({date.today()}, commit {commit or 'n/a'})._\n\n"
        + "\n".join(lines)
        + "\n"
    )
    pattern = re.compile(rf"^## {re.escape(name)}\n.*?(?=^## |\Z)", re.DOTALL | re.MULTILINE)
    text = pattern.sub(body + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + body
    BENCHMARKS.write_text(text.rstrip() + "\n")
