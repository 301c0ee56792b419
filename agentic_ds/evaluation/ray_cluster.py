"""The Ray an eval runs on: a local one started for the command, or an existing cluster joined at an address.

Started or joined quietly and with nothing reaching the network: no usage statistics, no dashboard (Ray keeps its
minimal head process, with no web frontend), no worker logs copied to this terminal. A local Ray gets a small
object store and its own temporary folder, both removed when the eval ends; `ray.shutdown()` stops every process
it started. Works as root and with no terminal (CI). `import ray` happens here, and only here, when asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import tempfile
from dataclasses import dataclass
from typing import Any, NoReturn

from agentic_ds.errors import UsageError

LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024      # run directories and inputs pass through it; it spills to disk
NAMESPACE = "agentic-ds-eval"
REACH_TIMEOUT_S = 5.0
LOCAL_START_ATTEMPTS = 2
INSTALL_HINT = "pip install 'agentic-ds[ray]' (on a cluster, the same versions of agentic-ds and ray on every node)"
QUIET_ENVIRONMENT = {
    "RAY_USAGE_STATS_ENABLED": "0",               # no usage report is sent, and no prompt asks about it
    "RAY_USAGE_STATS_PROMPT_ENABLED": "0",
    "RAY_DISABLE_DOCKER_CPU_WARNING": "1",
}


def import_ray() -> Any:
    """The `ray` module, or the usage error saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise UsageError(f"--executor ray needs Ray, which is not installed here ({exc})", hint=INSTALL_HINT) from None
    return ray


@dataclass
class RayCluster:
    """A Ray this process is connected to: where, how many CPUs and nodes, and what to clean up at the end."""

    ray: Any
    address: str | None                           # None: the local Ray started for this eval
    cpus: int
    nodes: int
    temp_dir: str | None = None

    @property
    def label(self) -> str:
        where = "a local Ray" if self.address is None else f"the Ray cluster at {self.address}"
        cpus, nodes = f"{self.cpus} CPU" + "s" * (self.cpus != 1), f"{self.nodes} node" + "s" * (self.nodes != 1)
        return f"on {where} ({cpus}, {nodes})"

    def shutdown(self) -> None:
        with contextlib.suppress(Exception):
            self.ray.shutdown()
        if self.temp_dir:
            shutil.rmtree(self.temp_dir, ignore_errors=True)


def connect(address: str | None, cpus: int | None) -> RayCluster:
    """Start a local Ray with `cpus` CPUs (default: this machine's), or join the cluster at `address`."""
    ray = import_ray()
    if address is not None:
        _check_reachable(address)
    for name, value in QUIET_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    common: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR, "namespace": NAMESPACE}
    temp_dir = None
    for attempt in range(1, LOCAL_START_ATTEMPTS + 1):
        try:
            if address is None:
                # Ray runs its workers at nice 15 (its control processes first); here the work is each worker's
                # `agentic-ds run` child, which would inherit it and lose the CPU to anything else on the machine.
                os.environ.setdefault("RAY_worker_niceness", "0")
                # A worker that exits has its child SIGKILLed by Ray; left alone, the child gets SIGTERM from its
                # parent-death signal (child.py) and stops as a run does: run.json says why, resumable.
                os.environ.setdefault("RAY_kill_child_processes_on_worker_exit", "0")
                # Short, so Ray's socket paths stay under the 107 bytes a Unix socket allows.
                temp_dir = tempfile.mkdtemp(prefix="ray-ads-", dir="/tmp" if os.path.isdir("/tmp") else None)
                ray.init(address="local", num_cpus=cpus, include_dashboard=False, _temp_dir=temp_dir,
                         object_store_memory=LOCAL_OBJECT_STORE_BYTES, **common)
            else:
                ray.init(address=address, **common)
            break
        except Exception as exc:   # Ray raises ConnectionError, RuntimeError, Exception... for an unusable cluster
            with contextlib.suppress(Exception):
                ray.shutdown()
            if temp_dir:
                shutil.rmtree(temp_dir, ignore_errors=True)
            if address is None and attempt < LOCAL_START_ATTEMPTS:
                continue           # a busy machine can miss Ray's fixed 30 s for its raylet to register
            _refuse(address, exc)
    # Ray prints its own line on stdout when a worker dies; the eval's progress says so already, and stdout is the
    # eval's (its last line is the summary). ray.util.rpdb turns the same switch off.
    with contextlib.suppress(AttributeError):
        ray._private.worker._worker_logs_enabled = False
    resources = ray.cluster_resources()
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    return RayCluster(ray=ray, address=address, cpus=int(resources.get("CPU", 0)), nodes=nodes, temp_dir=temp_dir)


def _check_reachable(address: str) -> None:
    """A `HOST:PORT` that takes no connection is a usage error now (Ray itself would retry for minutes); `auto`
    and `ray://` addresses are left to Ray."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except OSError as exc:
        raise UsageError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}",
                         hint="start it with `ray start --head` and give the address it prints (HOST:6379), or "
                              "leave out --address to start a local Ray") from None


def _refuse(address: str | None, exc: Exception) -> NoReturn:
    where = f"the Ray cluster at {address}" if address else "a local Ray"
    hint = ("check the address `ray start --head` printed (HOST:6379); a cluster with token authentication needs "
            "RAY_AUTH_MODE=token and its token (RAY_AUTH_TOKEN, printed by `ray get-auth-token` on the head) here"
            if address else "use --executor local")
    raise UsageError(f"cannot start or join {where}: {type(exc).__name__}: {' '.join(str(exc).split())[:400]}",
                     hint=hint) from None
