"""The server's child processes: at most `max_runs` at once, the rest waiting in the queue, each run in its own
`agentic-ds` process.

A child is `agentic-ds resume|approve RUN --json` (`queue.Job.argv`), forked from the server's zygote
(`runs.warm_start`: the command imported once; the plain `python -m agentic_ds` if it cannot fork), in the server's
working directory and environment (its configuration, `.env` and API keys are the server's), in its own session,
its standard output discarded (the run writes events.jsonl) and its standard error kept in `<workdir>/.serve/logs/`.
On Linux the child is also told to receive SIGTERM when its parent dies (`PR_SET_PDEATHSIG`; the zygote ends with
the server), so a server that is killed leaves its runs stopped cleanly, as SIGTERM stops a CLI run: `incomplete`,
the signal named, reports written, resumable.

Cancelling sends SIGTERM to the child, as a user would; after `grace_s` without an end, its process group is
killed. What each job ended with is kept in `<workdir>/.serve/jobs/<run>.json` (`last_job` in the API).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentic_ds.runs import safe_files
from agentic_ds.runs.warm_start import WarmCommand, Zygote, launch
from agentic_ds.schema import RunRecord, RunStatus, now_iso, read_model
from agentic_ds.server.queue import Job, JobQueue

STDERR_TAIL_BYTES = 4000


@dataclass
class Active:
    """A job whose process is starting or running."""

    job: Job
    process: asyncio.subprocess.Process | WarmCommand | None = None
    cancelled: bool = False
    started_at: str = ""


class Supervisor:
    def __init__(self, workdir: Path, max_runs: int, *, config: str | None = None, grace_s: float = 30.0) -> None:
        self.workdir = workdir
        self.state_dir = workdir / ".serve"
        self.queue = JobQueue(self.state_dir / "queue")
        self.max_runs = max_runs
        self.config = config
        self.grace_s = grace_s
        self.active: dict[str, Active] = {}
        self.on_change: Callable[[], None] = lambda: None
        self._waiters: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._zygote: Zygote | None = None     # started with the first job

    # -- what the API reads ------------------------------------------------------------------------
    def dispatch_of(self, run_id: str) -> tuple[str, Job] | None:
        """("running", job) while the run's process works, ("queued", job) while its job waits, else None."""
        if run_id in self.active:
            return "running", self.active[run_id].job
        job = self.queue.find(run_id)
        return ("queued", job) if job is not None else None

    def busy(self, run_id: str) -> bool:
        return self.dispatch_of(run_id) is not None

    def last_job(self, run_id: str) -> dict[str, Any] | None:
        path = self.state_dir / "jobs" / f"{run_id}.json"
        try:
            data = json.loads(safe_files.read_text(path, root=self.state_dir))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self, queued_runs: list[str]) -> list[str]:
        """Load the queue a previous server left and queue every prepared run that has no job; start what fits.
        Returns the queue files that could not be read."""
        problems = self.queue.load()
        for job in list(self.queue.jobs):
            if not (self.workdir / job.run_id / "run.json").is_file():
                self.queue.drop(job)   # its run directory is gone
        for run_id in queued_runs:
            if self.queue.find(run_id) is None:
                self.queue.push(Job(run_id=run_id, action="start"))
        self.kick()
        return problems

    def submit(self, job: Job) -> None:
        self.queue.push(job)
        self.on_change()
        self.kick()

    def kick(self) -> None:
        """Start waiting jobs while there are free slots."""
        while not self._stopping and len(self.active) < self.max_runs and self.queue.jobs:
            job = self.queue.jobs[0]
            self.queue.drop(job)
            self.active[job.key] = Active(job=job, started_at=now_iso())
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._waiters.add(task)
            task.add_done_callback(self._waiters.discard)
        self.on_change()

    async def cancel(self, run_id: str) -> str:
        """Stop the run's job: "dequeued" (it was waiting) or "signalled" (its process got SIGTERM); "" if none."""
        job = self.queue.find(run_id)
        if job is not None:
            self.queue.drop(job)
            self.on_change()
            return "dequeued"
        active = self.active.get(run_id)
        if active is None:
            return ""
        active.cancelled = True
        if active.process is not None:
            self._signal(active.process, signal.SIGTERM)
        return "signalled"

    async def shutdown(self) -> None:
        """Stop every child as SIGTERM stops a run (they end resumable), then wait; kill what outlives the grace."""
        self._stopping = True
        for active in self.active.values():
            active.cancelled = True
            if active.process is not None:
                self._signal(active.process, signal.SIGTERM)
        if self._waiters:
            await asyncio.wait(set(self._waiters), timeout=self.grace_s + 10)
        if self._zygote is not None:
            self._zygote.close()

    # -- one job -----------------------------------------------------------------------------------
    async def _run(self, job: Job) -> None:
        active = self.active[job.key]
        run_dir = self.workdir / job.run_id
        log_dir = self.state_dir / "logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        log_path = log_dir / f"{job.key}.log"
        code: int | None = None
        try:
            args = job.argv(run_dir)
            if self.config:
                args += ["--config", self.config]
            with safe_files.open_append(log_path, root=log_dir, text=False) as log:
                log.write(f"\n== {now_iso()} {' '.join(args)}\n".encode())
                active.process = await self._start(args, log.fileno())
            if active.cancelled:   # cancelled while it was starting
                self._signal(active.process, signal.SIGTERM)
            await _feed(active.process, job.stdin)
            code = await self._wait(active.process, active)
        except OSError as exc:
            _append(log_path, log_dir, f"could not start: {exc}\n")
        finally:
            self._finished(job, code, log_path, log_dir)

    async def _start(self, args: list[str], log: int) -> asyncio.subprocess.Process | WarmCommand:
        """`agentic-ds ARGS` in its own session, forked from the server's zygote (`runs.warm_start`)."""
        if self._zygote is None:
            self._zygote = Zygote()
        return await launch(self._zygote, args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
                            stderr=log, new_session=True, die_with_parent=True)

    async def _wait(self, process: asyncio.subprocess.Process | WarmCommand, active: Active) -> int:
        while True:
            try:
                return await asyncio.wait_for(process.wait(), timeout=self.grace_s if active.cancelled else None)
            except TimeoutError:   # asked to stop, still going after the grace: kill it with all it started
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)

    def _finished(self, job: Job, code: int | None, log_path: Path, log_dir: Path) -> None:
        active = self.active.pop(job.key, None)
        tail = _tail(log_path, log_dir)
        result = {"action": job.action, "exit_code": code, "started_at": active.started_at if active else "",
                  "ended_at": now_iso(), "cancelled": bool(active and active.cancelled), "stderr_tail": tail}
        with contextlib.suppress(OSError):
            jobs = self.state_dir / "jobs"
            jobs.mkdir(parents=True, exist_ok=True)
            safe_files.write_json(jobs / f"{job.key}.json", result, root=jobs)
        if job.action == "start":
            _never_started(self.workdir / job.run_id, code, bool(active and active.cancelled), tail)
        if job.action == "ask":
            _followup_never_started(self.workdir / job.run_id, job.followup, code, tail)
        self.kick()

    @staticmethod
    def _signal(process: asyncio.subprocess.Process | WarmCommand, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)


