"""`agentic-ds` commands forked from a process that has imported them already: the zygote.

Starting `python -m agentic_ds run` costs about a CPU-second of imports (ADK, google-genai, the workflow) before
the command reads its arguments. The server starts each run, resume, follow-up and approval as a process of its
own, and an eval one per task: each paid that second again. A `Zygote` is one process that imports the command's
modules once and forks each command from itself. The command runs as before: in a process of its own, with its
own pid, arguments, working directory, environment, standard streams (handed over a Unix socket), session,
signals and exit status, through the same entry point as `python -m agentic_ds` (`agentic_ds.cli.main.main`).
What it skips is the interpreter's start, so PYTHONPATH's entries and a `sitecustomize` on them are applied by
hand. `ps` shows the zygote's command line for it.

The zygote forks only while it has a single thread (otherwise it refuses, and callers start the plain command).
It ends when the process that started it closes the socket or dies; a command that asked to die with its parent
then gets SIGTERM (`PR_SET_PDEATHSIG`), as it would have from a parent that died.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# What a `run`, `resume` or `ask` of any model imports (the rest comes with them).
PRELOAD = (
    "agentic_ds.cli.main", "agentic_ds.cli.run", "agentic_ds.cli.resume", "agentic_ds.workflow.runner",
    "agentic_ds.workflow.assembly", "agentic_ds.workflow.tree", "agentic_ds.offline.model", "agentic_ds.skills",
    "agentic_ds.report.writer", "agentic_ds.sandbox.isolation", "agentic_ds.sandbox.kernel",
    "agentic_ds.profiling", "agentic_ds.config.models",
)
UNKNOWN_EXIT = 255          # the zygote ended before it could say how a command ended
READY_TIMEOUT_S = 120.0
_HEADER = struct.Struct("!I")
_PR_SET_PDEATHSIG = 1


def command(*args: str) -> list[str]:
    """The plain command line of `agentic-ds ARGS`, for when there is no zygote."""
    return [sys.executable, "-m", "agentic_ds", *args]


# -- the zygote ------------------------------------------------------------------------------------------------
_STARTED_IN = os.getcwd()


def _serve(fd: int) -> None:
    sock = socket.socket(fileno=fd)
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    if threading.active_count() != 1 or len(os.listdir("/proc/self/task")) != 1:
        _send(sock, {"refused": "more than one thread after its imports"})
        return
    wake_r, wake_w = os.pipe()
    for end in (wake_r, wake_w):
        os.set_blocking(end, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    _send(sock, {"ready": os.getpid()})
    ids: dict[int, int] = {}         # command pid -> request id
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
            return                   # whoever started it is gone
        buffered, received = buffered + data, received + fds
        while len(buffered) >= _HEADER.size and len(received) >= 3:
            (size,) = _HEADER.unpack_from(buffered)
            if len(buffered) < _HEADER.size + size:
                break
            request = json.loads(buffered[_HEADER.size:_HEADER.size + size])
            buffered, streams, received = buffered[_HEADER.size + size:], received[:3], received[3:]
            settled_r, settled_w = os.pipe()   # closed by the child once it has its session: then its pid is told
            pid = os.fork()
            if pid == 0:
                for own in (sock.fileno(), wake_r, wake_w, settled_r, *received):
                    os.close(own)
                _child(request, streams, settled_w)   # never returns
            for own in (settled_w, *streams):
                os.close(own)
            with contextlib.suppress(OSError):
                os.read(settled_r, 1)
            os.close(settled_r)
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


def _child(request: Mapping[str, Any], fds: Sequence[int], settled: int) -> None:
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)   # as a new interpreter sets them
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        if request["new_session"]:
            os.setsid()
        if request["die_with_parent"] and sys.platform.startswith("linux"):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
            if os.getppid() == 1:    # the zygote ended already
                os.kill(os.getpid(), signal.SIGTERM)
        os.close(settled)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        if sys.path and sys.path[0] == _STARTED_IN:
            sys.path[0] = request["cwd"]   # `python -m` puts the folder it starts in first
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
    zygote's `sys.__stdout__` and the like already write to the descriptors the command was given)."""
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


