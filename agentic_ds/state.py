"""Session-state keys and the records stored under them.

All orchestration state lives in the ADK session and changes only through `state_delta`,
`output_key` or context state, so `session.db` always holds the truth. Records are stored as
plain dicts (JSON-serialisable); the pydantic models here and in `agentic_ds/schema.py` (stages, criteria,
the final answer, statuses) validate them on the way in and out. `SessionState` (at the end) types every key:
readers and writers see the session's state through it (`typed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict, cast

from pydantic import Field, model_validator

from agentic_ds.schema import PlannedStage, Record

if TYPE_CHECKING:
    from collections.abc import Mapping

# -- keys ---------------------------------------------------------------------------------------
TASK: Final = "task"                          # the user's question, verbatim
TASK_READING: Final = "task_reading"          # task_reader's raw structured output: a title and the asks
ASKS: Final = "asks"  # list[schema.AskRecord]: what the task asks, as the run holds itself to it
TITLE: Final = "title"                        # a few words naming the run
MODE: Final = "mode"                          # "orchestrated" | "simple"
DATA_PROFILE: Final = "data_profile"          # compact text rendering of data_profile.json
INPUT_PROBLEMS: Final = "input_problems"      # list[str]: files that could not be profiled, and why
SKIPPED_INPUTS: Final = "skipped_inputs"      # list[{path, reason}]: inputs the run could not use (run.json's too)
PLAN_TEXT: Final = "plan_text"                # plan_maker's free-form plan (also written to plan.md)
PLAN_REVIEW: Final = "plan_review"            # plan_reviewer's critique
PLAN_DECISION: Final = "plan_decision"        # plan_confirmation's {exit, reason}
PLAN_ROUND: Final = "plan_round"              # 1-based planning iteration
PARSED_PLAN: Final = "parsed_plan"            # plan_parser's raw structured output
PLAN_APPROVAL: Final = "plan_approval"        # schema.PlanApproval: the plan waits for a person (--approve-plan)
STAGES: Final = "stages"                      # list[schema.StageRecord], as dicts
CRITERIA: Final = "criteria"                  # list[schema.CriterionRecord], as dicts
# Per-stage keys: stages run at once, and each keeps these under `<key>@<stage id>` (`workflow/stage_scope.py`);
# its agents read and write them under the plain names.
CURRENT_STAGE: Final = "current_stage"        # index into STAGES, or None
STAGE_ATTEMPT: Final = "stage_attempt"        # 1-based iteration of the implementation loop
IMPL_SUMMARY: Final = "impl_summary"          # coding_agent's final text for the current attempt
LAST_EXECUTION: Final = "last_execution"      # ExecutionSummary of the coder's last run_python
CODE_REVIEW: Final = "code_review"            # code_reviewer's critique of the current attempt
IMPL_DECISION: Final = "impl_decision"        # impl_confirmation's {exit, reason}
CRITERIA_UPDATE: Final = "criteria_update"    # criteria_checker's raw structured output
CHECK_DUE: Final = "check_due"  # ids of the stages that ended, in that order, whose criteria check and
                                # reflection are still to run (True, in runs from before: the last one's)
CHECKED_STAGE: Final = "checked_stage"  # id of the stage whose check is under way (the reflector's latest stage)
REFLECTION: Final = "reflection"              # stage_reflector's raw structured output
REPORT_TEXT: Final = "report_text"            # summary_agent's report (also written to report.md)
RUN_STATUS: Final = "run_status"              # schema.RunStatus, decided by `evidence.status.decide` alone
STOP: Final = "stop"                          # {status, reason}: the run stopped early (a budget, no plan): a ceiling
STATUS_REASON: Final = "status_reason"        # one sentence: why that status
WARNINGS: Final = "warnings"                  # list[str]
ADDED_STAGES: Final = "added_stages"          # how many stages the reflector appended so far
ANSWER_CLAIM: Final = "answer_claim"          # answer_validator's ValidatedAnswer: the model's word
ANSWER_CLAIMS: Final = "answer_claims"        # every ANSWER_CLAIM of the run, one per attempt (the best one stands)
FINAL_ANSWER: Final = "final_answer"          # schema.FinalAnswer: the claim as the evidence checks judged it
ANSWER_CHECK: Final = "answer_check"  # evidence.answers.AnswerCheck: does the answer stand (simple_loop's decision)
ANSWER_FACTS: Final = "answer_facts"  # evidence.gates: what code found of the latest answer's figures, ask by ask
JUDGE_REPLY: Final = "judge_reply"            # judge's raw structured output on the latest answer
JUDGED_CLAIM: Final = "judged_claim"          # how many answers were judged: the judge speaks once on each answer
SIMPLE_ATTEMPT: Final = "simple_attempt"      # simple mode: 1-based attempt
EARLIER_ATTEMPTS: Final = "earlier_attempts"  # simple mode: list of {attempt, error, verdict} of failed attempts
EARLIER_RUN: Final = "earlier_run"            # a follow-up: what the run it follows found (followups/memory.py)


# -- structured LLM outputs ---------------------------------------------------------------------
class Decision(Record):
    """A confirmation agent's verdict: exit the loop (approved) or go round again."""

    exit: bool = Field(description="true when the reviewed work is approved and the loop should end")
    reason: str = Field(description="one or two sentences: why")


