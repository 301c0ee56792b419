"""What a sandbox leaves behind when its CLI is killed outright, removed when the next sandbox starts.

A kernel's socket folder (`/tmp/ads-<pid>-...`) and its cgroup folders (`agentic-ds-<pid>-...`) are removed by
the CLI that made them when the kernel stops. A CLI killed with SIGKILL (or by the OOM killer) cannot: each such
run left a folder in /tmp and an empty cgroup per controller. Both names carry the pid of the CLI that made them,
so the next sandbox to start removes those whose maker is gone. A folder whose maker lives is never touched, a
name without a pid is not ours, a link is not followed, and a cgroup that still holds a process cannot be removed
(the kernel refuses), so nothing in use goes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from agentic_ds.runs.warm_start import running

SOCKET_PREFIX = "ads-"
CGROUP_PREFIX = "agentic-ds-"


def owned_name(prefix: str) -> str:
    """The start of a folder name that says this process made it."""
    return f"{prefix}{os.getpid()}-"


def sweep_socket_folders(tmp: Path) -> None:
    """Remove the socket folders in `tmp` whose CLI is gone."""
    for path in _orphans(tmp, SOCKET_PREFIX):
        shutil.rmtree(path, ignore_errors=True)


def sweep_cgroups(parent: Path) -> None:
    """Remove the empty sandbox cgroups under `parent` whose CLI is gone."""
    for path in _orphans(parent, CGROUP_PREFIX):
        with contextlib.suppress(OSError):
            path.rmdir()


def _orphans(folder: Path, prefix: str) -> list[Path]:
    found = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.startswith(prefix):
                continue
            maker, sep, _ = entry.name[len(prefix):].partition("-")
            with contextlib.suppress(OSError):
                if sep and maker.isdigit() and entry.is_dir(follow_symlinks=False) and not running(int(maker)):
                    found.append(Path(entry.path))
    return found
