"""The sandboxed kernel starts from a virtual environment reached through a symlinked folder.

bubblewrap mounts the interpreter's directories by their resolved paths; the kernel must be started by a path
that exists inside the sandbox, not by the symlinked one the user typed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentic_ds.sandbox.bwrap import bwrap_problem

pytestmark = [pytest.mark.sandbox, pytest.mark.skipif(bwrap_problem() is not None, reason="needs bubblewrap")]

PROBE = """
import asyncio, sys
from pathlib import Path
from agentic_ds.config.settings import SandboxSettings
from agentic_ds.sandbox import CodeRunner
from agentic_ds.workspace import Workspace

async def main():
    root = Path(sys.argv[1])
    (root / "inputs").mkdir(parents=True)
    runner = CodeRunner(Workspace(root), SandboxSettings(mode="require"))
    try:
        await runner.begin_stage(0, "probe")
        result = await runner.run("print(6 * 7)")
    finally:
        await runner.close()
    print(runner.isolation, result.ok, result.stdout.strip(), result.error or "")

asyncio.run(main())
"""


def test_a_kernel_starts_from_a_venv_reached_through_a_symlink(tmp_path):
    venv = Path(sys.prefix)
    link = tmp_path / "linked"
    link.symlink_to(venv.parent, target_is_directory=True)
    python = link / venv.name / "bin" / Path(sys.executable).name
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run([str(python), "-c", PROBE, str(tmp_path / "run")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    isolation, ok, printed, *_ = done.stdout.split()
    assert (ok, printed) == ("True", "42"), done.stdout
    assert isolation == "bwrap", isolation
