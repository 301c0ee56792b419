"""The `## Section` headings each agent's prompt writes, read from the prompt templates themselves.

Only these headings start a section when the offline model splits a prompt, so a value holding markdown of its
own (a plan with `## Stages`) stays inside its section. They are derived from `prompts/*.md.j2` (every
`m.section("Title", ...)` call and every literal `## Title` line outside a code fence), so a prompt that gains,
loses or renames a section changes what the offline model reads with it; nothing is copied by hand. Which
templates render an agent's instruction is the table of agents' `prompt` (one per mode it runs in).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from agentic_ds import agent_table
from agentic_ds.workflow.prompting import prompts_dir

_SECTION_CALL = re.compile(r'm\.section\(\s*"([^"\n]{1,80})"')
_LITERAL = re.compile(r"^##\s+(\S[^\n]{0,80}?)\s*$")


def agent_prompts(agent: str) -> tuple[str, ...]:
    """The templates `agent`'s instruction is rendered from, one per mode it runs in; () for an agent without one."""
    entry = agent_table.AGENTS.get(agent)  # read at call time: the table is the one registry of agents
    if entry is None or entry.prompt is None:
        return ()
    return tuple(dict.fromkeys(entry.prompt_for(mode) for mode in entry.modes))


def template_headings(name: str) -> frozenset[str]:
    """Lower-cased headings one prompt template writes (in the prompts folder in use now)."""
    return _headings(prompts_dir() / f"{name}.md.j2")


def agent_headings(agent: str) -> frozenset[str] | None:
    """The headings of every template `agent` is rendered from; None for an agent with no prompt of ours."""
    names = agent_prompts(agent)
    if not names:
        return None
    return frozenset().union(*(template_headings(name) for name in names))


@cache  # keyed by the template's path, so pointing AGENTIC_DS_PROMPTS_DIR elsewhere reads the other folder
def _headings(path: Path) -> frozenset[str]:
    text = path.read_text(encoding="utf-8")
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
