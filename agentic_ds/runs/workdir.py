"""Run directories: a new `ROOT/<YYYYmmdd-HHMMSS>-<slug>/` per run, and the user's inputs copied into it.

Nothing that exists is ever deleted or overwritten: run directories are created with
`mkdir(exist_ok=False)` (a suffix `-2`, `-3`... on collision) and every copied file is opened with
exclusive creation.

Where inputs land (the naming rule): each `--files` path keeps its own name under `inputs/`
(`data.csv` -> `inputs/data.csv`, a folder `data/` -> `inputs/data/...` with its relative paths).
When two inputs would land on the same name, each of them takes as many of its parent folders as
needed to tell them apart (`a/data.csv` and `b/data.csv` -> `inputs/a/data.csv`, `inputs/b/data.csv`).
Inside folders, hidden files and folders and `__pycache__` are skipped, and symlinked folders are not
followed. A file inside a folder that cannot be read (no permission, a FIFO, a dangling link) is
planned with its `problem` and not copied: the run goes on and says so. An input given twice, or
inside another input folder, is copied once. Files of
`LINK_THRESHOLD_BYTES` or more are hard-linked when on the same filesystem, else copied (a symlink would
point where the sandbox cannot see): treat `inputs/` as read-only.
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from agentic_ds.errors import InputError
from agentic_ds.workspace import Workspace, slugify

LINK_THRESHOLD_BYTES = 64 * 1024 * 1024
_SKIPPED_DIRS = {"__pycache__"}


@dataclass(frozen=True)
class PlannedFile:
    """One file to place in the run: where it comes from and where it goes under `inputs/`."""

    source: Path
    target: Path  # relative to inputs/
    size: int
    given: str = ""  # the --files argument it comes from
    in_folder: bool = False  # found by walking a folder (not named by the user)
    problem: str | None = None  # why it cannot be used; such a file is not copied

    @property
    def run_path(self) -> str:
        """Its path in the run directory, `inputs/...` (also for a file that is not copied)."""
        return (Path("inputs") / self.target).as_posix()


def create_run_dir(root: Path, task: str, now: datetime | None = None) -> Workspace:
    """Create `root/<timestamp>-<slug>/` (never reusing an existing directory) and return its `Workspace`."""
    root = Path(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the run root {root}: {exc.strerror}", hint="choose another --workdir") from exc
    if not root.is_dir():
        raise InputError(f"the run root {root} is not a directory", hint="choose another --workdir")
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{slugify(task)}"
    for attempt in range(1, 10_000):
        path = root / (base if attempt == 1 else f"{base}-{attempt}")
        try:
            path.mkdir(exist_ok=False)
        except FileExistsError:
            continue
        except OSError as exc:
            raise InputError(f"cannot create {path}: {exc.strerror}", hint="choose another --workdir") from exc
        return Workspace(path)
    raise InputError(f"too many runs named {base} in {root}", hint="choose another --workdir")


def validate_inputs(paths: list[Path], workdir_root: Path) -> list[PlannedFile]:
    """Check every input before anything is created; return what `copy_inputs` will place where.

    Raises `InputError` for a missing or unreadable path, a path that is neither file nor folder, a
    folder with no usable files, or a folder that contains the run root (it would copy itself).
    """
    root = Path(workdir_root).resolve()
    sources: list[Path] = []
    given_as: dict[Path, str] = {}
    for given in paths:
        path = Path(given).expanduser()
        if not path.exists():
            if path.is_symlink():
                raise InputError(
                    f"input {given} is a symbolic link that leads nowhere (dangling, or a loop)",
                    hint="pass the file or folder it should point to",
                )
            raise InputError(f"input not found: {given}", hint="check the path given to --files")
        # Names come from the path as given (a symlink keeps its own name); the recursion check uses the real path.
        absolute, resolved = Path(os.path.abspath(path)), path.resolve()
        if resolved.is_dir():
            if resolved == root or resolved in root.parents:
                raise InputError(
                    f"input folder {given} contains the run root {workdir_root}; a run would copy itself",
                    hint="pass the data folder itself, or choose a --workdir outside it",
                )
        elif not resolved.is_file():
            raise InputError(f"input {given} is neither a file nor a folder", hint="pass regular files or folders")
        if not _readable(resolved):
            raise InputError(f"input {given} is not readable", hint=f"check its permissions (chmod +r {given})")
        if absolute not in sources:
            sources.append(absolute)
            given_as[absolute] = str(given)
    sources = [s for s in sources if not any(other in s.parents for other in sources)]
    names = _distinct_names(sources)
    planned: list[PlannedFile] = []
    for source in sources:
        as_given = given_as[source]
        if source.is_file():
            planned.append(PlannedFile(source, names[source], source.stat().st_size, as_given))
            continue
        files = _walk(source)
        if not files:
            raise InputError(
                f"input folder {as_given} holds no files to copy",
                hint="hidden files and __pycache__ are skipped; pass the files themselves",
            )
        for file in files:
            problem = _unusable(file)
            size = 0 if problem else file.stat().st_size
            planned.append(PlannedFile(file, names[source] / file.relative_to(source), size, as_given, True, problem))
    return planned


def _readable(path: Path) -> bool:
    """Opening is the only sure test: `os.access` says yes to root even when its capabilities say no."""
    try:
        if path.is_dir():
            with os.scandir(path):
                return True
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError:
        return False
    return True


def _unusable(path: Path) -> str | None:
    """Why a file found in a folder cannot be copied, or None (opening it is the only sure test)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"a link that leads nowhere ({exc.strerror}); fix or remove it"
    if stat.S_ISDIR(mode):
        if path.is_symlink():
            return "a link to a folder; links to folders are not followed (pass that folder itself)"
        return "a folder that could not be read; check its permissions (chmod +rx) or leave it out"
    if not stat.S_ISREG(mode):
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        return f"not a regular file ({kind}); not copied"
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as exc:
        return f"could not be opened ({exc.strerror}); check its permissions (chmod +r) or leave it out"
    return None


