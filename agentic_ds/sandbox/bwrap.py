"""Bubblewrap: is it usable here, and the argv that puts the kernel inside it.

The sandbox sees only what it needs: the system's `/usr` (and the `/bin`, `/lib*` links), a few
files of `/etc`, the Python installation read-only, the run directory read-write (its evidence -
inputs, stage records, logs - read-only), a private `/tmp`, and the directory holding the kernel's
sockets. It has no network (only its own `lo`), its own PID/IPC/UTS namespaces, no environment but
the one given, and it dies with the CLI. The user's home, `/root`, the project checkout and every
parent of the run directory are simply not there.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

# Files the dynamic linker, Python and matplotlib read under /etc; nothing with secrets.
ETC_FILES = (
    "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "nsswitch.conf", "passwd", "group",
    "hosts", "host.conf", "fonts", "alternatives", "mime.types", "os-release", "ssl/certs",
)
SYSTEM_TOP = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")

# Inside the run directory: writable by the analysis, except these (they are the run's evidence).
READ_ONLY_IN_RUN = ("inputs", "stages", "run.json", "events.jsonl", "session.db", "analysis.ipynb")


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def bwrap_problem() -> str | None:
    """None when bubblewrap can build our sandbox here; otherwise why not (one line)."""
    exe = bwrap_path()
    if exe is None:
        return "bubblewrap (bwrap) is not installed"
    argv = [exe, "--die-with-parent", *_namespace_args(), *_system_args(), "--", "/usr/bin/true"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]
        return f"bubblewrap cannot create a sandbox here: {reason}"
    return None


def kernel_python() -> Path:
    """This interpreter by a path the sandbox can see: its directory resolved (the sandbox mounts resolved
    roots, so a venv reached through a symlinked folder is not there under its unresolved name), its file name
    kept (a venv's `bin/python` is itself a symlink, and following it would leave the venv)."""
    executable = Path(sys.executable)
    return Path(os.path.realpath(executable.parent)) / executable.name


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


def bwrap_argv(
    *,
    run_dir: Path,
    socket_dir: Path,
    env: Mapping[str, str],
    command: Iterable[str],
    tmp_size_mb: int = 1024,
) -> list[str]:
    """The full command: bwrap, its mounts and namespaces, the explicit environment, then `command`."""
    exe = bwrap_path()
    if exe is None:
        raise RuntimeError("bwrap is not installed")
    run_dir = run_dir.resolve()
    argv = [exe, "--die-with-parent", "--new-session", *_namespace_args(), "--hostname", "sandbox"]
    argv += _system_args()
    argv += ["--size", str(tmp_size_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    for root in python_roots():  # after the tmpfs, so a Python installed under /tmp stays visible
        argv += ["--ro-bind", str(root), str(root)]
    argv += ["--bind", str(socket_dir), str(socket_dir)]
    argv += ["--bind", str(run_dir), str(run_dir)]
    for name in READ_ONLY_IN_RUN:
        target = run_dir / name
        if target.exists() and not target.is_symlink():
            argv += ["--ro-bind", str(target), str(target)]
    # The root is bwrap's own tmpfs: read-only, so nothing can be written where it would silently vanish.
    argv += ["--remount-ro", "/", "--chdir", str(run_dir), "--clearenv"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    return [*argv, "--", *command]


def _namespace_args() -> list[str]:
    # --unshare-pid is safe because the kernel never sees JPY_PARENT_PID (--clearenv); it makes every
    # process the analysis starts die with the kernel.
    return ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]


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
