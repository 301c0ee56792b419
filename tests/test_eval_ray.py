"""`agentic-ds eval --executor ray`: the same results as the local executor, a worker killed for real, a cluster
joined by address, the install hint without Ray, and no Ray process left behind by any of it."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

pytestmark = pytest.mark.slow

BUNDLED = Path(__file__).resolve().parents[1] / "examples" / "eval"
# numeric, exact (one question over a folder, joined), contains: each checker the bundled set grades
SUBSET = ["emp-mean-std-salary", "cty-argmin-group", "shop-join-argmax"]   # a checker each; more than the 2 CPUs
RAY_MARKERS = ("raylet", "gcs_server", "ray::", "/ray/_private/", "/ray/dashboard/", "/ray/autoscaler/")
VARYING = {"wall_s", "run_dir"}                       # the fields of results.jsonl that differ run to run
TOKENS = {"input_tokens", "output_tokens"}


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agentic_ds", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env, stdin=subprocess.DEVNULL)


def ray_processes() -> dict[int, str]:
    found = {}
    for process in psutil.process_iter(["pid", "cmdline"]):
        line = " ".join(process.info["cmdline"] or [])
        if any(marker in line for marker in RAY_MARKERS):
            found[process.info["pid"]] = line[:160]
    return found


def orphaned_ray_processes() -> dict[int, str]:
    """Ray processes whose Ray family hangs from no living process but init: left behind by a command that ended
    (a Ray started by a command still running, another session's for one, is not counted)."""
    found = ray_processes()
    parents = {}
    for pid in found:
        with contextlib.suppress(psutil.Error):
            parents[pid] = psutil.Process(pid).ppid()

    def root_parent(pid: int) -> int:
        seen = set()
        while pid in found and pid not in seen:
            seen.add(pid)
            pid = parents.get(pid, 1)
        return pid

    return {pid: line for pid, line in found.items() if root_parent(pid) in (0, 1) or not psutil.pid_exists(
        root_parent(pid))}


@pytest.fixture
def no_ray_left():
    """Every Ray process a test started is gone once it ends (given a few seconds to exit)."""
    before = set(ray_processes())
    yield
    deadline = time.monotonic() + 20
    while ((left := {p: line for p, line in orphaned_ray_processes().items() if p not in before})
           and time.monotonic() < deadline):
        time.sleep(0.5)
    assert not left, f"Ray processes left behind: {left}"


def subset_manifest(folder: Path) -> Path:
    lines = [json.loads(line) for line in (BUNDLED / "manifest.jsonl").read_text().splitlines()]
    chosen = [{**line, "files": [str(BUNDLED / f) for f in line["files"]]} for line in lines if line["id"] in SUBSET]
    assert [line["id"] for line in chosen] == SUBSET
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "manifest.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in chosen))
    return path


def read_eval(workdir: Path) -> tuple[Path, list[dict], dict]:
    (eval_dir,) = workdir.glob("eval-*")
    results = [json.loads(line) for line in (eval_dir / "results.jsonl").read_text().splitlines()]
    return eval_dir, results, json.loads((eval_dir / "summary.json").read_text())


def comparable(results: list[dict], summary: dict) -> tuple[list[dict], dict]:
    figures = {k: v for k, v in summary.items()
               if k not in {"manifest", "executor", "runs_on", "parallel", "median_wall_s", "total_wall_s", "line"}}
    return [{k: v for k, v in r.items() if k not in VARYING} for r in results], figures


@pytest.fixture(scope="module")
def local_eval(tmp_path_factory) -> tuple[list[dict], dict]:
    """The subset through the local executor: what the Ray executor must reproduce."""
    folder = tmp_path_factory.mktemp("local")
    result = cli("eval", str(subset_manifest(folder)), "--model", "offline", "--workdir", str(folder / "wd"),
                 cwd=folder)
    assert result.returncode == 0, result.stderr
    _, results, summary = read_eval(folder / "wd")
    assert not any(r["error"] for r in results)          # every task ran (whether the offline model is right is
    return comparable(results, summary)                 # not this file's business: the same answers are)


def differences(got: tuple[list[dict], dict], expected: tuple[list[dict], dict]) -> list[str]:
    """What differs between two evals' comparable results, field by field (empty when they agree). Token counts
    may differ by a token or so: the offline model's estimate of one run moves that much from one run to the next
    whatever runs it (seen between two local evals on a machine under heavy load)."""
    def same(key: str, a: object, b: object) -> bool:
        if key in TOKENS and isinstance(a, int) and isinstance(b, int):
            return abs(a - b) <= max(2, b // 1000)
        return a == b

    found = [f"summary {k}: {got[1].get(k)!r} != {v!r}"
             for k, v in expected[1].items() if not same(k, got[1].get(k), v)]
    found += [f"{mine.get('id')} {k}: {mine.get(k)!r:.300} != {v!r:.300}"
              for mine, theirs in zip(got[0], expected[0], strict=True) for k, v in theirs.items()
              if not same(k, mine.get(k), v)]
    return found


def check_runs_came_back(eval_dir: Path, results: list[dict]) -> None:
    for r in results:
        run = eval_dir / r["run_dir"]
        record = json.loads((run / "run.json").read_text())
        assert record["status"] == r["status"] and record["status"] in ("completed", "incomplete")
        for name in ("report.html", "analysis.ipynb", "events.jsonl", "session.db", "data_profile.json"):
            assert (run / name).is_file(), name
        assert any((run / "inputs").rglob("*.csv")) and not (run / "left_on_worker.json").exists()


# -- results: the same as the local executor's -----------------------------------------------------------------
def test_a_local_ray_gives_the_local_executors_results_with_run_directories_packed_back(
        tmp_path, local_eval, no_ray_left):
    """Every worker made to act as if it did not share this machine's files: inputs go to it through Ray's object
    store, and each run directory comes back packed and is unpacked under the eval's runs/."""
    env = {**os.environ, "AGENTIC_DS_EVAL_SHIP_RUNS": "1", "CI": "true"}
    result = cli("eval", str(subset_manifest(tmp_path)), "--model", "offline", "--executor", "ray",
                 "--workdir", str(tmp_path / "wd"), cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(f"eval: {len(SUBSET)} task(s), on a local Ray (")
    assert lines[-1].startswith(f"eval: n={len(SUBSET)} correct={local_eval[1]['correct']} ")
    assert " errors=0 " in lines[-1]
    done = [line for line in lines if line.startswith("[")]
    assert len(done) == len(SUBSET) and done[-1].endswith("(0 running, 0 queued)")
    eval_dir, results, summary = read_eval(tmp_path / "wd")
    assert not differences(comparable(results, summary), local_eval)
    check_runs_came_back(eval_dir, results)
    assert summary["executor"] == "ray" and "Ray" in (eval_dir / "summary.md").read_text()


def test_a_cluster_joined_by_address_shares_the_eval_folder_and_gives_the_same_results(
        tmp_path, local_eval, no_ray_left):
    """`ray start --head` (token authentication on), then the eval at its address: the worker sees the eval's
    folder (same machine), so runs are written straight into it."""
    port = free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    temp = tempfile.mkdtemp(prefix="ray-head-", dir="/tmp")
    head = subprocess.Popen(
        [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}",
         "--object-store-memory=100000000"],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        wait_for_port(port, head)
        result = cli("eval", str(subset_manifest(tmp_path)), "--model", "offline", "--executor", "ray",
                     "--address", f"127.0.0.1:{port}", "--workdir", str(tmp_path / "wd"), cwd=tmp_path, env=env)
        assert result.returncode == 0, result.stderr
        assert f"on the Ray cluster at 127.0.0.1:{port} (2 CPUs, 1 node)" in result.stdout
        eval_dir, results, summary = read_eval(tmp_path / "wd")
        assert not differences(comparable(results, summary), local_eval)
        check_runs_came_back(eval_dir, results)
    finally:
        stop_head(head, temp)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, head: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert head.poll() is None, "ray start --head ended"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.5)
    raise AssertionError(f"ray start --head did not listen on {port} in {timeout:g} s")


def stop_head(head: subprocess.Popen, temp: str) -> None:
    """`ray start --block` stops what it started on SIGTERM; anything of it still there is killed by its id."""
    head.send_signal(signal.SIGTERM)
    try:
        head.wait(timeout=60)
    except subprocess.TimeoutExpired:
        head.kill()
    deadline = time.monotonic() + 20
    while (mine := [p for p, line in ray_processes().items() if temp in line]) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in mine:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    shutil.rmtree(temp, ignore_errors=True)
    assert not mine, f"`ray start --block` left processes running after SIGTERM: {mine}"


# -- a worker killed for real -----------------------------------------------------------------------------------
def test_a_killed_worker_is_retried_once_then_its_task_is_an_error_never_lost(tmp_path, no_ray_left):
    """SIGKILL the Ray worker running `retried` once and the one running `dies` twice: `retried` is answered on
    its second attempt, `dies` is recorded as an error after two, `fine` is untouched; the killed workers' runs do
    not go on (their child dies with them)."""
    frame = pd.DataFrame({"salary": [50000 + 1500 * i for i in range(120)],
                          "age": [22 + (i * 7) % 40 for i in range(120)]})
    lines = []
    for name in ("retried", "dies", "fine"):
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
        lines.append({"id": name, "task": "What is the maximum age? @max_age[value]", "files": [f"{name}.csv"],
                      "answer": {"max_age": int(frame["age"].max())}, "checker": "numeric"})
    path = tmp_path / "manifest.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    evaluation = subprocess.Popen(
        [sys.executable, "-m", "agentic_ds", "eval", str(path), "--model", "offline", "--executor", "ray",
         "--workdir", str(tmp_path / "wd")], cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    kills = {"retried": 1, "dies": 2}
    killed: dict[str, list[int]] = {name: [] for name in kills}
    children: list[psutil.Process] = []
    deadline = time.monotonic() + 240
    while evaluation.poll() is None and time.monotonic() < deadline:
        for child in runs_of(tmp_path):
            cmdline = child.info["cmdline"]   # as seen when found (a live re-read may meet an exec'd or gone process)
            name = Path(cmdline[cmdline.index("--files") + 1]).stem
            if name in kills and len(killed[name]) < kills[name] and child.pid not in killed[name]:
                worker = child.parent()
                assert worker is not None and worker.name().startswith("ray::"), worker
                worker.send_signal(signal.SIGKILL)
                killed[name].append(child.pid)
                children.append(child)
        time.sleep(0.05)
    out, err = evaluation.communicate(timeout=60)
    assert evaluation.returncode == 1, err
    assert [len(killed[name]) for name in kills] == [1, 2], killed
    assert "retried queued again (attempt 2): the Ray worker running it died" in out
    assert out.strip().splitlines()[-1].startswith("eval: n=3 correct=2 accuracy=0.667 errors=1 ")
    _, results, summary = read_eval(tmp_path / "wd")
    by_id = {r["id"]: r for r in results}
    assert by_id["retried"]["correct"] is True and by_id["retried"]["attempts"] == 2
    assert by_id["fine"]["correct"] is True and by_id["fine"]["attempts"] == 1
    dies = by_id["dies"]
    assert dies["correct"] is False and dies["attempts"] == 2
    assert dies["error"].startswith("the Ray worker running it died in each of 2 attempts; last: WorkerCrashedError")
    assert summary["errors"] == 1 and summary["retried"] == 2
    gone = psutil.wait_procs(children, timeout=30)[1]
    assert not gone, f"runs of killed workers still going: {gone}"


def runs_of(folder: Path) -> list[psutil.Process]:
    """The `agentic-ds run` children running on files of `folder`."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        cmdline = process.info["cmdline"] or []
        if "agentic_ds" in cmdline and "run" in cmdline and "--files" in cmdline and str(folder) in " ".join(cmdline):
            found.append(process)
    return found


# -- refusals, before anything is created ----------------------------------------------------------------------
def test_without_ray_the_ray_executor_is_exit_2_with_the_install_hint(tmp_path):
    shadow = tmp_path / "shadow" / "ray"            # an installation without Ray, as Python sees it
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'ray'\", name='ray')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "shadow")}
    result = cli("eval", str(subset_manifest(tmp_path)), "--model", "offline", "--executor", "ray",
                 "--workdir", str(tmp_path / "wd"), cwd=tmp_path, env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "error: --executor ray needs Ray, which is not installed here" in result.stderr
    assert "hint: pip install 'agentic-ds[ray]'" in result.stderr
    assert not (tmp_path / "wd").exists()


@pytest.mark.parametrize(("flags", "message"), [
    (["--address", "127.0.0.1:6379"], "error: --address is the Ray cluster to run on: it needs --executor ray"),
    (["--executor", "ray", "--address", "127.0.0.1:1"], "error: cannot reach the Ray cluster at 127.0.0.1:1"),
])
def test_an_address_without_ray_or_without_a_cluster_is_exit_2(tmp_path, flags, message, no_ray_left):
    result = cli("eval", str(subset_manifest(tmp_path)), "--model", "offline", *flags,
                 "--workdir", str(tmp_path / "wd"), cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr and "hint:" in result.stderr
    assert not (tmp_path / "wd").exists()