# -- the side that starts commands -----------------------------------------------------------------------------
class Zygote:
    """The starting process's end of a zygote: `spawn()` a command, learn how it ended. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()        # one request on the socket at a time
        self._changed = threading.Condition()
        self._pids: dict[int, int] = {}      # request id -> pid
        self._exits: dict[int, int] = {}     # request id -> exit status, until asked for
        self._waiting: dict[int, tuple[int, Callable[[int], None]]] = {}   # request id -> (pid, told when it ends)
        self._next = 0
        self._process: subprocess.Popen[bytes] | None = None
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock = mine
        self.ready: bool | None = None       # None while it imports; False once it refused or ended
        if not sys.platform.startswith("linux"):   # forking an imported interpreter is only safe to rely on there
            theirs.close()
            self.ready = False
            return
        with theirs:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "agentic_ds.runs.warm_start", str(theirs.fileno())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                start_new_session=True,      # a terminal's Ctrl-C is for the process that started it
            )
        threading.Thread(target=self._listen, name="agentic-ds-zygote", daemon=True).start()

    def _listen(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in self._sock.makefile("rb"):
                message = json.loads(line)
                told: Callable[[int], None] | None = None
                with self._changed:
                    if "ready" in message:
                        self.ready = True
                    elif "refused" in message:
                        self.ready = False
                    elif "exit" in message and message["id"] in self._waiting:
                        told = self._waiting.pop(message["id"])[1]
                    elif "exit" in message:
                        self._exits[message["id"]] = message["exit"]
                    else:
                        self._pids[message["id"]] = message["pid"]
                    self._changed.notify_all()
                if told is not None:
                    told(message["exit"])
        with self._changed:
            self.ready = False
            orphans, self._waiting = list(self._waiting.values()), {}
            self._changed.notify_all()
        _tell_when_gone(orphans)

    def usable(self, timeout: float = READY_TIMEOUT_S) -> bool:
        """True once it has imported and can fork; False when it refused or ended (or did not answer in time)."""
        with self._changed:
            self._changed.wait_for(lambda: self.ready is not None, timeout)
            return bool(self.ready)

    def spawn(self, args: Sequence[str], *, cwd: str, env: Mapping[str, str], stdin: int, stdout: int, stderr: int,
              new_session: bool = False, die_with_parent: bool = False) -> tuple[int, int]:
        """Fork `agentic-ds ARGS` with descriptors 0-2 copies of these; (request id, pid). Raises OSError when
        the zygote is gone."""
        with self._lock:
            self._next += 1
            request_id = self._next
            body = json.dumps({"id": request_id, "args": list(args), "cwd": cwd, "env": dict(env),
                               "new_session": new_session, "die_with_parent": die_with_parent}).encode()
            payload = _HEADER.pack(len(body)) + body
            sent = socket.send_fds(self._sock, [payload], [stdin, stdout, stderr])
            self._sock.sendall(payload[sent:])
        with self._changed:
            self._changed.wait_for(lambda: request_id in self._pids or self.ready is False, READY_TIMEOUT_S)
            if request_id not in self._pids:
                raise OSError("the zygote ended before it forked the command")
            return request_id, self._pids.pop(request_id)

    def exit_status(self, request_id: int, pid: int, timeout: float | None) -> int | None:
        """How the command ended (as `Popen.returncode`), or None while it runs (after `timeout` seconds)."""
        with self._changed:
            self._changed.wait_for(lambda: request_id in self._exits or self.ready is False, timeout)
            if request_id in self._exits:
                return self._exits.pop(request_id)
        if self.ready is False and not _running(pid):
            return UNKNOWN_EXIT
        return None

    def when_ended(self, request_id: int, pid: int, tell: Callable[[int], None]) -> None:
        """Call `tell(exit status)` once the command has ended (from the zygote's listening thread, or now)."""
        with self._changed:
            if request_id not in self._exits and self.ready is not False:
                self._waiting[request_id] = (pid, tell)
                return
            code = self._exits.pop(request_id, None)
        if code is not None:
            tell(code)
        else:
            threading.Thread(target=_tell_when_gone, args=([(pid, tell)],), daemon=True).start()

    def close(self) -> None:
        """End the zygote (commands it forked go on, but for those that asked to die with their parent)."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(5)


def _tell_when_gone(commands: list[tuple[int, Callable[[int], None]]]) -> None:
    """The zygote ended: how these commands end is not known any more, only when they do."""
    for pid, tell in commands:
        while _running(pid):
            time.sleep(0.2)
        tell(UNKNOWN_EXIT)


def _running(pid: int) -> bool:
    """The process exists and has not ended (a zombie nobody reaps has ended)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()[:1] != [b"Z"]
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# -- asyncio: what the server and the eval use -----------------------------------------------------------------
class _Feed:
    """A command's stdin as `asyncio.subprocess.Process.stdin` is used here: write, drain, close."""

    def __init__(self, fd: int) -> None:
        self._fd, self._pending = fd, b""

    def write(self, data: bytes) -> None:
        self._pending += data

    async def drain(self) -> None:
        data, self._pending = self._pending, b""
        if data:
            await asyncio.to_thread(_write_all, self._fd, data)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class WarmCommand:
    """A forked command with the parts of `asyncio.subprocess.Process` the server and the eval use."""

    def __init__(self, zygote: Zygote, request_id: int, pid: int, stdin: _Feed | None,
                 stdout: asyncio.StreamReader | None, stderr: asyncio.StreamReader | None) -> None:
        self._zygote, self._id = zygote, request_id
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.returncode: int | None = None
        self._ended: asyncio.Future[int] | None = None

    async def wait(self) -> int:
        if self.returncode is None:
            if self._ended is None:
                loop = asyncio.get_running_loop()
                ended: asyncio.Future[int] = loop.create_future()
                self._ended = ended

                def tell(code: int) -> None:
                    loop.call_soon_threadsafe(_settle, ended, code)

                self._zygote.when_ended(self._id, self.pid, tell)
            self.returncode = await asyncio.shield(self._ended)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)


