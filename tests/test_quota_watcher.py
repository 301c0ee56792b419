"""The quota watcher's trigger, fed the free space it would read: only falls of the free space count, so space
another program frees while a cell writes is never room for the sandbox (the end-to-end attack is in
test_security_sandbox_quota.py; there the walk of the folders used to catch it late under load)."""

from __future__ import annotations

import math

import pytest

from agentic_ds.sandbox import quota_watcher
from agentic_ds.sandbox.quota_watcher import Armed

MB = 1024 * 1024
DEV = 7


def armed(budget_mb: int, free_mb: int) -> Armed:
    # The folders are never walked here: the free space alone must decide.
    return Armed(budget=budget_mb * MB, threshold=10**15, free={DEV: free_mb * MB}, next_walk=math.inf)


def polls(monkeypatch, state: Armed, free_mb: list[int]) -> list[bool]:
    readings = iter(free_mb)
    monkeypatch.setattr(quota_watcher, "_free", lambda folders: {DEV: next(readings) * MB})
    return [quota_watcher._passed(["unused"], state) for _ in free_mb]


def test_space_another_program_frees_does_not_hide_what_the_sandbox_writes_after(monkeypatch):
    state = armed(budget_mb=64, free_mb=1000)
    # The host deletes 200 MB, then the sandbox writes 8 MB a poll: its 65th MB is past the budget, while the
    # free space is still far above where it was when the cell began.
    seen = polls(monkeypatch, state, [1200, *range(1192, 1120, -8)])
    assert seen.index(True) == 9 and 1200 - 9 * 8 > 1000
    assert not any(seen[:9])


def test_writes_within_the_budget_never_trigger_whatever_else_frees_space(monkeypatch):
    state = armed(budget_mb=64, free_mb=1000)
    assert not any(polls(monkeypatch, state, [990, 1500, 1480, 1480, 2000, 1966]))   # 10 + 20 + 34 = 64 MB lost
    assert state.lost == 64 * MB


def test_each_filesystem_counts_its_own_falls(monkeypatch):
    state = Armed(budget=10 * MB, threshold=10**15, free={1: 100 * MB, 2: 100 * MB}, next_walk=math.inf)
    readings = iter([{1: 95 * MB, 2: 300 * MB}, {1: 95 * MB, 2: 294 * MB}])
    monkeypatch.setattr(quota_watcher, "_free", lambda folders: next(readings))
    assert quota_watcher._passed([], state) is False     # 5 MB lost on one, a rise on the other: not subtracted
    assert quota_watcher._passed([], state) is True      # and 6 more on the other: 11 MB in all


@pytest.mark.parametrize("megabytes", [1, 4])
def test_a_filesystem_seen_for_the_first_time_starts_from_its_first_reading(monkeypatch, megabytes):
    state = Armed(budget=2 * MB, threshold=10**15, free={}, next_walk=math.inf)
    readings = iter([{3: 50 * MB}, {3: (50 - megabytes) * MB}])
    monkeypatch.setattr(quota_watcher, "_free", lambda folders: next(readings))
    assert quota_watcher._passed([], state) is False
    assert quota_watcher._passed([], state) is (megabytes > 2)
