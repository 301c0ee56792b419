"""CodeRunner: cells run in a per-stage kernel, outputs are captured, everything is recorded."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from agentic_ds.config.settings import SandboxSettings
from agentic_ds.errors import RunFailed, UsageError
from agentic_ds.sandbox import CodeRunner, isolation
from agentic_ds.sandbox import runner as runner_module
from agentic_ds.sandbox.capture import BoundedText, CellResult
from agentic_ds.workspace import Workspace

pytestmark = pytest.mark.sandbox

CSV = "region,price\nnorth,10\nsouth,30\nnorth,20\n"


def make_workspace(root: Path) -> Workspace:
    (root / "inputs").mkdir(parents=True)
    (root / "inputs" / "sales.csv").write_text(CSV)
    return Workspace(root)


async def test_sandbox_cells_share_state_within_a_stage_and_record_everything(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        stage_dir = await runner.begin_stage(0, "Load and clean")
        assert stage_dir == ws.root / "stages" / "01-load-and-clean"
        first = await runner.run(
            "import pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\ndf.groupby('region').price.mean()"
        )
        second = await runner.run(
            "import os\nos.makedirs('outputs', exist_ok=True)\n"
            "df.to_csv('outputs/clean.csv', index=False)\nprint('rows', len(df))\ndf"
        )
        third = await runner.run(
            "import matplotlib.pyplot as plt\ndf.plot.bar(x='region', y='price')\nplt.show()"
        )
    finally:
        await runner.close()

    assert first.ok and "north    15.0" in first.stdout
    assert second.ok and second.stdout.startswith("rows 3")
    assert second.files == ["outputs/clean.csv"]
    assert second.tables and "south" in second.tables[0]
    assert third.figures == ["figures/01-load-and-clean-001.png"]
    assert (ws.root / third.figures[0]).read_bytes().startswith(b"\x89PNG")
    assert first.cell_path == "stages/01-load-and-clean/cell_001.py"
    assert (ws.root / first.cell_path).read_text().startswith("import pandas")
    assert "rows 3" in (ws.root / second.output_path).read_text()
    code = (stage_dir / "code.py").read_text()
    assert code.index("# %% cell 001") < code.index("# %% cell 002") < code.index("plt.show()")
    assert runner.last_result is third


async def test_sandbox_notebook_reexecutes_top_to_bottom_with_nbclient(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        await runner.begin_stage(0, "Load")
        await runner.run(
            "import pandas as pd\ndf = pd.read_csv('inputs/sales.csv')\nimport os\n"
            "os.makedirs('outputs', exist_ok=True)"
        )
        await runner.run("df.to_csv('outputs/clean.csv', index=False)")
        await runner.begin_stage(1, "Plot")
        fresh = await runner.run("df")  # a new stage has a fresh kernel: only files carry over
        await runner.run(
            "import pandas as pd, matplotlib.pyplot as plt\nd = pd.read_csv('outputs/clean.csv')\nd.price.plot()\n"
            "plt.show()"
        )
        await runner.run("1 / 0")   # a failed attempt stays in the record
        await runner.run("print(d.price.sum())")
    finally:
        await runner.close()

    assert not fresh.ok and fresh.error.startswith("NameError: name 'df' is not defined")
    nb = nbformat.read(ws.root / "analysis.ipynb", as_version=4)
    nbformat.validate(nb)
    kinds = [(c.cell_type, c.source.splitlines()[0]) for c in nb.cells]
    assert kinds[0] == ("markdown", "## Stage 1: Load") and kinds[3] == ("markdown", "## Stage 2: Plot")
    assert [c.cell_type for c in nb.cells].count("code") == 6
    assert [c.metadata.get("tags") for c in nb.cells if c.cell_type == "code"][2:5] == [
        ["raises-exception"], None, ["raises-exception"],
    ]
    (ws.root / "outputs" / "clean.csv").unlink()   # prove the notebook rebuilds it
    client = NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(ws.root)}})
    await client.async_execute()
    assert (ws.root / "outputs" / "clean.csv").read_text().startswith("region,price")
    assert nb.cells[-1].outputs[0]["text"].strip() == "60"


async def test_sandbox_output_for_model_is_capped_with_the_full_output_on_disk(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings(output_cap_chars=1000))
    try:
        result = await runner.run("for i in range(20000):\n    print('line', i)")
    finally:
        await runner.close()
    text = result.for_model(1000)
    assert len(text) <= 1000
    assert "line 0" in text and "line 19999" in text and "characters omitted" in text
    assert result.output_path in text
    full = (ws.root / result.output_path).read_text()
    assert full.count("\n") == 20000 and "line 10000\n" in full


def test_sandbox_bounded_text_keeps_head_and_tail_only():
    text = BoundedText(keep=10)
    for i in range(10000):
        text.add(f"{i:05d}\n")
    rendered = text.render("out.txt")
    assert rendered.startswith("00000\n0000") and rendered.endswith("9999\n")
    assert len(rendered) < 100 and text.total == 60000


def test_sandbox_for_model_puts_the_error_last_so_the_cap_keeps_it():
    result = CellResult(ok=False, stdout="x" * 5000, error="ValueError: bad column 'prize'", output_path="o.txt")
    text = result.for_model(600)
    assert len(text) <= 600 and "ValueError: bad column 'prize'" in text and text.endswith("[full output: o.txt]")


def test_sandbox_require_refuses_without_bubblewrap(tmp_path, monkeypatch):
    monkeypatch.setattr(isolation, "sandbox_choice", lambda: (None, "bubblewrap (bwrap) is not installed"))
    ws = make_workspace(tmp_path / "run")
    with pytest.raises(UsageError) as info:
        CodeRunner(ws, SandboxSettings(mode="require"))
    assert "bwrap" in info.value.message and "install bubblewrap" in info.value.hint
    fallback = CodeRunner(ws, SandboxSettings(mode="auto"))
    assert fallback.isolation == "rlimits" and "not installed" in fallback.warning


async def test_sandbox_rlimits_mode_runs_code_with_a_scrubbed_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake-rlimits-0000")
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings(mode="off"))
    assert runner.isolation == "rlimits" and "off" in runner.warning
    try:
        result = await runner.run(
            "import os, resource\nprint(sorted(os.environ))\nprint(resource.getrlimit(resource.RLIMIT_AS))"
        )
    finally:
        await runner.close()
    assert result.ok
    assert "ANTHROPIC_API_KEY" not in result.stdout and "HOME" in result.stdout
    assert str(4096 * 1024 * 1024) in result.stdout


async def test_sandbox_kernel_that_cannot_start_is_a_run_failure(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings(mode="off"))
    monkeypatch.setattr(
        runner_module,
        "kernel_env",
        lambda root, user, private_tmp: {"PATH": "/nonexistent", "PYTHONHOME": "/nonexistent"},
    )
    monkeypatch.setattr("agentic_ds.sandbox.kernel.START_TIMEOUT_S", 3)
    with pytest.raises(RunFailed) as info:
        await runner.run("1")
    assert "did not start" in info.value.message and "kernel.log" in info.value.hint
    await runner.close()


async def test_sandbox_notebook_is_written_after_every_cell(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        await runner.begin_stage(0, "s")
        await runner.run("x = 1")
        first = json.loads((ws.root / "analysis.ipynb").read_text())
        await runner.run("x + 1")
        second = json.loads((ws.root / "analysis.ipynb").read_text())
    finally:
        await runner.close()
    assert len(second["cells"]) == len(first["cells"]) + 1
    assert not [p for p in os.listdir(ws.root) if p.endswith(".tmp")]


async def test_sandbox_kernel_starts_without_the_debugger_yet_cells_import_what_they_like(tmp_path):
    """The kernel leaves debugpy out of its start (a quarter of it); a cell may still import it, and a module
    written in the run directory, as under `python -m ipykernel_launcher`."""
    ws = make_workspace(tmp_path / "run")
    (ws.root / "helpers.py").write_text("ANSWER = 42\n")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        first = await runner.run("import sys\nprint('debugpy' in sys.modules, 'ipykernel.debugger' in sys.modules)")
        second = await runner.run("import debugpy, helpers\nprint(bool(debugpy.__version__), helpers.ANSWER)")
    finally:
        await runner.close()
    assert first.stdout.split() == ["False", "True"]
    assert second.ok and second.stdout.split() == ["True", "42"]


async def test_sandbox_kernel_start_and_round_trip_are_fast(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        started = time.perf_counter()
        await runner.run("1")
        start_s = time.perf_counter() - started
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            result = await runner.run("1+1")
            times.append(time.perf_counter() - t0)
    finally:
        await runner.close()
    assert result.stdout.strip() == "2"
    assert start_s < 5 and sorted(times)[2] < 0.2   # loose bars here; bench/sandbox.py measures the real ones


async def test_sandbox_a_stage_begun_again_keeps_its_earlier_cells_and_figures(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    plot = f"import base64\nfrom IPython.display import Image, display\ndisplay(Image(base64.b64decode('{png}')))"
    try:
        await runner.begin_stage(0, "Explore")
        first = await runner.run(plot)
        await runner.begin_stage(0, "Explore")   # a second attempt at the same stage
        second = await runner.run(plot)
    finally:
        await runner.close()
    assert (first.cell_path, second.cell_path) == ("stages/01-explore/cell_001.py", "stages/01-explore/cell_002.py")
    assert (first.figures, second.figures) == (["figures/01-explore-001.png"], ["figures/01-explore-002.png"])
    assert (ws.root / "stages/01-explore/code.py").read_text().count("# %% cell") == 2
    nb = nbformat.read(ws.root / "analysis.ipynb", as_version=4)
    nbformat.validate(nb)


async def test_sandbox_code_importing_joblib_gets_a_private_shm_and_no_permission_note(tmp_path):
    """joblib (imported by scikit-learn and statsmodels) needs semaphores in /dev/shm; without a writable one every
    cell's output said '[Errno 13] Permission denied. joblib will operate in serial mode'."""
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        await runner.begin_stage(0, "Models")
        result = await runner.run(
            "import multiprocessing, os\nlock = multiprocessing.Lock()\n"
            "from joblib import Parallel, delayed\n"
            "print(sum(Parallel(n_jobs=2)(delayed(abs)(-i) for i in range(4))), os.access('/dev/shm', os.W_OK))"
        )
        printed = result.stdout + result.stderr
        assert result.ok and "6 True" in result.stdout and "Permission denied" not in printed, printed
    finally:
        await runner.close()


