"""Which isolation this machine gives executed code, and what to tell the user about it.

`bwrap`: bubblewrap with everything in `bwrap` and `limits`. `rlimits`: no sandbox at all - the code
runs as the CLI's user with rlimits and an environment without credentials; it can read what that
user can read and reach the network. That is never a silent downgrade: `agentic-ds run` refuses it
when a model writes the code (see `cli/run.py`), unless the user passed `--sandbox off`.
"""

from __future__ import annotations

import functools
import platform
from dataclasses import dataclass, field

from agentic_ds.sandbox.bwrap import sandbox_choice
from agentic_ds.sandbox.cgroups import SandboxCgroup
from agentic_ds.sandbox.user import SandboxUser, current_user

INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap libseccomp2`) and allow unprivileged "
    "user namespaces; on macOS there is no bubblewrap: run agentic-ds in a Linux container or VM"
)


@dataclass(frozen=True)
class Isolation:
    kind: str                          # "bwrap" | "rlimits"
    user: SandboxUser = field(default_factory=current_user)
    problem: str | None = None         # why there is no sandbox (None with bwrap, or when asked off)
    warning: str | None = None         # one line for the CLI when isolation is weaker than it should be
    notes: list[str] = field(default_factory=list)
    hint: str = INSTALL_HINT


def choose_isolation(mode: str) -> Isolation:
    if mode == "off":
        return Isolation(
            "rlimits",
            warning="the sandbox is off (--sandbox off): executed code runs as your user, with rlimits and a "
                    "scrubbed environment only (it can read your files and reach the network)",
        )
    user, problem = (
        sandbox_choice()
        if platform.system() == "Linux"
        else (None, f"bubblewrap needs Linux (this is {platform.system()})")
    )
    if user is None:
        return Isolation(
            "rlimits", problem=problem,
            warning=f"{problem}: executed code runs without a sandbox (rlimits and a scrubbed environment only: "
                    "no filesystem or network isolation)",
        )
    notes = weak_limits()
    if user.mode == "userns-root":
        notes = [f"the code {user.describe()}", *notes]
    return Isolation("bwrap", user=user, warning="; ".join(notes) or None, notes=notes)


@functools.cache
def weak_limits() -> list[str]:
    """What the machine cannot bound for the whole sandbox (no cgroup controller for it)."""
    group = SandboxCgroup.create(memory_mb=256, max_pids=16)
    controllers = group.controllers if group is not None else []
    if group is not None:
        group.remove()
    notes = []
    if "memory" not in controllers:
        notes.append(
            "no memory cgroup here: memory is bounded per process only (RLIMIT_AS), not for the sandbox as a whole"
        )
    if "pids" not in controllers:
        notes.append("no pids cgroup here: the sandbox's processes are bounded by RLIMIT_NPROC of its user")
    if "cpu" not in controllers:
        notes.append("no CPU cgroup here: CPU time per cell is summed over the sandbox's live processes")
    return notes
