"""Build and run whole analyses in tests: scripted models per agent, or the offline model.

    outcome, models = await run_scripted(tmp_path, "What is the mean price?", [csv], scripts={
        "plan_maker": [text(PLAN)], ...})
    assert outcome.status is RunStatus.COMPLETED   # agentic_ds.schema.RunStatus
    assert "APPROVED" in models["plan_maker"].request_text(1)
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from agentic_ds.config.models import ROLES, ModelChoice, RoleModels
from agentic_ds.config.settings import Settings
from agentic_ds.testing.scripted import ScriptedLlm
from agentic_ds.workspace import Workspace


def offline_models(reason: str = "test") -> RoleModels:
    return RoleModels(choices={r: ModelChoice(role=r, spec="offline", kind="offline") for r in ROLES}, reason=reason)


def make_workspace(root: Path, files: list[Path], name: str = "run") -> Workspace:
    """A run directory with `files` copied flat into `inputs/` (tests pick distinct names)."""
    workspace = Workspace(root / name)
    workspace.inputs.mkdir(parents=True)
    for path in files:
        shutil.copy2(path, workspace.inputs / path.name)
    return workspace


def make_request(
    root: Path, task: str, files: list[Path], *, mode: str = "orchestrated", settings: Settings | None = None
) -> Any:
    from agentic_ds.workflow.runner import RunRequest

    return RunRequest(
        task=task,
        mode=mode,
        workspace=make_workspace(root, files),
        settings=settings or Settings(),
        models=offline_models(),
    )


async def run_scripted(
    root: Path,
    task: str,
    files: list[Path],
    scripts: dict[str, list[Any]],
    *,
    mode: str = "orchestrated",
    settings: Settings | None = None,
    on_event: Any = None,
) -> tuple[Any, dict[str, ScriptedLlm]]:
    """Run with one `ScriptedLlm` per agent named in `scripts`; agents not named use the offline model."""
    from agentic_ds.workflow.runner import execute_run

    models = {agent: ScriptedLlm(name=agent, script=list(steps)) for agent, steps in scripts.items()}
    request = make_request(root, task, files, mode=mode, settings=settings)
    outcome = await execute_run(request, on_event=on_event, llm_overrides=dict(models))
    return outcome, models


async def resume_scripted(
    run_dir: Path,
    scripts: dict[str, list[Any]] | None = None,
    *,
    settings: Settings | None = None,
    on_event: Any = None,
) -> tuple[Any, dict[str, ScriptedLlm]]:
    """Resume the stopped run in `run_dir` (as `agentic-ds resume` does, models offline unless scripted)."""
    from agentic_ds.workflow.resume import find_resume_point
    from agentic_ds.workflow.runner import RunRequest, execute_run

    point = await find_resume_point(Path(run_dir))
    models = {agent: ScriptedLlm(name=agent, script=list(steps)) for agent, steps in (scripts or {}).items()}
    request = RunRequest(task=point.record.task, mode=point.record.mode, workspace=Workspace(Path(run_dir)),
                         settings=settings or Settings(), models=offline_models(), resume=point)
    outcome = await execute_run(request, on_event=on_event, llm_overrides=dict(models))
    return outcome, models
