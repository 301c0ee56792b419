"""`agentic-ds` commands forked from a process that has imported them already (tests only).

A test that runs the command as a process of its own (to signal it, kill it, or resume it from outside) pays
about a CPU-second of imports (ADK, google-genai, the workflow) before the command does anything. The suite
starts over a hundred such processes on two cores. Here one process per test worker, the zygote, imports the
command's modules once and forks each command from itself. The command then runs as before: in its own process,
with its own pid, arguments, working directory, environment, standard streams, signals and exit status, through
the same entry point as `python -m agentic_ds` (`agentic_ds.cli.main.main`). What it skips is the interpreter's
start: an entry of PYTHONPATH and a `sitecustomize` on it are applied by hand (`_startup_paths`).

The zygote forks only while it has one thread, and ends when the test worker closes its socket or dies. When it
cannot start, commands run as plain `python -m agentic_ds` processes. Tests of the interpreter's own start (the
installed console script, the wheel, `--help`) do not use this.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from typing import IO, Any

# What a `run` or `resume` of the offline model imports (the rest comes with them).
PRELOAD = (
    "agentic_ds.cli.main", "agentic_ds.cli.run", "agentic_ds.cli.resume", "agentic_ds.workflow.runner",
    "agentic_ds.workflow.assembly", "agentic_ds.workflow.tree", "agentic_ds.offline.model", "agentic_ds.skills",
    "agentic_ds.report.writer", "agentic_ds.sandbox.isolation", "agentic_ds.sandbox.kernel",
    "agentic_ds.profiling", "agentic_ds.config.models",
)
UNKNOWN_EXIT = 255          # the zygote ended before it could say how a child ended
_HEADER = struct.Struct("!I")


# -- the zygote ------------------------------------------------------------------------------------------------
def _serve(fd: int) -> None:
    sock = socket.socket(fileno=fd)
    if sys.path and sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]   # tests/ is not where the command's modules come from
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1 or len(os.listdir("/proc/self/task")) != 1:
        _send(sock, {"refused": "the zygote has more than one thread after its imports"})
        return
    wake_r, wake_w = os.pipe()
    for end in (wake_r, wake_w):
        os.set_blocking(end, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    _send(sock, {"ready": os.getpid()})
    ids: dict[int, int] = {}        # child pid -> request id
    buffered = b""                   # a request's bytes may come in pieces; its three descriptors with the first
    received: list[int] = []
    while True:
        with contextlib.suppress(InterruptedError):
            ready, _, _ = select.select([sock.fileno(), wake_r], [], [])
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_r, 4096)
            _reap(sock, ids)
        if sock.fileno() not in ready:
            continue
        data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
        if not data:
            return                   # the test worker is gone
        buffered, received = buffered + data, received + fds
        while len(buffered) >= _HEADER.size and len(received) >= 3:
            (size,) = _HEADER.unpack_from(buffered)
            if len(buffered) < _HEADER.size + size:
                break
            request = json.loads(buffered[_HEADER.size:_HEADER.size + size])
            buffered, streams, received = buffered[_HEADER.size + size:], received[:3], received[3:]
            pid = os.fork()
            if pid == 0:
                for own in (sock.fileno(), wake_r, wake_w, *received):
                    os.close(own)
                _child(request, streams)   # never returns
            for stream in streams:
                os.close(stream)
            ids[pid] = request["id"]
            _send(sock, {"id": request["id"], "pid": pid})
        _reap(sock, ids)


def _reap(sock: socket.socket, ids: dict[int, int]) -> None:
    while ids:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in ids:
            _send(sock, {"id": ids.pop(pid), "exit": os.waitstatus_to_exitcode(status)})


def _send(sock: socket.socket, message: Mapping[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


def _child(request: Mapping[str, Any], fds: Sequence[int]) -> None:
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)   # as a new interpreter sets them
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        if request["new_session"]:
            os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        _standard_streams()
        _startup_paths()
        sys.argv = [sys.argv[0], *request["args"]]
        from agentic_ds.cli.main import main

        try:
            main(args=list(request["args"]), prog_name="agentic-ds")
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc.code)
    except BaseException:   # noqa: BLE001 - what a crashed interpreter would print, then its exit status
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _standard_streams() -> None:
    """New sys.stdin/stdout/stderr on descriptors 0-2, buffered as a new interpreter would buffer them (the
    zygote's `sys.__stdout__` and the like already write to the descriptors the child was given)."""
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8")
    for fd, name, errors in ((1, "stdout", "strict"), (2, "stderr", "backslashreplace")):
        stream = io.TextIOWrapper(open(fd, "wb", closefd=False), encoding="utf-8", errors=errors,
                                  line_buffering=os.isatty(fd) or name == "stderr", write_through=unbuffered)
        setattr(sys, name, stream)


def _startup_paths() -> None:
    """PYTHONPATH's entries and a `sitecustomize` found on them, as the interpreter's start would apply them."""
    entries = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in sys.path]
    sys.path[1:1] = entries
    for entry in entries:
        site = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(site):
            with open(site, encoding="utf-8") as handle:
                exec(compile(handle.read(), site, "exec"), {"__name__": "sitecustomize", "__file__": site})
            return


