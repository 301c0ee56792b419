"""`StopSignals` with real signals sent to this process: raised outside the event loop, a cancelled run inside
it, only noted once the run is finishing; and `run` stopped while it copies its inputs."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from agentic_ds.cli.main import main
from agentic_ds.runs.stop_signals import HANDLED, Stopped, StopSignals


def test_outside_the_loop_a_signal_raises_stopped_and_the_handlers_come_back():
    before = {sig: signal.getsignal(sig) for sig in HANDLED}
    stop = StopSignals()
    with pytest.raises(Stopped) as raised, stop.raising():
        os.kill(os.getpid(), signal.SIGTERM)
    assert raised.value.signum is signal.SIGTERM and isinstance(raised.value, KeyboardInterrupt)
    assert stop.received is signal.SIGTERM and stop.exit_code == 143 and stop.short == "SIGTERM"
    assert {sig: signal.getsignal(sig) for sig in HANDLED} == before


@pytest.mark.parametrize(("sig", "code", "reason"), [
    (signal.SIGTERM, 143, "interrupted by SIGTERM"),
    (signal.SIGHUP, 129, "interrupted by SIGHUP (the terminal went away)"),
    (signal.SIGINT, 130, "interrupted by Ctrl-C (SIGINT)"),
])
def test_in_the_loop_the_first_signal_cancels_the_run(sig, code, reason):
    stop = StopSignals()
    seen: list[str] = []

    async def run() -> None:
        with stop.watching():
            asyncio.get_running_loop().call_later(0.05, os.kill, os.getpid(), sig)
            asyncio.get_running_loop().call_later(0.10, os.kill, os.getpid(), sig)   # a second: no second cancel
            try:
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                seen.append("cancelled")
                asyncio.current_task().uncancel()
                await asyncio.sleep(0.2)   # finishing the run is not cancelled again
                seen.append("finished")
                raise

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(run())
    assert seen == ["cancelled", "finished"]
    assert stop.received is sig and stop.exit_code == code and stop.reason == reason


def test_once_finishing_a_signal_is_only_noted():
    stop = StopSignals()

    async def run() -> str:
        with stop.watching():
            stop.finishing()
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.sleep(0.1)
            return "records written"

    assert asyncio.run(run()) == "records written"
    assert stop.received is signal.SIGTERM and stop.exit_code == 143


def test_sigterm_while_run_copies_its_inputs_exits_143(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("data").mkdir()
    Path("data/sales.csv").write_text("region,price\nnorth,10\n", encoding="utf-8")
    monkeypatch.setattr("agentic_ds.runs.workdir.copy_inputs", lambda *a, **k: os.kill(os.getpid(), signal.SIGTERM))

    result = CliRunner().invoke(main, ["run", "--mode", "simple", "Mean price", "--files", "data"])

    assert result.exit_code == 143, result.output
    assert [line for line in result.stderr.splitlines() if line] == ["error: interrupted by SIGTERM",
                                          "hint: nothing was lost: run directories are never deleted"]
