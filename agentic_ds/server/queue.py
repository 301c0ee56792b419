"""The server's queue of work waiting for a free slot, kept on disk so it survives a restart.

A job is one `agentic-ds` child process to run for one run: start a queued run, resume a stopped one, or continue
one with a decision on its plan. Each waiting job is a file `<workdir>/.serve/queue/<seq>-<run>.json` (written
atomically; `seq` orders them), removed when its process starts: a server that dies after that leaves the run as
its process leaves it (stopped cleanly, and resumable), and does not run it again by itself. A run has at most one
job, waiting or running.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from agentic_ds.runs import safe_files
from agentic_ds.schema import now_iso

Action = Literal["start", "resume", "decide", "ask"]
ACTIONS: tuple[Action, ...] = ("start", "resume", "decide", "ask")


@dataclass
class Job:
    """What to run for a run: `agentic-ds resume RUN` (start, resume), `agentic-ds approve RUN` (decide), or
    `agentic-ds ask RUN --followup ID` (ask: a follow-up question prepared in the run's folder)."""

    run_id: str
    action: Action
    flags: list[str] = field(default_factory=list)   # budgets; `--edit -` or `--stop` for a decision
    stdin: str = ""                                  # a decision's notes (read by `--edit -`)
    seq: int = field(default_factory=time.time_ns)
    enqueued_at: str = field(default_factory=now_iso)
    followup: str = ""                               # ask: the follow-up's id (`NN-slug`)

    @property
    def key(self) -> str:
        """What the job is for: the run, or one follow-up of it (a run's follow-ups do not keep the run busy)."""
        return f"{self.run_id}--followup-{self.followup}" if self.action == "ask" else self.run_id

    @property
    def file_name(self) -> str:
        return f"{self.seq:020d}-{self.key}.json"

    def argv(self, run_dir: Path) -> list[str]:
        """The child's arguments after `python -m agentic_ds`."""
        if self.action == "ask":
            return ["ask", str(run_dir), "--followup", self.followup, "--json", *self.flags]
        command = "approve" if self.action == "decide" else "resume"
        return [command, str(run_dir), "--json", *self.flags]


class JobQueue:
    """The waiting jobs, oldest first, mirrored in `folder` (one file each)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.jobs: list[Job] = []

    def load(self) -> list[str]:
        """Read the jobs a previous server left; the files that could not be read are named (and left alone)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        problems = []
        for path in sorted(self.folder.glob("*.json")):
            job = _read(path, self.folder)
            if job is None:
                problems.append(path.name)
            elif self.find(job.key) is None:
                self.jobs.append(job)
        self.jobs.sort(key=lambda job: job.seq)
        return problems

    def push(self, job: Job) -> None:
        safe_files.write_json(self.folder / job.file_name, asdict(job), root=self.folder)
        self.jobs.append(job)
        self.jobs.sort(key=lambda item: item.seq)

    def drop(self, job: Job) -> None:
        if job in self.jobs:
            self.jobs.remove(job)
        with contextlib.suppress(FileNotFoundError):
            (self.folder / job.file_name).unlink()

    def find(self, key: str) -> Job | None:
        return next((job for job in self.jobs if job.key == key), None)

    def position(self, key: str) -> int | None:
        """1 for the next job to run."""
        return next((i for i, job in enumerate(self.jobs, 1) if job.key == key), None)


def _read(path: Path, folder: Path) -> Job | None:
    try:
        data = json.loads(safe_files.read_text(path, root=folder))
        job = Job(**data)
    except (OSError, ValueError, TypeError):
        return None
    if job.action not in ACTIONS or not isinstance(job.followup, str) or not isinstance(job.flags, list) \
            or not all(isinstance(f, str) for f in job.flags):
        return None
    return job
