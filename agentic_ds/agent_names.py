"""Every agent's name, written once: the authors in events.jsonl, the keys of run.json's `agents`, and (with the
ADK branch) the keys of recorded model calls in cassettes, so a name never changes once shipped.

The tree they form is written out in `workflow/tree.py`; what each agent is (prompt, tools, schema, model role) is in
`agent_table.py`.
"""

from __future__ import annotations

from typing import Final

ROOT: Final = "agentic_ds"
FILE_ANALYZER: Final = "file_analyzer"
TASK_READER: Final = "task_reader"
PLANNING_LOOP: Final = "planning_loop"
PLAN_MAKER: Final = "plan_maker"
PLAN_REVIEWER: Final = "plan_reviewer"
PLAN_CONFIRMATION: Final = "plan_confirmation"
PLAN_PARSER: Final = "plan_parser"
STAGE_ORCHESTRATOR: Final = "stage_orchestrator"
IMPLEMENTATION_LOOP: Final = "implementation_loop"
CODING_AGENT: Final = "coding_agent"
CODE_REVIEWER: Final = "code_reviewer"
IMPL_CONFIRMATION: Final = "impl_confirmation"
CRITERIA_CHECKER: Final = "criteria_checker"
STAGE_REFLECTOR: Final = "stage_reflector"
SIMPLE_LOOP: Final = "simple_loop"
ANSWER_VALIDATOR: Final = "answer_validator"
JUDGE: Final = "judge"
EVIDENCE_CHECK: Final = "evidence_check"
SUMMARY_AGENT: Final = "summary_agent"
