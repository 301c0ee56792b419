"""Before a run starts: can the profiler read the inputs? A cheap sniff of each file (its first 64 KB).

A file the user named that cannot be read, or a folder in which no file can, is an `InputError`
(exit 2) before the run directory is created and before any model is called; the message is the
profiler's own reason (`profiling.sniff`). Inside a folder with at least one readable file, the
unreadable ones are skipped: the run lists them (run.json `skipped_inputs`, the reports, the live
output). A folder is sniffed only until its first readable file, so thousands of files cost little.
"""

from __future__ import annotations

from agentic_ds.errors import InputError
from agentic_ds.runs.workdir import PlannedFile

HINT = "agentic-ds reads CSV/TSV (in any common encoding), Parquet, JSON and Excel .xlsx; fix the file or leave it out"
LISTED_REASONS = 5


def check_inputs(planned: list[PlannedFile]) -> None:
    """Raise `InputError` when a named file, or every file of a folder, cannot be read."""
    from agentic_ds.profiling.errors import UnreadableFile
    from agentic_ds.profiling.sniff import sniff_file

    folders: dict[str, list[tuple[str, str]]] = {}
    readable_folders: set[str] = set()
    for item in planned:
        if item.in_folder and item.given in readable_folders:
            continue
        reason = item.problem
        if reason is None:
            try:
                sniff_file(item.source)
            except UnreadableFile as exc:
                reason = str(exc)
        if not item.in_folder:
            if reason:
                raise InputError(f"input {item.given} cannot be read: {reason}", hint=HINT)
            continue
        if reason is None:
            readable_folders.add(item.given)
        else:
            folders.setdefault(item.given, []).append((item.run_path, reason))
    for given, failures in folders.items():
        if given not in readable_folders:
            raise InputError(_nothing_readable(given, failures), hint=HINT)


def refused_inputs(planned: list[PlannedFile]) -> list[dict[str, str]]:
    """`{"path", "reason"}` of the files found in folders that are not copied into the run."""
    return [{"path": item.run_path, "reason": item.problem} for item in planned if item.problem]


def _nothing_readable(given: str, failures: list[tuple[str, str]]) -> str:
    shown = "; ".join(f"{path}: {reason}" for path, reason in failures[:LISTED_REASONS])
    more = f"; and {len(failures) - LISTED_REASONS} more" if len(failures) > LISTED_REASONS else ""
    return f"no file in input folder {given} can be read ({len(failures)} tried): {shown}{more}"
