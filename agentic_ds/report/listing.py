"""Finding runs under a work directory: the list for `agentic-ds list`, and `RUN` arguments."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agentic_ds.errors import UsageError
from agentic_ds.report.coerce import duration_s, parse_time, read_json_object
from agentic_ds.runs import run_lock
from agentic_ds.schema import RunRecord, RunStatus, read_model

_RUN_NAME = re.compile(r"^(\d{8}-\d{6})-")


@dataclass(frozen=True)
class RunSummary:
    id: str
    path: Path
    status: RunStatus
    title: str
    task: str
    mode: str
    started_at: str
    wall_s: float | None
    total_usd: float | None
    unpriced: list[str]
    has_report: bool

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["path"] = str(self.path)
        return data


def is_run_dir(path: Path) -> bool:
    """A directory with a run record, or one named like a run (an interrupted run may lack run.json)."""
    return path.is_dir() and ((path / "run.json").is_file() or bool(_RUN_NAME.match(path.name)))


def summarize_run(path: Path) -> RunSummary:
    """The one-line facts about a run; never raises on a broken run.json (status becomes `unknown`)."""
    record = (
        read_model(RunRecord, read_json_object(path / "run.json", "run.json", [], root=path, quiet=True)) or RunRecord()
    )
    status = RunStatus.INTERRUPTED if run_lock.died(path, record.status) else record.status
    return RunSummary(
        id=record.id or path.name,
        path=path.resolve(),
        status=status,
        title=record.title,
        task=" ".join(record.task.split()),
        mode=record.mode,
        started_at=record.started_at,
        wall_s=record.wall_s if record.wall_s is not None else duration_s(record.started_at, record.ended_at or ""),
        total_usd=record.cost.total_usd,
        unpriced=list(record.cost.unpriced),
        has_report=(path / "report.html").is_file(),
    )


def list_runs(root: Path) -> list[RunSummary]:
    """Every run directly under `root`, newest first. A missing root has no runs."""
    if not root.is_dir():
        return []
    runs = [summarize_run(p) for p in root.iterdir() if is_run_dir(p)]
    return sorted(runs, key=_start_key, reverse=True)


def find_run(ref: str, root: Path) -> Path:
    """Resolve a RUN argument: a run directory's path, or a run id, or a unique prefix of one."""
    as_path = Path(ref).expanduser()
    for candidate in (as_path, root / ref):
        if is_run_dir(candidate):
            return candidate.resolve()
    if as_path.is_dir():
        raise UsageError(f"{ref} is not a run directory (no run.json)", hint="give a run directory or a run id")
    runs = list_runs(root)
    exact = [r for r in runs if ref in (r.id, r.path.name)]
    matches = exact or [r for r in runs if r.id.startswith(ref) or r.path.name.startswith(ref)]
    if len(matches) == 1:
        return matches[0].path
    if not matches:
        where = f"under {root}" if root.is_dir() else f"({root} does not exist)"
        raise UsageError(f"no run matches {ref!r} {where}",
                         hint="see the runs with `agentic-ds list`, or pass --workdir ROOT or a run directory path")
    names = ", ".join(r.id for r in matches[:5]) + (" …" if len(matches) > 5 else "")
    raise UsageError(f"{ref!r} matches {len(matches)} runs: {names}", hint="give more of the run id")


def _start_key(run: RunSummary) -> datetime:
    """Start time for ordering: run.json, else the timestamp in the directory name, else mtime."""
    moment = parse_time(run.started_at)
    if moment is None:
        match = _RUN_NAME.match(run.path.name)
        try:
            moment = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S") if match else None
        except ValueError:
            moment = None
    if moment is None:
        try:
            return datetime.fromtimestamp(run.path.stat().st_mtime, tz=UTC)
        except OSError:
            return datetime.min.replace(tzinfo=UTC)
    # Naive times (directory names, local clocks) are compared as if UTC: ordering only.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
