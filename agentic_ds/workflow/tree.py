"""The two agent trees. Agent names are fixed: they are the authors in events.jsonl and the keys of run.json."""

from __future__ import annotations

from google.adk.agents import BaseAgent

from agentic_ds.workflow.checking import build_criteria_checker, build_stage_reflector
from agentic_ds.workflow.file_analyzer import FileAnalyzer
from agentic_ds.workflow.implementation import build_implementation_loop
from agentic_ds.workflow.loops import sequence
from agentic_ds.workflow.orchestrator import StageOrchestrator
from agentic_ds.workflow.planning import build_plan_parser, build_planning_loop
from agentic_ds.workflow.services import RunServices
from agentic_ds.workflow.simple import build_simple_agents
from agentic_ds.workflow.summary import build_summary_agent

ROOT_NAME = "agentic_ds"


def build_orchestrated_tree(services: RunServices) -> BaseAgent:
    """file_analyzer -> planning_loop -> plan_parser -> stage_orchestrator -> summary_agent."""
    orchestrator = StageOrchestrator(
        name="stage_orchestrator",
        services=services,
        sub_agents=[
            build_implementation_loop(services),
            build_criteria_checker(services),
            build_stage_reflector(services),
        ],
    )
    return sequence(
        ROOT_NAME,
        [
            FileAnalyzer(name="file_analyzer", workspace=services.workspace),
            build_planning_loop(services),
            build_plan_parser(services),
            orchestrator,
            build_summary_agent(services),
        ],
    )


def build_simple_tree(services: RunServices) -> BaseAgent:
    """file_analyzer -> simple_loop[coding_agent, answer_validator] -> simple_status -> summary_agent."""
    return sequence(
        ROOT_NAME,
        [
            FileAnalyzer(name="file_analyzer", workspace=services.workspace),
            *build_simple_agents(services),
            build_summary_agent(services, simple=True),
        ],
    )
