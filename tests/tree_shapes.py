"""The two agent trees as the design draws them, written out by hand for the tests: each agent's name, the class
it is built as, and the agents under it, in order. Deliberately not read from `agent_table` or `workflow/tree.py`,
so a change to the built shape fails a test until this file says the new shape is intended."""

from __future__ import annotations

Shape = tuple[str, str, tuple["Shape", ...]]


def leaf(name: str, kind: str) -> Shape:
    return (name, kind, ())


ORCHESTRATED: Shape = ("agentic_ds", "SequentialAgent", (
    leaf("file_analyzer", "FileAnalyzer"),
    leaf("task_reader", "StructuredAgent"),
    ("planning_loop", "NonEscalatingLoopAgent", (
        leaf("plan_maker", "LlmAgent"),
        leaf("plan_reviewer", "LlmAgent"),
        leaf("plan_confirmation", "StructuredAgent"),
    )),
    leaf("plan_parser", "StructuredAgent"),
    ("stage_orchestrator", "StageOrchestrator", (
        ("implementation_loop", "NonEscalatingLoopAgent", (
            leaf("coding_agent", "LlmAgent"),
            leaf("code_reviewer", "LlmAgent"),
            leaf("impl_confirmation", "StructuredAgent"),
        )),
        leaf("criteria_checker", "StructuredAgent"),
        leaf("stage_reflector", "StructuredAgent"),
    )),
    leaf("answer_validator", "StructuredAgent"),
    leaf("judge", "StructuredAgent"),
    leaf("evidence_check", "EvidenceCheck"),
    leaf("summary_agent", "LlmAgent"),
))

SIMPLE: Shape = ("agentic_ds", "SequentialAgent", (
    leaf("file_analyzer", "FileAnalyzer"),
    leaf("task_reader", "StructuredAgent"),
    ("simple_loop", "NonEscalatingLoopAgent", (
        leaf("coding_agent", "LlmAgent"),
        leaf("answer_validator", "StructuredAgent"),
        leaf("judge", "StructuredAgent"),
    )),
    leaf("evidence_check", "EvidenceCheck"),
    leaf("summary_agent", "LlmAgent"),
))

SHAPES: dict[str, Shape] = {"orchestrated": ORCHESTRATED, "simple": SIMPLE}


def shape_of(agent) -> Shape:
    """A built agent tree as a `Shape`."""
    return (agent.name, type(agent).__name__, tuple(shape_of(sub) for sub in agent.sub_agents))


def parents_of(shape: Shape) -> dict[str, str]:
    """Each agent under the shape's root -> its parent's name."""
    name, _, below = shape
    out = {child[0]: name for child in below}
    for child in below:
        out.update(parents_of(child))
    return out
