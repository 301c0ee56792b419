"""`stage_orchestrator`: runs each pending stage's implementation loop, then checks criteria and reflects.

Each stage's implementation loop runs on its own branch, so a stage's coder carries the summaries of earlier
stages (in its prompt), not their transcripts. A stage not approved within its bound is marked failed and the run
goes on; the orchestrator stops when every criterion is met, nothing is left to do, or a budget ran out.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.adk_private import replace_session_events
from agentic_ds.evidence.citations import CitationCheck, verify_all
from agentic_ds.evidence.sources import collect
from agentic_ds.runs.safe_files import walk, write_atomic, write_json
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
from agentic_ds.workflow import plan_state
from agentic_ds.workflow.loops import status_event
from agentic_ds.workflow.services import RunServices


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
        # A resumed run counts the stages it already finished; one that stopped between a stage's end and the
        # check after it does that check first.
        stage_runs = sum(1 for stage in stages_in(state[S.STAGES]) if stage.status.finished)
        if state.get(S.CHECK_DUE) and not plan_state.all_met(criteria_in(state.get(S.CRITERIA))):
            async for event in self._check(ctx, checker, reflector):
                yield event
        while not _stopped(state):
            if plan_state.all_met(criteria_in(state.get(S.CRITERIA))):
                break
            index = plan_state.next_pending(stages_in(state[S.STAGES]))
            if index is None:
                break
            if stage_runs >= services.settings.loops.max_stages:
                yield _warning(ctx, self.name, f"stopped after {stage_runs} stage runs (loops.max_stages)")
                break
            stage_runs += 1
            async for event in self._run_stage(ctx, impl_loop, index):
                yield event
            async for event in self._check(ctx, checker, reflector):
                yield event
        if not _stopped(state):
            stages = stages_in(state[S.STAGES])
            done = sum(s.status is StageStatus.APPROVED for s in stages)
            met = sum(bool(c.met) for c in criteria_in(state.get(S.CRITERIA)))
            yield status_event(ctx, self.name, f"stages done: {done} of {len(stages)} approved; criteria met: {met} "
                                               f"of {len(criteria_in(state.get(S.CRITERIA)))}", **{S.CHECK_DUE: None})

    async def _check(
        self, ctx: InvocationContext, checker: BaseAgent, reflector: BaseAgent
    ) -> AsyncGenerator[Event, None]:
        """After a stage: check the criteria, then (unless all are met) reflect and adapt the plan."""
        state = typed(ctx.session.state)
        if _stopped(state):   # a budget ran out: a resumed run checks (CHECK_DUE)
            return
        async for event in checker.run_async(ctx):
            yield event
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
        if plan_state.all_met(criteria_in(state.get(S.CRITERIA))) or _stopped(state):
            return
        why = plan_state.reflection_due(stages_in(state.get(S.STAGES)), criteria_in(state.get(S.CRITERIA)))
        if why is None:
            yield status_event(ctx, self.name, "the stage went as planned: the plan is kept (no reflection needed)")
            return
        async for event in reflector.run_async(ctx):
            yield event
        async for event in self._apply_reflection(ctx):
            yield event

    async def _run_stage(self, ctx: InvocationContext, impl_loop: BaseAgent, index: int) -> AsyncGenerator[Event, None]:
        services = self.services
        state = typed(ctx.session.state)
        stages = stages_in(state[S.STAGES])
        stage = stages[index]
        stage_dir = await services.code_runner.begin_stage(index, stage.title)
        rel_dir = services.workspace.rel(stage_dir)
        total = len(stages)
        yield status_event(
            ctx,
            self.name,
            f"stage {index + 1}/{total}: {stage.title}",
            **{
                S.STAGES: stages_out(plan_state.with_stage(stages, index, status=StageStatus.RUNNING, dir=rel_dir)),
                S.CURRENT_STAGE: index,
                S.STAGE_ATTEMPT: 0,
                S.IMPL_SUMMARY: "",
                S.CODE_REVIEW: "",
                S.LAST_EXECUTION: None,
                S.IMPL_DECISION: None,
                S.CHECK_DUE: None,
            },
        )
        _forget_earlier_events(ctx)
        stage_ctx = ctx.model_copy(update={"branch": f"{ctx.branch or self.name}.{stage.id}"})
        try:
            async for event in impl_loop.run_async(stage_ctx):
                yield event
        finally:
            await services.code_runner.end_stage()
        decision = state.get(S.IMPL_DECISION) or {}
        approved = bool(decision.get("exit"))
        attempts = state.get(S.STAGE_ATTEMPT) or 0
        if not approved and _stopped(state):
            # A budget ended the run before the stage could finish: it is no failure of the stage, which stays
            # under way, and a resumed run (with more budget) does it again.
            yield status_event(ctx, self.name, f"stage {index + 1}/{total} stopped before it finished",
                               **{S.CURRENT_STAGE: None})
            return
        stages = plan_state.with_stage(
            stages_in(state[S.STAGES]),
            index,
            status=StageStatus.APPROVED if approved else StageStatus.FAILED,
            attempts=attempts,
            summary=state.get(S.IMPL_SUMMARY) or "",
            review=state.get(S.CODE_REVIEW) or "",
        )
        _write_stage_files(services.workspace.root / rel_dir, stages[index], decision)
        verdict = stages[index].status.value
        if not approved:
            verdict += f" after {attempts} attempt(s): {decision.get('reason', 'not approved')}"
        yield status_event(
            ctx, self.name, f"stage {index + 1}/{total} {verdict}",
            **{S.STAGES: stages_out(stages), S.CURRENT_STAGE: None, S.CHECK_DUE: True},
        )

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
        yield status_event(
            ctx, self.name, text, **{S.STAGES: stages_out(stages), S.ADDED_STAGES: added, S.CHECK_DUE: None}
        )


def _forget_earlier_events(ctx: InvocationContext) -> None:
    """Drop earlier events from the in-memory session at a stage's start; `session.db` keeps every one.

    Every agent's prompt is rendered from state and includes only its own current turn as history
    (`include_contents="none"`), so earlier events are never sent to a model - yet ADK scans the whole in-memory
    list on every model call (turn detection, branch filtering), which makes a long run quadratic. Keeping only
    the user's messages bounds each call's cost by the current stage's events.
    """
    replace_session_events(ctx.session, [event for event in ctx.session.events if event.author == "user"])


def _stopped(state: SessionState) -> bool:
    """The run stopped early (a budget ran out, or planning failed): `evidence_check` decides its status."""
    return bool(state.get(S.STOP))


def _warning(ctx: InvocationContext, author: str, text: str) -> Event:
    warnings = list(typed(ctx.session.state).get(S.WARNINGS) or []) + [text]
    return status_event(ctx, author, f"warning: {text}", **{S.WARNINGS: warnings})


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
