"""Stopping a run from outside: Ctrl-C (SIGINT), SIGTERM and SIGHUP all end it the same way.

While the run's event loop turns (`watching`), the first of these signals cancels the run's task: the run stops
where it is, the sandbox kernel is stopped with everything it started, run.json says `incomplete` with a reason
naming the signal, and the reports are written. Once the run is finishing (`finishing()`), a signal is noted
and nothing more, so the records are written whole. Outside the loop (checking and copying the inputs) a signal
raises `Stopped`. The command exits 128 + the signal's number (130, 143, 129): the shell's convention for a
process a signal ended, so scripts and supervisors read it as usual.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_NAMES = {
    signal.SIGINT: "Ctrl-C (SIGINT)",
    signal.SIGTERM: "SIGTERM",
    signal.SIGHUP: "SIGHUP (the terminal went away)",
}


class Stopped(KeyboardInterrupt):
    """A handled signal arrived outside the run's event loop (a `KeyboardInterrupt`, as Ctrl-C always was)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signal.Signals(signum)


class StopSignals:
    """The handled signals of one command: which arrived first, and what it does to the run."""

    def __init__(self) -> None:
        self.received: signal.Signals | None = None
        self._task: asyncio.Task[Any] | None = None
        self._finishing = False
        self._before: dict[signal.Signals, Any] = {}

    @property
    def exit_code(self) -> int:
        return 128 + (self.received or signal.SIGINT)

    @property
    def reason(self) -> str:
        """`interrupted by SIGTERM`: the run's reason when a signal stopped it."""
        return f"interrupted by {_NAMES[self.received]}" if self.received else "interrupted"

    @property
    def short(self) -> str:
        """`Ctrl-C`, `SIGTERM`, `SIGHUP`: how the command's last line names it."""
        return "Ctrl-C" if self.received in (None, signal.SIGINT) else self.received.name

    def note(self, signum: int) -> None:
        self.received = self.received or signal.Signals(signum)

    @contextmanager
    def raising(self) -> Iterator[StopSignals]:
        """Outside the event loop, each handled signal raises `Stopped` (previous handlers come back after)."""

        def stop(signum: int, _frame: object) -> None:
            self.note(signum)
            raise Stopped(signum)

        before = {sig: signal.signal(sig, stop) for sig in HANDLED}
        try:
            yield self
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)

    @contextmanager
    def watching(self) -> Iterator[StopSignals]:
        """Inside the running event loop: the first handled signal cancels the current task (the run)."""
        loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        before = {sig: signal.getsignal(sig) for sig in HANDLED}
        for sig in HANDLED:
            loop.add_signal_handler(sig, self._on_signal, sig)
        try:
            yield self
        finally:
            for sig, handler in before.items():
                loop.remove_signal_handler(sig)
                if handler is not None:
                    signal.signal(sig, handler)
            self._task = None

    def finishing(self) -> None:
        """From now on a signal is noted, never acted on: the run is writing its records and reports."""
        self._finishing = True

    def _on_signal(self, sig: signal.Signals) -> None:
        first = self.received is None
        self.note(sig)
        if first and self._task is not None and not self._finishing:
            self._task.cancel(self.reason)
