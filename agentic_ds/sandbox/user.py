"""Who executed code runs as: never root, never with a capability.

- `nobody` (the CLI runs as root: CI, Docker, most cloud machines): bubblewrap sets the sandbox up
  as root, then `setpriv` switches the kernel to the unprivileged `nobody` user (65534) with no
  groups, no capabilities (bounding set included) before Python starts. The code is then a real
  unprivileged user on the host too, so host file permissions are a second wall: what the mounts let
  through, `nobody` still cannot write unless it owns it. The folders the code may write are handed
  to it (`give`).
- `userns` (the CLI is an ordinary user): bubblewrap runs unprivileged in a user namespace; the code
  runs as the CLI's user with no capabilities, and cannot make user namespaces of its own.
- `userns-root` (root, where `setpriv` is missing or `nobody` cannot read the Python installation):
  uid 65534 inside a user namespace that maps it to root outside, with no capabilities. Files the code
  writes belong to root; only the mounts keep it in (said in the isolation notes).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
from dataclasses import dataclass
from pathlib import Path

NOBODY = 65534


@dataclass(frozen=True)
class SandboxUser:
    uid: int            # the uid the code has inside the sandbox
    gid: int
    mode: str           # "nobody" | "userns" | "userns-root" | "none" (no sandbox)

    @property
    def name(self) -> str:
        with contextlib.suppress(KeyError):
            return pwd.getpwuid(self.uid).pw_name
        return str(self.uid)

    @property
    def owns_files(self) -> bool:
        """True when the code is a different host user, who must be handed what it may write."""
        return self.mode == "nobody"

    def give(self, path: Path) -> None:
        if self.owns_files:
            os.chown(path, self.uid, self.gid, follow_symlinks=False)

    def give_fd(self, fd: int) -> None:
        if self.owns_files:
            os.fchown(fd, self.uid, self.gid)

    def describe(self) -> str:
        return {
            "nobody": f"runs as the unprivileged user {self.name} ({self.uid}), no capabilities",
            "userns": f"runs as your user ({self.uid}) in a user namespace, no capabilities",
            "userns-root": "runs as uid 65534 in a user namespace mapped to root outside (setpriv or a "
                           "Python readable by nobody is missing), no capabilities",
        }.get(self.mode, "runs as your user, without a sandbox")


def nobody() -> SandboxUser:
    try:
        entry = pwd.getpwnam("nobody")
        return SandboxUser(entry.pw_uid, entry.pw_gid, "nobody")
    except KeyError:
        return SandboxUser(NOBODY, NOBODY, "nobody")


def candidate_users() -> list[SandboxUser]:
    """The ways to run the sandbox here, best first (each is probed before use)."""
    if os.geteuid() != 0:
        return [SandboxUser(os.getuid(), os.getgid(), "userns")]
    fallback = SandboxUser(NOBODY, NOBODY, "userns-root")
    return [nobody(), fallback] if shutil.which("setpriv") else [fallback]


def current_user() -> SandboxUser:
    """The CLI's own user: code runs as it when there is no sandbox."""
    return SandboxUser(os.getuid(), os.getgid(), "none")
