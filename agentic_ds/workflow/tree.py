"""The two agent trees, built from the table of agents (`agentic_ds/agent_table.py`).

The table says which agents each mode's tree holds and under which parent, in order; this module says how
each one is built. A leaf builder takes the run's services and the mode; a container builder also gets its
children, already built.
"""

from __future__ import annotations

from collections.abc import Callable

from google.adk.agents import BaseAgent

from agentic_ds.agent_table import ROOT, Mode, children
from agentic_ds.workflow import skip_done
from agentic_ds.workflow.agents import loop_agent
from agentic_ds.workflow.answer import EvidenceCheck, build_answer_validator
from agentic_ds.workflow.checking import build_criteria_checker, build_stage_reflector
from agentic_ds.workflow.coder import build_coder
from agentic_ds.workflow.file_analyzer import FileAnalyzer
from agentic_ds.workflow.implementation import build_code_reviewer, build_impl_confirmation
from agentic_ds.workflow.judging import build_judge
from agentic_ds.workflow.loops import sequence
from agentic_ds.workflow.orchestrator import StageOrchestrator
from agentic_ds.workflow.planning import (
    build_plan_confirmation,
    build_plan_maker,
    build_plan_parser,
    build_plan_reviewer,
)
from agentic_ds.workflow.reading import build_task_reader
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.simple import build_simple_loop
from agentic_ds.workflow.summary import build_summary_agent

Leaf = Callable[[RunServices, Mode], BaseAgent]
Container = Callable[[RunServices, Mode, list[BaseAgent]], BaseAgent]

LEAVES: dict[str, Leaf] = {
    "file_analyzer": lambda services, mode: FileAnalyzer(name="file_analyzer", workspace=services.workspace),
    "task_reader": build_task_reader,
    "plan_maker": build_plan_maker,
    "plan_reviewer": build_plan_reviewer,
    "plan_confirmation": build_plan_confirmation,
    "plan_parser": build_plan_parser,
    "coding_agent": build_coder,
    "code_reviewer": build_code_reviewer,
    "impl_confirmation": build_impl_confirmation,
    "criteria_checker": build_criteria_checker,
    "stage_reflector": build_stage_reflector,
    "answer_validator": build_answer_validator,
    "judge": build_judge,
    "evidence_check": lambda services, mode: EvidenceCheck(name="evidence_check", mode=mode, services=services),
    "summary_agent": build_summary_agent,
}
CONTAINERS: dict[str, Container] = {
    ROOT: lambda services, mode, sub_agents: sequence(ROOT, sub_agents),
    "planning_loop": lambda services, mode, sub_agents: loop_agent(services, "planning_loop", sub_agents),
    "stage_orchestrator": lambda services, mode, sub_agents: StageOrchestrator(
        name="stage_orchestrator", services=services, sub_agents=sub_agents
    ),
    "implementation_loop": lambda services, mode, sub_agents: loop_agent(services, "implementation_loop", sub_agents),
    "simple_loop": build_simple_loop,
}


def build_tree(services: RunServices, mode: Mode) -> BaseAgent:
    """The root agent of `mode`'s tree, every agent placed as the table says."""

    def build(name: str) -> BaseAgent:
        below = children(name, mode)
        if name in CONTAINERS:
            built = CONTAINERS[name](services, mode, [build(child) for child in below])
        elif below:
            raise ValueError(f"{name} has agents under it in the table of agents but is built as a leaf")
        else:
            built = LEAVES[name](services, mode)
        skip_done.attach(built)   # a resumed run skips what its session records as done
        return built

    return build(ROOT)
