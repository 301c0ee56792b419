"""Resource attacks: bombs of processes, memory, disk and CPU, and code that tries to outlive its cell.

Each is checked on the host: the machine's processes, the run's files on disk, the cgroup's own
accounting; and the agent must be told which limit stopped the cell.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time

import psutil
import pytest

from tests.sandbox_attack_kit import (  # noqa: F401 - fixtures
    MARKS,
    SETTINGS,
    outside,
    run_unhurried,
    sandbox,
    start_sandbox,
)

pytestmark = MARKS


def survivors(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        if marker in " ".join(proc.info["cmdline"] or []) and proc.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(proc)
    return found


async def test_security_fork_bomb_is_bounded(sandbox):
    code = (
        "import os, time\nchildren, failure = 0, None\n"
        "for _ in range(300):\n"
        "    try:\n        pid = os.fork()\n    except OSError as e:\n        failure = e.strerror\n        break\n"
        "    if pid == 0:\n        time.sleep(30)\n        os._exit(0)\n    children += 1\n"
        "print(children, failure)"
    )
    result = await sandbox.run(code)
    count, _, failure = result.stdout.strip().partition(" ")
    assert int(count) < SETTINGS.max_processes and failure == "Resource temporarily unavailable"
    assert any("background process" in note for note in result.notes)   # the children did not survive the cell
    assert subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True).stdout == b"1\n"   # host fine
    assert (await sandbox.run("print('alive')")).stdout == "alive\n"


async def test_security_memory_bomb_raises_memory_error(sandbox):
    host_before = psutil.Process().memory_info().rss
    result = await run_unhurried(sandbox, "blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 1024 * 1024))")
    assert not result.ok and result.error.startswith("MemoryError")
    assert psutil.Process().memory_info().rss - host_before < 100 * 1024 * 1024
    freed = await sandbox.run("del blocks\nx = bytearray(2 * 1024**3)")
    assert freed.error.startswith("MemoryError")   # one huge allocation above the limit: same
    assert (await sandbox.run("print('alive')")).stdout == "alive\n"


async def test_security_memory_of_many_children_is_bounded_together(tmp_path):
    runner = await start_sandbox(tmp_path / "run", SETTINGS.model_copy(update={"cell_timeout_s": 30}))
    try:
        kernel = runner.kernel
        assert kernel is not None
        cgroup = kernel.process_limits.cgroup
        if cgroup is None or "memory" not in cgroup.controllers:
            pytest.skip("no memory cgroup here: memory is bounded per process only (the documented fallback)")
        peak = 0
        done = asyncio.Event()

        async def watch() -> None:
            nonlocal peak
            while not done.is_set():
                total = 0
                for pid in kernel._sandbox_pids():
                    with contextlib.suppress(psutil.Error):
                        total += psutil.Process(pid).memory_info().rss
                peak = max(peak, total)
                await asyncio.sleep(0.02)

        watcher = asyncio.create_task(watch())
        hog = (
            "import time; block = bytearray(400 * 1024 * 1024); block[::4096] = b'x' * len(block[::4096]); "
            "time.sleep(1)"
        )
        code = (
            "import subprocess, sys\n"
            f"children = [subprocess.Popen([sys.executable, '-c', {hog!r}]) for _ in range(4)]\n"
            "print([child.wait() for child in children])"
        )
        result = await runner.run(code)
        done.set()
        await watcher
        limit = SETTINGS.memory_mb * 1024 * 1024
        assert peak <= limit * 1.05, f"peak {peak / 2**20:.0f} MB"   # 4 x 400 MB never all at once
        assert "MemoryLimit" in result.error and "1024 MB for all its processes" in result.error, result.error
        assert (await runner.run("print('alive')")).stdout == "alive\n"
    finally:
        await runner.close()


async def test_security_disk_bomb_past_the_file_size_limit_hits_the_run_quota(sandbox):
    root = sandbox.workspace.root
    result = await run_unhurried(
        sandbox,
        "import os\nchunk = b'0' * (4 * 1024 * 1024)\n"
        "for i in range(400):\n    with open(f'outputs/bomb_{i}.bin', 'wb') as f:\n        f.write(chunk)\n"
        "        f.write(chunk)\n"
        "        os.fsync(f.fileno())"
    )
    written = sum(p.stat().st_size for p in (root / "outputs").glob("bomb_*.bin"))
    assert "DiskQuota" in result.error and f"{SETTINGS.disk_quota_mb} MB" in result.error
    assert written <= (SETTINGS.disk_quota_mb + 2 * SETTINGS.max_file_mb) * 1024 * 1024, (
        f"{written / 2**20:.0f} MB written"
    )
    cleanup = await sandbox.run(
        "import glob, os\nfor p in glob.glob('outputs/bomb_*.bin'):\n    os.unlink(p)\nprint('cleaned')"
    )
    assert cleanup.stdout == "cleaned\n"   # a cell that only deletes, to come back under the quota, runs


async def test_security_a_huge_single_file_is_stopped_by_the_file_size_limit(sandbox):
    result = await sandbox.run("with open('outputs/big.bin', 'wb') as f:\n    f.write(b'0' * (20 * 1024 * 1024))")
    assert not result.ok and "File too large" in result.error
    assert (sandbox.workspace.root / "outputs" / "big.bin").stat().st_size <= SETTINGS.max_file_mb * 1024 * 1024
    await sandbox.run("import os\nos.unlink('outputs/big.bin')")


async def test_security_private_tmp_is_size_capped(sandbox):
    result = await sandbox.run(
        "import os\ntry:\n    for i in range(100):\n        with open(f'/tmp/fill{i}', 'wb') as f:\n"
        "            f.write(b'0' * (4 * 1024 * 1024))\n"
        "except OSError as e:\n    print('stopped', e.strerror)\n"
        "print(sum(os.path.getsize(f'/tmp/{n}') for n in os.listdir('/tmp')) // 2**20)\n"
        "for n in os.listdir('/tmp'):\n    os.unlink(f'/tmp/{n}')"
    )
    assert "stopped No space left on device" in result.stdout
    assert int(result.stdout.split()[-1]) <= SETTINGS.max_file_mb


async def test_security_cpu_burned_by_several_processes_is_limited_per_cell(tmp_path):
    runner = await start_sandbox(
        tmp_path / "run", SETTINGS.model_copy(update={"cell_timeout_s": 20, "cell_cpu_s": 2.0})
    )
    try:
        result = await runner.run(
            "import subprocess, sys, time\n"
            "procs = [subprocess.Popen([sys.executable, '-c', 'while True: pass  # 16.18']) for _ in range(3)]\n"
            "time.sleep(60)"
        )
        assert "CPULimit" in result.error and not result.timed_out, result.error
        assert result.duration_s < 10
        assert survivors("16.18") == []
        assert (await runner.run("print('alive')")).stdout == "alive\n"
    finally:
        await runner.close()


async def test_security_infinite_loop_is_interrupted_and_the_agent_told(sandbox):
    await sandbox.run("kept = 'state survives an interrupt'")
    result = await sandbox.run("while True:\n    pass")
    assert result.timed_out and not result.restarted and not result.ok
    assert "TimeoutError: the cell ran longer than 2 s" in result.for_model(2000)
    assert result.duration_s < SETTINGS.cell_timeout_s + 2
    assert (await sandbox.run("print(kept)")).stdout == "state survives an interrupt\n"


async def test_security_uninterruptible_loop_restarts_the_kernel(sandbox):
    await sandbox.run("lost = 1")
    result = await sandbox.run("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass")
    assert result.timed_out and result.restarted
    assert "variables from earlier cells are gone" in result.error
    assert (await sandbox.run("lost")).error.startswith("NameError")


async def test_security_gigabyte_of_output_is_capped(sandbox):
    host_before = psutil.Process().memory_info().rss
    result = await run_unhurried(sandbox, "line = 'x' * 1023\nfor _ in range(1024 * 1024):\n    print(line)")   # 1 GB
    out_file = sandbox.workspace.root / result.output_path
    assert out_file.stat().st_size <= SETTINGS.max_file_mb * 1024 * 1024 + 4096
    assert "OutputLimit" in result.error and len(result.for_model(2000)) <= 2000
    assert psutil.Process().memory_info().rss - host_before < 150 * 1024 * 1024
    assert (await sandbox.run("print('alive')")).stdout == "alive\n"


async def test_security_background_processes_do_not_outlive_their_cell(sandbox):
    marker = "31.4159"
    result = await sandbox.run(
        "import os, subprocess, time\n"
        f"subprocess.Popen(['sleep', '{marker}'])\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{marker}'])\n    os._exit(0)\n"
        "time.sleep(0.3)\nprint('started')"
    )
    assert result.stdout.strip() == "started"
    assert any("background process" in note for note in result.notes)
    assert survivors(marker) == []


async def test_security_a_child_renamed_bwrap_does_not_survive_its_cell(sandbox):
    marker = "27.1828"
    renamed = f"import ctypes, time; ctypes.CDLL(None).prctl(15, b'bwrap', 0, 0, 0); time.sleep({marker})"
    result = await sandbox.run(
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([sys.executable, '-c', {renamed!r}])\n"
        "time.sleep(0.5)\nprint(open(f'/proc/{child.pid}/comm').read().strip())"
    )
    assert result.stdout.strip() == "bwrap"   # it did look like bubblewrap's own process
    assert survivors(marker) == []
    assert any("stopped 1 background process" in note for note in result.notes)


async def test_security_a_thread_writing_after_its_cell_is_stopped(sandbox):
    root = sandbox.workspace.root
    result = await sandbox.run(
        "import threading, time\n"
        "def scribble():\n    while True:\n        with open('outputs/after.txt', 'a') as f:\n"
        "            f.write('x')\n        time.sleep(0.02)\n"
        "threading.Thread(target=scribble, daemon=True).start()\ntime.sleep(0.1)"
    )
    assert any("thread(s) running in the kernel" in note and "restarted" in note for note in result.notes)
    size = (root / "outputs" / "after.txt").stat().st_size
    time.sleep(0.3)
    assert (root / "outputs" / "after.txt").stat().st_size == size   # nothing writes once the cell is over
    assert (await sandbox.run("print('fresh')")).stdout == "fresh\n"


async def test_security_a_timer_started_by_a_cell_never_fires(sandbox, outside):
    marker = outside / "timer-fired"
    result = await sandbox.run(f"import threading\nthreading.Timer(0.5, lambda: open({str(marker)!r}, 'w')).start()")
    time.sleep(0.8)
    assert not marker.exists() and any("restarted" in note for note in result.notes)
