"""The built wheel, installed (not editable) in a fresh virtual environment, runs from any directory.

The wheel is built once without network (`pip wheel --no-deps --no-build-isolation`). The fresh environment gets
this environment's third-party packages as hard links (no download, no copy: well under a second), so it is a
self-contained venv the sandbox can mount like any user's, and agentic-ds itself only from the wheel. Both runs
use the offline model and the real sandbox, started from a directory that has nothing of the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_DATA = REPO / "examples" / "data"


def _fresh_venv(root: Path) -> Path:
    """A venv at `root` with this environment's packages (hard links), except agentic-ds and its editable hook."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    target = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 check=True, capture_output=True, text=True).stdout.strip())
    source = Path(sysconfig.get_path("purelib"))
    for entry in source.iterdir():
        if entry.name.startswith(("agentic_ds", "_editable_impl_agentic_ds", "__editable__")):
            continue
        if entry.is_dir():
            shutil.copytree(entry, target / entry.name, copy_function=os.link, symlinks=True)
        else:
            os.link(entry, target / entry.name)
    return python


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[dict[str, Path]]:
    if sys.prefix == sys.base_prefix:
        pytest.fail("run the suite from the project's virtual environment (`make test`)")
    build = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "--quiet", "--wheel-dir", str(build), str(REPO)], check=True, capture_output=True)
    (wheel,) = build.glob("agentic_ds-*.whl")
    base = tmp_path_factory.mktemp("venv")
    try:
        python = _fresh_venv(base / "venv")
    except OSError:  # hard links need one file system: then the fresh venv goes inside this one
        shutil.rmtree(base / "venv", ignore_errors=True)
        base = Path(tempfile.mkdtemp(prefix="wheel-test-", dir=sys.prefix))
        python = _fresh_venv(base / "venv")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
                   check=True, capture_output=True)
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}   # the wheel's copy, not a checkout on the path
    package = subprocess.run([str(python), "-c", "import agentic_ds; print(agentic_ds.__file__)"], cwd=base, env=plain,
                             check=True, capture_output=True, text=True).stdout.strip()
    yield {"wheel": wheel, "python": python, "command": python.parent / "agentic-ds", "package": Path(package).parent}
    if Path(sys.prefix) in base.parents:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def elsewhere(tmp_path) -> tuple[Path, dict[str, str]]:
    """A working directory outside the repository, holding only the example data; an environment without keys."""
    shutil.copytree(EXAMPLE_DATA, tmp_path / "data")
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("_API_KEY") and not k.startswith("AGENTIC_DS_") and k != "PYTHONPATH"}  # the wheel only
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return tmp_path, env