class AskItem(Record):
    id: str = Field(description="a1, a2, ... in the order the task asks them")
    text: str = Field(description="this part of the question, in the task's own words where possible")
    slot: str = Field(default="", description="the NAME when the task asks for this value as @NAME[...], else ''")


class TaskReading(Record):
    """task_reader's structured output: what the task asks, part by part, and a short title for the run."""

    title: str = Field(description="3 to 8 words naming the analysis")
    asks: list[AskItem] = Field(min_length=1, description="every part of the question, each answerable on its own")


class PlannedCriterion(Record):
    text: str = Field(description="an end state that proves part of the task done, checkable from files")
    asks: list[str] = Field(default_factory=list, description="ids of the asks (a1, a2...) this criterion settles")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        return {"text": value} if isinstance(value, str) else value


class ParsedPlan(Record):
    stages: list[PlannedStage] = Field(min_length=1)
    success_criteria: list[PlannedCriterion] = Field(min_length=1, description="end states that prove the task done")


class CriterionUpdate(Record):
    id: str
    met: bool
    evidence: str = Field(description="paths and numbers that show it, or what is missing")


class CriteriaUpdate(Record):
    criteria: list[CriterionUpdate]


class StageEdit(Record):
    id: str = Field(description="id of a stage that has not run yet")
    title: str | None = None
    description: str | None = None
    expected_outputs: list[str] | None = None


class Reflection(Record):
    edits: list[StageEdit] = Field(default_factory=list)
    new_stages: list[PlannedStage] = Field(default_factory=list)
    note: str = ""


class AskClaim(Record):
    id: str = Field(description="the ask's id, e.g. 'a1'")
    answered: bool = Field(description="false when the outputs do not answer this ask")
    answer: str = Field(default="", description="the answer to this ask with its number(s), or why it is not answered")
    files: list[str] = Field(default_factory=list,
                             description="the files of this run that hold its figures: outputs/... files, or a "
                                         "cell's printed output stages/NN-name/cell_NNN.out.txt")


class ValidatedAnswer(Record):
    """answer_validator's structured output: the answer it checked against the outputs, in its own words."""

    valid: bool = Field(description="false when the execution failed or the outputs do not support the answer")
    answer: str
    confidence: Literal["high", "medium", "low"] = "medium"
    caveats: list[str] = Field(default_factory=list)
    reasoning_trace: list[str] = Field(default_factory=list, description="a few short steps")
    output_type: Literal["number", "table", "figure", "text"] = "text"
    asks: list[AskClaim] = Field(default_factory=list, description="one entry per ask listed under Asks")


# -- records kept in state (the stage and criterion records are in agentic_ds/schema.py) ------------
class ExecutionSummary(Record):
    """What the coder's last `run_python` did, as the reviewer sees it."""

    ok: bool
    cells: int = 0
    error: str = ""
    output_tail: str = ""
    files: list[str] = Field(default_factory=list)


