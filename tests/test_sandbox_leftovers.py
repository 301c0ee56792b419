"""What a CLI killed outright leaves (its kernel's socket folder, its empty cgroups) goes when the next sandbox
starts; nothing of a CLI that lives, nothing that is not ours, nothing a link points to, no cgroup in use."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from agentic_ds.sandbox import cgroups, leftovers
from agentic_ds.sandbox.cgroups import SandboxCgroup
from agentic_ds.sandbox.kernel import SandboxKernel
from agentic_ds.sandbox.limits import Limits
from agentic_ds.sandbox.user import current_user


def gone_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_socket_folders_of_a_cli_that_is_gone_are_removed_and_nothing_else(tmp_path):
    dead = gone_pid()
    orphan = tmp_path / f"ads-{dead}-k3j2"
    (orphan / "k").mkdir(parents=True)
    (orphan / "kernel.json").write_text("{}")
    mine = tmp_path / f"{leftovers.owned_name('ads-')}x1"
    mine.mkdir()
    others = [tmp_path / "ads-nobody-x", tmp_path / "ads-", tmp_path / f"adsx-{dead}-y", tmp_path / f"ads-{dead}"]
    for folder in others:
        folder.mkdir()
    kept = tmp_path / "elsewhere"
    kept.mkdir()
    (kept / "precious.txt").write_text("keep")
    (tmp_path / f"ads-{dead}-link").symlink_to(kept)
    (tmp_path / f"ads-{dead}-file").write_text("a file, not a folder")

    leftovers.sweep_socket_folders(tmp_path)

    assert not orphan.exists()
    assert mine.is_dir() and all(folder.is_dir() for folder in others)
    assert (kept / "precious.txt").read_text() == "keep" and (tmp_path / f"ads-{dead}-link").is_symlink()
    assert (tmp_path / f"ads-{dead}-file").is_file()


async def test_a_new_kernel_sweeps_the_dead_clis_socket_folders_and_names_its_own_for_its_cli(tmp_path):
    orphan = Path(tempfile.gettempdir()) / f"ads-{gone_pid()}-left"
    orphan.mkdir()
    kernel = SandboxKernel(run_dir=tmp_path, env={}, limits=Limits(memory_mb=256, max_processes=64, max_file_mb=16),
                           use_bwrap=False, user=current_user())
    try:
        assert not orphan.exists()
        assert kernel.socket_dir.name.startswith(f"ads-{os.getpid()}-")
    finally:
        await kernel.stop()
        shutil.rmtree(orphan, ignore_errors=True)


def _cgroup_parent() -> Path | None:
    """A cgroup folder this process may create groups in (v2, else v1's pids hierarchy)."""
    own = cgroups._own_paths()
    if (cgroups.CGROUP_ROOT / "cgroup.controllers").exists():
        parent = cgroups.CGROUP_ROOT / own.get("", "/").lstrip("/")
    else:
        parent = cgroups.CGROUP_ROOT / "pids" / own.get("pids", "/").lstrip("/")
    return parent if (parent / "cgroup.procs").exists() and os.access(parent, os.W_OK) else None


def test_empty_cgroups_of_a_cli_that_is_gone_are_removed_when_the_next_sandbox_starts():
    parent = _cgroup_parent()
    if parent is None:
        pytest.skip("no writable cgroup here")
    dead = gone_pid()
    orphan, busy = parent / f"agentic-ds-{dead}-empty", parent / f"agentic-ds-{dead}-busy"
    orphan.mkdir()
    busy.mkdir()
    sleeper = subprocess.Popen(["sleep", "60"])
    group = None
    try:
        (busy / "cgroup.procs").write_text(str(sleeper.pid))   # in use: the kernel refuses to remove it
        group = SandboxCgroup.create(memory_mb=256, max_pids=64)
        assert group is not None
        assert not orphan.exists() and busy.is_dir()
        assert all(folder.name.startswith(leftovers.owned_name("agentic-ds-")) for folder in group.folders.values())
    finally:
        sleeper.kill()
        sleeper.wait()
        if group is not None:
            group.remove()
        for folder in (orphan, busy):
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
