"""Run a command of this checkout as `nobody`, the way an unprivileged user would (root only).

A mount namespace makes the home folder traversable and binds the interpreter and the checkout into it (so
`nobody` can start this Python), with the host's /proc; `setpriv` drops to uid and gid 65534 with no groups.
The sandbox the command builds is then an unprivileged bubblewrap in a user namespace, without cgroups.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def problem() -> str | None:
    """Why commands cannot be run as `nobody` here, or None."""
    if os.geteuid() != 0:
        return "already unprivileged"
    if shutil.which("setpriv") is None:
        return "setpriv (util-linux) is missing: cannot become nobody"
    return None


def run(args: list[str], *, timeout: float) -> subprocess.CompletedProcess[str]:
    """`python ARGS` as `nobody`, from the checkout, with a home and a temporary folder of its own."""
    home = Path(os.path.expanduser("~"))
    outer = [shutil.which("bwrap") or "bwrap", "--dev-bind", "/", "/", "--perms", "0755", "--tmpfs", str(home)]
    for root in sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), REPO}):
        if home in root.parents:
            for parent in reversed(root.parents):
                if home in parent.parents:
                    outer += ["--perms", "0755", "--dir", str(parent)]   # bwrap would make them 0700
            outer += ["--ro-bind", str(root), str(root)]
    scratch = Path(tempfile.mkdtemp(prefix="ads-nobody-"))   # not under pytest's own 0700 folders
    try:
        basetemp, nobody_home = scratch / "tmp", scratch / "home"
        for folder in (scratch, basetemp, nobody_home):
            folder.mkdir(exist_ok=True)
            os.chown(folder, 65534, 65534)
        command = [*outer, "--", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                   sys.executable, *(arg.replace("{basetemp}", str(basetemp)) for arg in args)]
        return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout,
                              env={"PATH": os.environ["PATH"], "HOME": str(nobody_home), "LANG": "C.UTF-8"})
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
