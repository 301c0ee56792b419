"""EventMerger: the producers' events reach the consumer one at a time, and whatever ends a producer is raised
where the run sees it, never lost in the producer's task."""

from __future__ import annotations

import asyncio

import pytest

from agentic_ds.workflow.merging import EventMerger


async def _producer(name: str, count: int, *, then: BaseException | None = None):
    for n in range(count):
        yield f"{name}{n}"
        await asyncio.sleep(0)
    if then is not None:
        raise then


async def _drain(merger: EventMerger) -> list[str]:
    seen: list[str] = []
    while merger.running:
        key, event = await merger.next()
        if event is not None:
            seen.append(str(event))   # the producers here hand strings for events
            merger.passed_on()
    return seen


async def test_events_of_every_producer_arrive_and_each_end_is_reported():
    merger = EventMerger()
    merger.start("a", _producer("a", 3))
    merger.start("b", _producer("b", 2))
    seen = await _drain(merger)
    assert sorted(seen) == ["a0", "a1", "a2", "b0", "b1"] and not merger.running


@pytest.mark.parametrize("error", [RuntimeError("the stage broke"), KeyboardInterrupt()])
async def test_what_ends_a_producer_is_raised_to_the_consumer(error):
    merger = EventMerger()
    merger.start("a", _producer("a", 1, then=error))
    with pytest.raises(type(error)):
        await _drain(merger)
    await merger.close()


async def test_close_cancels_the_producers_still_running():
    merger = EventMerger()
    merger.start("a", _producer("a", 100))
    key, event = await merger.next()
    assert (key, str(event)) == ("a", "a0")
    await merger.close()
    assert not merger.running
