"""What a Ray worker does with one task: run it as `agentic-ds run --json`, and bring its run directory back.

A Ray task of its own (a generator: it yields `started`, the child's few events, then one `outcome`). A worker
that sees the eval's folder (a local Ray, or `--workdir` on a path every node mounts) runs the task straight into
it. One that does not (its own disk) gets the inputs and the configuration from the object store, runs the task
in a scratch folder, and returns the run directory packed (`run_archive.py`, within the eval's cap); the scratch
folder is removed unless files had to stay there for size. The child is tied to the thread that starts it, so if
the worker dies its run is stopped (SIGTERM) rather than left going on beside the retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import shutil
import socket
import tempfile
import threading
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import agentic_ds
from agentic_ds.evaluation.child import RunOutcome, RunSpec, run_child
from agentic_ds.evaluation.run_archive import pack_run, unpack_input

_END = object()
STOP_WAIT_S = 30.0
POLL_S = 0.5


def sees_eval_dir(runs_dir: str, token: str) -> bool:
    """Whether this machine shares the eval's folder: the token the eval wrote there is readable here."""
    try:
        return (Path(runs_dir) / ".shared-token").read_text(encoding="utf-8").strip() == token
    except OSError:
        return False


def run_task(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The Ray task: `payload` holds the `RunSpec` as a dict, the eval's token, its version, what to ship."""
    spec = RunSpec(**payload["spec"])
    host = socket.gethostname()
    yield {"kind": "started", "where": host}
    if payload["version"] != agentic_ds.__version__:
        yield {"kind": "outcome", "error": f"the worker on {host} has agentic-ds {agentic_ds.__version__}, the eval "
                                           f"{payload['version']}: install the same version on every node"}
        return
    shared = not payload["ship"] and sees_eval_dir(spec.runs_dir, payload["token"])
    scratch = None if shared else Path(tempfile.mkdtemp(prefix="agentic-ds-eval-"))
    try:
        options: dict[str, Any] = {"cwd": payload["cwd"] if shared and os.path.isdir(payload["cwd"]) else scratch}
        if scratch is not None:
            options.update(_on_own_disk(payload, spec, scratch))
        outcome = yield from _run(spec, options, forward_dirs=shared)
        final: dict[str, Any] = {"kind": "outcome", **outcome.__dict__, "where": host}
        if scratch is not None:
            final.update(_packed(outcome, payload["return_cap"], host))
            if final.get("kept"):
                scratch = None                 # files stayed there: keep the folder
        yield final
    except _Missing as missing:
        yield {"kind": "outcome", "error": str(missing), "where": host}
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


class _Missing(Exception):
    """An input this worker cannot have."""


def _on_own_disk(payload: dict[str, Any], spec: RunSpec, scratch: Path) -> dict[str, Any]:
    """Inputs unpacked under scratch/in/ at their original absolute paths (so the run names them as the eval's
    machine would), the configuration written beside them, runs in scratch/runs/."""
    import ray

    into = scratch / "in"
    for path, box in payload["inputs"].items():
        ref = box[0] if box else None
        if ref is None:
            raise _Missing(f"input {path} is not on this worker and is over the size shipped through Ray: put the "
                           "data on a path every node mounts and run the eval with --workdir on it")
        unpack_input(ray.get(ref), into)
    files = [str(into / path.lstrip("/")) for path in spec.files]      # resolved by the eval already
    flags = list(spec.flags)
    if payload.get("config_text") is not None:
        config = scratch / "agentic-ds.yaml"
        config.write_text(payload["config_text"], encoding="utf-8")
        flags = _without_config(flags) + ["--config", str(config)]
    return {"runs_dir": scratch / "runs", "files": files, "flags": flags}


def _run(spec: RunSpec, options: dict[str, Any], forward_dirs: bool) -> Generator[dict[str, Any], None, RunOutcome]:
    """Run the child in a thread of its own (its events yielded as they come); a cancel from Ray (a
    KeyboardInterrupt here) stops it cleanly first. Returns its outcome."""
    events: queue.Queue[Any] = queue.Queue()
    loop = asyncio.new_event_loop()
    task = loop.create_task(run_child(spec, events.put, die_with_parent=True, **options))
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["outcome"] = loop.run_until_complete(task)
        except BaseException as exc:       # cancelled, or a bug: said in the outcome
            result["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            loop.close()
            events.put(_END)

    thread = threading.Thread(target=work, name=f"eval-{spec.id}", daemon=True)
    thread.start()
    try:
        while True:
            try:
                event = events.get(timeout=POLL_S)    # a timeout, so that Ray's cancel (an interrupt) gets in
            except queue.Empty:
                continue
            if event is _END:
                break
            if not forward_dirs:
                event.pop("run_dir", None)     # a path on this worker means nothing to the eval
            yield event
    except BaseException:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(task.cancel)
        thread.join(STOP_WAIT_S)
        raise
    thread.join()
    return result.get("outcome") or RunOutcome(error=result.get("error") or "the run's thread ended without result")


def _packed(outcome: RunOutcome, cap: int, host: str) -> dict[str, Any]:
    if not outcome.run_dir or not Path(outcome.run_dir).is_dir():
        return {"run_dir": None}
    packed = pack_run(Path(outcome.run_dir), cap)
    return {"run_dir": None, "archive": packed.data, "archive_name": Path(outcome.run_dir).name,
            "left": packed.left, "kept": f"{host}:{outcome.run_dir}" if packed.left_for_size else None}


def _without_config(flags: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for flag in flags:
        if skip:
            skip = False
        elif flag == "--config":
            skip = True
        else:
            out.append(flag)
    return out