def copy_inputs(
    paths: list[Path], workspace: Workspace, *, link_threshold_bytes: int = LINK_THRESHOLD_BYTES
) -> list[str]:
    """Copy (or link, when large) the inputs into `workspace.inputs`; return their run-relative paths."""
    planned = validate_inputs(paths, workspace.root.parent)
    workspace.inputs.mkdir(exist_ok=True)
    placed: list[str] = []
    for item in planned:
        if item.problem:
            continue
        destination = workspace.inputs / item.target
        destination.parent.mkdir(parents=True, exist_ok=True)
        if item.size >= link_threshold_bytes:
            _link(item.source, destination)
        else:
            _copy_exclusive(item.source, destination)
        placed.append(workspace.rel(destination))
    return placed


def _distinct_names(sources: list[Path]) -> dict[Path, Path]:
    """Shortest trailing part of each path that no other input shares (or nests under)."""
    depth = {source: 1 for source in sources}

    def name(source: Path) -> Path:
        parts = source.parts[-depth[source] :]
        return Path(*parts)

    changed = True
    while changed:
        changed = False
        for a in sources:
            for b in sources:
                if a is b:
                    continue
                name_a, name_b = name(a), name(b)
                if name_a == name_b or name_a in name_b.parents or name_b in name_a.parents:
                    for grow in (a, b):
                        if depth[grow] < len(grow.parts) - 1:  # never reach the filesystem root "/"
                            depth[grow] += 1
                            changed = True
    return {source: name(source) for source in sources}


def _walk(folder: Path) -> list[Path]:
    """Every entry to plan under `folder`: files, and the links and folders that could not be walked."""
    files: list[Path] = []
    unwalkable: list[Path] = []

    def note_error(error: OSError) -> None:
        if error.filename and Path(error.filename) != folder:
            unwalkable.append(Path(error.filename))

    for current, dirs, names in os.walk(folder, followlinks=False, onerror=note_error):
        linked = [d for d in dirs if not d.startswith(".") and (Path(current) / d).is_symlink()]
        files += [Path(current) / d for d in linked]
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS and d not in linked)
        files += [Path(current) / name for name in sorted(names) if not name.startswith(".")]
    return sorted(files + unwalkable)


def _copy_exclusive(source: Path, destination: Path) -> None:
    with open(source, "rb") as src, open(destination, "xb") as dst:
        shutil.copyfileobj(src, dst, length=1024 * 1024)
    shutil.copystat(source, destination)


def _link(source: Path, destination: Path) -> None:
    try:
        os.link(source, destination)
    except OSError:
        # Another filesystem (or links not allowed): copy. A symlink would point outside the run directory, where
        # neither the sandbox nor the path-confined tools can follow it.
        _copy_exclusive(source, destination)
