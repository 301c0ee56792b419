"""The kernel's environment: built from nothing, so no API key or token of the CLI reaches it."""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from agentic_ds.runs import safe_files
from agentic_ds.sandbox.bwrap import kernel_python
from agentic_ds.sandbox.layout import HOME, HOME_DIRS
from agentic_ds.sandbox.user import SandboxUser

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def kernel_env(run_dir: Path, user: SandboxUser, *, private_tmp: bool) -> dict[str, str]:
    """Everything the kernel gets. Its home and caches live in `.sandbox/home` (see `layout.prepare`).

    `private_tmp` is True under bubblewrap (its own /tmp); otherwise temp files go to `.sandbox/home/tmp`.
    """
    home = run_dir / HOME
    dirs = {"HOME": home, **{key: home / name for key, name in HOME_DIRS.items()}}
    if not private_tmp:
        dirs["TMPDIR"] = home / "tmp"
        safe_files.make_dirs(dirs["TMPDIR"], run_dir)
    _seed_font_cache(dirs["MPLCONFIGDIR"], run_dir, user)
    # One thread for the native libraries: their pools (OpenBLAS, OpenMP) would outlive the cell that
    # started them, and a cell must leave no thread running (the kernel would be restarted).
    threads = "1"
    env = {key: str(path) for key, path in dirs.items()}
    env.update(
        PATH=os.pathsep.join([os.path.dirname(kernel_python()), "/usr/local/bin", "/usr/bin", "/bin"]),
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        MPLBACKEND=INLINE_BACKEND,
        PYTHONHASHSEED="0",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONUNBUFFERED="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        OPENBLAS_NUM_THREADS=threads,
        OMP_NUM_THREADS=threads,
        MKL_NUM_THREADS=threads,
        NUMEXPR_MAX_THREADS=threads,
    )
    if private_tmp:
        env["TMPDIR"] = "/tmp"
    return env


def _seed_font_cache(target: Path, run_dir: Path, user: SandboxUser) -> None:
    """Copy the user's own matplotlib font list in, so the first plot of a run skips a 1-3 s font scan.

    Only ever copies from the host's cache into the run, never back: the sandbox cannot poison it. The
    copy is a new file (O_EXCL, no link followed): the folder is the sandbox's to write.
    """
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    sources = [os.environ.get("MPLCONFIGDIR"), os.path.join(xdg, "matplotlib")]
    for source in filter(None, sources):
        for font_list in sorted(Path(source).glob("fontlist-*.json")):
            with contextlib.suppress(OSError), font_list.open("rb") as src:
                with safe_files.create_new(target / font_list.name, root=run_dir, text=False) as dst:
                    shutil.copyfileobj(src, dst)
                    user.give_fd(dst.fileno())
