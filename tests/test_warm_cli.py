"""The tests' zygote (`warm_cli`) runs a command as `python -m agentic_ds` runs it: the same output and exit
status for the same arguments, working directory, environment and standard input. (Signals and SIGKILL are the
kill-point and signal tests' own checks.)"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests import warm_cli


def both(args: tuple[str, ...], cwd, env=None, input=None):
    plain = subprocess.run(warm_cli.command(*args), cwd=cwd, env=env, input=input, capture_output=True, text=True,
                           timeout=120, stdin=None if input is not None else subprocess.DEVNULL)
    warm = warm_cli.run(args, cwd=cwd, env=env, input=input, timeout=120)
    return plain, warm


def test_the_zygote_forks_here():
    assert warm_cli.zygote() is not None   # otherwise every test below compares the plain command with itself


@pytest.mark.parametrize("args", [("--version",), ("frobnicate",), ("run", "--mode", "simple", "x")],
                         ids=["version", "unknown command", "no files"])
def test_output_and_exit_status_are_the_plain_commands(tmp_path, args):
    plain, warm = both(args, tmp_path)
    assert (warm.returncode, warm.stdout, warm.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_working_directory_environment_and_stdin_reach_the_command(tmp_path):
    (tmp_path / "agentic-ds.yaml").write_text("workdir: from-the-config-file\n", encoding="utf-8")
    env = {**os.environ, "AGENTIC_DS_SANDBOX__MODE": "off"}
    plain, warm = both(("config", "show"), tmp_path, env)
    assert warm.returncode == plain.returncode == 0, warm.stderr
    assert warm.stdout == plain.stdout
    assert "from-the-config-file" in warm.stdout and "mode: 'off'" in warm.stdout.replace('"', "'")

    plain, warm = both(("run", "--mode", "simple", "-", "--files", "nowhere.csv"), tmp_path, input="  \n")
    assert (warm.returncode, warm.stderr) == (plain.returncode, plain.stderr)
    assert warm.returncode == 2 and "nothing on stdin" in warm.stderr