# -- the test worker's side ------------------------------------------------------------------------------------
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


class Zygote:
    """The worker's end of the zygote: `spawn()` a command, learn how it ended."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock = mine
        self._process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), str(theirs.fileno())], pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        theirs.close()
        self._lock = threading.Lock()        # one request on the socket at a time
        self._changed = threading.Condition()
        self._pids: dict[int, int] = {}      # request id -> pid
        self._exits: dict[int, int] = {}     # request id -> exit status
        self._next = 0
        self.ready: bool | None = None       # None while it imports; False once it refused or ended
        threading.Thread(target=self._listen, name="warm-cli", daemon=True).start()

    def _listen(self) -> None:
        for line in self._sock.makefile("rb"):
            message = json.loads(line)
            with self._changed:
                if "ready" in message:
                    self.ready = True
                elif "refused" in message:
                    self.ready = False
                elif "exit" in message:
                    self._exits[message["id"]] = message["exit"]
                else:
                    self._pids[message["id"]] = message["pid"]
                self._changed.notify_all()
        with self._changed:
            self.ready = False
            self._changed.notify_all()

    def usable(self, timeout: float = 60) -> bool:
        with self._changed:
            self._changed.wait_for(lambda: self.ready is not None, timeout)
            return bool(self.ready)

    def spawn(self, args: Sequence[str], *, cwd: str, env: Mapping[str, str], stdin: int, stdout: int,
              stderr: int, new_session: bool) -> tuple[int, int]:
        """Fork `agentic-ds ARGS` with descriptors 0-2 set to these; (request id, pid)."""
        with self._lock:
            self._next += 1
            request_id = self._next
            body = json.dumps({"id": request_id, "args": list(args), "cwd": cwd, "env": dict(env),
                               "new_session": new_session}).encode()
            payload = _HEADER.pack(len(body)) + body
            sent = socket.send_fds(self._sock, [payload], [stdin, stdout, stderr])
            self._sock.sendall(payload[sent:])
        with self._changed:
            if not self._changed.wait_for(lambda: request_id in self._pids or self.ready is False, 60):
                raise RuntimeError("the zygote did not fork the command within 60 s")
            if request_id not in self._pids:
                raise RuntimeError("the zygote ended")
            return request_id, self._pids.pop(request_id)

    def exit_status(self, request_id: int, pid: int, timeout: float | None) -> int | None:
        with self._changed:
            self._changed.wait_for(lambda: request_id in self._exits or self.ready is False, timeout)
            if request_id in self._exits:
                return self._exits.pop(request_id)
        if self.ready is False and not _running(pid):
            return UNKNOWN_EXIT
        return None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(5)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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


def command(*args: str) -> list[str]:
    """The plain command line, for what runs without the zygote."""
    return [sys.executable, "-m", "agentic_ds", *args]


def popen(args: Sequence[str], *, cwd: os.PathLike[str] | str | None = None, env: Mapping[str, str] | None = None,
          stdin: int | None = None, stdout: int | None = None, stderr: int | None = None,
          text: bool = False) -> WarmProcess | subprocess.Popen[Any]:
    """`agentic-ds ARGS` as `subprocess.Popen(command(*args), ...)` would start it (PIPE, DEVNULL or None for
    each stream), forked from the zygote when there is one."""
    warm = zygote()
    if warm is None:
        return subprocess.Popen(command(*args), cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=stderr,
                                text=text)
    ends: list[int] = []           # the child's descriptors, closed here once it has them
    mine: list[IO[Any] | None] = []
    for fd, choice, mode in ((0, stdin, "w"), (1, stdout, "r"), (2, stderr, "r")):
        if choice == subprocess.PIPE:
            read, write = os.pipe()
            child_end, own_end = (read, write) if mode == "w" else (write, read)
            ends.append(child_end)
            mine.append(os.fdopen(own_end, mode, encoding="utf-8") if text else os.fdopen(own_end, mode + "b"))
        elif choice == subprocess.DEVNULL:
            ends.append(os.open(os.devnull, os.O_RDWR))
            mine.append(None)
        else:
            ends.append(os.dup(fd))
            mine.append(None)
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


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
