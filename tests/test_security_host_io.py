"""The host never follows what the code plants: links, hard links and FIFOs in the run directory.

These attacks run without bubblewrap (`--sandbox off`, where the code can write anywhere in the run
directory), the worst case for the host side: figures, cell files, the kernel log, the notebook,
records, reports and the file tools must all refuse to follow, and say so.
"""

from __future__ import annotations

import asyncio
import base64
import os
from pathlib import Path

import pytest

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.report.writer import write_reports
from agentic_ds.sandbox import CodeRunner
from agentic_ds.tools.files import make_file_tools
from agentic_ds.workflow.artifacts import list_produced
from agentic_ds.workspace import Workspace
from tests.sandbox_attack_kit import digest, make_run_dir

pytestmark = [pytest.mark.security, pytest.mark.sandbox]

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
SHOW = f"import base64\nfrom IPython.display import Image, display\ndisplay(Image(base64.b64decode('{PNG}')))"


@pytest.fixture
def host_file(tmp_path) -> Path:
    target = tmp_path / "host" / "precious.txt"
    target.parent.mkdir()
    target.write_text("precious host data\n")
    return target


@pytest.fixture
async def unsandboxed(tmp_path):
    runner = CodeRunner(Workspace(make_run_dir(tmp_path / "run")), SandboxSettings(mode="off", cell_timeout_s=20))
    await runner.begin_stage(0, "plant")
    try:
        yield runner
    finally:
        await runner.close()


async def test_security_host_does_not_write_a_figure_through_a_planted_symlink(unsandboxed, host_file):
    before = digest(host_file)
    result = await unsandboxed.run(f"import os\nos.symlink({str(host_file)!r}, 'figures/01-plant-001.png')\n{SHOW}")
    assert digest(host_file) == before
    assert result.figures == ["figures/01-plant-002.png"]
    assert (unsandboxed.workspace.root / result.figures[0]).read_bytes() == base64.b64decode(PNG)
    assert any("figures/01-plant-001.png is a symbolic link" in note for note in result.notes)
    assert any("figures/01-plant-001.png" in finding for finding in unsandboxed.findings)   # goes to run.json warnings


async def test_security_host_does_not_write_into_a_folder_swapped_for_figures(unsandboxed, host_file):
    result = await unsandboxed.run(
        f"import os, shutil\nshutil.rmtree('figures')\nos.symlink({str(host_file.parent)!r}, 'figures')\n{SHOW}"
    )
    assert sorted(p.name for p in host_file.parent.iterdir()) == ["precious.txt"]
    assert result.figures == [] and any("figures is a symbolic link" in note for note in result.notes)


async def test_security_host_does_not_append_to_a_kernel_log_swapped_for_a_link(unsandboxed, host_file):
    before = digest(host_file)
    await unsandboxed.run(
        f"import os\nos.unlink('.sandbox/kernel.log')\nos.symlink({str(host_file)!r}, '.sandbox/kernel.log')"
    )
    await unsandboxed.begin_stage(1, "next")   # a new kernel: the host opens the log again
    with pytest.raises(Exception, match="symbolic link"):
        await unsandboxed.run("print('never')")
    assert digest(host_file) == before


async def test_security_host_does_not_write_cell_records_through_links(unsandboxed, host_file):
    before = digest(host_file)
    stage = "stages/01-plant"
    await unsandboxed.run(
        f"import os\nos.unlink('{stage}/code.py')\nos.symlink({str(host_file)!r}, '{stage}/code.py')\n"
        f"os.symlink({str(host_file)!r}, '{stage}/cell_003.py')\n"
        f"os.symlink({str(host_file)!r}, '{stage}/cell_003.out.txt')"
    )
    with pytest.raises(OSError):
        await unsandboxed.run("print('next')")
    assert digest(host_file) == before


async def test_security_notebook_and_records_replace_a_planted_link_instead_of_following_it(unsandboxed, host_file):
    before = digest(host_file)
    await unsandboxed.run(f"import os\nos.unlink('analysis.ipynb')\nos.symlink({str(host_file)!r}, 'analysis.ipynb')")
    await unsandboxed.run("x = 1")   # the notebook is rewritten after every cell
    assert digest(host_file) == before and not (unsandboxed.workspace.root / "analysis.ipynb").is_symlink()
    assert (unsandboxed.workspace.root / "analysis.ipynb").stat().st_mode & 0o777 == 0o644


def plant_run(root: Path, host_file: Path) -> None:
    (root / "outputs").mkdir(exist_ok=True)
    (root / "figures").mkdir(exist_ok=True)
    os.symlink(host_file, root / "outputs" / "table.csv")
    os.symlink(host_file, root / "figures" / "01-x-001.png")
    os.link(root / "inputs" / "data.csv", root / "outputs" / "hard.csv")
    os.mkfifo(root / "outputs" / "pipe.csv")
    (root / "report.md").unlink()
    os.symlink(host_file, root / "report.md")


async def test_security_reports_never_read_or_write_through_planted_links(tmp_path, host_file):
    root = make_run_dir(tmp_path / "run")
    plant_run(root, host_file)
    before = digest(host_file)
    md, html = await asyncio.wait_for(
        asyncio.to_thread(write_reports, Workspace(root)), timeout=20
    )  # a FIFO never blocks it
    assert digest(host_file) == before and not md.is_symlink()
    text = md.read_text() + html.read_text()
    assert "precious host data" not in text
    assert oct(md.stat().st_mode & 0o777) == "0o644" and oct(html.stat().st_mode & 0o777) == "0o644"


async def test_security_file_tools_and_listings_name_planted_links_without_following_them(tmp_path, host_file):
    root = make_run_dir(tmp_path / "run")
    plant_run(root, host_file)
    read_file, write_file, list_files = make_file_tools(Workspace(root), output_cap=1000)
    for path in ("outputs/hard.csv", "outputs/pipe.csv"):
        result = read_file(path)
        assert "error" in result and "precious" not in str(result), path
    assert "resolves outside" in read_file("outputs/table.csv")["error"]
    write_file("outputs/table.csv", "mine")   # refused (the link leads out) or replaced: never written through
    assert host_file.read_text() == "precious host data\n"
    listing = "\n".join(list_files("outputs")["files"])
    assert "hard.csv (a hard link (2 names): not followed)" in listing and "pipe.csv (not a regular file" in listing
    produced = list_produced(Workspace(root))
    link_size = (root / "figures" / "01-x-001.png").lstat().st_size   # the target's path length: tmp_path's varies
    assert {"path": "figures/01-x-001.png", "bytes": link_size, "problem": "a symbolic link"} in produced   # not read


@pytest.mark.parametrize(
    "name",
    ["line\nstatus: completed", "..", "...", "a" * 255, "run.json", "report.md", "-rf", " leading space", "ünïcödé"],
)
async def test_security_odd_file_names_written_by_code_are_reported_plainly(unsandboxed, name):
    if name == "..":
        code = "import os\nprint(os.path.exists('outputs/..'))"
    else:
        code = f"open('outputs/' + {name!r}, 'w').write('x')"
    result = await unsandboxed.run(code)
    assert result.ok, result.error
    shown = result.for_model(5000)
    if name not in ("..",):
        assert any(name in f or repr(name)[1:-1] in f for f in result.files)
    assert "\nstatus: completed" not in shown   # a name cannot forge a line of the agent's view
    assert (unsandboxed.workspace.root / "run.json").read_text().startswith('{"id": "attack"')
