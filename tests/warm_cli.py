"""`agentic-ds` commands forked from the worker's zygote (`agentic_ds.runs.warm_start`), as `subprocess` would
start them (tests only).

A test that runs the command as a process of its own (to signal it, kill it, or resume it from outside) would pay
about a CPU-second of imports before the command does anything, and the suite starts over a hundred such
processes on two cores. Each test worker keeps one zygote of its own (the kind the server and the eval use) and
forks the commands from it: each is still a process of its own (pid, arguments, working directory, environment, standard
streams, signals, exit status). `WarmProcess` is the part of `subprocess.Popen` the tests use. When the zygote
cannot fork here, commands run as plain `python -m agentic_ds` processes. Tests of the interpreter's own start
(the installed console script, the wheel, `--help`) do not use this.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any

from agentic_ds.runs.warm_start import Zygote, child_streams, command


class WarmProcess:
    """A forked command, as much like `subprocess.Popen` as the tests use it."""

    def __init__(self, zygote: Zygote, request_id: int, pid: int, stdin: IO[Any] | None, stdout: IO[Any] | None,
                 stderr: IO[Any] | None) -> None:
        self._zygote, self._id = zygote, request_id
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.exit_status(self._id, self.pid, timeout=0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self._zygote.exit_status(self._id, self.pid, timeout=timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(f"agentic-ds (pid {self.pid})", timeout or 0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, input: str | bytes | None = None, timeout: float | None = None) -> tuple[Any, Any]:
        results: dict[str, Any] = {}
        readers = [threading.Thread(target=lambda n=name, s=stream: results.__setitem__(n, s.read()), daemon=True)
                   for name, stream in (("out", self.stdout), ("err", self.stderr)) if stream is not None]
        for reader in readers:
            reader.start()
        if self.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                if input:
                    self.stdin.write(input)
                self.stdin.close()
        deadline = None if timeout is None else time.monotonic() + timeout
        for reader in readers:
            reader.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if reader.is_alive():
                raise subprocess.TimeoutExpired(f"agentic-ds (pid {self.pid})", timeout or 0)
        self.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        for stream in (self.stdout, self.stderr):
            if stream is not None:
                stream.close()
        return results.get("out"), results.get("err")


_zygote: Zygote | None = None
_zygote_lock = threading.Lock()


def zygote() -> Zygote | None:
    """This worker's zygote (started on first use), or None when it cannot fork commands here."""
    global _zygote
    with _zygote_lock:
        if _zygote is None:
            _zygote = Zygote()
            atexit.register(_zygote.close)
        return _zygote if _zygote.usable() else None


def popen(args: Sequence[str], *, cwd: os.PathLike[str] | str | None = None, env: Mapping[str, str] | None = None,
          stdin: int | None = None, stdout: int | None = None, stderr: int | None = None,
          text: bool = False) -> WarmProcess | subprocess.Popen[Any]:
    """`agentic-ds ARGS` as `subprocess.Popen(command(*args), ...)` would start it (PIPE, DEVNULL or None for
    each stream), forked from the zygote when there is one."""
    warm = zygote()
    if warm is None:
        return subprocess.Popen(command(*args), cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=stderr,
                                text=text)
    ends, own = child_streams(stdin, stdout, stderr)   # the child's ends are closed here once it has them
    mine: list[IO[Any] | None] = [
        None if fd < 0 else os.fdopen(fd, mode, encoding="utf-8") if text else os.fdopen(fd, mode + "b")
        for fd, mode in zip(own, ("w", "r", "r"), strict=True)
    ]
    try:
        request_id, pid = warm.spawn(args, cwd=os.fspath(cwd or os.getcwd()), env=dict(os.environ if env is None
                                     else env), stdin=ends[0], stdout=ends[1], stderr=ends[2], new_session=False)
    finally:
        for end in ends:
            os.close(end)
    return WarmProcess(warm, request_id, pid, *mine)


def run(args: Sequence[str], *, cwd: os.PathLike[str] | str | None = None, env: Mapping[str, str] | None = None,
        input: str | None = None, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(command(*args), capture_output=True, text=True, ...)`, forked from the zygote."""
    process = popen(args, cwd=cwd, env=env, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise
    return subprocess.CompletedProcess(command(*args), process.wait(), out, err)

