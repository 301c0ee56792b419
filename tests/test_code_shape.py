"""The code base's shape rules that no linter checks: one concept per module, none over 400 lines."""

from __future__ import annotations

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
