"""The two agent trees, written out: what each mode runs, in order, as the design draws it.

What each agent is (its model role, prompt, tools, output schema and key) is in `agentic_ds/agent_table.py` and
its builder; where it sits is here and only here. Every agent then gets its skip (`skip_done`: a resumed run skips
what its session records as done), and the stage orchestrator the plan gate (`--approve-plan`).
"""

from __future__ import annotations

from collections.abc import Iterator

from google.adk.agents import BaseAgent

from agentic_ds import agent_names as A
from agentic_ds.agent_table import Mode
from agentic_ds.workflow import plan_gate, skip_done
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


def orchestrated_tree(s: RunServices) -> BaseAgent:
    """Plan in a reviewed loop, parse the plan, run it stage by stage (each in a reviewed loop, then a criteria
    check and a reflection that may change the stages ahead), then state, judge and settle the answer, and report."""
    mode: Mode = "orchestrated"
    return sequence(A.ROOT, [                                       # SequentialAgent
        FileAnalyzer(name=A.FILE_ANALYZER, workspace=s.workspace),  # profiles every input (code, no model)
        build_task_reader(s, mode),                                 # the task's asks and a title
        loop_agent(s, A.PLANNING_LOOP, [                            # NonEscalatingLoopAgent, bounded
            build_plan_maker(s, mode),
            build_plan_reviewer(s, mode),
            build_plan_confirmation(s, mode),                       # {exit, reason}: ends this loop only
        ]),
        build_plan_parser(s, mode),                                 # stages[], success_criteria[]
        StageOrchestrator(name=A.STAGE_ORCHESTRATOR, services=s, sub_agents=[   # for each pending stage:
            loop_agent(s, A.IMPLEMENTATION_LOOP, [                  # NonEscalatingLoopAgent, bounded
                build_coder(s, mode),
                build_code_reviewer(s, mode),
                build_impl_confirmation(s, mode),
            ]),
            build_criteria_checker(s, mode),
            build_stage_reflector(s, mode),
        ]),
        build_answer_validator(s, mode),                            # the answer, ask by ask
        build_judge(s, mode),                                       # do its words address the asks
        EvidenceCheck(name=A.EVIDENCE_CHECK, mode=mode, services=s),  # the status (evidence/status.decide)
        build_summary_agent(s, mode),                               # report.md
    ])


def simple_tree(s: RunServices) -> BaseAgent:
    """One coding pass with a mandatory validation, retried while the answer does not stand, then the report."""
    mode: Mode = "simple"
    return sequence(A.ROOT, [                                       # SequentialAgent
        FileAnalyzer(name=A.FILE_ANALYZER, workspace=s.workspace),
        build_task_reader(s, mode),
        build_simple_loop(s, mode, [                                # NonEscalatingLoopAgent, bounded
            build_coder(s, mode),
            build_answer_validator(s, mode),
            build_judge(s, mode),                                   # the answer stands or the loop goes round
        ]),
        EvidenceCheck(name=A.EVIDENCE_CHECK, mode=mode, services=s),
        build_summary_agent(s, mode),
    ])


def build_tree(services: RunServices, mode: str) -> BaseAgent:
    """The root agent of `mode`'s tree, each agent with its skip and the stage orchestrator with the plan gate."""
    trees = {"orchestrated": orchestrated_tree, "simple": simple_tree}
    if mode not in trees:
        raise ValueError(f"unknown mode {mode!r}: orchestrated or simple")
    root = trees[mode](services)
    for agent in walk(root):
        skip_done.attach(agent)   # a resumed run skips what its session records as done
        if agent.name == plan_gate.GATED:
            plan_gate.attach(agent, services.workspace.root.name)   # --approve-plan: the plan waits here
    return root


def walk(agent: BaseAgent) -> Iterator[BaseAgent]:
    """`agent` and every agent under it, depth first, in order."""
    yield agent
    for sub in agent.sub_agents:
        yield from walk(sub)


def parents(root: BaseAgent) -> dict[str, str]:
    """Each agent under `root` -> its parent's name (what the progress display draws)."""
    return {sub.name: agent.name for agent in walk(root) for sub in agent.sub_agents}
