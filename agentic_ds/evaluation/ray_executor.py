"""The `ray` executor: each task a Ray task (`ray_task.py`) running one `agentic-ds run`, anywhere in the cluster.

Every task is submitted at once and Ray schedules them by CPUs (one each), so a bigger cluster runs more at once;
`--parallel` caps how many are in flight on a cluster, and is the CPU count of a local Ray. A task whose worker
process or node dies is submitted once more, then recorded as an error; an error of the task's own code is not
retried. A run directory that comes back packed is unpacked under the eval's runs/ (a `-2`... suffix if its name is
taken) with `left_on_worker.json` naming what stayed on the worker. Inputs go through the object store (each once)
only when the cluster may not share this machine's files: when it was given by address.

Environment: `AGENTIC_DS_EVAL_RETURN_MB` sets the cap on a returned run directory (default 256);
`AGENTIC_DS_EVAL_SHIP_RUNS=1` makes every worker act as if it did not share the eval's files (for tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import agentic_ds
from agentic_ds.errors import UsageError
from agentic_ds.evaluation.child import Report, RunOutcome, RunSpec
from agentic_ds.evaluation.ray_cluster import RayCluster, connect
from agentic_ds.evaluation.ray_task import run_task
from agentic_ds.evaluation.run_archive import RETURN_CAP_BYTES, pack_input, unpack_run
from agentic_ds.runs import safe_files

MAX_ATTEMPTS = 2
STOP_WAIT_S = 30.0                 # a cancelled run gets 20 s to stop cleanly (child.INTERRUPT_GRACE_S), then is killed
_OUTCOME_FIELDS = {f.name for f in fields(RunOutcome)}


class WorkerLost(Exception):
    """The worker process (or its node) running an attempt died."""


class RayExecutor:
    def __init__(self, cluster: RayCluster, parallel: int | None, return_cap: int = RETURN_CAP_BYTES) -> None:
        self.cluster = cluster
        self.ray = cluster.ray
        capped = parallel if cluster.address is not None else None
        self._slots = asyncio.Semaphore(capped) if capped else None
        self.label = cluster.label + (f", at most {capped} at once" if capped else "")
        self.force_ship = os.environ.get("AGENTIC_DS_EVAL_SHIP_RUNS", "") not in ("", "0")
        self.ship_inputs = cluster.address is not None or self.force_ship
        self.return_cap = return_cap
        self._remote = self.ray.remote(num_cpus=1, max_retries=0)(run_task)
        self._tokens: dict[str, str] = {}
        self._inputs: dict[str, list[Any]] = {}
        self._config: dict[str, str | None] = {}

    @classmethod
    def open(cls, parallel: int | None, address: str | None) -> RayExecutor:
        cap = _return_cap(os.environ.get("AGENTIC_DS_EVAL_RETURN_MB", ""))     # checked before Ray starts
        return cls(connect(address, parallel if address is None else None), parallel, cap)

    async def submit(self, spec: RunSpec, report: Report) -> RunOutcome:
        async with self._slots or contextlib.nullcontext():
            lost_s = 0.0
            for attempt in range(1, MAX_ATTEMPTS + 1):
                started = time.perf_counter()
                try:
                    outcome = await self._attempt(spec, report)
                except WorkerLost as lost:
                    lost_s += time.perf_counter() - started
                    if attempt < MAX_ATTEMPTS:
                        report({"kind": "retry", "reason": f"the Ray worker running it died ({lost})"})
                        continue
                    return RunOutcome(error=f"the Ray worker running it died in each of {attempt} attempts; last: "
                                            f"{lost}", attempts=attempt, wall_s=round(lost_s, 2))
                outcome.attempts, outcome.wall_s = attempt, round(outcome.wall_s + lost_s, 2)
                return outcome
        raise AssertionError("unreachable")

    async def _attempt(self, spec: RunSpec, report: Report) -> RunOutcome:
        exceptions = self.ray.exceptions
        generator = self._remote.options(name=f"eval:{spec.id}").remote(self._payload(spec))
        final: dict[str, Any] | None = None
        try:
            async for ref in generator:
                item = await ref
                if item.get("kind") == "outcome":
                    final = item
                else:
                    report(item)
        except asyncio.CancelledError:        # the eval is interrupted: the worker stops the run as `run` would
            with contextlib.suppress(Exception):
                self.ray.cancel(generator)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(_drain(generator), STOP_WAIT_S)   # its run.json is final before it is read
            raise
        except exceptions.RayTaskError as exc:     # the task's own code failed: a bug, not retried
            return RunOutcome(error=f"the Ray task failed: {_short(exc)}")
        except exceptions.RayError as exc:         # the worker process or its node died
            raise WorkerLost(_short(exc)) from None
        if final is None:
            raise WorkerLost("its task ended without an outcome")
        return self._land(spec, final)

    def _land(self, spec: RunSpec, final: dict[str, Any]) -> RunOutcome:
        """The worker's outcome on this machine: a packed run directory unpacked under runs/."""
        outcome = RunOutcome(**{k: v for k, v in final.items() if k in _OUTCOME_FIELDS})
        archive = final.get("archive")
        if archive is None:
            return outcome
        runs_dir = Path(spec.runs_dir)
        name = str(final.get("archive_name") or spec.id)
        names = [name, *(f"{name}-{i}" for i in range(2, 1000))]
        dest = next(runs_dir / n for n in names if not (runs_dir / n).exists())
        try:
            unpack_run(archive, dest, self.return_cap)
        except (OSError, ValueError, EOFError) as exc:
            outcome.error = outcome.error or f"the run directory came back unusable from {final.get('where')}: {exc}"
            return outcome
        outcome.run_dir = str(dest)
        if final.get("left"):
            record = {"worker": final.get("where"), "kept_at": final.get("kept"), "files": final["left"]}
            safe_files.write_json(dest / "left_on_worker.json", record, root=dest)
        return outcome

    def _payload(self, spec: RunSpec) -> dict[str, Any]:
        return {"spec": asdict(spec), "token": self._token(spec.runs_dir), "version": agentic_ds.__version__,
                "ship": self.force_ship, "cwd": os.getcwd(), "return_cap": self.return_cap,
                "inputs": {path: self._input(path) for path in spec.files} if self.ship_inputs else {},
                "config_text": self._config_text(spec.flags) if self.ship_inputs else None}

    def _token(self, runs_dir: str) -> str:
        """The token a worker reads to know it shares the eval's folder (written once per eval)."""
        if runs_dir not in self._tokens:
            root = Path(runs_dir)
            root.mkdir(parents=True, exist_ok=True)
            self._tokens[runs_dir] = secrets.token_hex(16)
            safe_files.write_atomic(root / ".shared-token", self._tokens[runs_dir] + "\n", root=root)
        return self._tokens[runs_dir]

    def _input(self, path: str) -> list[Any]:
        """[a reference to the input packed in the object store], or [] when it is over the cap (put once)."""
        if path not in self._inputs:
            data = pack_input(Path(path))
            self._inputs[path] = [self.ray.put(data)] if data is not None else []
        return self._inputs[path]

    def _config_text(self, flags: list[str]) -> str | None:
        """The configuration file a run on this machine would read (`--config`, else ./agentic-ds.yaml)."""
        name = flags[flags.index("--config") + 1] if "--config" in flags else "agentic-ds.yaml"
        if name not in self._config:
            path = Path(name)
            self._config[name] = path.read_text(encoding="utf-8") if path.is_file() else None
        return self._config[name]

    def close(self) -> None:
        self.cluster.shutdown()


def _return_cap(megabytes: str) -> int:
    if not megabytes:
        return RETURN_CAP_BYTES
    try:
        cap = int(float(megabytes) * 2**20)
    except ValueError:
        cap = 0
    if cap <= 0:
        raise UsageError(f"AGENTIC_DS_EVAL_RETURN_MB={megabytes!r} is not a size in MB",
                         hint="give a positive number of megabytes, e.g. AGENTIC_DS_EVAL_RETURN_MB=512")
    return cap


async def _drain(generator: Any) -> None:
    """Wait for a cancelled task's generator to end (each of its items or errors is ignored)."""
    async for ref in generator:
        with contextlib.suppress(Exception):
            await ref


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}"
