"""Several event producers (the stages under way, the check after a finished stage) merged into the one stream the
Runner stores.

This is how ADK's `ParallelAgent` merges its branches (`parallel_agent._merge_agent_run`): each producer runs in
its own asyncio task, and after handing an event over it waits until the consumer has passed it on, so the Runner
has stored the event (and applied its state_delta) before the producer goes on: whatever a producer reads after
an event of its own, state already holds. Unlike `_merge_agent_run`, whose producers are fixed when it starts and
all begin at once, producers start while others run (a stage starts when what it waits for is done and a place is
free), which is what the stage orchestrator needs.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Any

from google.adk.events import Event

_ENDED = object()


class EventMerger:
    """Producers by key; `next()` gives the next event of any of them, or the end of one."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[tuple[str, Any, Any]] = asyncio.Queue()  # Any: (key, an event or the end, an error)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._resume: asyncio.Event | None = None

    @property
    def running(self) -> set[str]:
        """Keys of the producers whose end `next` has not given yet."""
        return set(self._tasks)

    def start(self, key: str, events: AsyncGenerator[Event, None]) -> None:
        """Run `events` in a task of its own (with a copy of the current context: context variables it sets are
        its own)."""
        self._tasks[key] = asyncio.get_running_loop().create_task(self._pump(key, events))

    async def _pump(self, key: str, events: AsyncGenerator[Event, None]) -> None:
        error: BaseException | None = None
        try:
            async with aclosing(events):
                async for event in events:
                    resume = asyncio.Event()
                    self._queue.put_nowait((key, event, resume))
                    await resume.wait()
        except asyncio.CancelledError:
            raise                      # `close()` cancelled it: the consumer is gone
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which raises it where the run sees it
            error = exc                # a KeyboardInterrupt too: caught nowhere else, it would end the producer quietly
        finally:
            self._queue.put_nowait((key, _ENDED, error))

    async def next(self) -> tuple[str, Event | None]:
        """(key, event) of the next event, or (key, None) when that producer ended; a producer's exception is
        raised here. Call `passed_on()` once the event is passed on, to let its producer go on."""
        key, item, payload = await self._queue.get()
        if item is _ENDED:
            self._tasks.pop(key, None)
            if payload is not None:
                raise payload
            return key, None
        self._resume = payload
        return key, item

    def passed_on(self) -> None:
        if self._resume is not None:
            self._resume.set()
            self._resume = None

    async def close(self) -> None:
        """Cancel every producer still running and wait until each has ended (its `finally` blocks done)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
