"""Run many Python scripts, each in its own process, from one interpreter that imported the heavy libraries once.

`python tests/script_pool.py PARALLEL TIMEOUT_S MODULE...` imports the MODULEs, then reads a JSON list of
`[folder, script, output]` from stdin and forks one child per script (at most PARALLEL at a time): the child
changes into `folder`, sends its stdout and stderr to `output`, runs `script` as `__main__` (as `python script`
would: its folder first on sys.path, a traceback and exit code 1 on an uncaught exception, SystemExit's code
otherwise) and exits; SIGALRM ends it after TIMEOUT_S seconds (exit code -14). One line of JSON per finished
script, `{"index": i, "returncode": n}`, goes to stdout.

A child starts from the parent's imported modules, not from a fresh interpreter: each script still runs in its own
process with its own globals (a name it forgot to import is still a NameError), as cells in a kernel that imported
pandas in an earlier cell do; what it saves is the interpreter's start and the imports (1-2 CPU seconds a script).
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import signal
import sys
import traceback


def _child(folder: str, script: str, output: str, timeout_s: int) -> int:
    signal.alarm(timeout_s)
    os.chdir(folder)
    out = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.argv = [script]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - what `python script` does: the traceback, then exit code 1
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001, S110 - a closed stream has nothing left to write
            pass
    return code


def main() -> None:
    parallel, timeout_s = int(sys.argv[1]), int(sys.argv[2])
    for module in sys.argv[3:]:
        importlib.import_module(module)
    jobs = json.loads(sys.stdin.read())
    running: dict[int, int] = {}

    def reap() -> None:
        pid, status = os.wait()
        index = running.pop(pid)
        print(json.dumps({"index": index, "returncode": os.waitstatus_to_exitcode(status)}), flush=True)

    for index, (folder, script, output) in enumerate(jobs):
        while len(running) >= parallel:
            reap()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _child(folder, script, output, timeout_s)
            finally:
                os._exit(code)
        running[pid] = index
    while running:
        reap()


if __name__ == "__main__":
    main()