class AskVerdict(Record):
    id: str = Field(description="the ask's id")
    addressed: bool = Field(description="true when the answer's text says what this ask asks for")
    estimate: bool = Field(default=False, description="true when the answer rests on a fitted model or an estimate "
                                                      "rather than a direct computation")
    reason: str = Field(description="one sentence: why")


class CriterionVerdict(Record):
    id: str = Field(description="the criterion's id")
    shown: bool = Field(description="true when the quoted evidence shows what the criterion states")
    reason: str = Field(description="one sentence: why")


class JudgeVerdict(Record):
    """judge's structured output: whether the answer's words address each ask, and whether each criterion's
    evidence shows what it states. Facts (figures, files) were checked in code before."""

    asks: list[AskVerdict] = Field(default_factory=list)
    criteria: list[CriterionVerdict] = Field(default_factory=list)


# -- the session's state, typed --------------------------------------------------------------------
Json = dict[str, Any]   # a record as stored: plain JSON, read back through its pydantic model (Any: JSON values)


class SessionState(TypedDict, total=False):
    """Every key of session state: its type and who writes it. Agents, callbacks and the runner read and write
    state through this type (`typed`); a key missing here is a type error. Records are JSON dicts."""

    task: str                        # runner: the run's start
    mode: str                        # runner: "orchestrated" | "simple"
    skipped_inputs: list[Json]       # runner, file_analyzer
    earlier_run: str                 # runner (a follow-up question)
    plan_approval: Json | None       # runner (--approve-plan), plan_gate
    data_profile: str                # file_analyzer
    input_problems: list[str]        # file_analyzer
    task_reading: Json | None        # task_reader (output key)
    asks: list[Json]                 # task_reader's store (reading.reading_delta)
    title: str                       # task_reader's store
    plan_round: int                  # planning_loop
    plan_text: str                   # plan_maker (output key)
    plan_review: str | None          # plan_reviewer (output key); cleared by plan_gate on an edit
    plan_decision: Json | None       # plan_confirmation (output key) or verdicts.decide_when_explicit
    parsed_plan: Json | None         # plan_parser (output key)
    stages: list[Json] | None        # plan_parser's store, stage_orchestrator, evidence_check (simple mode)
    criteria: list[Json] | None      # plan_parser's store, stage_orchestrator, judge
    current_stage: int | None        # stage_orchestrator
    stage_attempt: int               # implementation_loop (its round)
    impl_summary: str                # coding_agent (output key)
    last_execution: Json | None      # run_python (tools), cleared by stage_orchestrator and simple_loop
    code_review: str                 # code_reviewer (output key)
    impl_decision: Json | None       # impl_confirmation (output key) or verdicts.decide_when_explicit
    criteria_update: Json | None     # criteria_checker (output key)
    check_due: list[str] | bool | None  # stage_orchestrator
    checked_stage: str               # stage_orchestrator
    reflection: Json | None          # stage_reflector (output key)
    added_stages: int                # stage_orchestrator
    simple_attempt: int              # simple_loop (its round)
    earlier_attempts: list[Json]     # simple_loop
    answer_claim: Json | None        # answer_validator (output key)
    answer_claims: list[Json | None]  # answer_validator's keep
    answer_facts: Json | None        # judge's before callback
    judge_reply: Json | None         # judge (output key)
    judged_claim: int                # judge's record
    answer_check: Json | None        # judge's record
    final_answer: Json | None        # judge's record, evidence_check
    run_status: str | None           # evidence_check (evidence.status.decide)
    status_reason: str | None        # evidence_check
    stop: Json | None                # {status, reason}: budgets, plan_parser, plan_gate, runner
    warnings: list[str]              # file_analyzer, stage_orchestrator, checkers' give-up, budgets
    report_text: str                 # summary_agent (output key)


def typed(state: Mapping[str, Any] | object) -> SessionState:
    """ADK's session state (its `State`, or the session's dict) seen through `SessionState`: the same object,
    read and written by its typed keys."""
    return cast(SessionState, state)
