"""Attacks by executed code on the host's files and the run's records. Each is checked on the host.

The run directory is read-only to the code except `outputs/`, `figures/` and its home; its records -
inputs, plan, profile, run.json, events, session, reports, earlier stages' code - cannot be changed,
not even ones created after the kernel started, and nothing outside the run is visible at all.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentic_ds.sandbox.bwrap import python_roots
from tests.sandbox_attack_kit import FAKE_KEY, INPUT, MARKS, RECORDS, digest, outside, sandbox, snapshot_records  # noqa: F401

pytestmark = MARKS


# -- outside the run ----------------------------------------------------------------------------
async def test_security_sandbox_cannot_write_outside_by_absolute_path(sandbox, outside):
    result = await sandbox.run(f"open({str(outside / 'pwned.txt')!r}, 'w').write('x')")
    assert not (outside / "pwned.txt").exists() and not result.ok


async def test_security_sandbox_cannot_write_outside_by_dotdot(sandbox):
    run_dir = sandbox.workspace.root
    await sandbox.run("open('../escaped.txt', 'w').write('x')")
    await sandbox.run("open('outputs/' + '../' * 30 + 'escaped_root.txt', 'w').write('x')")
    assert not (run_dir.parent / "escaped.txt").exists() and not Path("/escaped_root.txt").exists()


async def test_security_sandbox_cannot_write_outside_through_a_symlink(sandbox, outside):
    result = await sandbox.run(
        f"import os\nos.symlink({str(outside)!r}, 'outputs/link')\nopen('outputs/link/pwned.txt', 'w').write('x')"
    )
    assert not result.ok and not (outside / "pwned.txt").exists()
    assert any("outputs/link is a symbolic link" in note for note in result.notes), (result.notes, result.error)


async def test_security_sandbox_cannot_read_host_files_homes_or_the_project(sandbox, outside):
    result = await sandbox.run(
        "import os\n"
        f"print('secret', os.path.exists({str(outside / 'secret.txt')!r}))\n"
        "print('ssh', os.path.exists(os.path.expanduser('~/.ssh')), os.path.exists('/root/.ssh'))\n"
        "print('shadow', os.path.exists('/etc/shadow'))\n"
        f"print('project', os.path.exists({str(Path.cwd() / 'pyproject.toml')!r}))\n"
        f"print('home', sorted(os.listdir({os.path.expanduser('~')!r})) if os.path.isdir({os.path.expanduser('~')!r}) "
        f"else [])"
    )
    assert result.ok, result.error
    for line in ("secret False", "ssh False False", "shadow False", "project False"):
        assert line in result.stdout
    host_home = Path(os.path.expanduser("~"))
    needed = {root.relative_to(host_home).parts[0] for root in python_roots() if host_home in root.parents}
    visible = eval(result.stdout.split("home ", 1)[1].splitlines()[0])  # noqa: S307 - our own printed list
    assert set(visible) <= needed   # only the folders holding Python itself


async def test_security_other_run_directories_are_invisible(sandbox):
    sibling = sandbox.workspace.root.parent / "other-run"
    sibling.mkdir(exist_ok=True)
    (sibling / "report.md").write_text("another run's report")
    result = await sandbox.run(f"import os\nprint(os.path.exists({str(sibling)!r}), os.listdir('..'))")
    assert result.stdout.startswith("False") and "other-run" not in result.stdout


# -- the run's records --------------------------------------------------------------------------
def tamper(name: str) -> str:
    return (
        f"import os\nfor how in ('a', 'w'):\n    try:\n        open({name!r}, how).write('tam' + 'pered')\n"
        f"        print('WROTE')\n"
        "    except OSError as e:\n        print('refused', e.strerror)\n"
        f"for act in (lambda: os.unlink({name!r}), lambda: os.rename({name!r}, 'outputs/moved'), lambda: "
        f"os.chmod({name!r}, 0o777)):\n"
        "    try:\n        act()\n        print('CHANGED')\n    except OSError as e:\n"
        "        print('refused', e.strerror)"
    )


@pytest.mark.parametrize("name", [*RECORDS, "inputs/data.csv", "stages/01-attacks/cell_001.py"])
async def test_security_records_are_read_only_to_the_code(sandbox, name):
    target = sandbox.workspace.root / name
    before = digest(target)
    result = await sandbox.run(tamper(name))
    assert digest(target) == before, result.stdout
    assert "WROTE" not in result.stdout and "CHANGED" not in result.stdout


@pytest.mark.parametrize("name", ["stages/01-attacks/code.py", "analysis.ipynb"])
async def test_security_records_the_host_appends_to_are_read_only_to_the_code(sandbox, name):
    target = sandbox.workspace.root / name
    before = target.read_text()
    result = await sandbox.run(tamper(name))
    after = target.read_text()
    assert "tampered" not in after and "WROTE" not in result.stdout and "CHANGED" not in result.stdout
    assert after.startswith(before[:200]) and target.stat().st_mode & 0o777 == 0o644


async def test_security_records_created_after_the_kernel_started_are_read_only_too(sandbox):
    root = sandbox.workspace.root
    (root / "stages" / "02-later").mkdir(parents=True, exist_ok=True)
    later = root / "stages" / "02-later" / "result.json"
    later.write_text('{"status": "completed"}')
    (root / "report.html").write_text("<p>report</p>")
    await sandbox.run("for p in ('stages/02-later/result.json', 'report.html'):\n    open(p, 'w').write('forged')")
    assert later.read_text() == '{"status": "completed"}' and (root / "report.html").read_text() == "<p>report</p>"


async def test_security_new_files_cannot_be_planted_among_the_records(sandbox):
    root = sandbox.workspace.root
    await sandbox.run(
        "import os\nfor p in ('report.pdf', 'stages/01-attacks/review.md', 'inputs/extra.csv', '.env', "
        "'plan.json.tmp'):\n"
        "    try:\n        open(p, 'w').write('planted')\n    except OSError:\n        pass\n"
        "try:\n    os.symlink('/etc/passwd', 'report.html')\nexcept OSError:\n    pass\n"
        "try:\n    os.mkdir('stages/99-forged')\nexcept OSError:\n    pass"
    )
    for name in (
        "report.pdf",
        "stages/01-attacks/review.md",
        "inputs/extra.csv",
        ".env",
        "plan.json.tmp",
        "stages/99-forged",
    ):
        assert not (root / name).exists(), name
    assert not (root / "report.html").is_symlink()


async def test_security_inputs_cannot_be_hard_linked_into_a_writable_folder(sandbox):
    root = sandbox.workspace.root
    result = await sandbox.run(
        "import os\ntry:\n    os.link('inputs/data.csv', 'outputs/data.csv')\n"
        "    open('outputs/data.csv', 'a').write('tampered')\n"
        "except OSError as e:\n    print('refused', e.strerror)"
    )
    assert "refused" in result.stdout
    assert (root / "inputs" / "data.csv").read_text() == INPUT and os.stat(root / "inputs" / "data.csv").st_nlink == 1


async def test_security_the_whole_record_set_is_unchanged_after_the_attacks(sandbox):
    before = snapshot_records(sandbox.workspace.root)
    await sandbox.run(
        "import os, shutil\n"
        "for p in os.listdir('.'):\n"
        "    try:\n        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)\n    except OSError:\n        pass"
    )
    assert snapshot_records(sandbox.workspace.root) == before


# -- secrets ------------------------------------------------------------------------------------
async def test_security_sandbox_cannot_see_credential_environment_variables(sandbox):
    result = await sandbox.run(
        "import os\nprint(sorted(os.environ))\nprint(any('sk-ant' in v for v in os.environ.values()))\n"
        "print(open('/proc/1/environ','rb').read().count(b'sk-ant') if os.access('/proc/1/environ', os.R_OK) else 0)"
    )
    assert result.ok, result.error
    assert "ANTHROPIC_API_KEY" not in result.stdout and FAKE_KEY not in result.stdout
    assert result.stdout.splitlines()[1:] == ["False", "0"]


async def test_security_host_processes_environ_and_cmdline_are_out_of_sight(sandbox):
    host_pid = os.getpid()
    result = await sandbox.run(
        "import os\npids = [p for p in os.listdir('/proc') if p.isdigit()]\nprint(len(pids))\nfound = 0\n"
        "for p in pids:\n    for f in ('environ', 'cmdline'):\n        try:\n"
        "            found += open(f'/proc/{p}/{f}', 'rb').read().count(b'sk-ant')\n"
        "        except OSError:\n            pass\nprint(found)\n"
        f"print(os.path.exists('/proc/{host_pid}/environ') and 'pytest' in open('/proc/{host_pid}/cmdline').read())"
    )
    count, found, host = result.stdout.split()
    assert int(count) < 10 and found == "0" and host == "False"   # only the sandbox's own few processes


async def test_security_proc_1_root_does_not_lead_to_the_host(sandbox, outside):
    result = await sandbox.run(
        "import os\n"
        f"for p in ('/proc/1/root{outside}/secret.txt', '/proc/1/root/etc/shadow', '/proc/self/root/etc/shadow', "
        f"'/proc/1/cwd'):\n"
        "    try:\n        print(p, open(p).read()[:20])\n    except OSError as e:\n"
        "        print(p, 'refused', e.strerror)"
    )
    assert "host secret" not in result.stdout and "root:" not in result.stdout


async def test_security_api_key_never_lands_in_the_run_directory(sandbox):
    await sandbox.run("import os\nprint(dict(os.environ))")
    for path in sandbox.workspace.root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert FAKE_KEY.encode() not in path.read_bytes(), path