def _never_started(run_dir: Path, code: int | None, cancelled: bool, tail: str) -> None:
    """A start job whose process ended with the run still `queued` (refused, killed before it began, cancelled):
    the run says so, and `agentic-ds resume` can still start it."""
    try:
        record = read_model(RunRecord, json.loads(safe_files.read_text(run_dir / "run.json", root=run_dir)))
    except (OSError, ValueError):
        return
    if record is None or record.status is not RunStatus.QUEUED:
        return
    last = " ".join(line for line in tail.splitlines() if line.startswith(("error:", "hint:")))[-600:]
    if cancelled:
        record.status, record.reason = RunStatus.INCOMPLETE, "cancelled before it started"
    else:
        record.status = RunStatus.FAILED
        record.reason = f"its process ended before the run started (exit code {code}): {last or 'no error given'}"
    record.reason += f"; `agentic-ds resume {run_dir.name}` starts it"
    record.save(run_dir / "run.json")


def _followup_never_started(run_dir: Path, followup: str, code: int | None, tail: str) -> None:
    """An ask job whose process ended before the follow-up's run started (refused, killed): its record says so."""
    from agentic_ds.followups import record as followups
    from agentic_ds.followups.answer import finish

    with contextlib.suppress(Exception):
        found = followups.read(run_dir, followup)
        if found is None or found.status is not RunStatus.QUEUED:
            return
        last = " ".join(line for line in tail.splitlines() if line.startswith(("error:", "hint:")))[-600:]
        found.reason = f"its process ended before it started (exit code {code}): {last or 'no error given'}"
        workspace, _ = followups.find(run_dir, found.id)
        finish(run_dir, workspace, found)


async def _feed(process: asyncio.subprocess.Process | WarmCommand, text: str) -> None:
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(text.encode("utf-8"))
        await process.stdin.drain()
    process.stdin.close()


def _tail(path: Path, root: Path) -> str:
    try:
        with safe_files.open_read(path, root=root) as handle:
            size = handle.seek(0, 2)
            handle.seek(max(0, size - STDERR_TAIL_BYTES))
            return handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _append(path: Path, root: Path, text: str) -> None:
    with contextlib.suppress(OSError), safe_files.open_append(path, root=root) as handle:
        handle.write(text)
