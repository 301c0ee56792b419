"""Which stages a stage waits for, and so which stages may start: pure functions over the plan's stage records.

A stage states the earlier stages whose outputs it uses (`needs`, a list of ids; empty: only the inputs). A stage
that states nothing (`needs` None) waits for the stage before it, as every stage did before needs existed, so a
plan that says nothing runs in plan order. A stage starts once every stage it waits for has ended (approved or
failed, as a stage after a failed one always has) and the check after it is done: the reflection on that stage
may still rewrite this one.
"""

from __future__ import annotations

from collections.abc import Collection

from agentic_ds.schema import StageRecord, StageStatus


def kept_needs(needs: list[str] | None, earlier: Collection[str]) -> list[str] | None:
    """The needs a plan states, as kept: ids of earlier stages, each once, in the order given. Stated needs that
    name no earlier stage at all (a later one, an unknown one) become None (after the stage before it): the planner
    meant an order it did not express."""
    if needs is None:
        return None
    kept = list(dict.fromkeys(need.strip() for need in needs if need.strip() in earlier))
    return kept if kept or not needs else None


def waits_for(stages: list[StageRecord], index: int) -> list[int]:
    """Indexes of the stages stage `index` waits for."""
    stage = stages[index]
    if stage.needs is None:
        return [index - 1] if index > 0 else []
    position = {s.id: i for i, s in enumerate(stages)}
    return [position[need] for need in stage.needs if position.get(need, index) < index]


def ready(stages: list[StageRecord], *, unchecked: Collection[str] = (), starting: Collection[str] = ()) -> list[int]:
    """Pending stages that may start now, in plan order: each stage they wait for has ended and its check is done
    (its id not in `unchecked`). Stages in `starting` (begun, not yet recorded as running) are left out."""
    out = []
    for index, stage in enumerate(stages):
        if stage.status is not StageStatus.PENDING or stage.id in starting:
            continue
        if all(stages[i].status.finished and stages[i].id not in unchecked for i in waits_for(stages, index)):
            out.append(index)
    return out
