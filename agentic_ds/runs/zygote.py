"""The zygote's own process: it imports the command once, then forks each `agentic-ds` command it is sent.

Started by `warm_start.Zygote` as `python -m agentic_ds.runs.zygote FD`, FD being its end of a socketpair. A
request is a length-prefixed JSON header (arguments, folder, environment, session, death signal) with the
command's three standard descriptors attached (SCM_RIGHTS); the zygote answers with the command's pid once the
command has its session, and with its exit status once it ends, one JSON line each. The command runs through the
same entry point as `python -m agentic_ds` (`agentic_ds.cli.main.main`) with the signal dispositions, standard
streams and `sys.path` a new interpreter would give it; PYTHONPATH's entries and a `sitecustomize` on them are
applied by hand. The zygote forks only while it has a single thread, and returns when the other end is closed.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import io
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import traceback
from collections.abc import Mapping, Sequence
from typing import Any

# What a `run`, `resume` or `ask` of any model imports (the rest comes with them).
PRELOAD = (
    "agentic_ds.cli.main", "agentic_ds.cli.run", "agentic_ds.cli.resume", "agentic_ds.workflow.runner",
    "agentic_ds.workflow.assembly", "agentic_ds.workflow.tree", "agentic_ds.offline.model", "agentic_ds.skills",
    "agentic_ds.report.writer", "agentic_ds.sandbox.isolation", "agentic_ds.sandbox.kernel",
    "agentic_ds.profiling", "agentic_ds.config.models",
)
HEADER = struct.Struct("!I")
PR_SET_PDEATHSIG = 1
_STARTED_IN = os.getcwd()


def serve(fd: int) -> None:
    sock = socket.socket(fileno=fd)
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
        while len(buffered) >= HEADER.size and len(received) >= 3:
            (size,) = HEADER.unpack_from(buffered)
            if len(buffered) < HEADER.size + size:
                break
            request = {**json.loads(buffered[HEADER.size:HEADER.size + size]), "zygote": os.getpid()}
            buffered, streams, received = buffered[HEADER.size + size:], received[:3], received[3:]
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

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
            if os.getppid() != request["zygote"]:   # the zygote ended already
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


if __name__ == "__main__":
    serve(int(sys.argv[1]))
