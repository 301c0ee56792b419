"""Session-state keys and the records stored under them.

All orchestration state lives in the ADK session and changes only through `state_delta`,
`output_key` or context state, so `session.db` always holds the truth. Records are stored as
plain dicts (JSON-serialisable); the pydantic models here and in `agentic_ds/schema.py` (stages, criteria,
the final answer, statuses) validate them on the way in and out.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from agentic_ds.schema import PlannedStage, Record

# -- keys ---------------------------------------------------------------------------------------
TASK = "task"                          # the user's question, verbatim
TASK_READING = "task_reading"          # task_reader's raw structured output: a title and the asks
ASKS = "asks"                          # list[schema.AskRecord]: what the task asks, as the run holds itself to it
TITLE = "title"                        # a few words naming the run
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
# Per-stage keys: stages run at once, and each keeps these under `<key>@<stage id>` (`workflow/stage_scope.py`);
# its agents read and write them under the plain names.
CURRENT_STAGE = "current_stage"        # index into STAGES, or None
STAGE_ATTEMPT = "stage_attempt"        # 1-based iteration of the implementation loop
IMPL_SUMMARY = "impl_summary"          # coding_agent's final text for the current attempt
LAST_EXECUTION = "last_execution"      # ExecutionSummary of the coder's last run_python
CODE_REVIEW = "code_review"            # code_reviewer's critique of the current attempt
IMPL_DECISION = "impl_decision"        # impl_confirmation's {exit, reason}
CRITERIA_UPDATE = "criteria_update"    # criteria_checker's raw structured output
CHECK_DUE = "check_due"                # ids of the stages that ended, in that order, whose criteria check and
                                       # reflection are still to run (True, in runs from before: the last one's)
CHECKED_STAGE = "checked_stage"        # id of the stage whose check is under way (the reflector's latest stage)
REFLECTION = "reflection"              # stage_reflector's raw structured output
REPORT_TEXT = "report_text"            # summary_agent's report (also written to report.md)
RUN_STATUS = "run_status"              # schema.RunStatus, decided by `evidence.status.decide` alone
STOP = "stop"                          # {status, reason}: the run stopped early (a budget, no plan): a ceiling
STATUS_REASON = "status_reason"        # one sentence: why that status
WARNINGS = "warnings"                  # list[str]
ADDED_STAGES = "added_stages"          # how many stages the reflector appended so far
ANSWER_CLAIM = "answer_claim"          # answer_validator's ValidatedAnswer: the model's word
ANSWER_CLAIMS = "answer_claims"        # every ANSWER_CLAIM of the run, one per attempt (the best one stands)
FINAL_ANSWER = "final_answer"          # schema.FinalAnswer: the claim as the evidence checks judged it
ANSWER_CHECK = "answer_check"          # evidence.answers.AnswerCheck: does the answer stand (simple_loop's decision)
ANSWER_FACTS = "answer_facts"          # evidence.gates: what code found of the latest answer's figures, ask by ask
JUDGE_REPLY = "judge_reply"            # judge's raw structured output on the latest answer
JUDGED_CLAIM = "judged_claim"          # how many answers were judged: the judge speaks once on each answer
SIMPLE_ATTEMPT = "simple_attempt"      # simple mode: 1-based attempt
EARLIER_ATTEMPTS = "earlier_attempts"  # simple mode: list of {attempt, error, verdict} of failed attempts
EARLIER_RUN = "earlier_run"            # a follow-up: what the run it follows found (followups/memory.py)


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
