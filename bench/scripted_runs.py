"""Long scripted orchestrated runs for benchmarks: K stages, T tool calls per coder turn, no real model."""

from __future__ import annotations

import json
from pathlib import Path

from agentic_ds.testing.scripted import as_json, call, text


def write_data(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "metrics.csv"
    lines = ["day,group,value"] + [f"{d},{'ab'[d % 2]},{(d * 37) % 101}" for d in range(200)]
    path.write_text("\n".join(lines) + "\n")
    return path


LOOK_AROUND = [{"path": p} for p in (".", "inputs", "outputs", "figures")]


def long_run_scripts(
    stages: int, tool_calls: int, tool: str = "list_files", args: list[dict] | None = None
) -> dict[str, list]:
    """`args` cycles per call: a real coder does not repeat the identical call (the loop guard would stop it)."""
    args = args or LOOK_AROUND
    plan = {
        "stages": [
            {
                "id": f"s{i + 1}",
                "title": f"Step {i + 1}",
                "description": f"Look at the data, part {i + 1}.",
                "expected_outputs": [],
            }
            for i in range(stages)
        ],
        "success_criteria": ["every step looked at the data"],
    }
    coder = []
    for i in range(stages):
        coder += [call(tool, **args[j % len(args)]) for j in range(tool_calls)] + [text(f"step {i + 1} done")]
    unmet = as_json({"criteria": [{"id": "c1", "met": False, "evidence": "more steps to go"}]})
    met = as_json({"criteria": [{"id": "c1", "met": True, "evidence": "all steps ran"}]})
    return {
        "plan_maker": [text("## Stages\n" + "\n".join(f"### Stage {i + 1}: Step {i + 1}" for i in range(stages)))],
        "plan_reviewer": [text("APPROVED")],
        "plan_confirmation": [as_json({"exit": True, "reason": "ok"})],
        "plan_parser": [text(json.dumps(plan))],
        "coding_agent": coder,
        "code_reviewer": [text("APPROVED")] * stages,
        "impl_confirmation": [as_json({"exit": True, "reason": "ok"})] * stages,
        "criteria_checker": [unmet] * (stages - 1) + [met],
        "stage_reflector": [as_json({"edits": [], "new_stages": [], "note": ""})] * (stages - 1),
        "summary_agent": [text("## Answer\nAll steps ran.")],
    }
