"""A follow-up question's folder and record: `RUN/followups/NN-slug/followup.json`.

The folder is a run directory of its own (a simple-mode run: `inputs/`, `stages/`, `outputs/`, `run.json`,
`events.jsonl`, reports), with the run it follows under `earlier/`; `followup.json` says in a few fields what was
asked and how it ended. Nothing here writes in the parent run outside its `followups/` folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import Field

from agentic_ds.errors import UsageError
from agentic_ds.runs import run_lock, safe_files
from agentic_ds.schema import Record, RunRecord, RunStatus, now_iso, read_model
from agentic_ds.workspace import Workspace, slugify

FOLLOWUPS = "followups"
RECORD = "followup.json"
_ID = re.compile(r"^[0-9]{2,4}-[a-z0-9-]+$")


class FollowupRecord(Record):
    """followup.json: the question, its status (decided as a run's is) and its answer, in a few fields."""

    id: str
    run_id: str
    question: str
    status: RunStatus = RunStatus.QUEUED
    reason: str = ""
    answer: str = ""
    confidence: str = ""
    created_at: str = Field(default_factory=now_iso)
    ended_at: str = ""
    code: list[str] = Field(default_factory=list)       # the follow-up's code files, relative to the parent run
    outputs: list[str] = Field(default_factory=list)    # what its code wrote, relative to the parent run

    def save(self, folder: Path) -> None:
        safe_files.write_json(folder / RECORD, self.model_dump(mode="json"), root=folder)


def folder_of(run_root: Path) -> Path:
    return run_root / FOLLOWUPS


def read_question(text: str) -> str:
    question = (text or "").strip()
    if not question:
        raise UsageError("the question is empty",
                         hint='ask something about the run, e.g. agentic-ds ask RUN "What is the median salary?"')
    return question


def parent_record(run_root: Path) -> RunRecord:
    try:
        data = json.loads(safe_files.read_text(run_root / "run.json", root=run_root))
    except (OSError, ValueError) as exc:
        raise UsageError(f"run {run_root.name} has no readable run.json ({exc})",
                         hint="see the runs with `agentic-ds list`") from None
    record = read_model(RunRecord, data)
    if record is None:
        raise UsageError(f"run {run_root.name} has no readable run.json", hint="see the runs with `agentic-ds list`")
    return record


def check_can_ask(run_root: Path) -> RunRecord:
    """The run a follow-up may be asked on: a run of its own (not a follow-up), no longer at work."""
    name = run_root.name
    if run_root.parent.name == FOLLOWUPS:
        raise UsageError(f"{name} is a follow-up, not a run", hint=f"ask on the run it follows: "
                         f"agentic-ds ask {run_root.parent.parent.name} \"...\"")
    record = parent_record(run_root)
    status = record.status
    if status is RunStatus.RUNNING and run_lock.is_held(run_root) is not False:
        raise UsageError(f"run {name} is still running", hint="wait for it to finish, then ask again "
                         f"(`agentic-ds show {name}` shows how it goes)")
    if status is RunStatus.AWAITING_APPROVAL:
        raise UsageError(f"run {name} is waiting for a decision on its plan: it has no results to ask about yet",
                         hint=f"`agentic-ds approve {name}` runs it; ask once it has finished")
    if status is RunStatus.QUEUED:
        raise UsageError(f"run {name} has not started yet", hint=f"`agentic-ds resume {name}` starts it; ask once "
                         "it has finished")
    return record


def create(run_root: Path, question: str) -> tuple[Workspace, FollowupRecord]:
    """A new numbered folder under `RUN/followups/` (never one that exists) and its record, `queued`."""
    folder = folder_of(run_root)
    safe_files.make_dirs(folder, run_root)
    slug = slugify(question, 30)
    number = len(list_ids(run_root)) + 1
    while True:
        fid = f"{number:02d}-{slug}"
        try:
            (folder / fid).mkdir()
            break
        except FileExistsError:
            number += 1
    record = FollowupRecord(id=fid, run_id=run_root.name, question=question)
    record.save(folder / fid)
    return Workspace(folder / fid), record


def list_ids(run_root: Path) -> list[str]:
    folder = folder_of(run_root)
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(p.name for p in folder.iterdir() if _ID.match(p.name) and p.is_dir() and not p.is_symlink())


def read(run_root: Path, fid: str) -> FollowupRecord | None:
    if not _ID.match(fid):
        return None
    folder = folder_of(run_root) / fid
    try:
        data = json.loads(safe_files.read_text(folder / RECORD, root=run_root))
    except (OSError, ValueError):
        return None
    return read_model(FollowupRecord, data)


def find(run_root: Path, fid: str) -> tuple[Workspace, FollowupRecord]:
    record = read(run_root, fid)
    if record is None:
        raise UsageError(f"run {run_root.name} has no follow-up {fid!r}",
                         hint=f"`agentic-ds show {run_root.name}` lists its follow-ups")
    return Workspace(folder_of(run_root) / fid), record


def list_records(run_root: Path) -> list[FollowupRecord]:
    return [record for fid in list_ids(run_root) if (record := read(run_root, fid)) is not None]
