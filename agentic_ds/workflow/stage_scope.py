"""Per-stage state: stages under way at once each keep their own current stage, attempt, coder summary, review,
last execution and decision, in the one session state every stage shares.

The agents of a stage (its implementation loop, its tools, the prompts rendered for them) read and write these
keys under their plain names, as they did when one stage ran at a time. A stage runs with a copy of the invocation
context whose session shows the state through `StageState`: the per-stage keys map to `<key>@<stage id>`, every
other key is the session's own. The events coming out of the stage get their `state_delta` renamed the same way
(`scope_event`) before the Runner stores them, so each stage's values persist under their own names in session.db,
by ADK's state_delta like every other change, and never collide.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from google.adk.agents import InvocationContext
from google.adk.events import Event

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.agent_table import agent
from agentic_ds.workflow.structured import error_key

SEPARATOR = "@"
# The implementation loop's agents, as `workflow/tree.py` writes the loop (tests/test_parallel_stages.py checks it).
IMPLEMENTATION_ROUND = (A.CODING_AGENT, A.CODE_REVIEWER, A.IMPL_CONFIRMATION)


def _per_stage_keys() -> frozenset[str]:
    """The keys one stage's work writes: where it stands (stage, attempt), what each agent of the implementation loop
    answers (and a structured agent's error), the loop's decision, and the last execution of its code."""
    loop = agent(A.IMPLEMENTATION_LOOP).loop
    assert loop is not None
    keys = {S.CURRENT_STAGE, S.LAST_EXECUTION, loop.decision_key, loop.round_key}
    for name in IMPLEMENTATION_ROUND:
        entry = agent(name)
        if entry.output_key:
            keys.add(entry.output_key)
        if entry.output_schema is not None:
            keys.add(error_key(name))
    return frozenset(keys)


PER_STAGE = _per_stage_keys()


def scoped(key: str, stage_id: str | None) -> str:
    """The name `key` is stored under for stage `stage_id` (itself when it is not a per-stage key, or for no
    stage)."""
    return f"{key}{SEPARATOR}{stage_id}" if stage_id is not None and key in PER_STAGE else key


def scoped_delta(delta: Mapping[str, Any], stage_id: str) -> dict[str, Any]:  # Any: a state_delta holds any JSON value
    return {scoped(key, stage_id): value for key, value in delta.items()}


def stage_of_key(key: str) -> tuple[str, str] | None:
    """(plain key, stage id) of a per-stage key as stored, else None."""
    base, sep, stage_id = key.partition(SEPARATOR)
    return (base, stage_id) if sep and base in PER_STAGE else None


class StageState(MutableMapping[str, Any]):  # Any: session state holds any JSON value
    """Session state as one stage sees it: its own per-stage keys under their plain names, the rest shared (with no
    stage: the state as it is, for a check's copy of the context)."""

    def __init__(self, session: Any, stage_id: str | None) -> None:  # Any: an ADK Session or a copy of one
        self.session = session            # the session the Runner stores events in (its state changes in place)
        self.stage_id = stage_id

    def __getitem__(self, key: str) -> Any:  # Any: session state holds any JSON value
        return self.session.state[scoped(key, self.stage_id)]

    def __setitem__(self, key: str, value: Any) -> None:  # Any: session state holds any JSON value
        self.session.state[scoped(key, self.stage_id)] = value

    def __delitem__(self, key: str) -> None:
        del self.session.state[scoped(key, self.stage_id)]

    def __iter__(self) -> Iterator[str]:
        if self.stage_id is None:
            yield from list(self.session.state)
            return
        for key in list(self.session.state):
            if key in PER_STAGE:
                continue                   # the plain name is no stage's
            found = stage_of_key(key)
            if found is None:
                yield key
            elif found[1] == self.stage_id:
                yield found[0]

    def __len__(self) -> int:
        return sum(1 for _ in self)


def stage_context(ctx: InvocationContext, stage_id: str, branch: str) -> InvocationContext:
    """A copy of `ctx` for stage `stage_id`: its own branch and view of the state, and its own history
    (`own_history`)."""
    session = ctx.session.model_copy(update={"state": StageState(ctx.session, stage_id),
                                             "events": _user_events(ctx)})
    return ctx.model_copy(update={"branch": branch, "session": session})


def own_history(ctx: InvocationContext) -> InvocationContext:
    """A copy of `ctx` whose session holds only the user's messages, and then the events of the work run with it
    (the orchestrator appends each one once the Runner stored it in the real session).

    ADK finds an agent's current turn by going back through the session's events to the last one from the user or
    another agent on its branch or a parent's; the orchestrator's branch is a parent of every stage's. With a
    check and stages under way at once, each would cut the others' turns short: so each works on a history of its
    own, as it would alone. `session.db` has every event, in the order stored."""
    session = ctx.session.model_copy(update={"state": StageState(ctx.session, None), "events": _user_events(ctx)})
    return ctx.model_copy(update={"session": session})


def root_session(session: Any) -> Any:  # Any: an ADK Session, or a stage's copy of one
    """The session the Runner stores events in, for a copy made by `stage_context` or `own_history` (what appends
    an event itself, as the compaction guard does, appends it there and to the copy's own history)."""
    state = getattr(session, "state", None)
    return state.session if isinstance(state, StageState) else session


def _user_events(ctx: InvocationContext) -> list[Event]:
    return [event for event in ctx.session.events if event.author == "user"]


def scope_event(event: Event, stage_id: str) -> Event:
    """`event` with the per-stage keys of its state_delta renamed for `stage_id` (in place: the dict may be held by
    the context that wrote it, whose later reads go through `StageState` anyway)."""
    delta = event.actions.state_delta if event.actions else None
    if delta and any(key in PER_STAGE for key in delta):
        renamed = scoped_delta(delta, stage_id)
        delta.clear()
        delta.update(renamed)
    return event
