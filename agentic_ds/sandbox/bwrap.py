"""Bubblewrap: is it usable here, and the argv that puts the kernel inside it.

The sandbox sees only what it needs: the system's `/usr` (and the `/bin`, `/lib*` links), a few
files of `/etc`, the Python installation read-only, the run directory read-only with its work
folders writable (see `layout`), a private `/tmp`, and the directory holding the kernel's sockets.
It has no network (only its own `lo`), its own PID, IPC, UTS, mount and cgroup namespaces, no
capabilities and no way to gain any (bubblewrap always sets `no_new_privs`), a seccomp filter (see
`seccomp`), no environment but the one given, and it dies with the CLI. Who the code runs as is
`user`'s business. The user's home, `/root`, the project checkout and every parent of the run
directory are simply not there. The run directory's mounts come from descriptors the host opened
without following links (see `layout`).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from agentic_ds.sandbox.layout import MountFds, run_dir_args
from agentic_ds.sandbox.seccomp import filter_fd, seccomp_problem
from agentic_ds.sandbox.user import SandboxUser, candidate_users

# Files the dynamic linker, Python and matplotlib read under /etc; nothing with secrets.
ETC_FILES = (
    "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "nsswitch.conf", "passwd", "group",
    "hosts", "host.conf", "fonts", "alternatives", "mime.types", "os-release", "ssl/certs",
)
SYSTEM_TOP = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
SETPRIV_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")   # only setpriv holds them, to drop them for good


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def sandbox_choice() -> tuple[SandboxUser | None, str | None]:
    """The best way to sandbox code here (see `user`), or None and why not (one line)."""
    if bwrap_path() is None:
        return None, "bubblewrap (bwrap) is not installed"
    problem = seccomp_problem()
    if problem:
        return None, problem
    reasons = []
    for user in candidate_users():
        reason = _probe(user)
        if reason is None:
            return user, None
        reasons.append(reason)
    return None, reasons[0]


def bwrap_problem() -> str | None:
    """None when bubblewrap can build our sandbox here; otherwise why not (one line)."""
    return sandbox_choice()[1]


def _probe(user: SandboxUser) -> str | None:
    """Start the real interpreter in a sandbox built like the kernel's, as `user`."""
    fds = MountFds()
    seccomp = filter_fd()
    try:
        argv = [bwrap_path() or "bwrap", "--die-with-parent", *_namespace_args(user), *_system_args()]
        argv += _python_args(fds) + ["--seccomp", str(seccomp)]
        argv += ["--", *_switch(user), kernel_python(), "-I", "-S", "-c", ""]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, env={"PATH": "/usr/bin:/bin"},
                              pass_fds=[*fds.fds, seccomp])
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    finally:
        fds.close()
        os.close(seccomp)
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return f"bubblewrap cannot run Python in a sandbox here ({user.describe()}): {reason}"
    return None


def kernel_python() -> str:
    """The interpreter as the sandbox sees it: the venv's folder resolved (it is mounted by its real
    path), the executable's own name kept (so Python still finds the venv's `pyvenv.cfg`)."""
    return os.path.join(os.path.realpath(os.path.dirname(sys.executable)), os.path.basename(sys.executable))


def python_roots() -> list[Path]:
    """Directories the kernel's Python needs: the venv and the installation it points to."""
    candidates = {Path(sys.prefix), Path(sys.base_prefix), Path(os.path.realpath(sys.executable)).parent.parent}
    roots = sorted({p.resolve() for p in candidates})
    # Keep only the outermost of nested roots, and skip what /usr already provides.
    kept: list[Path] = []
    for root in roots:
        if root == Path("/usr") or Path("/usr") in root.parents:
            continue
        if any(k == root or k in root.parents for k in kept):
            continue
        kept.append(root)
    return kept


SHM_SIZE_MB = 256


def bwrap_argv(
    *,
    run_dir: Path,
    socket_dir: Path,
    env: Mapping[str, str],
    command: Iterable[str],
    user: SandboxUser,
    fds: MountFds,
    seccomp_fd: int,
    tmp_size_mb: int = 1024,
) -> list[str]:
    """The full command: bwrap, its mounts and namespaces, the explicit environment, then `command`.

    The descriptors it opens are collected in `fds` (pass them to the child, close them after).
    """
    exe = bwrap_path()
    if exe is None:
        raise RuntimeError("bwrap is not installed")
    run_dir = run_dir.resolve()
    argv = [exe, "--die-with-parent", "--new-session", *_namespace_args(user), "--hostname", "sandbox"]
    argv += _system_args()
    argv += ["--perms", "1777", "--size", str(tmp_size_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    # A private /dev/shm of its own: multiprocessing's semaphores live there (joblib, which scikit-learn and
    # statsmodels import, falls back to serial mode with a "Permission denied" note in every cell's output without).
    argv += ["--perms", "1777", "--size", str(SHM_SIZE_MB * 1024 * 1024), "--tmpfs", "/dev/shm"]
    argv += _python_args(fds)   # after the tmpfs, so a Python installed under /tmp stays visible
    argv += [*_parents(socket_dir), "--bind-fd", str(fds.open(socket_dir)), str(socket_dir)]
    argv += [*_parents(run_dir), *run_dir_args(run_dir, fds)]
    # The root is bwrap's own tmpfs: read-only, so nothing can be written where it would silently vanish.
    argv += ["--remount-ro", "/", "--chdir", str(run_dir), "--clearenv"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--seccomp", str(seccomp_fd)]
    return [*argv, "--", *_switch(user), *command]


def _namespace_args(user: SandboxUser) -> list[str]:
    # --unshare-pid is safe because the kernel never sees JPY_PARENT_PID (--clearenv); it makes every
    # process the analysis starts die with the kernel.
    args = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if user.mode == "nobody":
        # Set up as root without a user namespace; setpriv (below) then drops to nobody for good.
        args += ["--cap-drop", "ALL", *(x for cap in SETPRIV_CAPS for x in ("--cap-add", cap))]
        return args
    # A user namespace the code cannot leave nor nest (--disable-userns; seccomp refuses it too).
    args += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
    if user.mode == "userns-root":
        args += ["--uid", str(user.uid), "--gid", str(user.gid)]
    return args


def _switch(user: SandboxUser) -> list[str]:
    """The command prefix that makes the code `nobody`: no groups, no capabilities, no way back."""
    if user.mode != "nobody":
        return []
    return [shutil.which("setpriv") or "setpriv", f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--"]


def _parents(path: Path) -> list[str]:
    """World-traversable folders above a mount point (bwrap would make them 0700, closed to nobody)."""
    args: list[str] = []
    for parent in reversed(path.parents):
        if parent in (Path("/"), Path("/tmp"), Path("/usr")) or Path("/usr") in parent.parents:
            continue
        if any(root == parent or root in parent.parents for root in python_roots()):
            return args   # inside a read-only Python mount: it exists already
        args += ["--perms", "0755", "--dir", str(parent)]
    return args


def _python_args(fds: MountFds) -> list[str]:
    args: list[str] = []
    for root in python_roots():
        args += [*_parents(root), "--ro-bind-fd", str(fds.open(root)), str(root)]
    return args


def _system_args() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev"]
    for name in SYSTEM_TOP:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args
