"""The run's disk quota against a fast disk: many processes writing at once, with and without fsync.

The quota is watched from its own thread; the moment it is passed the sandbox is stopped, whatever
the event loop is doing. Checked on the host: the bytes allocated under outputs/, the processes left,
and what the kernel can still write afterwards (its file size limit is given back, not more).
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.sandbox_attack_kit import MARKS, SETTINGS, sandbox  # noqa: F401 - fixtures

pytestmark = MARKS
MB = 1024 * 1024


def bound(writers: int) -> int:
    """What SECURITY.md promises: past the quota by the write each process had under way when stopped (at most
    the file size limit) and what is written between two polls of the watcher (2 ms; one more file's worth).
    Without real-time priority for the watcher (the CLI is not root), a loaded machine can keep it off the CPU
    for tens of milliseconds, in which a writer goes on: SECURITY.md gives that case its own, measured bound."""
    return (SETTINGS.disk_quota_mb + (writers + 1) * SETTINGS.max_file_mb + (0 if real_time() else 128)) * MB


@functools.cache
def real_time() -> bool:
    """Whether the watcher gets real-time priority here: asked the way it asks for it, in a process of its own."""
    ask = "import os\nos.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))"
    return subprocess.run([sys.executable, "-c", ask], capture_output=True).returncode == 0


WRITER = (
    "import os, sys\nchunk = b'0' * (4 * 1024 * 1024)\nname = sys.argv[1]\n"
    "for i in range(400):\n    with open(f'outputs/bomb_{name}_{i}.bin', 'wb') as f:\n"
    "        f.write(chunk)\n        f.write(chunk)\n{sync}"
)


def bomb(*, children: int, fsync: bool) -> str:
    writer = WRITER.replace("{sync}", "        os.fsync(f.fileno())\n" if fsync else "")
    return (
        "import subprocess, sys\n"
        f"children = [subprocess.Popen([sys.executable, '-c', {writer!r}, str(n)]) for n in range({children})]\n"
        f"sys.argv = ['', 'kernel']\nexec({writer!r})\n"
    )


def on_disk(root) -> int:
    """Bytes allocated by the bomb's files (what the disk lost), measured from the host."""
    return sum(p.stat().st_blocks * 512 for p in (root / "outputs").glob("bomb_*.bin"))


async def clean(sandbox) -> None:
    done = await sandbox.run(
        "import glob, os\nfor p in glob.glob('outputs/bomb_*.bin'):\n    os.unlink(p)\nprint('cleaned')"
    )
    assert done.stdout == "cleaned\n", done.error   # a cell that only deletes, to come back under the quota, runs


@pytest.mark.parametrize(("children", "fsync"), [(0, False), (4, True), (4, False)],
                         ids=["kernel-page-cache", "five-writers-fsync", "five-writers-page-cache"])
async def test_security_a_fast_disk_bomb_is_stopped_at_the_quota(sandbox, children, fsync):
    root = sandbox.workspace.root
    result = await sandbox.run(bomb(children=children, fsync=fsync))
    written = on_disk(root)
    try:
        assert "DiskQuota" in result.error and f"{SETTINGS.disk_quota_mb} MB" in result.error, result.error
        assert written > SETTINGS.disk_quota_mb * MB - 8 * MB   # the bomb did run up to the quota
        assert written <= bound(children + 1), f"{written / MB:.0f} MB written"
        assert not (sandbox.kernel._sandbox_pids() - sandbox.kernel._keep)   # the writers are gone
    finally:
        await clean(sandbox)


async def test_security_the_quota_holds_while_the_event_loop_is_blocked(sandbox):
    """The CLI's event loop does other work (here: none at all for 1.5 s) while the bomb runs."""
    task = asyncio.ensure_future(sandbox.run(bomb(children=4, fsync=False)))
    await asyncio.sleep(0.05)   # the cell has started
    time.sleep(1.5)             # blocks the loop: only the guard's own thread can see the quota pass
    result = await task
    written = on_disk(sandbox.workspace.root)
    try:
        assert "DiskQuota" in result.error, result.error
        assert written <= bound(5), f"{written / MB:.0f} MB written"
    finally:
        await clean(sandbox)


STUBBORN = (
    "import resource, signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nchunk = b'0' * (4 * 1024 * 1024)\n"
    "refused = 0\nfor i in range(400):\n    try:\n        with open(f'outputs/bomb_k_{i}.bin', 'wb') as f:\n"
    "            f.write(chunk)\n            f.write(chunk)\n    except OSError:\n        refused += 1\n{again}"
    "print('refused', refused)\n"
)
WRITE_6_MB = ("import os\nwith open('outputs/after.bin', 'wb') as f:\n    f.write(b'1' * (6 * 1024 * 1024))\n"
              "os.unlink('outputs/after.bin')")


async def test_security_a_kernel_that_ignores_the_interrupt_cannot_grow_a_file_after_the_stop(sandbox):
    """Continued after the stop, the kernel runs on; every write it tries fails (its file size limit is 0), so the
    cell ends by itself. Root without CAP_SYS_RESOURCE (most containers) cannot lower another user's limit:
    the kernel's own user does it then."""
    root = sandbox.workspace.root
    result = await sandbox.run(STUBBORN.replace("{again}", ""))
    written = on_disk(root)
    empty = sum(1 for p in (root / "outputs").glob("bomb_k_*.bin") if p.stat().st_size == 0)
    try:
        assert "DiskQuota" in result.error, result.error
        assert not result.restarted, result.error   # it ended by itself: nothing had to stop it for good
        assert written <= bound(1), f"{written / MB:.0f} MB written"
        assert empty > 0 and result.stdout.startswith("refused "), result.stdout   # it went on, and wrote nothing
    finally:
        await clean(sandbox)
    assert "File too large" not in (await sandbox.run(WRITE_6_MB)).error   # its limit was given back


async def test_security_a_kernel_that_raises_its_limit_again_is_held_within_one_more_file(sandbox):
    """Where its hard limit could not be lowered, the code can raise the soft one again and write on: the watcher
    is armed again before the kernel continues, so that second write is stopped (for good) within one file's size.
    Where it could, raising it fails and nothing more is written."""
    again = "    if refused == 1:\n        hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]\n" \
            "        try:\n            resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))\n" \
            "        except (ValueError, OSError):\n            pass\n"
    code = STUBBORN.replace("        refused += 1\n{again}", "        refused += 1\n" + again)
    result = await sandbox.run(code)
    written = on_disk(sandbox.workspace.root)
    try:
        assert "DiskQuota" in result.error, result.error
        assert written <= bound(1) + 2 * SETTINGS.max_file_mb * MB, f"{written / MB:.0f} MB written"
    finally:
        await clean(sandbox)


async def test_security_a_killed_watcher_still_leaves_a_quota_and_the_next_cell_has_a_new_one(sandbox):
    """The watcher ends mid-cell (here: killed; a crash would do the same): the execution loop measures the folders
    itself meanwhile, which holds the quota less tightly, and the next cell starts another watcher."""
    root = sandbox.workspace.root
    guard = sandbox.kernel.watchdog.quota_guard
    killed = guard._watcher.pid
    task = asyncio.ensure_future(sandbox.run("import time\ntime.sleep(0.5)\n" + bomb(children=0, fsync=False)))
    await asyncio.sleep(0.2)
    os.kill(killed, signal.SIGKILL)
    result = await task
    written = on_disk(root)
    try:
        assert "DiskQuota" in result.error, result.error
        assert written <= (SETTINGS.disk_quota_mb + 400) * MB, f"{written / MB:.0f} MB written"   # not 3.2 GB
    finally:
        await clean(sandbox)
    result = await sandbox.run(bomb(children=0, fsync=False))
    written = on_disk(root)
    try:
        assert guard._watcher.pid != killed and not guard.lost
        assert "DiskQuota" in result.error and written <= bound(1), f"{written / MB:.0f} MB written"
    finally:
        await clean(sandbox)


async def test_security_space_another_program_frees_meanwhile_does_not_hide_the_writes(sandbox, tmp_path):
    """The free space of the filesystem alone would count 200 MB the host deletes as room for the bomb."""
    big = tmp_path / "host.bin"
    with open(big, "wb") as handle:
        for _ in range(50):
            handle.write(b"h" * (4 * MB))
        os.fsync(handle.fileno())
    task = asyncio.ensure_future(sandbox.run(bomb(children=0, fsync=True)))
    await asyncio.sleep(0.005)   # the cell began: its free space is counted from before the deletion
    big.unlink()
    result = await task
    written = on_disk(sandbox.workspace.root)
    try:
        assert "DiskQuota" in result.error, result.error
        assert written <= bound(1), f"{written / MB:.0f} MB written"
    finally:
        await clean(sandbox)


async def test_security_after_a_quota_stop_the_kernel_writes_again_up_to_its_file_size_limit(sandbox):
    root = sandbox.workspace.root
    stopped = await sandbox.run(bomb(children=0, fsync=True))
    assert "DiskQuota" in stopped.error
    await clean(sandbox)
    again = await sandbox.run(
        "with open('outputs/after.bin', 'wb') as f:\n    f.write(b'1' * (6 * 1024 * 1024))\n"
        "with open('outputs/too_big.bin', 'wb') as f:\n    f.write(b'1' * (20 * 1024 * 1024))"
    )
    assert (root / "outputs" / "after.bin").stat().st_size == 6 * MB   # the limit was given back...
    assert "File too large" in again.error                               # ...and not raised past it
    assert (root / "outputs" / "too_big.bin").stat().st_size <= SETTINGS.max_file_mb * MB
    await sandbox.run("import os\nos.unlink('outputs/after.bin')\nos.unlink('outputs/too_big.bin')")


async def test_security_writes_by_other_programs_never_stop_a_cell(sandbox, tmp_path):
    """The host fills the same filesystem by twice the quota while a cell runs: the exact measure clears it."""
    task = asyncio.ensure_future(sandbox.run("import time\ntime.sleep(1.0)\nprint('done')"))
    await asyncio.sleep(0.2)

    def fill() -> None:   # in a thread: the runner's event loop keeps watching the cell while the host writes
        with open(tmp_path / "host.bin", "wb") as handle:
            for _ in range(2 * SETTINGS.disk_quota_mb // 4):
                handle.write(b"h" * (4 * MB))
                handle.flush()
                os.fsync(handle.fileno())

    await asyncio.to_thread(fill)
    result = await task
    os.unlink(tmp_path / "host.bin")
    assert result.ok and result.stdout == "done\n", result.error


async def test_security_fallocate_past_the_end_of_a_file_is_refused(sandbox):
    """FALLOC_FL_KEEP_SIZE would allocate blocks no file size limit applies to, past any quota in one call."""
    root = sandbox.workspace.root
    result = await sandbox.run(
        "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "fd = os.open('outputs/holes.bin', os.O_CREAT | os.O_WRONLY, 0o600)\n"
        "rc = libc.fallocate(fd, 1, ctypes.c_long(0), ctypes.c_long(200 * 1024 * 1024))\n"
        "print(rc, os.strerror(ctypes.get_errno()))\n"
        "try:\n    os.posix_fallocate(fd, 0, 20 * 1024 * 1024)\nexcept OSError as e:\n    print(e.strerror)\n"
        "os.close(fd)"
    )
    blocks = (root / "outputs" / "holes.bin").stat().st_blocks * 512
    await sandbox.run("import os\nos.unlink('outputs/holes.bin')")
    assert blocks <= SETTINGS.max_file_mb * MB, f"{blocks / MB:.0f} MB allocated"
    assert result.stdout.splitlines() == ["-1 Operation not permitted", "File too large"], result.stdout
