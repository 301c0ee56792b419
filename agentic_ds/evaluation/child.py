"""One task's run: an `agentic-ds run --json` child process, whatever machine it runs on.

A child process per task keeps runs apart (a crash, a hung kernel or a leak stays in its process). The task goes
in on stdin, so any text (a leading `-`, a megabyte) is passed as it is. Of the child's JSON lines, only what the
eval uses is passed on (`run_started`, `run_finished`, and `agent` when the working agent changes), so an executor
that carries events over a network carries a few per task. The same code runs the child on this machine (the
local executor) and on a Ray worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentic_ds.runs.warm_start import WarmCommand, Zygote, launch

STDERR_TAIL_LINES = 20
INTERRUPT_GRACE_S = 20.0
USAGE_EXIT = 2

Report = Callable[[dict[str, Any]], None]


@dataclass
class RunSpec:
    """What one task's run needs, wherever it runs (plain data: it travels to Ray workers)."""

    id: str
    task: str
    files: list[str]                       # absolute paths on the machine that started the eval
    flags: list[str]                       # the `run` flags, --workdir aside
    runs_dir: str                          # where its run directory goes on the machine that started the eval
    timeout_s: float | None = None


@dataclass
class RunOutcome:
    """How a task's run ended, as the machine that started the eval sees it."""

    exit_code: int | None = None
    run_dir: str | None = None             # on the machine that started the eval, once it is there
    status: str = "not run"
    reason: str = ""
    error: str = ""                        # the run did not finish: timeout, crash, a worker lost...
    wall_s: float = 0.0
    attempts: int = 1


async def run_child(spec: RunSpec, report: Report, *, runs_dir: Path | None = None, files: list[str] | None = None,
                    flags: list[str] | None = None, cwd: str | None = None,
                    die_with_parent: bool = False, zygote: Zygote | None = None) -> RunOutcome:
    """Run `spec` as `agentic-ds run --json` (forked from `zygote` when it can fork). On a worker that does not
    share this machine's files, `runs_dir`, `files` and `flags` replace the spec's (inputs and configuration
    copied to the worker); `die_with_parent` stops the child (SIGTERM: it ends cleanly) when the thread that
    started it ends, so a killed worker leaves no run going on."""
    workdir = runs_dir or spec.runs_dir
    args = ["run", *(flags or spec.flags), "--json", "--workdir", str(workdir)]
    for path in files if files is not None else spec.files:
        args += ["--files", path]
    args += ["--", "-"]                       # the task comes on stdin, whatever it holds
    outcome = RunOutcome()
    started = time.perf_counter()
    pipe = asyncio.subprocess.PIPE
    process = await launch(zygote, args, stdin=pipe, stdout=pipe, stderr=pipe, cwd=cwd,
                           new_session=True,   # Ctrl-C reaches the eval; the eval stops its children itself
                           die_with_parent=die_with_parent)
    stderr: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
    try:
        assert process.stdin is not None
        process.stdin.write(spec.task.encode("utf-8"))
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            await process.stdin.drain()
        process.stdin.close()
        talk = asyncio.gather(_read_events(process, outcome, report), _tail(process.stderr, stderr), process.wait())
        await asyncio.wait_for(talk, timeout=spec.timeout_s)
    except TimeoutError:
        await stop(process)
        outcome.error = f"timed out after {spec.timeout_s:g} s"
    except asyncio.CancelledError:
        await stop(process)
        raise
    finally:
        outcome.wall_s = round(time.perf_counter() - started, 2)
    outcome.exit_code = process.returncode
    last = " | ".join(line.strip() for line in stderr if line.strip())[-600:]
    if outcome.status == "not run" and not outcome.error:
        outcome.error = f"the run ended without a result (exit code {process.returncode}): {last or 'no output'}"
    elif process.returncode == USAGE_EXIT and not outcome.error:
        outcome.error = last or "usage error"
    return outcome


async def _read_events(process: asyncio.subprocess.Process | WarmCommand, outcome: RunOutcome,
                       report: Report) -> None:
    assert process.stdout is not None
    agent = ""
    async for raw in process.stdout:
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        kind = event.get("kind")
        if kind == "run_started":
            outcome.run_dir = str(event.get("run_dir") or "") or None
            report({"kind": "run_started", "run_dir": outcome.run_dir})
        elif kind == "run_finished":
            outcome.status, outcome.reason = str(event.get("status") or "unknown"), str(event.get("reason") or "")
            outcome.run_dir = str(event.get("run_dir") or "") or outcome.run_dir
            report({"kind": "run_finished", "status": outcome.status, "run_dir": outcome.run_dir})
        elif event.get("author") and event.get("author") != agent:
            agent = str(event["author"])
            report({"kind": "agent", "agent": agent})


async def _tail(stream: asyncio.StreamReader | None, into: deque[str]) -> None:
    if stream is None:
        return
    async for raw in stream:
        into.append(raw.decode("utf-8", errors="replace"))


async def stop(process: asyncio.subprocess.Process | WarmCommand) -> None:
    """Ctrl-C the run (it records what it did and ends `interrupted`), then kill it if it does not end."""
    for sig, wait in ((signal.SIGINT, INTERRUPT_GRACE_S), (signal.SIGKILL, 5.0)):
        if process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), timeout=wait)
