"""`agentic-ds` commands forked from a process that has imported them already: the zygote (`runs/zygote.py`).

Starting `python -m agentic_ds run` costs about a CPU-second of imports (ADK, google-genai, the workflow) before
the command reads its arguments. The server starts each run, resume, follow-up and approval as a process of its
own, and an eval one per task: each paid that second again. A `Zygote` is one process that imports the command's
modules once and forks each command from itself. The command runs as before: in a process of its own, with its
own pid, arguments, working directory, environment, standard streams (handed over a Unix socket), session,
signals and exit status, through the same entry point as `python -m agentic_ds`. `ps` shows the zygote's command
line for it.

When the zygote cannot fork (a thread after its imports, not Linux, or it ended), callers start the plain
command. It ends when the process that started it closes the socket or dies; a command that asked to die with its
parent then gets SIGTERM (`PR_SET_PDEATHSIG`), as it would have from a parent that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from agentic_ds.runs.zygote import HEADER, PR_SET_PDEATHSIG

UNKNOWN_EXIT = 255          # the zygote ended before it could say how a command ended
READY_TIMEOUT_S = 120.0


def command(*args: str) -> list[str]:
    """The plain command line of `agentic-ds ARGS`, for when there is no zygote."""
    return [sys.executable, "-m", "agentic_ds", *args]


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
                [sys.executable, "-m", "agentic_ds.runs.zygote", str(theirs.fileno())],
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
            payload = HEADER.pack(len(body)) + body
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
        if self.ready is False:
            deadline = None if timeout is None else time.monotonic() + timeout
            while running(pid) and (deadline is None or time.monotonic() < deadline):
                time.sleep(0.2)
            if not running(pid):
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
        while running(pid):
            time.sleep(0.2)
        tell(UNKNOWN_EXIT)


def running(pid: int) -> bool:
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


def child_streams(stdin: int | None, stdout: int | None, stderr: int | None) -> tuple[list[int], list[int]]:
    """Descriptors 0-2 for a command, each `subprocess.PIPE`, `DEVNULL`, an open descriptor, or None (this
    process's own): (the command's ends, to close once it has them; this side's pipe ends, -1 where none)."""
    ends: list[int] = []
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
    except BaseException:
        for fd in (*ends, *own):
            if fd >= 0:
                os.close(fd)
        raise
    return ends, own


async def start_command(zygote: Zygote, args: Sequence[str], *, stdin: int | None, stdout: int | None,
                        stderr: int | None, cwd: str | None = None, env: Mapping[str, str] | None = None,
                        new_session: bool = False, die_with_parent: bool = False) -> WarmCommand:
    """`asyncio.create_subprocess_exec(*command(*args), ...)` forked from `zygote` (streams as `child_streams`
    takes them)."""
    loop = asyncio.get_running_loop()
    ends, own = child_streams(stdin, stdout, stderr)
    try:
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


async def launch(zygote: Zygote | None, args: Sequence[str], *, stdin: int | None, stdout: int | None,
                 stderr: int | None, cwd: str | None = None, new_session: bool = False,
                 die_with_parent: bool = False) -> asyncio.subprocess.Process | WarmCommand:
    """`agentic-ds ARGS` forked from `zygote` when it can fork, else the plain `python -m agentic_ds` (streams as
    for `asyncio.create_subprocess_exec`). `die_with_parent`: SIGTERM when the parent ends (Linux)."""
    if zygote is not None and await asyncio.to_thread(zygote.usable):
        with contextlib.suppress(OSError):   # it ended since: the plain command then
            return await start_command(zygote, args, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd,
                                       new_session=new_session, die_with_parent=die_with_parent)
    return await asyncio.create_subprocess_exec(
        *command(*args), stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, start_new_session=new_session,
        preexec_fn=die_with_parent_hook() if die_with_parent else None,
    )


def die_with_parent_hook() -> Callable[[], None] | None:
    """A pre-exec hook that makes the child get SIGTERM when this process dies (Linux), else None. The C function
    is looked up here, before the fork, so the child only makes the call."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
        if os.getppid() != parent:   # the parent died before the hook ran
            os.kill(os.getpid(), signal.SIGTERM)

    return hook

