"""Shared pieces of the adversarial suite: a sandbox full of records to attack, host listeners, helpers.

Every attack asserts containment from the host's side: a marker file that must not exist, a host
file whose bytes must not change, a listener that must have accepted nothing. What the sandbox
printed is only ever used to explain a failure. The same modules run as root (code as `nobody`) and,
through `test_security_unprivileged.py`, again with the CLI itself an unprivileged user.
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

import pytest
import pytest_asyncio

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.sandbox import CodeRunner
from agentic_ds.sandbox.bwrap import bwrap_problem
from agentic_ds.sandbox.capture import CellResult
from agentic_ds.workspace import Workspace

FAKE_KEY = "sk-ant-api03-FAKE-security-test-key-000000"
SETTINGS = SandboxSettings(
    cell_timeout_s=2, memory_mb=1024, max_processes=64, max_file_mb=8, disk_quota_mb=64, cell_cpu_s=3.0,
    output_cap_chars=2000,
)
RECORDS = {
    "plan.json": '{"stages": [], "success_criteria": []}\n',
    "plan.md": "# Plan\n",
    "data_profile.json": '{"files": []}\n',
    "run.json": '{"id": "attack", "status": "running"}\n',
    "events.jsonl": '{"kind": "status"}\n',
    "session.db": "SQLite format 3\x00",
    "report.md": "# Report\nThe honest answer.\n",   # pre-planted: the code must not rewrite it
}
INPUT = "a,b\n1,2\n"

needs_bwrap = pytest.mark.skipif(bwrap_problem() is not None, reason=f"bubblewrap unusable: {bwrap_problem()}")
MARKS = [pytest.mark.security, pytest.mark.sandbox, pytest.mark.asyncio(loop_scope="module"), needs_bwrap]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_run_dir(root: Path) -> Path:
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "data.csv").write_text(INPUT)
    for name, text in RECORDS.items():
        (root / name).write_text(text)
    return root


def snapshot_records(root: Path) -> dict[str, str]:
    return {name: digest(root / name) for name in [*RECORDS, "inputs/data.csv"]}


async def start_sandbox(root: Path, settings: SandboxSettings = SETTINGS) -> CodeRunner:
    saved = os.environ.get("ANTHROPIC_API_KEY")
    os.environ["ANTHROPIC_API_KEY"] = FAKE_KEY   # in the CLI's environment while the kernel starts
    try:
        runner = CodeRunner(Workspace(make_run_dir(root)), settings, interrupt_grace_s=0.5)
        await runner.begin_stage(0, "attacks")
        warm = await runner.run("1")
        assert warm.ok, warm.error
    finally:
        if saved is None:
            os.environ.pop("ANTHROPIC_API_KEY", None)
        else:
            os.environ["ANTHROPIC_API_KEY"] = saved
    return runner


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    """A host folder outside the run directory, holding a secret (world-readable, as most files are)."""
    folder = tmp_path_factory.mktemp("outside")
    folder.chmod(0o777)
    (folder / "secret.txt").write_text("host secret")
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandbox(tmp_path_factory):
    runner = await start_sandbox(tmp_path_factory.mktemp("run"))
    try:
        yield runner
    finally:
        await runner.close()


async def run_unhurried(sandbox: CodeRunner, code: str, seconds: float = 30) -> CellResult:
    """Run `code` with `seconds` of wall time instead of the kit's 2: for an attack that a limit other than time must
    stop (memory, output, disk), which on a loaded machine can take the kernel longer than 2 s to reach."""
    sandbox.settings = SETTINGS.model_copy(update={"cell_timeout_s": seconds})
    try:
        return await sandbox.run(code)
    finally:
        sandbox.settings = SETTINGS


def tcp_listener() -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.3)
    return listener


def accepted_nothing(listener: socket.socket) -> bool:
    try:
        conn, _ = listener.accept()
    except TimeoutError:
        return True
    conn.close()
    return False


def c_call(body: str) -> str:
    """Python code calling libc through ctypes (`libc`, `errno_of()`), for syscalls Python does not wrap."""
    return (
        "import ctypes, ctypes.util, errno, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def errno_of(ret):\n    return 'ok' if ret >= 0 else errno.errorcode.get(ctypes.get_errno(), '?')\n"
        + body
    )
