"""The quota guard's watcher: a small process of its own, so that noticing the quota passed and stopping the
sandbox never waits for the CLI's interpreter lock (a busy or descheduled event loop holds it for
milliseconds, in which a few processes writing to the page cache put tens of MB on disk).

    python -E -s -S quota_watcher.py KERNEL ROOT SPARE CGROUP_PROCS FOLDER...

KERNEL is the kernel's process id, ROOT the sandbox's root process, SPARE the comma-separated
processes never stopped (the bubblewrap processes above the kernel), CGROUP_PROCS the sandbox
cgroup's `cgroup.procs` file or "-". Lines on stdin: `arm BUDGET THRESHOLD CONTINUE DEV=FREE...` (stop the
sandbox once the work folders' filesystems lost more than BUDGET bytes since they had FREE bytes free,
counting every fall of the free space and no rise (space another program frees meanwhile is not room for
the sandbox), or the folders hold more than THRESHOLD bytes; then continue the processes CONTINUE lists,
comma-separated, or "-": those of the last stop, continued here, once armed, so that no continue sent by
another process can undo a stop made after it) and `disarm` (answered `disarmed`). Once armed, the
free space is read every 2 ms and the folders' blocks summed as often as about 1/20th of a CPU allows (at each poll
for a few hundred files: another program's deletion within a poll hides a write in the free space); past either, the
kernel is stopped (SIGSTOP; it cannot start more processes), then every other process of the sandbox
until no new one appears, and `stopped PID...` is written; the guard does the rest. Runs on the
standard library and `proctree` only (started by path, it starts in milliseconds); as root, at
real-time priority (it sleeps almost all the time). Ends when stdin closes.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import select
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

POLL_S = 0.002
WALK_COST_SHARE = 20     # the folders' blocks are summed with about 1/20th of a CPU: a tree of many files is
                         # walked less often, and a walk that waits for the disk costs none (it never defers the next)
WALK_COSTS_KEPT = 4      # paced by the cheapest of the last walks: an interrupt or a cache miss charged to one walk
                         # must not leave the folders unwalked for 20 times that (50 ms of writes, under load)


def _load_proctree():   # started by path, not as part of the package (whose imports take half a second)
    spec = importlib.util.spec_from_file_location("agentic_ds_proctree", Path(__file__).with_name("proctree.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


descendants = _load_proctree().descendants


@dataclass
class Armed:
    budget: int                 # bytes the filesystems may lose before the threshold could be passed
    threshold: int              # bytes the folders may hold
    free: dict[int, int]        # free bytes by device at the last poll (first: when the budget was counted)
    lost: int = 0               # the falls of the free space since, summed; a rise is never subtracted
    next_walk: float = 0.0
    walk_costs: list[float] = field(default_factory=list)   # CPU seconds of the last walks


def main(argv: list[str]) -> None:
    kernel, root = int(argv[0]), int(argv[1])
    spare = {int(pid) for pid in argv[2].split(",") if pid}
    cgroup_procs = None if argv[3] == "-" else argv[3]
    folders = argv[4:]
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    pending = b""
    armed: Armed | None = None
    while True:
        ready, _, _ = select.select([0], [], [], POLL_S if armed else None)
        if ready:
            data = os.read(0, 65536)
            if not data:
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                armed = _command(line.decode().split(), armed)
        if armed is not None and _passed(folders, armed):
            stopped = _stop_all(kernel, root, spare, cgroup_procs)
            _say("stopped " + " ".join(str(pid) for pid in sorted(stopped)))
            armed = None


def _passed(folders: list[str], armed: Armed) -> bool:
    """Whether the folders may be past the threshold: by the free space, and now and then by their blocks (a
    write and another program's deletion within one poll cancel out in the free space)."""
    armed.lost += _fall(_free(folders), armed.free)
    if armed.lost > armed.budget:
        return True
    if time.monotonic() < armed.next_walk:
        return False
    cpu = time.thread_time()
    used = _blocks(folders)
    armed.walk_costs = [*armed.walk_costs[1 - WALK_COSTS_KEPT:], time.thread_time() - cpu]
    armed.next_walk = time.monotonic() + WALK_COST_SHARE * min(armed.walk_costs)
    return used > armed.threshold


def _command(words: list[str], armed: Armed | None) -> Armed | None:
    if words[:1] == ["arm"]:
        free = {int(dev): int(value) for dev, value in (word.split("=") for word in words[4:])}
        armed = Armed(budget=int(words[1]), threshold=int(words[2]), free=free)
        _signal({int(pid) for pid in words[3].split(",") if pid.isdigit()}, signal.SIGCONT)
        return armed
    if words[:1] == ["disarm"]:
        _say("disarmed")
        return None
    return armed


def _blocks(folders: list[str]) -> int:
    """Bytes allocated under the folders (hard links once, links not followed): a trigger; the guard confirms with
    its own careful walk."""
    seen: set[tuple[int, int]] = set()
    total = 0
    pending = list(folders)
    while pending:
        with contextlib.suppress(OSError), os.scandir(pending.pop()) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    st = entry.stat(follow_symlinks=False)
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif (st.st_dev, st.st_ino) not in seen:
                        seen.add((st.st_dev, st.st_ino))
                        total += st.st_blocks * 512
    return total


def _free(folders: list[str]) -> dict[int, int]:
    """Free bytes of the folders' filesystems, by device (each filesystem once)."""
    free: dict[int, int] = {}
    for folder in folders:
        with contextlib.suppress(OSError):
            vfs = os.statvfs(folder)
            free[os.stat(folder).st_dev] = vfs.f_bfree * vfs.f_frsize
    return free


def _fall(free: dict[int, int], last: dict[int, int]) -> int:
    """Bytes the filesystems lost since `last` (updated to `free`). Only falls count: were a rise (another program
    deleting, or the sandbox itself) subtracted, the sandbox could write that much past the quota unseen, until a
    walk of the folders. Its own deletions thus look like writes: a false alarm costs the sandbox one pause."""
    fall = sum(max(0, last.get(dev, now) - now) for dev, now in free.items())
    last.update(free)
    return fall


def _stop_all(kernel: int, root: int, spare: set[int], cgroup_procs: str | None) -> set[int]:
    stopped = {kernel}
    _signal(stopped, signal.SIGSTOP)
    while True:
        found = descendants(root)
        if cgroup_procs is not None:
            with contextlib.suppress(OSError, ValueError):
                with open(cgroup_procs) as procs:
                    found |= {int(pid) for pid in procs.read().split()}
        new = found - spare - stopped
        if not new:
            return stopped
        _signal(new, signal.SIGSTOP)
        stopped |= new


def _signal(pids: set[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signum)


def _say(line: str) -> None:
    os.write(1, (line + "\n").encode())


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # a Ctrl-C of the CLI is the CLI's to handle; stdin closing ends us
    main(sys.argv[1:])
