"""What executed code may write in the run directory: only its work folders.

The run directory is mounted read-only inside the sandbox, so inputs, the plan, the profile, the
records (`run.json`, `events.jsonl`, `session.db`, `analysis.ipynb`, reports) and every stage's
recorded code stay out of reach, including files created later in the run and a `report.md` the code
tried to plant. Writable, bound over it: `outputs/`, `figures/`, and the kernel's home
`.sandbox/home` (IPython, matplotlib and cache folders); `/tmp` is a private, size-capped tmpfs for
scratch. The host opens every one of those folders itself (no link followed), hands it to the
sandbox user, and gives bubblewrap the open descriptors, so a path swapped between check and mount
cannot redirect a mount, and the sandbox user never needs to reach the run directory by its path.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from agentic_ds.runs import safe_files
from agentic_ds.sandbox.user import SandboxUser

WRITABLE = ("outputs", "figures", ".sandbox/home")
HOME = ".sandbox/home"
HOME_DIRS = {
    "IPYTHONDIR": ".ipython",
    "MPLCONFIGDIR": ".matplotlib",
    "XDG_CACHE_HOME": ".cache",
    "XDG_CONFIG_HOME": ".config",
}


def prepare(run_dir: Path, user: SandboxUser) -> list[str]:
    """Create the writable folders (and the home's own) and hand them to the sandbox user.

    When the code runs as another user (`nobody`), it must also be able to read the run directory and
    its inputs: folders get o+rx and our own copies of the inputs o+r. A hard-linked input (the user's
    own file, not ours to chmod) that `nobody` cannot read is returned as a warning.
    """
    for rel in (*WRITABLE, *(f"{HOME}/{name}" for name in HOME_DIRS.values())):
        safe_files.make_dirs(run_dir / rel, run_dir)
        with safe_files.open_dir(run_dir / rel, run_dir) as fd:
            user.give_fd(fd)
    if not user.owns_files:
        return []
    _readable(run_dir, 0o005)
    problems = []
    for entry in safe_files.walk(run_dir / "inputs", root=run_dir):
        if entry.is_regular and not entry.st.st_mode & 0o004:
            if entry.st.st_nlink == 1:
                _readable(run_dir / entry.rel, 0o004, root=run_dir)
            else:
                problems.append(
                    f"{entry.rel} is a hard link to a file {user.name} cannot read: the code cannot open it"
                )
        for parent in Path(entry.rel).parents:
            if parent != Path("."):
                _readable(run_dir / parent, 0o005, root=run_dir)
    return problems


def _readable(path: Path, bits: int, *, root: Path | None = None) -> None:
    """Add permission `bits` for others, on the entry itself (no link followed)."""
    with contextlib.suppress(OSError, ValueError):
        if root is None:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        else:
            with safe_files.open_dir(path.parent, root) as dir_fd:
                fd = os.open(path.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
        try:
            mode = os.fstat(fd).st_mode
            if mode & bits != bits:
                os.fchmod(fd, (mode & 0o7777) | bits)
        finally:
            os.close(fd)


def writable_paths(run_dir: Path) -> list[Path]:
    return [run_dir / rel for rel in WRITABLE]


class MountFds:
    """Descriptors of the run directory and its writable folders, for `--ro-bind-fd`/`--bind-fd`."""

    def __init__(self) -> None:
        self.fds: list[int] = []

    def open(self, path: Path, root: Path | None = None) -> int:
        """An O_PATH descriptor of a folder; below `root`, reached without following links."""
        if root is None:
            fd = os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        else:
            with safe_files.open_dir(path, root) as dir_fd:
                fd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=dir_fd)
        self.fds.append(fd)
        return fd

    def close(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds.clear()


def run_dir_args(run_dir: Path, fds: MountFds) -> list[str]:
    """bwrap arguments: the run directory read-only, then each writable folder over it."""
    args = ["--ro-bind-fd", str(fds.open(run_dir)), str(run_dir)]
    for path in writable_paths(run_dir):
        args += ["--bind-fd", str(fds.open(path, run_dir)), str(path)]
    return args