# What one stage leaves behind in its kernel, and what the next stage sees of each, as a user would check it.
LEAVE_BEHIND = """\
import os, sys, warnings
import pandas as pd, numpy as np, matplotlib, matplotlib.pyplot as plt
os.makedirs('outputs', exist_ok=True)
open('outputs/helpers.py', 'w').write('VALUE = 1\\n')
sys.path.insert(0, 'outputs')
import helpers
secret = 41
os.environ['STAGE_ONE'] = 'yes'
os.makedirs('outputs/deeper', exist_ok=True)
os.chdir('outputs/deeper')
warnings.simplefilter('error')
pd.set_option('display.max_rows', 3)
np.seterr(all='raise')
np.set_printoptions(precision=2)
matplotlib.rcParams['lines.linewidth'] = 9
plt.figure()
print(helpers.VALUE)
"""
LOOK_AROUND = """\
import os, sys, warnings
import pandas as pd, numpy as np, matplotlib, matplotlib.pyplot as plt
open('outputs/helpers.py', 'w').write('VALUE = 2\\n')
sys.path.insert(0, 'outputs')
import helpers
print(helpers.VALUE, 'secret' in dir(), os.environ.get('STAGE_ONE'), os.path.basename(os.getcwd()),
      pd.get_option('display.max_rows'), np.geterr()['divide'], np.get_printoptions()['precision'],
      matplotlib.rcParams['lines.linewidth'] == matplotlib.rcParamsDefault['lines.linewidth'], plt.get_fignums(),
      warnings.filters[0][0] != 'error', sys.path.count('outputs'), 'MPLCONFIGDIR' in os.environ)
"""


