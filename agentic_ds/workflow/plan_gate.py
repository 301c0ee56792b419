"""The pause between `plan_parser` and `stage_orchestrator`: a run started with `--approve-plan` waits there for a
person to approve its plan, have it edited, or stop it, before any stage runs (and before any money is spent on
the stages).

The tree stays the design's: the gate is a `before_agent_callback` of `stage_orchestrator`. When the plan waits,
the gate records it in state (`plan_approval.state = awaiting`, and the run's stop, `awaiting_approval`, the
ceiling its status is decided under), the orchestrator and every agent after it are skipped (`held`), and the
invocation ends: the process can exit, nothing
waits in memory. A decision comes back as the `state_delta` of the next invocation (`decide`, through
`workflow/resume.py`): approve lets the stages run; edit clears the plan and hands the person's notes to the
planner, whose new plan waits again; stop ends the run `incomplete`. Planning and profiling are not redone on
approval: `skip_done` sees the plan in state.
"""

from __future__ import annotations

from google.adk.agents import BaseAgent
from google.adk.agents.callback_context import CallbackContext
from google.genai import types

from agentic_ds import agent_names as A
from agentic_ds import state as S
from agentic_ds.schema import PlanApproval, PlanDecision, RunStatus, now_iso, read_model
from agentic_ds.state import SessionState, typed

GATED = A.STAGE_ORCHESTRATOR   # the agent the gate stands before
WAITING = ("awaiting", "stopped")


def approval_of(state: SessionState) -> PlanApproval | None:
    """The run's approval record in state; None when the run does not wait for one."""
    raw = state.get(S.PLAN_APPROVAL)
    return read_model(PlanApproval, raw) if raw else None


def waiting_reason(run: str) -> str:
    return (f"the plan waits for approval: `agentic-ds approve {run}` runs it, "
            f"`agentic-ds approve {run} --edit \"NOTES\"` has it revised, "
            f"`agentic-ds approve {run} --stop` ends the run")


def stopped_reason(run: str) -> str:
    return f"stopped at plan approval: the plan was not approved (`agentic-ds approve {run}` still runs it)"


def attach(agent: BaseAgent, run: str) -> None:
    """Put the gate before `agent` (the stage orchestrator of run `run`)."""

    def gate(callback_context: CallbackContext) -> types.Content | None:
        state = typed(callback_context.state)
        approval = approval_of(state)
        if approval is None or not approval.required or approval.state == "approved" or state.get(S.STOP):
            return None   # nothing to wait for, or the run stopped already (a budget, a plan that failed)
        if approval.state == "stopped":
            state[S.STOP] = {"status": RunStatus.INCOMPLETE, "reason": stopped_reason(run)}
            return _say("plan not approved: the run stops before its stages")
        approval.state = "awaiting"
        state[S.PLAN_APPROVAL] = approval.model_dump(mode="json")
        state[S.STOP] = {"status": RunStatus.AWAITING_APPROVAL, "reason": waiting_reason(run)}
        return _say("plan ready: waiting for approval before any stage runs")

    existing = agent.before_agent_callback
    callbacks = existing if isinstance(existing, list) else [existing] if existing else []
    agent.before_agent_callback = [gate, *callbacks]


def held(state: SessionState) -> bool:
    """The gate closed in this invocation: the agents after it are skipped."""
    approval = approval_of(state)
    return approval is not None and approval.state in WAITING and bool(state.get(S.STOP))


def decide(state: SessionState, decision: PlanDecision) -> SessionState:
    """The state change a decision makes, applied as the next invocation's `state_delta`."""
    approval = approval_of(state) or PlanApproval(required=True)
    decided = decision.model_copy(update={"at": decision.at or now_iso(), "notes": decision.notes.strip()})
    approval.decisions.append(decided)
    delta: SessionState = {}
    if decided.decision == "approve":
        approval.state = "approved"
    elif decided.decision == "stop":
        approval.state = "stopped"
    else:   # edit: the plan is made again, with the notes; the profile stays
        approval.state = None
        delta.update({S.STAGES: None, S.CRITERIA: None, S.PARSED_PLAN: None, S.PLAN_DECISION: None,
                      S.PLAN_REVIEW: None})
    delta[S.PLAN_APPROVAL] = approval.model_dump(mode="json")
    return delta


def render_notes(state: SessionState) -> str:
    """The person's notes on earlier plans, as the planner reads them."""
    approval = approval_of(state)
    return "\n".join(f"- {' '.join(note.split())}" for note in approval.notes) if approval else ""


def _say(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])