def test_the_wheel_carries_every_prompt_and_skill(installed):
    shipped = [
        path.relative_to(REPO).as_posix()
        for folder in ("prompts", "skills")
        for path in (REPO / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
    assert len(shipped) > 20 and {f"agentic_ds/_bundled/{path}" for path in shipped} <= names
    assert not any(name.startswith(("prompts/", "skills/")) for name in names)  # nothing outside the package


def test_the_wheel_carries_the_web_page(installed):
    page = REPO / "agentic_ds" / "server" / "static"
    shipped = {path.relative_to(REPO).as_posix() for path in page.iterdir() if path.is_file()}
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
    assert {"agentic_ds/server/static/index.html", "agentic_ds/server/static/main.js",
            "agentic_ds/server/static/app.css"} <= shipped <= names


def test_the_wheel_carries_the_public_test_doubles_but_no_test_only_code(installed, elsewhere):
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
    test_only = sorted(p.name for p in (REPO / "tests" / "support").glob("*.py") if p.name != "__init__.py")
    assert {"fault_server.py", "adversarial.py", "shared_context.py"} <= set(test_only)
    assert not [name for name in names if name.rsplit("/", 1)[-1] in test_only], "test-only code in the wheel"
    assert not any(name.startswith(("tests/", "support/")) for name in names)
    assert {"agentic_ds/testing/scripted.py", "agentic_ds/testing/harness.py"} <= names   # documented doubles
    cwd, env = elsewhere   # what stays imports nothing that moved: the doubles and the relay work from the wheel
    probe = "import agentic_ds.testing.harness, agentic_ds.testing.replay, agentic_ds.testing.relay_responder"
    subprocess.run([str(installed["python"]), "-c", probe], cwd=cwd, env=env, check=True, capture_output=True)
    done = subprocess.run([str(installed["python"]), "-m", "agentic_ds.testing.relay", "--help"], cwd=cwd, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "serve" in done.stdout, done.stderr


def test_the_installed_package_reads_its_bundled_files(installed, elsewhere):
    cwd, env = elsewhere
    probe = ("import agentic_ds, agentic_ds.bundled as b, agentic_ds.workflow.prompting as p, "
             "agentic_ds.server.page as w; print(agentic_ds.__file__); print(b.bundled_dir('skills')); "
             "print(p.prompts_dir()); print(w.static_dir())")
    done = subprocess.run([str(installed["python"]), "-c", probe], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True)
    init, skills, prompts, page = (Path(line) for line in done.stdout.splitlines())
    package = installed["package"]
    assert init == package / "__init__.py" and REPO not in package.parents
    assert installed["python"].parent.parent in package.parents
    assert skills == package / "_bundled" / "skills"
    assert prompts == package / "_bundled" / "prompts"
    assert page == package / "server" / "static" and (page / "index.html").is_file()   # the web page, installed


def test_simple_and_orchestrated_runs_from_any_directory(installed, elsewhere):
    cwd, env = elsewhere
    tasks = {"simple": "What is the mean revenue?", "orchestrated": "What drives revenue, and how strongly?"}
    # Both at once: each waits mostly on its sandboxed kernel.
    running = {
        mode: subprocess.Popen([str(installed["command"]), "run", "--mode", mode, task, "--files", "data",
                                "--model", "offline", "--workdir", f"runs-{mode}", "--json"],
                               cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for mode, task in tasks.items()
    }
    for mode, process in running.items():
        stdout, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, f"{mode}: {stderr}\n{stdout[-2000:]}"
        finished = json.loads(stdout.splitlines()[-1])
        assert finished["kind"] == "run_finished" and finished["status"] == "completed", finished
        run_dir = Path(finished["run_dir"])
        assert run_dir.parent == (cwd / f"runs-{mode}").resolve()
        record = json.loads((run_dir / "run.json").read_text())
        assert record["status"] == "completed" and record["mode"] == mode
        for name in ("report.md", "report.html", "analysis.ipynb", "events.jsonl", "session.db", "data_profile.json"):
            assert (run_dir / name).is_file(), f"{mode}: {name} missing"
        assert any((run_dir / "outputs").iterdir()), f"{mode}: no outputs"
        assert "`completed`" in (run_dir / "report.md").read_text()
        if mode == "orchestrated":
            assert (run_dir / "plan.md").is_file() and json.loads((run_dir / "plan.json").read_text())["stages"]
            assert all(stage["status"] == "approved" for stage in record["stages"])
        else:
            assert record["final_answer"]["valid"] is True


def test_missing_bundled_skills_stop_the_run_before_its_directory_exists(installed, elsewhere):
    cwd, env = elsewhere
    bundled = installed["package"] / "_bundled" / "skills"
    hidden = bundled.with_name("skills.hidden")
    bundled.rename(hidden)
    try:
        done = subprocess.run([str(installed["command"]), "run", "--mode", "simple", "Mean revenue", "--files",
                               "data", "--model", "offline", "--workdir", "runs"],
                              cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    finally:
        hidden.rename(bundled)
    assert done.returncode == 2, done.stderr
    assert "bundled skills folder is missing" in done.stderr and "hint: reinstall agentic-ds" in done.stderr
    assert not (cwd / "runs").exists()