async def test_a_stage_has_the_kernel_an_earlier_stage_left_but_nothing_that_stage_did_in_it(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    try:
        await runner.begin_stage(0, "leave")
        left = await runner.run(LEAVE_BEHIND)
        pid_one = runner.kernel.kernel_pid
        await runner.end_stage(0)
        await runner.begin_stage(1, "look")
        seen = await runner.run(LOOK_AROUND)
        pid_two = runner.kernel.kernel_pid
    finally:
        await runner.close()
    assert left.ok and seen.ok, (left.error, seen.error)
    assert pid_two == pid_one and left.stdout.split()[0] == "1"   # one process: no start, no imports paid again
    value_two, *rest = seen.stdout.split()
    assert value_two == "2"                          # the stage's own helpers, not the earlier stage's module
    assert rest == ["False", "None", "run", "60", "warn", "8", "True", "[]", "True", "1", "True"]


async def test_a_kernel_that_cannot_forget_its_stage_or_was_restarted_is_never_handed_on(tmp_path):
    ws = make_workspace(tmp_path / "run")
    runner = CodeRunner(ws, SandboxSettings())
    pids = []
    try:
        await runner.begin_stage(0, "break the reset")
        await runner.run("get_ipython().reset = None")
        pids.append(runner.kernel.kernel_pid)
        await runner.end_stage(0)
        await runner.begin_stage(1, "leave a thread")
        await runner.run("y = 1")
        pids.append(runner.kernel.kernel_pid)
        left = await runner.run("import threading, time\n"
                                "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()")
        await runner.end_stage(1)
        for index in (2, 3):
            await runner.begin_stage(index, "after")
            last = await runner.run("'y' in dir()")
            pids.append(runner.kernel.kernel_pid)
            await runner.end_stage(index)
    finally:
        await runner.close()
    assert "restarted" in " ".join(left.notes) and None not in pids
    assert len(set(pids[:3])) == 3            # neither the broken one nor the restarted one was handed on
    assert pids[3] == pids[2] and "False" in last.stdout   # a sound one is, having forgotten its stage
