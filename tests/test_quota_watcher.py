"""The quota watcher's trigger, fed the free space it would read: only falls of the free space count, so space
another program frees while a cell writes is never room for the sandbox (the end-to-end attack is in
test_security_sandbox_quota.py; there the walk of the folders used to catch it late under load)."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import time

import pytest

from agentic_ds.sandbox import quota_watcher
from agentic_ds.sandbox.quota import DiskQuota
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


def test_a_walk_that_waits_for_the_disk_does_not_put_the_next_one_off(monkeypatch):
    """Walks are paced by the CPU they cost, not by the time they take: one stalled behind other programs' writes
    (no CPU spent) must not leave the folders unwalked while a deletion elsewhere hides the sandbox's writes."""
    state = Armed(budget=10**15, threshold=64 * MB, free={DEV: 1000 * MB})
    sizes = iter([10 * MB, 80 * MB])
    walked = []

    def stalled_walk(folders):
        walked.append(True)
        time.sleep(0.05)   # waits, as a walk behind a busy journal does: no CPU
        return next(sizes)

    monkeypatch.setattr(quota_watcher, "_free", lambda folders: {DEV: 1000 * MB})   # the free space shows nothing
    monkeypatch.setattr(quota_watcher, "_blocks", stalled_walk)
    assert quota_watcher._passed(["unused"], state) is False
    # Paced by the walk's CPU (next to none), not by its 50 ms of waiting, which would put the next walk 1 s off.
    # (Not "the very next poll": on a loaded machine even a sleeping walk is charged a little CPU.)
    assert state.next_walk - time.monotonic() < 0.1
    time.sleep(max(0.0, state.next_walk - time.monotonic()) + quota_watcher.POLL_S)
    assert quota_watcher._passed(["unused"], state) is True   # the next walk sees 80 MB
    assert len(walked) == 2


def paced_walks(monkeypatch, costs: list[float], polls: int) -> list[float]:
    """Poll `polls` times on a fake clock, every POLL_S, the walks costing `costs` in turn (CPU, and as much wall
    time); the times the folders were walked."""
    clock = {"wall": 100.0, "cpu": 0.0}
    fake_time = type("FakeTime", (), {"monotonic": staticmethod(lambda: clock["wall"]),
                                      "thread_time": staticmethod(lambda: clock["cpu"])})
    state = Armed(budget=10**15, threshold=64 * MB, free={DEV: 1000 * MB})
    cost = iter(costs)
    walked = []

    def walk(folders):
        walked.append(clock["wall"])
        spent = next(cost)
        clock["wall"] += spent
        clock["cpu"] += spent
        return 0

    monkeypatch.setattr(quota_watcher, "time", fake_time)
    monkeypatch.setattr(quota_watcher, "_free", lambda folders: {DEV: 1000 * MB})
    monkeypatch.setattr(quota_watcher, "_blocks", walk)
    for _ in range(polls):
        quota_watcher._passed(["unused"], state)
        clock["wall"] += quota_watcher.POLL_S
    return walked


def test_an_expensive_walk_is_made_less_often(monkeypatch):
    walked = paced_walks(monkeypatch, [0.01] * 120, polls=120)   # 10 ms of CPU each, over 240 ms of polls
    assert len(walked) == 2 and walked[1] - walked[0] >= 0.2   # the next walk waits 20 times that


def test_one_walk_charged_much_more_cpu_than_the_others_does_not_put_the_next_off(monkeypatch):
    """Under load, an interrupt or the disk's completions are charged to whatever runs: one walk of a small tree
    once cost 2.5 ms instead of 0.1, which put the next walk 50 ms off while deletions hid the writes."""
    walked = paced_walks(monkeypatch, [0.0001, 0.0001, 0.0025] + [0.0001] * 100, polls=10)   # 20 ms of polls
    assert len(walked) == 10          # every poll walked, the costly walk's next one too


def test_the_free_space_a_quota_counts_from_is_read_before_the_walk(tmp_path, monkeypatch):
    """A write under way when the sandbox was stopped may end during the exact walk. Read before the walk, the free
    space then counts it as growth still to come; read after, it would be neither in the walk nor in any fall."""
    quota = DiskQuota(tmp_path, [tmp_path], 64 * MB)
    free = {"now": 1000 * MB}
    monkeypatch.setattr(quota, "_free", lambda: {DEV: free["now"]})

    def walk_during_which_a_write_ends():
        free["now"] -= 4 * MB
        return 30 * MB

    monkeypatch.setattr(quota, "usage", walk_during_which_a_write_ends)
    assert quota.confirm() is False
    budget, counted_from = quota.budget()
    assert budget == 34 * MB and counted_from == {DEV: 1000 * MB}   # the 4 MB still fall from the watcher's base


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


def test_arming_continues_the_processes_of_the_last_stop_and_no_others():
    """The watcher continues what it stopped, in the step that arms it: a continue sent by the guard's thread could
    arrive after the watcher had stopped the same processes again."""
    processes = [subprocess.Popen(["sleep", "30"]) for _ in range(3)]
    try:
        for process in processes:
            os.kill(process.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while any(_state(p.pid) != "T" for p in processes) and time.monotonic() < deadline:
            time.sleep(0.01)
        listed = f"{processes[0].pid},{processes[1].pid}"
        state = quota_watcher._command(["arm", "5", "64", listed, f"{DEV}=1000"], None)
        assert state is not None and state.budget == 5 and state.threshold == 64 and state.free == {DEV: 1000}
        while any(_state(p.pid) == "T" for p in processes[:2]) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [_state(p.pid) == "T" for p in processes] == [False, False, True]
        assert quota_watcher._command(["arm", "5", "64", "-"], None) is not None   # nothing to continue
        assert _state(processes[2].pid) == "T"
    finally:
        for process in processes:
            process.kill()
            process.wait()
