"""`stage_orchestrator`: runs each pending stage's implementation loop, then checks criteria and reflects.

Each stage's implementation loop runs on its own branch, so a stage's coder carries the summaries of earlier
stages (in its prompt), not their transcripts. A stage not approved within its bound is marked failed and the run
goes on; the orchestrator stops when every criterion is met, nothing is left to do, or a budget ran out.

Stages whose needs are met run at once, up to `loops.parallel_stages` (`workflow/stage_needs.py` says which may
start): each in its own asyncio task with its own kernel, folder, branch and per-stage state
(`workflow/stage_scope.py`), their events merged into the one stream the Runner stores (`workflow/merging.py`).
The check after a stage (criteria, then reflection) runs on the orchestrator's branch, one at a time in the order
the stages ended, while other stages go on; a stage waiting for that stage starts only once its check is done.
ADK's `ParallelAgent` is not used: see `agentic_ds/adk_private.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.adk_private import replace_session_events
from agentic_ds.evidence.citations import CitationCheck, verify_all
from agentic_ds.evidence.sources import collect
from agentic_ds.runs.safe_files import read_text, walk, write_atomic, write_json
from agentic_ds.sandbox.runner import STAGE_IN_TASK
from agentic_ds.schema import (
    StageRecord,
    StageResult,
    StageStatus,
    criteria_in,
    criteria_out,
    stages_in,
    stages_out,
)
from agentic_ds.state import CriteriaUpdate, Json, Reflection, SessionState, typed
from agentic_ds.workflow import plan_state, stage_needs
from agentic_ds.workflow.loops import status_event
from agentic_ds.workflow.merging import EventMerger
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.stage_scope import own_history, scope_event, scoped, scoped_delta, stage_context

CHECK = "check"   # the merger's key of the check after a stage (stages are keyed by their ids)


@dataclass
class _Work:
    """What the producers of one invocation share. Each change of the plan's stages (`STAGES`) or of the checks due
    (`CHECK_DUE`) reads the record, yields the event replacing it and waits until the Runner stored it, all under
    `lock`, so no change is built on a record another one is about to replace."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class StageOrchestrator(BaseAgent):
    """Sub-agents, in order: implementation_loop, criteria_checker, stage_reflector."""

    services: RunServices

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        impl_loop, checker, reflector = self.sub_agents
        services = self.services
        state = typed(ctx.session.state)
        if not stages_in(state.get(S.STAGES)):
            yield status_event(ctx, self.name, "no stages to run: planning did not produce a plan")
            return
        loops = services.settings.loops
        width = loops.parallel_stages
        # A resumed run counts the stages it already finished; one that stopped between a stage's end and the
        # check after it does that check first, and one killed between a verdict and its files writes them now.
        stage_runs = sum(1 for stage in stages_in(state[S.STAGES]) if stage.status.finished)
        for stage in stages_in(state[S.STAGES]):
            if stage.status.finished and stage.dir:
                _restore_stage_files(ctx, services.workspace.root, stage)
        work = _Work()
        merger = EventMerger()
        histories: dict[str, list[Event]] = {}   # each producer's own (`stage_scope.own_history`)
        starting_more = True
        try:
            while True:
                if not _stopped(state) and not plan_state.all_met(criteria_in(state.get(S.CRITERIA))):
                    due = due_checks(state)
                    if due and CHECK not in merger.running:
                        check_ctx = own_history(ctx)
                        histories[CHECK] = check_ctx.session.events
                        merger.start(CHECK, self._check(check_ctx, checker, reflector, due[0], work))
                    while starting_more:
                        under_way = merger.running - {CHECK}
                        # One at a time (width 1) is the order of old: a stage, the check after it, the next stage.
                        if len(under_way) >= width or (width == 1 and (merger.running or due_checks(state))):
                            break
                        stages = stages_in(state[S.STAGES])
                        ready = stage_needs.ready(stages, unchecked=due_checks(state), starting=under_way)
                        if not ready:
                            break
                        if stage_runs >= loops.max_stages:
                            yield _warning(ctx, self.name, f"stopped after {stage_runs} stage runs (loops.max_stages)")
                            starting_more = False
                            break
                        stage_runs += 1
                        stage = stages[ready[0]]
                        stage_ctx = stage_context(ctx, stage.id, f"{ctx.branch or self.name}.{stage.id}")
                        histories[stage.id] = stage_ctx.session.events
                        merger.start(stage.id, self._run_stage(ctx, stage_ctx, impl_loop, ready[0], work))
                if not merger.running:
                    break
                key, event = await merger.next()
                if event is None:
                    histories.pop(key, None)
                    continue
                yield event
                if not event.partial:
                    histories[key].append(event)   # the Runner stored it: the producer's own history has it too
                merger.passed_on()
        finally:
            await merger.close()
        if not _stopped(state):
            stages = stages_in(state[S.STAGES])
            done = sum(s.status is StageStatus.APPROVED for s in stages)
            met = sum(bool(c.met) for c in criteria_in(state.get(S.CRITERIA)))
            yield status_event(ctx, self.name, f"stages done: {done} of {len(stages)} approved; criteria met: {met} "
                                               f"of {len(criteria_in(state.get(S.CRITERIA)))}", **{S.CHECK_DUE: None})

    async def _check(
        self, ctx: InvocationContext, checker: BaseAgent, reflector: BaseAgent, stage_id: str, work: _Work
    ) -> AsyncGenerator[Event, None]:
        """After stage `stage_id`: check the criteria, then (unless all are met) reflect and adapt the plan. The
        check is no longer due once done; a budget that ran out leaves it due, for a resumed run to do."""
        state = typed(ctx.session.state)
        yield status_event(ctx, self.name, None, **{S.CHECKED_STAGE: stage_id})
        async for event in checker.run_async(ctx):
            yield event
        if _stopped(state):
            return
        update = state.get(S.CRITERIA_UPDATE)
        if update:
            criteria = plan_state.apply_criteria_update(
                criteria_in(state[S.CRITERIA]), CriteriaUpdate.model_validate(update).criteria
            )
            # A criterion is met only when the files its evidence cites hold what it quotes (checked in code).
            services = self.services
            check = CitationCheck(collect(services.workspace), str(state.get(S.TASK) or ""))
            criteria = verify_all(criteria, check)
            yield status_event(ctx, self.name, None, **{S.CRITERIA: criteria_out(criteria)})
        if not plan_state.all_met(criteria_in(state.get(S.CRITERIA))):
            why = plan_state.reflection_due(stages_in(state.get(S.STAGES)), criteria_in(state.get(S.CRITERIA)),
                                            stage_id)
            if why is None:
                yield status_event(ctx, self.name,
                                   "the stage went as planned: the plan is kept (no reflection needed)")
            else:
                async for event in reflector.run_async(ctx):
                    yield event
                if _stopped(state):
                    return
                async with work.lock:
                    async for event in self._apply_reflection(ctx):
                        yield event
        async with work.lock:
            left = [due for due in due_checks(state) if due != stage_id]
            yield status_event(ctx, self.name, None, **{S.CHECK_DUE: left or None})

    async def _run_stage(
        self, ctx: InvocationContext, stage_ctx: InvocationContext, impl_loop: BaseAgent, index: int, work: _Work
    ) -> AsyncGenerator[Event, None]:
        """Stage `index`, in a task of its own: its folder and kernel, its implementation loop on its own branch
        with its own per-stage state (`stage_scope`), its result."""
        STAGE_IN_TASK.set(index)   # this task's cells run in this stage's kernel
        services = self.services
        state = typed(ctx.session.state)
        stage = stages_in(state[S.STAGES])[index]
        async with work.lock:
            stage_dir = await services.code_runner.begin_stage(index, stage.title)
            rel_dir = services.workspace.rel(stage_dir)
            stages = stages_in(state[S.STAGES])
            total = len(stages)
            yield status_event(
                stage_ctx,
                self.name,
                f"stage {index + 1}/{total}: {stage.title}",
                **{
                    S.STAGES: stages_out(plan_state.with_stage(stages, index, status=StageStatus.RUNNING,
                                                               dir=rel_dir)),
                    **scoped_delta({
                        S.CURRENT_STAGE: index,
                        S.STAGE_ATTEMPT: 0,
                        S.IMPL_SUMMARY: "",
                        S.CODE_REVIEW: "",
                        S.LAST_EXECUTION: None,
                        S.IMPL_DECISION: None,
                    }, stage.id),
                },
            )
        _forget_earlier_events(ctx)
        try:
            async for event in impl_loop.run_async(stage_ctx):
                yield scope_event(event, stage.id)
        finally:
            await services.code_runner.end_stage(index)
        own = stage_ctx.session.state
        decision = own.get(S.IMPL_DECISION) or {}
        approved = bool(decision.get("exit"))
        attempts = own.get(S.STAGE_ATTEMPT) or 0
        if not approved and _stopped(state):
            # A budget ended the run before the stage could finish: it is no failure of the stage, which stays
            # under way, and a resumed run (with more budget) does it again.
            yield status_event(stage_ctx, self.name, f"stage {index + 1}/{total} stopped before it finished",
                               **scoped_delta({S.CURRENT_STAGE: None}, stage.id))
            return
        async with work.lock:
            stages = plan_state.with_stage(
                stages_in(state[S.STAGES]),
                index,
                status=StageStatus.APPROVED if approved else StageStatus.FAILED,
                attempts=attempts,
                summary=own.get(S.IMPL_SUMMARY) or "",
                review=own.get(S.CODE_REVIEW) or "",
            )
            verdict = stages[index].status.value
            if not approved:
                verdict += f" after {attempts} attempt(s): {decision.get('reason', 'not approved')}"
            yield status_event(
                stage_ctx, self.name, f"stage {index + 1}/{len(stages)} {verdict}",
                **{S.STAGES: stages_out(stages), **scoped_delta({S.CURRENT_STAGE: None}, stage.id),
                   S.CHECK_DUE: [*due_checks(state), stage.id]},
            )
            # Only once the verdict is stored: a file that says "approved" while the session does not would have a
            # resumed run do the stage again under it.
            _write_stage_files(services.workspace.root / rel_dir, stages[index], decision)

    async def _apply_reflection(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        state = typed(ctx.session.state)
        raw = state.get(S.REFLECTION)
        if not raw:
            return
        loops = self.services.settings.loops
        before = stages_in(state[S.STAGES])
        stages, added, notes = plan_state.apply_reflection(
            before,
            Reflection.model_validate(raw),
            added_so_far=state.get(S.ADDED_STAGES) or 0,
            max_added=loops.max_added_stages,
            max_stages=loops.max_stages,
        )
        if stages == before:
            return
        text = "plan adapted" + (f" ({'; '.join(notes)})" if notes else "")
        yield status_event(ctx, self.name, text, **{S.STAGES: stages_out(stages), S.ADDED_STAGES: added})


def due_checks(state: SessionState) -> list[str]:
    """Ids of the stages whose check is still to run, in the order they ended."""
    due = state.get(S.CHECK_DUE)
    if isinstance(due, list):
        return [str(stage_id) for stage_id in due]
    if due:   # a run from before stages ran at once: the check after the last finished stage
        finished = [s for s in stages_in(state.get(S.STAGES)) if s.status.finished]
        return [finished[-1].id] if finished else []
    return []


def _forget_earlier_events(ctx: InvocationContext) -> None:
    """Drop earlier events from the run's in-memory session at a stage's start; `session.db` keeps every one.

    Every agent's prompt is rendered from state and includes only its own current turn as history
    (`include_contents="none"`), so earlier events are never sent to a model - yet ADK scans the whole in-memory
    list on every model call (turn detection, branch filtering), which makes a long run quadratic. Keeping only
    the user's messages bounds each call's cost; the stages and checks under way work on histories of their own
    (`stage_scope.own_history`).
    """
    replace_session_events(ctx.session, [event for event in ctx.session.events if event.author == "user"])


def _stopped(state: SessionState) -> bool:
    """The run stopped early (a budget ran out, or planning failed): `evidence_check` decides its status."""
    return bool(state.get(S.STOP))


def _warning(ctx: InvocationContext, author: str, text: str) -> Event:
    warnings = list(typed(ctx.session.state).get(S.WARNINGS) or []) + [text]
    return status_event(ctx, author, f"warning: {text}", **{S.WARNINGS: warnings})


def _restore_stage_files(ctx: InvocationContext, root: Path, stage: StageRecord) -> None:
    """Write a finished stage's files again when its result.json is missing or says otherwise (the run was killed
    between the stored verdict and the files)."""
    written = None
    with contextlib.suppress(OSError, ValueError, AttributeError):
        written = json.loads(read_text(root / stage.dir / "result.json", root=root)).get("status")
    if written != stage.status.value:
        decision = ctx.session.state.get(scoped(S.IMPL_DECISION, stage.id)) or {}
        _write_stage_files(root / stage.dir, stage, decision)


def _write_stage_files(stage_dir: Path, stage: StageRecord, decision: Json) -> None:
    number = stage_dir.name.split("-", 1)[0]  # figures are named by stage number: figures/NN-...png
    root = stage_dir.parent.parent
    figures = sorted(
        e.rel for e in walk(root / "figures", root=root)
        if e.suspicious is None and e.rel.count("/") == 1
        and e.rel.startswith(f"figures/{number}-") and e.rel.endswith(".png")
    )
    result = StageResult(
        **stage.model_dump(include={"id", "title", "status", "attempts", "summary", "review"}),
        decision=decision,
        figures=figures,
    )
    write_json(stage_dir / "result.json", result.model_dump(mode="json", exclude={"files"}), root=root)
    if stage.review:
        write_atomic(stage_dir / "review.md", stage.review.strip() + "\n", root=root)
