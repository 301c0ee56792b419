"""How numbers, times and statuses read in reports and in the review commands."""

from __future__ import annotations

from agentic_ds.report.coerce import parse_time
from agentic_ds.schema import RunStatus, StageStatus

STATUS_MEANING = {
    RunStatus.COMPLETED: (
        "the answer passed its checks (every success criterion met), with no failed stage and no warning"
    ),
    RunStatus.COMPLETED_WITH_WARNINGS: "the answer passed its checks, but a stage failed or there are warnings to read",
    RunStatus.INCOMPLETE: "some success criteria were not met, or the run stopped before finishing",
    RunStatus.FAILED: "the run could not produce an answer",
    RunStatus.INTERRUPTED: "the run was stopped before it finished; what it did so far is kept",
    RunStatus.RUNNING: "the run is still going, or stopped without recording its end",
    RunStatus.UNKNOWN: "no readable run record (run.json) was found",
}


def status_label(status: RunStatus | StageStatus | None) -> str:
    return (status or RunStatus.UNKNOWN).label


def duration(seconds: float | None) -> str:
    """`0.4 s`, `12.3 s`, `2 min 05 s`, `1 h 02 min`; `-` when unknown."""
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def usd(amount: float | None) -> str:
    """Dollars with enough digits to see small model costs; `-` when unknown."""
    if amount is None:
        return "-"
    if amount == 0:
        return "$0.00"
    return f"${amount:.4f}" if abs(amount) < 1 else f"${amount:,.2f}"


def cost(amount: float | None, unpriced: list[str] | tuple[str, ...] = ()) -> str:
    """A run's cost: unknown when a model it used has no known price (never "$0.00" for one)."""
    if not unpriced:
        return usd(amount)
    return f"{usd(amount)} + unknown" if amount else "cost unknown"


def count(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def when(iso: str) -> str:
    """An ISO timestamp as `2026-11-22 01:30` (local to how it was recorded); raw text if unparsable."""
    moment = parse_time(iso)
    if moment is None:
        return iso or "-"
    return moment.strftime("%Y-%m-%d %H:%M")


def attempts(n: int) -> str:
    return f"{n} attempt" if n == 1 else f"{n} attempts"
