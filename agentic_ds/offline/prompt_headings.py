"""The `## Section` headings each agent's prompt writes, read from the prompt templates themselves.

Only these headings start a section when the offline model splits a prompt, so a value holding markdown of its
own (a plan with `## Stages`) stays inside its section. They are derived from `prompts/*.md.j2` (every
`m.section("Title", ...)` call and every literal `## Title` line outside a code fence), so a prompt that gains,
loses or renames a section changes what the offline model reads with it; nothing is copied by hand.
"""

from __future__ import annotations

import re
from functools import cache

from agentic_ds.workflow.prompting import prompts_dir

# Which templates render each agent's instruction (the coder and the summary have a simple-mode variant).
AGENT_PROMPTS: dict[str, tuple[str, ...]] = {
    "plan_maker": ("plan_maker",),
    "plan_reviewer": ("plan_reviewer",),
    "plan_parser": ("plan_parser",),
    "plan_confirmation": ("confirmation",),
    "impl_confirmation": ("confirmation",),
    "coding_agent": ("coding_agent", "simple_coder"),
    "code_reviewer": ("code_reviewer",),
    "criteria_checker": ("criteria_checker",),
    "stage_reflector": ("stage_reflector",),
    "summary_agent": ("summary_agent", "simple_summary"),
    "answer_validator": ("answer_validator",),
}
_SECTION_CALL = re.compile(r'm\.section\(\s*"([^"\n]{1,80})"')
_LITERAL = re.compile(r"^##\s+(\S[^\n]{0,80}?)\s*$")


@cache
def template_headings(name: str) -> frozenset[str]:
    """Lower-cased headings one prompt template writes."""
    text = (prompts_dir() / f"{name}.md.j2").read_text(encoding="utf-8")
    found = {m.group(1).strip().lower() for m in _SECTION_CALL.finditer(text)}
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        literal = None if fenced or "{{" in line or "{%" in line else _LITERAL.match(line)
        if literal:
            found.add(literal.group(1).strip().lower())
    return frozenset(found)


def agent_headings(agent: str) -> frozenset[str] | None:
    """The headings of every template `agent` is rendered from; None for an agent with no prompt of ours."""
    names = AGENT_PROMPTS.get(agent)
    if not names:
        return None
    return frozenset().union(*(template_headings(name) for name in names))
