"""The code base's shape rules that no linter checks: one concept per module, none over 400 lines."""

from __future__ import annotations

import re
from pathlib import Path

import agentic_ds

PACKAGE = Path(agentic_ds.__file__).parent
MAX_MODULE_LINES = 400


def test_no_module_in_the_package_is_over_400_lines() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, f"found only {len(modules)} modules under {PACKAGE}: the scan looks in the wrong place"
    too_long = {
        str(path.relative_to(PACKAGE.parent)): count
        for path in modules
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not too_long, f"split these modules (at most {MAX_MODULE_LINES} lines each): {too_long}"


WORKFLOW = PACKAGE / "workflow"
MAX_ANY_IN_WORKFLOW = 30


def test_every_session_state_key_is_typed_once() -> None:
    from agentic_ds import state

    keys = {value for name, value in vars(state).items() if name.isupper() and isinstance(value, str)}
    assert keys == set(state.SessionState.__annotations__), "state.py's keys and SessionState's fields differ"


def test_workflow_code_names_agents_through_agent_names() -> None:
    from agentic_ds import agent_names

    names = {value for name, value in vars(agent_names).items() if name.isupper() and isinstance(value, str)}
    assert len(names) >= 19
    found = {
        f"{path.name}: {name}"
        for path in sorted(WORKFLOW.glob("*.py"))
        for name in names
        if f'"{name}"' in (text := path.read_text(encoding="utf-8")) or f"'{name}'" in text
    }
    assert not found, f"agent names written as literals (use agentic_ds.agent_names): {sorted(found)}"


def test_workflow_keeps_few_anys_each_with_its_reason() -> None:
    lines = [
        (path.name, number, line)
        for path in sorted(WORKFLOW.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bAny\b", line) and not line.lstrip().startswith(("from ", "import "))
    ]
    assert len(lines) <= MAX_ANY_IN_WORKFLOW, f"{len(lines)} uses of Any in workflow/ (at most {MAX_ANY_IN_WORKFLOW})"
    unexplained = [f"{name}:{number}" for name, number, line in lines if "#" not in line]
    assert not unexplained, f"an Any without a comment saying why: {unexplained}"
