"""The table of agents: what each agent of both trees is, each fact about it written once.

Where each agent sits is written out in `workflow/tree.py`; its name is in `agent_names.py`. Read from this table:
each LLM agent's model, prompt, tools, output schema and output key (`workflow/agents.py`), the run's model per
agent (`workflow/assembly.py`), which authors speak in status lines (`cli/progress.py`, `runs/events_log.py`), the
loop rounds shown as iterations, and the offline model's dispatch (by `role`). Adding an agent is one entry here,
its name, its prompt in `prompts/`, its builder, and its line in `workflow/tree.py`; `tests/test_agent_table.py`
checks they agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel

from agentic_ds import agent_names as A
from agentic_ds import state as S

Mode = Literal["orchestrated", "simple"]
MODES: tuple[Mode, ...] = ("orchestrated", "simple")


class Tools(StrEnum):
    """Which tool set an agent gets (`tools/toolset.py`)."""

    CODER = "coder"            # every tool: run_python, write_file and the read-only ones
    READ_ONLY = "read_only"    # read_file, list_files, sql_query, profile_data, list_skills, load_skill
    FILES = "files"            # read_file, list_files: reading what the run wrote
    NONE = "none"


class Shows(StrEnum):
    """How the progress display and events.jsonl present what an agent says."""

    TEXT = "text"              # an LLM agent's own words, shown as `[author] text`
    STATUS = "status"          # a control agent's status lines (stage i/n, verdicts, the final status)


@dataclass(frozen=True)
class Loop:
    """A `NonEscalatingLoopAgent`: `round_key` counts its rounds (shown as the iteration); the round ends the
    loop when the record under `decision_key` has a true `exit_field`; `iterations` names the `loops.*`
    setting that bounds it."""

    decision_key: str
    round_key: str
    iterations: str
    exit_field: str = "exit"


@dataclass(frozen=True)
class Agent:
    """One row of the table: an agent of one tree or both."""

    name: str
    role: str                               # the job; agents doing the same job share it (one offline answer)
    shows: Shows = Shows.STATUS
    model_role: str | None = None           # the configured model it calls (`models.<role>`); None: no LLM
    prompt: str | Mapping[Mode, str] | None = None   # template in prompts/, per mode when it differs
    tools: Tools = Tools.NONE
    output_schema: type[BaseModel] | None = None     # structured answer, validated (StructuredAgent)
    output_key: str | None = None                    # where its answer is stored in session state
    loop: Loop | None = None
    after_budget: bool = False              # still runs once a budget is spent (to report honestly)

    def prompt_for(self, mode: Mode) -> str:
        if self.prompt is None:
            raise ValueError(f"{self.name} has no prompt")
        return self.prompt if isinstance(self.prompt, str) else self.prompt[mode]


TEXT, READ_ONLY = Shows.TEXT, Tools.READ_ONLY

# In the order of the orchestrated tree, then simple mode's own.
AGENTS: dict[str, Agent] = {entry.name: entry for entry in (
    Agent(A.ROOT, "sequence"),
    Agent(A.FILE_ANALYZER, "file_analyzer"),
    Agent(A.TASK_READER, "task_reader", shows=TEXT, model_role="planner", prompt="task_reader",
          output_schema=S.TaskReading, output_key=S.TASK_READING),
    Agent(A.PLANNING_LOOP, "loop",
          loop=Loop(decision_key=S.PLAN_DECISION, round_key=S.PLAN_ROUND, iterations="plan_iterations")),
    Agent(A.PLAN_MAKER, "plan_maker", shows=TEXT,
          model_role="planner", prompt="plan_maker", tools=READ_ONLY, output_key=S.PLAN_TEXT),
    Agent(A.PLAN_REVIEWER, "plan_reviewer", shows=TEXT,
          model_role="reviewer", prompt="plan_reviewer", tools=READ_ONLY, output_key=S.PLAN_REVIEW),
    Agent(A.PLAN_CONFIRMATION, "confirmation", shows=TEXT,
          model_role="reviewer", prompt="confirmation", output_schema=S.Decision, output_key=S.PLAN_DECISION),
    Agent(A.PLAN_PARSER, "plan_parser", shows=TEXT,
          model_role="planner", prompt="plan_parser", output_schema=S.ParsedPlan, output_key=S.PARSED_PLAN),
    Agent(A.STAGE_ORCHESTRATOR, "orchestrator"),
    Agent(A.IMPLEMENTATION_LOOP, "loop",
          loop=Loop(decision_key=S.IMPL_DECISION, round_key=S.STAGE_ATTEMPT, iterations="impl_iterations")),
    Agent(A.CODING_AGENT, "coder",
          shows=TEXT, model_role="coder", prompt={"orchestrated": "coding_agent", "simple": "simple_coder"},
          tools=Tools.CODER, output_key=S.IMPL_SUMMARY),
    Agent(A.CODE_REVIEWER, "code_reviewer", shows=TEXT,
          model_role="reviewer", prompt="code_reviewer", tools=READ_ONLY, output_key=S.CODE_REVIEW),
    Agent(A.IMPL_CONFIRMATION, "confirmation", shows=TEXT,
          model_role="reviewer", prompt="confirmation", output_schema=S.Decision, output_key=S.IMPL_DECISION),
    Agent(A.CRITERIA_CHECKER, "criteria_checker", shows=TEXT,
          model_role="reviewer", prompt="criteria_checker", tools=READ_ONLY, output_schema=S.CriteriaUpdate,
          output_key=S.CRITERIA_UPDATE),
    Agent(A.STAGE_REFLECTOR, "stage_reflector", shows=TEXT,
          model_role="planner", prompt="stage_reflector", tools=READ_ONLY, output_schema=S.Reflection,
          output_key=S.REFLECTION),
    Agent(A.SIMPLE_LOOP, "loop",
          loop=Loop(decision_key=S.ANSWER_CHECK, round_key=S.SIMPLE_ATTEMPT, iterations="simple_attempts")),
    Agent(A.ANSWER_VALIDATOR, "answer_validator", shows=TEXT,
          model_role="reviewer", prompt="answer_validator", tools=READ_ONLY, output_schema=S.ValidatedAnswer,
          output_key=S.ANSWER_CLAIM),
    Agent(A.JUDGE, "judge", shows=TEXT, model_role="judge",
          prompt="judge", output_schema=S.JudgeVerdict, output_key=S.JUDGE_REPLY),
    Agent(A.EVIDENCE_CHECK, "status"),
    Agent(A.SUMMARY_AGENT, "summarizer", shows=TEXT, model_role="summarizer",
          prompt={"orchestrated": "summary_agent", "simple": "simple_summary"}, tools=Tools.FILES,
          output_key=S.REPORT_TEXT, after_budget=True),
)}


def agent(name: str) -> Agent:
    return AGENTS[name]


def llm_agents() -> dict[str, str]:
    """Each agent that calls a model -> the configured model role it uses."""
    return {a.name: a.model_role for a in AGENTS.values() if a.model_role is not None}


def status_authors() -> frozenset[str]:
    """Authors whose texts are status lines, not an agent's own words."""
    return frozenset(a.name for a in AGENTS.values() if a.shows is Shows.STATUS)


def round_keys() -> tuple[str, ...]:
    """State keys counting a loop's rounds (the iteration the progress display shows)."""
    return tuple(a.loop.round_key for a in AGENTS.values() if a.loop is not None)


def prompts() -> set[str]:
    """Every prompt template the agents use."""
    return {prompt for a in AGENTS.values() if a.prompt is not None
            for prompt in ([a.prompt] if isinstance(a.prompt, str) else a.prompt.values())}


def role_of(name: str) -> str | None:
    found = AGENTS.get(name)
    return found.role if found else None
