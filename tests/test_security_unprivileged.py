"""The same attacks with the CLI itself an unprivileged user; the no-sandbox refusal; a venv reached through a link.

As root, the attack modules run again in a child pytest as `nobody` (`tests/as_nobody.py`): the sandbox is then
built by an unprivileged bubblewrap in a user namespace, without cgroups (the fallback limits).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.sandbox import isolation
from tests import as_nobody
from tests.sandbox_attack_kit import FAKE_KEY, needs_bwrap

pytestmark = [pytest.mark.security, pytest.mark.sandbox]
REPO = Path(__file__).resolve().parents[1]
ATTACK_MODULES = ["tests/test_security_sandbox.py", "tests/test_security_sandbox_privileges.py",
                  "tests/test_security_sandbox_network.py", "tests/test_security_sandbox_limits.py",
                  "tests/test_security_sandbox_quota.py"]


@needs_bwrap
@pytest.mark.slow
def test_security_attacks_are_contained_when_the_cli_is_an_unprivileged_user():
    if (problem := as_nobody.problem()) is not None:
        pytest.skip(problem)
    done = as_nobody.run(["-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp={basetemp}", *ATTACK_MODULES],
                         timeout=900)
    tail = done.stdout[-3000:] + done.stderr[-2000:]
    if "bubblewrap unusable" in done.stdout and " passed" not in done.stdout:
        pytest.skip("bubblewrap cannot make a user namespace here for an unprivileged user")
    assert done.returncode == 0, tail
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, tail
    assert int(summary.split(" passed")[0].split()[-1]) >= 45, summary


def _invoke(tmp_path, *extra):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "sales.csv").write_text("region,price\nnorth,10\nsouth,20\n")
    return CliRunner().invoke(
        main,
        ["run", "--mode", "simple", "Mean price by region", "--files", str(data), "--workdir", str(tmp_path / "runs"),
         "--quiet", *extra],
        catch_exceptions=False,
    )


def test_security_without_a_sandbox_model_written_code_is_refused_before_anything_exists(tmp_path, monkeypatch):
    """The code an API model would write could read /proc/<ppid>/environ and ./.env: it never runs at all."""
    monkeypatch.setattr(isolation, "sandbox_choice", lambda: (None, "bubblewrap (bwrap) is not installed"))
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={FAKE_KEY}\n")
    result = _invoke(tmp_path, "--model", "openai/gpt-4.1")
    assert result.exit_code == 2, result.output
    assert "no sandbox for the code openai/gpt-4.1 would write: bubblewrap (bwrap) is not installed" in result.output
    assert "apt-get install bubblewrap" in result.output and "--sandbox off" in result.output
    assert not (tmp_path / "runs").exists()
    mixed = _invoke(tmp_path, "--model", "offline", "--model", "coder=openai/gpt-4.1")
    assert mixed.exit_code == 2 and not (tmp_path / "runs").exists()


def test_security_without_a_sandbox_the_offline_model_runs_with_a_clear_warning(tmp_path, monkeypatch):
    monkeypatch.setattr(isolation, "sandbox_choice", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = CliRunner().invoke(
        main,
        ["run", "--mode", "simple", "Mean price by region", "--files", str(_data(tmp_path)), "--workdir",
         str(tmp_path / "runs"), "--model", "offline"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "executed code runs without a sandbox" in result.output


def _data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "sales.csv").write_text("region,price\nnorth,10\nsouth,20\n")
    return data


@needs_bwrap
def test_security_the_kernel_starts_from_a_venv_reached_through_a_symlinked_folder(tmp_path):
    """Issue 13: bubblewrap mounts the resolved venv, so the kernel must be started by that path too."""
    link = tmp_path / "linked-venv"
    link.symlink_to(Path(sys.prefix).resolve(), target_is_directory=True)
    python = link / "bin" / Path(sys.executable).name
    script = (
        "import asyncio, sys\nfrom pathlib import Path\n"
        "from agentic_ds.config.settings import SandboxSettings\nfrom agentic_ds.sandbox import CodeRunner\n"
        "from agentic_ds.workspace import Workspace\n"
        "async def main():\n"
        f"    root = Path({str(tmp_path / 'run')!r}); (root / 'inputs').mkdir(parents=True)\n"
        "    runner = CodeRunner(Workspace(root), SandboxSettings())\n"
        "    try:\n        result = await runner.run('1 + 1')\n    finally:\n        await runner.close()\n"
        "    print(runner.isolation, sys.executable, result.stdout.strip(), result.error)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    isolation_kind, executable, answer = done.stdout.split()[:3]
    assert (isolation_kind, answer) == ("bwrap", "2") and str(link) in executable
