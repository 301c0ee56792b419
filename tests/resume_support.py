"""Test support for runs stopped from outside: the command as a process of its own (forked from the worker's
zygote, see `warm_cli`), signals sent when events.jsonl reaches a line, and what a run directory holds (to compare
before and after a resume)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

from tests import warm_cli
from tests.folder_events import FolderEvents
from tests.support import shared_context

CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"
TASK = "Mean price by region"   # the offline model plans two stages for it
# A process that holds a run's lock (argv[1]) until it is killed; it prints "held" once it does.
HOLD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from agentic_ds.runs import run_lock
    run_lock.acquire(Path(sys.argv[1]))
    print("held", flush=True)
    time.sleep(600)
""")


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "agentic_ds", *args]


def environment() -> dict[str, str]:
    """The child's environment: no API keys, no AGENTIC_DS_ settings, and its prompt values shared with the fault
    server's offline brain in this process (`support/shared_context.py`)."""
    plain = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("AGENTIC_DS_")}
    return shared_context.child_environment(plain)


def make_project(folder: Path) -> Path:
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "sales.csv").write_text(CSV, encoding="utf-8")
    return folder


def start_run(project: Path, *extra: str, task: str = TASK) -> warm_cli.WarmProcess | subprocess.Popen[str]:
    return warm_cli.popen(("run", "--mode", "orchestrated", task, "--files", "data", *extra), cwd=project,
                          env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_dir_of(project: Path) -> Path | None:
    found = sorted((project / "workdirs").glob("*/run.json"))
    return found[0].parent if found else None


class LogWatch:
    """How many lines events.jsonl holds, read again only when its size changed (cheap to poll often)."""

    def __init__(self) -> None:
        self.size, self.lines = -1, 0

    def __call__(self, run_dir: Path | None) -> int:
        if run_dir is None:
            return 0
        try:
            size = (run_dir / "events.jsonl").stat().st_size
            if size != self.size:
                self.size, self.lines = size, (run_dir / "events.jsonl").read_bytes().count(b"\n")
        except FileNotFoundError:
            return 0
        return self.lines


@dataclass
class Stopped:
    run_dir: Path
    returncode: int
    lines: int                   # lines events.jsonl held when the signal was sent
    last: dict                   # the last of them: who was working
    descendants: list[int]       # processes the run had started (the sandbox kernel), as seen before the signal
    stdout: str
    stderr: str


def signal_at(project: Path, lines: int, sig: signal.Signals, *extra: str, when: Callable[[dict], bool] | None = None,
              in_a_cell: bool = False, timeout_s: float = 120) -> Stopped:
    """Start a run; send `sig` once events.jsonl holds `lines` lines (with `when`, once its last record passes
    `when`; with `in_a_cell`, once the run has started the sandbox kernel too); wait for the process to end."""
    process = start_run(project, *extra)
    deadline = time.monotonic() + timeout_s
    run_dir, watch = None, LogWatch()
    seen, descendants, sent = 0, [], False
    with FolderEvents() as changes:         # woken by the run's writes, not spinning beside it on the same cores
        while time.monotonic() < deadline and process.poll() is None:
            if run_dir is None:
                for folder in (project, project / "workdirs", *(project / "workdirs").glob("*/")):
                    changes.watch(folder)
                run_dir = run_dir_of(project)
                if run_dir is not None:
                    changes.watch(run_dir)
            seen = watch(run_dir)
            if seen >= lines and (when is None or (run_dir is not None and when(last_record(run_dir)))):
                try:
                    descendants = [child.pid for child in psutil.Process(process.pid).children(recursive=True)]
                except psutil.Error:
                    descendants = []
                if in_a_cell and not descendants:
                    time.sleep(0.002)
                    continue
                process.send_signal(sig)
                sent = True
                break
            changes.wait(0.02)
    stdout, stderr = process.communicate(timeout=timeout_s)
    assert run_dir is not None, f"no run directory appeared: {stderr}"
    assert sent, f"the run ended before the moment to signal it came: {stdout[-500:]} {stderr[-500:]}"
    records = (run_dir / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return Stopped(run_dir, process.returncode, seen, json.loads(records[seen - 1]), descendants, stdout, stderr)


def last_record(run_dir: Path) -> dict:
    text = (run_dir / "events.jsonl").read_text(encoding="utf-8")
    complete = text[: text.rfind("\n")].rsplit("\n", 1)[-1] if "\n" in text else ""
    return json.loads(complete) if complete else {}


def resume(run: Path | str, *args: str, cwd: Path | None = None, timeout_s: float = 180) -> subprocess.CompletedProcess:
    return warm_cli.run(("resume", str(run), *args), cwd=cwd, env=environment(), timeout=timeout_s)


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative path -> sha256)."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*")) if path.is_file()
    }


def approved_stage_dirs(run_dir: Path) -> list[Path]:
    """Stage folders whose result.json says approved."""
    out = []
    for result in sorted((run_dir / "stages").glob("*/result.json")):
        if json.loads(result.read_text(encoding="utf-8")).get("status") == "approved":
            out.append(result.parent)
    return out


def alive(pids: list[int]) -> list[int]:
    survivors = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                survivors.append(pid)
        except psutil.Error:
            continue
    return survivors


PLANNING = {"file_analyzer", "planning_loop", "plan_maker", "plan_reviewer", "plan_confirmation", "plan_parser"}


def phase(last: dict) -> str:
    """Where in the run a record was written: planning, a coder turn, between stages (a stage's verdict, the
    criteria check, the reflection, the next stage's start), the summary, or in a stage (its review)."""
    author = last.get("author", "")
    if author in PLANNING:
        return "planning"
    if author == "coding_agent":
        return "coder turn"
    if author == "summary_agent":
        return "summary"
    if author in ("stage_orchestrator", "criteria_checker", "stage_reflector"):
        return "between stages"
    return "in a stage"
