"""Attacks by executed code on the sandbox. Each must be contained, reported, and leave the host unharmed.

One kernel is shared by the module (low limits keep the bombs small). Network attacks only ever
target a listener this test starts on the host's 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import pytest_asyncio

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.sandbox import CodeRunner
from agentic_ds.sandbox.bwrap import bwrap_problem, python_roots
from agentic_ds.workspace import Workspace

pytestmark = [
    pytest.mark.security,
    pytest.mark.sandbox,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(bwrap_problem() is not None, reason=f"bubblewrap unusable: {bwrap_problem()}"),
]

FAKE_KEY = "sk-ant-api03-FAKE-security-test-key-000000"
SETTINGS = SandboxSettings(cell_timeout_s=1.5, memory_mb=1024, max_processes=64, max_file_mb=8, output_cap_chars=2000)


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    """A host folder outside the run directory, holding a secret."""
    folder = tmp_path_factory.mktemp("outside")
    (folder / "secret.txt").write_text("host secret")
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandbox(tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    (root / "inputs").mkdir()
    (root / "inputs" / "data.csv").write_text("a,b\n1,2\n")
    saved = os.environ.get("ANTHROPIC_API_KEY")
    os.environ["ANTHROPIC_API_KEY"] = FAKE_KEY   # in the CLI's environment while the kernel starts
    runner = CodeRunner(Workspace(root), SETTINGS, interrupt_grace_s=0.5)
    try:
        await runner.begin_stage(0, "attacks")
        warm = await runner.run("1")
        assert warm.ok, warm.error
    finally:
        if saved is None:
            os.environ.pop("ANTHROPIC_API_KEY", None)
        else:
            os.environ["ANTHROPIC_API_KEY"] = saved
    try:
        yield runner
    finally:
        await runner.close()   # the module's kernel and its sockets do not outlive the tests
    await runner.close()


async def run(sandbox: CodeRunner, code: str):
    return await sandbox.run(code)


# -- filesystem -------------------------------------------------------------------------------
async def test_security_sandbox_cannot_write_outside_by_absolute_path(sandbox, outside):
    result = await run(sandbox, f"open({str(outside / 'pwned.txt')!r}, 'w').write('x')\nopen('/usr/pwned', 'w')")
    assert not result.ok and ("Read-only file system" in result.error or "No such file" in result.error)
    assert not (outside / "pwned.txt").exists() and not Path("/usr/pwned").exists()


async def test_security_sandbox_cannot_write_outside_by_dotdot(sandbox):
    run_dir = sandbox.workspace.root
    result = await run(
        sandbox,
        "try:\n    open('../escaped.txt', 'w').write('x')\nexcept OSError as e:\n    print(e.strerror)\n"
        "open('../' * 30 + 'escaped_root.txt', 'w')",
    )
    # '..' of the run directory is at most the sandbox's private /tmp or its read-only root: never the host.
    assert not (run_dir.parent / "escaped.txt").exists()
    assert not Path("/escaped_root.txt").exists()
    assert not result.ok and "Read-only file system" in result.error


async def test_security_sandbox_cannot_write_outside_through_a_symlink(sandbox, outside):
    result = await run(
        sandbox,
        f"import os\nos.symlink({str(outside)!r}, 'outputs_link')\nopen('outputs_link/pwned.txt', 'w').write('x')",
    )
    assert not result.ok
    assert not (outside / "pwned.txt").exists()
    os.unlink(sandbox.workspace.root / "outputs_link")


async def test_security_sandbox_cannot_read_host_files_or_homes(sandbox, outside):
    result = await run(
        sandbox,
        "import os\n"
        f"print('secret', os.path.exists({str(outside / 'secret.txt')!r}))\n"
        "print('ssh', os.path.exists(os.path.expanduser('~/.ssh')), os.path.exists('/root/.ssh'))\n"
        f"print('home', sorted(os.listdir({os.path.expanduser('~')!r})) if os.path.isdir({os.path.expanduser('~')!r}) else [])\n"
        f"print('project', os.path.exists({str(Path.cwd() / 'pyproject.toml')!r}))",
    )
    assert result.ok, result.error
    assert "secret False" in result.stdout and "ssh False False" in result.stdout and "project False" in result.stdout
    host_home = Path(os.path.expanduser("~"))
    needed = {root.relative_to(host_home).parts[0] for root in python_roots() if host_home in root.parents}
    visible = eval(result.stdout.split("home ", 1)[1].splitlines()[0])  # noqa: S307 - our own printed list
    assert set(visible) <= needed   # only the folders holding Python itself


async def test_security_sandbox_cannot_modify_inputs_or_stage_records(sandbox):
    result = await run(
        sandbox,
        "import os\nfor p in ['inputs/data.csv', 'stages/01-attacks/cell_001.py']:\n"
        "    try:\n        open(p, 'a').write('tampered')\n        print('WROTE', p)\n"
        "    except OSError as e:\n        print('refused', e.strerror)",
    )
    assert "WROTE" not in result.stdout and result.stdout.count("refused Read-only file system") == 2
    assert (sandbox.workspace.root / "inputs" / "data.csv").read_text() == "a,b\n1,2\n"


# -- secrets ----------------------------------------------------------------------------------
async def test_security_sandbox_cannot_see_credential_environment_variables(sandbox):
    result = await run(
        sandbox,
        "import os\nprint(sorted(os.environ))\nprint(any('sk-ant' in v for v in os.environ.values()))\n"
        "print(open('/proc/1/environ','rb').read().count(b'sk-ant'))",
    )
    assert result.ok, result.error
    assert "ANTHROPIC_API_KEY" not in result.stdout and FAKE_KEY not in result.stdout
    assert result.stdout.splitlines()[1:] == ["False", "0"]


async def test_security_sandbox_key_never_lands_in_the_run_directory(sandbox):
    await run(sandbox, "import os\nprint(dict(os.environ))")
    for path in sandbox.workspace.root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert FAKE_KEY.encode() not in path.read_bytes(), path


# -- network ----------------------------------------------------------------------------------
async def test_security_sandbox_cannot_reach_a_host_loopback_listener(sandbox):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        result = await run(
            sandbox,
            f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n    print('CONNECTED')\n"
            "except OSError as e:\n    print('blocked', type(e).__name__)",
        )
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert "CONNECTED" not in result.stdout and "blocked ConnectionRefusedError" in result.stdout


async def test_security_sandbox_has_no_interface_but_loopback(sandbox):
    result = await run(sandbox, "import socket\nprint([name for _, name in socket.if_nameindex()])\nprint(open('/proc/net/dev').read().count(':'))")
    assert result.ok and result.stdout.splitlines() == ["['lo']", "1"]


# -- resources --------------------------------------------------------------------------------
async def test_security_sandbox_fork_bomb_is_bounded(sandbox):
    code = (
        "import os, time\nchildren, failure = 0, None\n"
        "for _ in range(300):\n"
        "    try:\n        pid = os.fork()\n    except OSError as e:\n        failure = e.strerror\n        break\n"
        "    if pid == 0:\n        time.sleep(30)\n        os._exit(0)\n    children += 1\n"
        "print(children, failure)"
    )
    result = await run(sandbox, code)
    count, _, failure = result.stdout.strip().partition(" ")
    if sandbox.process_limit == "none":
        pytest.skip("no way to bound processes here (root without cgroups)")
    assert int(count) < SETTINGS.max_processes and failure == "Resource temporarily unavailable"
    assert any("background process" in note for note in result.notes)   # the children did not survive the cell
    assert subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True).stdout == b"1\n"   # host fine
    after = await run(sandbox, "print('alive')")
    assert after.stdout == "alive\n"


async def test_security_sandbox_memory_bomb_raises_memory_error(sandbox):
    host_before = psutil.Process().memory_info().rss
    result = await run(sandbox, "blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 1024 * 1024))")
    assert not result.ok and result.error.startswith("MemoryError")
    assert psutil.Process().memory_info().rss - host_before < 100 * 1024 * 1024
    freed = await run(sandbox, "del blocks\nx = bytearray(2 * 1024**3)")
    assert freed.error.startswith("MemoryError")   # one huge allocation above the limit: same
    assert (await run(sandbox, "print('alive')")).stdout == "alive\n"


async def test_security_sandbox_infinite_loop_is_interrupted_and_the_agent_told(sandbox):
    await run(sandbox, "kept = 'state survives an interrupt'")
    result = await run(sandbox, "while True:\n    pass")
    assert result.timed_out and not result.restarted and not result.ok
    assert "TimeoutError: the cell ran longer than 1.5 s" in result.for_model(2000)
    assert result.duration_s < SETTINGS.cell_timeout_s + 2
    assert (await run(sandbox, "print(kept)")).stdout == "state survives an interrupt\n"


async def test_security_sandbox_uninterruptible_loop_restarts_the_kernel(sandbox):
    await run(sandbox, "lost = 1")
    result = await run(sandbox, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass")
    assert result.timed_out and result.restarted
    assert "variables from earlier cells are gone" in result.error
    after = await run(sandbox, "lost")
    assert after.error.startswith("NameError")


async def test_security_sandbox_gigabyte_of_output_is_capped(sandbox):
    host_before = psutil.Process().memory_info().rss
    result = await run(sandbox, "line = 'x' * 1023\nfor _ in range(1024 * 1024):\n    print(line)")   # 1 GB
    out_file = sandbox.workspace.root / result.output_path
    assert result.duration_s < 20
    assert out_file.stat().st_size <= SETTINGS.max_file_mb * 1024 * 1024 + 4096
    assert "OutputLimit" in result.error and len(result.for_model(2000)) <= 2000
    assert len(result.stdout) < 3 * SETTINGS.output_cap_chars
    assert psutil.Process().memory_info().rss - host_before < 150 * 1024 * 1024
    assert (await run(sandbox, "print('alive')")).stdout == "alive\n"


async def test_security_sandbox_file_size_limit_stops_huge_writes(sandbox):
    result = await run(sandbox, "with open('outputs_big.bin', 'wb') as f:\n    f.write(b'0' * (20 * 1024 * 1024))")
    assert not result.ok and "File too large" in result.error
    assert (sandbox.workspace.root / "outputs_big.bin").stat().st_size <= SETTINGS.max_file_mb * 1024 * 1024
    (sandbox.workspace.root / "outputs_big.bin").unlink()


async def test_security_sandbox_background_processes_do_not_outlive_their_cell(sandbox):
    marker = "31.4159"
    result = await run(
        sandbox,
        "import os, subprocess, time\n"
        f"subprocess.Popen(['sleep', '{marker}'])\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        f"        os.execvp('sleep', ['sleep', '{marker}'])\n    os._exit(0)\n"
        "time.sleep(0.3)\nprint('started')",
    )
    assert result.stdout.strip() == "started"
    assert any("background process" in note for note in result.notes)
    survivors = [
        p for p in psutil.process_iter(["cmdline", "status"])
        if p.info["cmdline"] == ["sleep", marker] and p.info["status"] != psutil.STATUS_ZOMBIE
    ]
    assert survivors == []
