"""The zygote the server and the eval fork their `agentic-ds` children from (`runs.warm_start`), driven as they
drive it: a real offline run through pipes, its own session, the end of the zygote, and the fallback when the
zygote is gone."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

import psutil
import pytest

from agentic_ds.evaluation.child import RunSpec, run_child
from agentic_ds.runs.warm_start import UNKNOWN_EXIT, Zygote, start_command

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

PIPE = asyncio.subprocess.PIPE
CSV = "region,price\nnorth,10\nsouth,12\nnorth,11\neast,9\nsouth,14\n"


@pytest.fixture
def zygote():
    started = Zygote()
    assert started.usable(), "the zygote did not start"
    yield started
    started.close()


def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "sales.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


async def test_a_forked_run_reads_its_task_streams_its_events_and_ends_with_its_status(tmp_path, zygote):
    args = ["run", "--mode", "simple", "--json", "--model", "offline", "--workdir", str(tmp_path / "runs"),
            "--files", str(data_file(tmp_path)), "--", "-"]
    process = await start_command(zygote, args, stdin=PIPE, stdout=PIPE, stderr=PIPE, cwd=str(tmp_path),
                                  new_session=True)
    assert os.getsid(process.pid) == process.pid          # a session of its own: the eval stops it with killpg
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(b"Mean price by region")
    await process.stdin.drain()
    process.stdin.close()
    lines = [json.loads(line) async for line in process.stdout]
    errors = await process.stderr.read()
    assert await process.wait() == 0, errors
    finished = lines[-1]
    assert finished["kind"] == "run_finished" and finished["status"] == "completed"
    assert Path(finished["run_dir"]).parent == tmp_path / "runs"


async def test_a_command_that_asked_to_die_with_its_parent_ends_with_the_zygote(tmp_path, zygote):
    # The task comes on stdin, which stays open: the command waits for it until the zygote ends.
    args = ["run", "--mode", "simple", "--files", str(data_file(tmp_path)), "--workdir", str(tmp_path / "runs"), "-"]
    process = await start_command(zygote, args, stdin=PIPE, stdout=PIPE, stderr=PIPE, cwd=str(tmp_path),
                                  new_session=True, die_with_parent=True)
    await asyncio.sleep(0.5)
    assert process.returncode is None
    zygote.close()
    assert await asyncio.wait_for(process.wait(), timeout=30) == UNKNOWN_EXIT   # ended; how, nobody can say now
    assert not psutil.pid_exists(process.pid) or psutil.Process(process.pid).status() == psutil.STATUS_ZOMBIE
    assert not (tmp_path / "runs").exists()


async def test_with_its_zygote_killed_the_eval_runs_the_plain_command(tmp_path, zygote):
    assert zygote._process is not None
    os.kill(zygote._process.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while zygote.ready is not False and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    spec = RunSpec(id="t1", task="Mean price by region", files=[str(data_file(tmp_path))],
                   flags=["--mode", "simple", "--model", "offline"], runs_dir=str(tmp_path / "runs"), timeout_s=300)
    seen: list[dict] = []
    outcome = await run_child(spec, seen.append, zygote=zygote)
    assert (outcome.exit_code, outcome.status) == (0, "completed"), outcome.error
    assert [event["kind"] for event in seen][0] == "run_started"
