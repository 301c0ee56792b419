"""A throw-away cgroup per kernel: memory, process count and CPU time bound the whole sandbox.

cgroup v2: one folder under our own cgroup, with `memory.max` (and no swap), `pids.max`, and
`cpu.stat` for CPU time; the controllers must be enabled in our cgroup's `cgroup.subtree_control`
(we try to enable them; a delegated systemd scope or a container's own cgroup usually allows it).
cgroup v1: one folder per controller (`memory`, `pids`, `cpuacct`) under our own place in each
hierarchy, so the limits nest inside whatever limits the CLI itself runs under.

Whatever can be made is used; `controllers` says which. The processes join before they exec (see
`ProcessLimits.preexec`), so every process of the sandbox, however it was started, is a member.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from agentic_ds.sandbox import leftovers

CGROUP_ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = {"memory": "memory", "pids": "pids", "cpu": "cpuacct"}


def _own_paths() -> dict[str, str]:
    """Our own cgroup per hierarchy, from /proc/self/cgroup: {"": v2 path, "memory": ..., "pids": ...}."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                paths[name] = path
    return paths


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
        return True
    except OSError:
        return False


@dataclass
class SandboxCgroup:
    """The cgroup folders of one sandbox, by controller ("memory", "pids", "cpu")."""

    folders: dict[str, Path] = field(default_factory=dict)

    @property
    def controllers(self) -> list[str]:
        return sorted(self.folders)

    @classmethod
    def create(cls, *, memory_mb: int, max_pids: int) -> SandboxCgroup | None:
        name = f"{leftovers.owned_name(leftovers.CGROUP_PREFIX)}{uuid.uuid4().hex[:12]}"
        group = cls._create_v2(name) if (CGROUP_ROOT / "cgroup.controllers").exists() else cls._create_v1(name)
        if group is None or not group.folders:
            return None
        memory = memory_mb * 1024 * 1024
        limits = {
            "memory": [("memory.max", str(memory)), ("memory.swap.max", "0"),
                       ("memory.limit_in_bytes", str(memory)), ("memory.memsw.limit_in_bytes", str(memory))],
            "pids": [("pids.max", str(max_pids))],
        }
        for controller, settings in limits.items():
            folder = group.folders.get(controller)
            if folder is None:
                continue
            written = [_write(folder / key, value) for key, value in settings if (folder / key).exists()]
            if not any(written):   # a controller we cannot limit is no limit: say so by leaving it out
                group.folders.pop(controller)
        return group

    @classmethod
    def _create_v1(cls, name: str) -> SandboxCgroup | None:
        own = _own_paths()
        group = cls()
        for controller, hierarchy in V1_CONTROLLERS.items():
            base = CGROUP_ROOT / hierarchy
            parent = base / own.get(hierarchy, "/").lstrip("/")
            if not (parent / "cgroup.procs").exists() or not os.access(parent, os.W_OK):
                continue
            leftovers.sweep_cgroups(parent)
            with contextlib.suppress(OSError):
                (parent / name).mkdir()
                group.folders[controller] = parent / name
        return group

    @classmethod
    def _create_v2(cls, name: str) -> SandboxCgroup | None:
        parent = CGROUP_ROOT / _own_paths().get("", "/").lstrip("/")
        if not os.access(parent, os.W_OK):
            return None
        leftovers.sweep_cgroups(parent)
        wanted = {"memory", "pids", "cpu"}
        with contextlib.suppress(OSError):
            enabled = set((parent / "cgroup.subtree_control").read_text().split())
            missing = wanted - enabled
            if missing:
                _write(parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(missing)))
        try:
            (parent / name).mkdir()
        except OSError:
            return None
        folder = parent / name
        group = cls()
        with contextlib.suppress(OSError):
            available = set((folder / "cgroup.controllers").read_text().split())
            for controller in wanted & available:
                group.folders[controller] = folder
        if not group.folders:
            with contextlib.suppress(OSError):
                folder.rmdir()
        return group

    # -- use ------------------------------------------------------------------------------------
    def join_self(self) -> None:
        """Move the calling process in (called in the child before it drops privileges and execs)."""
        pid = str(os.getpid())
        for folder in dict.fromkeys(self.folders.values()):
            (folder / "cgroup.procs").write_text(pid)

    @property
    def procs_file(self) -> Path | None:
        """The `cgroup.procs` file listing every process of the sandbox."""
        folder = self.folders.get("pids") or next(iter(self.folders.values()), None)
        return folder / "cgroup.procs" if folder is not None else None

    def pids(self) -> list[int]:
        procs = self.procs_file
        if procs is None:
            return []
        try:
            return [int(x) for x in procs.read_text().split()]
        except OSError:
            return []

    def oom_kills(self) -> int:
        """How many processes the kernel's OOM killer ended in this sandbox so far."""
        folder = self.folders.get("memory")
        if folder is None:
            return 0
        for name in ("memory.events", "memory.oom_control"):
            with contextlib.suppress(OSError):
                for line in (folder / name).read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        return 0

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process of the sandbox so far (None without a CPU controller)."""
        folder = self.folders.get("cpu")
        if folder is None:
            return None
        with contextlib.suppress(OSError, ValueError):
            if (folder / "cpuacct.usage").exists():
                return int((folder / "cpuacct.usage").read_text()) / 1e9
            for line in (folder / "cpu.stat").read_text().splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
        return None

    def remove(self) -> None:
        """Kill whatever is left in the cgroup and remove its folders."""
        for _ in range(100):
            for pid in self.pids():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for folder in list(dict.fromkeys(self.folders.values())):
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue   # killed processes leave the cgroup once reaped
                for key in [k for k, v in self.folders.items() if v == folder]:
                    self.folders.pop(key)
            if not self.folders:
                return
            time.sleep(0.02)
