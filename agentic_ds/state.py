"""Session-state keys and the records stored under them.

All orchestration state lives in the ADK session and changes only through `state_delta`,
`output_key` or context state, so `session.db` always holds the truth. Records are stored as
plain dicts (JSON-serialisable); the pydantic models here and in `agentic_ds/schema.py` (stages, criteria,
the final answer, statuses) validate them on the way in and out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentic_ds.schema import PlannedStage, Record

# -- keys ---------------------------------------------------------------------------------------
TASK = "task"                          # the user's question, verbatim
MODE = "mode"                          # "orchestrated" | "simple"
DATA_PROFILE = "data_profile"          # compact text rendering of data_profile.json
INPUT_PROBLEMS = "input_problems"      # list[str]: files that could not be profiled, and why
SKIPPED_INPUTS = "skipped_inputs"      # list[{path, reason}]: inputs the run could not use (run.json's too)
PLAN_TEXT = "plan_text"                # plan_maker's free-form plan (also written to plan.md)
PLAN_REVIEW = "plan_review"            # plan_reviewer's critique
PLAN_DECISION = "plan_decision"        # plan_confirmation's {exit, reason}
PLAN_ROUND = "plan_round"              # 1-based planning iteration
PARSED_PLAN = "parsed_plan"            # plan_parser's raw structured output
PLAN_APPROVAL = "plan_approval"        # schema.PlanApproval: the plan waits for a person (--approve-plan)
STAGES = "stages"                      # list[schema.StageRecord], as dicts
CRITERIA = "criteria"                  # list[schema.CriterionRecord], as dicts
CURRENT_STAGE = "current_stage"        # index into STAGES, or None
STAGE_ATTEMPT = "stage_attempt"        # 1-based iteration of the implementation loop
IMPL_SUMMARY = "impl_summary"          # coding_agent's final text for the current attempt
LAST_EXECUTION = "last_execution"      # ExecutionSummary of the coder's last run_python
CODE_REVIEW = "code_review"            # code_reviewer's critique of the current attempt
IMPL_DECISION = "impl_decision"        # impl_confirmation's {exit, reason}
CRITERIA_UPDATE = "criteria_update"    # criteria_checker's raw structured output
CHECK_DUE = "check_due"                # a stage ended; the criteria check and reflection after it are still to run
REFLECTION = "reflection"              # stage_reflector's raw structured output
REPORT_TEXT = "report_text"            # summary_agent's report (also written to report.md)
RUN_STATUS = "run_status"              # schema.RunStatus
STATUS_REASON = "status_reason"        # one sentence: why that status
WARNINGS = "warnings"                  # list[str]
ADDED_STAGES = "added_stages"          # how many stages the reflector appended so far
ANSWER_CLAIM = "answer_claim"          # answer_validator's ValidatedAnswer: the model's word
ANSWER_CLAIMS = "answer_claims"        # every ANSWER_CLAIM of the run, one per attempt (the best one stands)
FINAL_ANSWER = "final_answer"          # schema.FinalAnswer: the claim as the evidence checks judged it
ANSWER_CHECK = "answer_check"          # evidence.answers.AnswerCheck: does the answer stand (simple_loop's decision)
SIMPLE_ATTEMPT = "simple_attempt"      # simple mode: 1-based attempt
EARLIER_ATTEMPTS = "earlier_attempts"  # simple mode: list of {attempt, error, verdict} of failed attempts


# -- structured LLM outputs ---------------------------------------------------------------------
class Decision(Record):
    """A confirmation agent's verdict: exit the loop (approved) or go round again."""

    exit: bool = Field(description="true when the reviewed work is approved and the loop should end")
    reason: str = Field(description="one or two sentences: why")


class ParsedPlan(Record):
    stages: list[PlannedStage] = Field(min_length=1)
    success_criteria: list[str] = Field(min_length=1, description="end states that prove the task is done")


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
    files: list[str] = Field(default_factory=list, description="the files under outputs/ that hold its figures")


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
