"""The kernel's environment: built from nothing, so no API key or token of the CLI reaches it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from agentic_ds.sandbox.bwrap import kernel_python

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def kernel_env(run_dir: Path, *, private_tmp: bool) -> dict[str, str]:
    """Everything the kernel gets. Homes and caches live in `.sandbox/` of the run directory.

    `private_tmp` is True under bubblewrap (its own /tmp); otherwise temp files go to `.sandbox/tmp`.
    """
    hidden = run_dir / ".sandbox"
    dirs = {
        "HOME": hidden / "home",
        "IPYTHONDIR": hidden / "ipython",
        "MPLCONFIGDIR": hidden / "matplotlib",
        "XDG_CACHE_HOME": hidden / "cache",
        "XDG_CONFIG_HOME": hidden / "config",
    }
    if not private_tmp:
        dirs["TMPDIR"] = hidden / "tmp"
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    _seed_font_cache(dirs["MPLCONFIGDIR"])
    threads = str(max(1, min(4, os.cpu_count() or 1)))
    env = {key: str(path) for key, path in dirs.items()}
    env.update(
        PATH=os.pathsep.join([str(kernel_python().parent), "/usr/local/bin", "/usr/bin", "/bin"]),
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


def _seed_font_cache(target: Path) -> None:
    """Copy the user's own matplotlib font list in, so the first plot of a run skips a 1-3 s font scan.

    Only ever copies from the host's cache into the run, never back: the sandbox cannot poison it.
    """
    if any(target.glob("fontlist-*.json")):
        return
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    sources = [os.environ.get("MPLCONFIGDIR"), os.path.join(xdg, "matplotlib")]
    for source in filter(None, sources):
        for font_list in sorted(Path(source).glob("fontlist-*.json")):
            try:
                shutil.copyfile(font_list, target / font_list.name)
            except OSError:
                continue