def _settle(future: asyncio.Future[int], code: int) -> None:
    if not future.done():
        future.set_result(code)


async def start_command(zygote: Zygote, args: Sequence[str], *, stdin: int | None, stdout: int | None,
                        stderr: int | None, cwd: str | None = None, env: Mapping[str, str] | None = None,
                        new_session: bool = False, die_with_parent: bool = False) -> WarmCommand:
    """`asyncio.create_subprocess_exec(*command(*args), ...)` forked from `zygote`: each stream
    `asyncio.subprocess.PIPE`, `DEVNULL`, an open descriptor, or None (this process's own)."""
    loop = asyncio.get_running_loop()
    ends: list[int] = []              # the command's descriptors, closed here once it has them
    own: list[int] = []
    try:
        for fd, choice in ((0, stdin), (1, stdout), (2, stderr)):
            if choice == subprocess.PIPE:
                read, write = os.pipe()
                ends.append(read if fd == 0 else write)
                own.append(write if fd == 0 else read)
                continue
            own.append(-1)
            if choice == subprocess.DEVNULL:
                ends.append(os.open(os.devnull, os.O_RDWR))
            else:
                ends.append(os.dup(fd if choice is None else choice))
        request_id, pid = await asyncio.to_thread(
            zygote.spawn, args, cwd=cwd or os.getcwd(), env=dict(os.environ if env is None else env),
            stdin=ends[0], stdout=ends[1], stderr=ends[2], new_session=new_session, die_with_parent=die_with_parent)
    except BaseException:
        for fd in own:
            if fd >= 0:
                os.close(fd)
        raise
    finally:
        for fd in ends:
            os.close(fd)
    readers: list[asyncio.StreamReader | None] = []
    for fd in own[1:]:
        if fd < 0:
            readers.append(None)
            continue
        reader = asyncio.StreamReader(loop=loop)
        await loop.connect_read_pipe(functools.partial(asyncio.StreamReaderProtocol, reader), os.fdopen(fd, "rb", 0))
        readers.append(reader)
    return WarmCommand(zygote, request_id, pid, _Feed(own[0]) if own[0] >= 0 else None, readers[0], readers[1])


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
