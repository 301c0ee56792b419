"""run.json kept current while a run goes, so a run that dies (SIGKILL, a crash, the machine stopping) still
says how far it got.

It is saved when the plan's stages or criteria change (a stage begins or ends, criteria are checked, a
reflection adds stages) and otherwise at most once every `every_s` seconds, with the model usage, the wall
time and the number of events so far. `agentic-ds resume` starts from this record: its usage is what the budget
counts as already spent (after a SIGKILL, at most the last `every_s` seconds of usage are missing from it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agentic_ds import state as S
from agentic_ds.schema import CriterionRecord, RunRecord, StageRecord, read_records

EVERY_S = 1.0


class Checkpoint:
    def __init__(self, record: RunRecord, path: Path, started: float, *, every_s: float = EVERY_S) -> None:
        self.record = record
        self.path = path
        self.started = started                       # time.perf_counter() when this attempt began
        self.every_s = every_s
        self.usage: Callable[[], None] | None = None  # fills the record's usage, once the run is assembled
        self.saves = 0
        self._last = time.monotonic()

    def after(self, event: Any, events: int) -> None:
        """Called with each event of the run and the number of lines events.jsonl holds after it."""
        delta = event.actions.state_delta if event.actions else None
        plan_changed = False
        if delta and delta.get(S.STAGES) is not None:
            self.record.stages = read_records(StageRecord, delta[S.STAGES])
            plan_changed = True
        if delta and delta.get(S.CRITERIA) is not None:
            self.record.criteria = read_records(CriterionRecord, delta[S.CRITERIA])
            plan_changed = True
        if plan_changed or time.monotonic() - self._last >= self.every_s:
            self.save(events)

    def save(self, events: int) -> None:
        if self.usage is not None:
            self.usage()
        self.record.events = events
        self.record.clock(time.perf_counter() - self.started)
        self.record.save(self.path)
        self.saves += 1
        self._last = time.monotonic()
