"""Profile every input of a run, within a bound on the number of files profiled.

Every file is sniffed (cheap: its first 64 KB); the first `ProfilerSettings.max_files` readable ones
are profiled in full, the other readable ones are listed by name in `DataProfile.not_profiled`, and
each unreadable one becomes a `FileProfile` with `error` and a `problems` line. Inputs refused before
the run (a FIFO or an unreadable file inside a folder: see `runs/workdir.py`) come in as `refused`.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from agentic_ds.profiling.errors import UnreadableFile
from agentic_ds.profiling.model import DataProfile, FileProfile
from agentic_ds.profiling.profiler import ProfilerSettings, connect, profile_file
from agentic_ds.profiling.sniff import detect_format, sniff_file


def profile_inputs(
    paths: list[Path],
    *,
    base: Path,
    settings: ProfilerSettings | None = None,
    refused: list[tuple[str, str]] | None = None,
) -> DataProfile:
    """Profile every file in `paths` (directories walked, hidden files skipped), named relative to `base`.

    `refused` adds `(name, reason)` for inputs that never reached `paths`. Never raises for a bad file.
    """
    settings = settings or ProfilerSettings()
    with connect(settings) as con:
        result = _profile_all(expand(paths), base, settings, con)
    result.files += [_refused(name, reason) for name, reason in refused or []]
    result.problems = [f"{profile.path}: {profile.error}" for profile in result.files if profile.error]
    if result.not_profiled:
        result.problems.append(
            f"{len(result.not_profiled):,} more readable files were not profiled "
            f"(the bound is {settings.max_files} files per run): "
            "their names are in data_profile.json under not_profiled"
        )
    return result


def _profile_all(
    paths: list[Path], base: Path, settings: ProfilerSettings, con: duckdb.DuckDBPyConnection
) -> DataProfile:
    result = DataProfile()
    profiled = 0
    for path in paths:
        name = relative_name(path, base)
        if profiled >= settings.max_files:
            try:
                sniff_file(path)
            except UnreadableFile as exc:
                result.files.append(_refused(name, str(exc), path))
            else:
                result.not_profiled.append(name)
            continue
        profile = profile_file(path, display_name=name, settings=settings, con=con)
        result.files.append(profile)
        profiled += profile.error is None
    return result


def _refused(name: str, reason: str, path: Path | None = None) -> FileProfile:
    size = 0
    if path is not None:
        try:
            size = path.stat().st_size
        except OSError:
            pass
    return FileProfile(path=name, format=detect_format(Path(name)), size_bytes=size, error=reason)


def expand(paths: list[Path]) -> list[Path]:
    """Files of `paths`, folders walked in name order; hidden files and folders are left out."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found += sorted(
                child for child in path.rglob("*") if child.is_file() and not _hidden(child.relative_to(path))
            )
        else:
            found.append(path)
    return found


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def relative_name(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(Path(base).resolve()).as_posix()
    except ValueError:
        return path.name
