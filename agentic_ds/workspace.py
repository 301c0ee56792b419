"""The run directory: its layout, and the one place that decides whether a path is inside it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from agentic_ds.errors import PathEscape

_SLUG_BAD = re.compile(r"[^a-z0-9]+")

# Files and folders the agents may read but never write through the file tools.
PROTECTED = ("inputs", "stages", "analysis.ipynb", "session.db", "events.jsonl", "run.json", ".sandbox", ".lock",
             "followups", "earlier")


def slugify(text: str, max_len: int = 40) -> str:
    """`Mean price by Region!` -> `mean-price-by-region` (never empty)."""
    slug = _SLUG_BAD.sub("-", text.lower()).strip("-")[:max_len].strip("-")
    return slug or "run"


@dataclass(frozen=True)
class Workspace:
    """A run directory. Every path an agent gives is resolved through `resolve()`."""

    root: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root).resolve())

    # -- layout -------------------------------------------------------------------------------
    @property
    def inputs(self) -> Path:
        return self.root / "inputs"

    @property
    def figures(self) -> Path:
        return self.root / "figures"

    @property
    def outputs(self) -> Path:
        return self.root / "outputs"

    @property
    def stages(self) -> Path:
        return self.root / "stages"

    def file(self, name: str) -> Path:
        """A top-level artifact: `plan.md`, `run.json`, `report.html`..."""
        return self.root / name

    def stage_dir(self, index: int, title: str) -> Path:
        """`stages/01-load-and-audit` for stage index 0."""
        return self.stages / f"{index + 1:02d}-{slugify(title, 30)}"

    def input_files(self) -> list[Path]:
        if not self.inputs.exists():
            return []
        return sorted(p for p in self.inputs.rglob("*") if p.is_file() and not p.name.startswith("."))

    def rel(self, path: Path) -> str:
        """Path relative to the run directory, as agents and reports show it."""
        return Path(os.path.relpath(path, self.root)).as_posix()

    # -- confinement --------------------------------------------------------------------------
    def resolve(self, path: str, *, for_write: bool = False) -> Path:
        """Resolve an agent-supplied relative path inside the run directory.

        Refuses absolute paths, `..` components, and anything whose real path (after following
        symlinks) leaves the run directory. Writes are also refused into protected locations
        (the inputs, the session, the logs), so an agent cannot destroy the evidence.
        """
        if not isinstance(path, str) or not path.strip():
            raise PathEscape("empty path", hint="give a path relative to the run directory, e.g. 'outputs/table.csv'")
        raw = path.strip()
        if "\x00" in raw:
            raise PathEscape(f"invalid path {raw!r}")
        candidate = Path(raw)
        if candidate.is_absolute() or raw.startswith("~"):
            raise PathEscape(
                f"absolute paths are not allowed: {raw!r}",
                hint="use a path relative to the run directory, e.g. 'inputs/data.csv'",
            )
        if ".." in candidate.parts:
            raise PathEscape(f"'..' is not allowed in paths: {raw!r}", hint="stay inside the run directory")
        full = (self.root / candidate).resolve()
        if full != self.root and self.root not in full.parents:
            raise PathEscape(f"{raw!r} resolves outside the run directory (symlink?)")
        if for_write:
            top = full.relative_to(self.root).parts[:1]
            if not top or top[0] in PROTECTED:
                raise PathEscape(
                    f"{raw!r} is read-only for agents",
                    hint="write results under 'outputs/' or 'figures/'",
                )
        return full
