"""agentic-ds in ADK's own dev UI (`adk web`), for debugging: the module ADK's loader looks for (`<app>/agent.py`
with an `app`), exposing the real ADK `App` a run builds (`workflow/assembly.py`): the same agent tree, models,
tools, sandbox and plugins.

    AGENTIC_DS_MODELS__DEFAULT=offline adk web --session_service_uri memory:// .     # in a checkout
    adk web --session_service_uri memory:// "$(python -c 'import agentic_ds; print(agentic_ds.__path__[0])')"

Then pick the app `agentic_ds` and type a task: the first message of a session is the task (the root agent puts it
in state, as a run's session starts with it). The inputs are `AGENTIC_DS_ADK_FILES` (paths separated by
`os.pathsep`; default `examples/data`), copied once per process into a new run directory under the configured
workdir (`adk-web` in its name); the mode is `AGENTIC_DS_ADK_MODE` (orchestrated, the default, or simple); models
come from the usual configuration (no key: every role offline). ADK's runner drives it, so only the run directory's
files are written (plan, stages, figures, outputs, notebook): no run.json, events.jsonl or reports, which
`agentic-ds run` writes. For real runs use `agentic-ds run` or `agentic-ds serve`.

The App is built on first access of `app` (or `root_agent`), not at import: importing the module creates nothing.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

FILES_ENV = "AGENTIC_DS_ADK_FILES"
MODE_ENV = "AGENTIC_DS_ADK_MODE"
DEFAULT_FILES = "examples/data"


def __getattr__(name: str) -> Any:
    if name == "app":
        return build_app()
    if name == "root_agent":
        return build_app().root_agent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def build_app() -> Any:
    """The App of one debugging run: its run directory created and the inputs copied on the first call."""
    from agentic_ds.cli.run import check_bundled, check_sandbox
    from agentic_ds.config.models import export_dotenv_credentials, resolve_models
    from agentic_ds.config.settings import load_settings
    from agentic_ds.errors import UsageError
    from agentic_ds.runs.input_check import check_inputs, refused_inputs
    from agentic_ds.runs.workdir import copy_inputs, create_run_dir, validate_inputs
    from agentic_ds.workflow.assembly import assemble
    from agentic_ds.workflow.runner import RunRequest

    mode = os.environ.get(MODE_ENV, "orchestrated")
    if mode not in ("orchestrated", "simple"):
        raise UsageError(f"{MODE_ENV}={mode}: the mode is orchestrated or simple", hint=f"set {MODE_ENV} to one")
    settings = load_settings()
    models = resolve_models(settings)
    paths = [Path(p) for p in os.environ.get(FILES_ENV, DEFAULT_FILES).split(os.pathsep) if p]
    planned = validate_inputs(paths, settings.workdir)
    check_inputs(planned)
    check_sandbox(settings.sandbox.mode, models.choices["coder"])
    check_bundled()
    workspace = create_run_dir(settings.workdir, "adk web")
    copy_inputs(paths, workspace)
    export_dotenv_credentials()
    skipped = refused_inputs(planned)
    request = RunRequest(task="", mode=mode, workspace=workspace, settings=settings, models=models,
                         skipped_inputs=skipped)
    assembled = assemble(request, {})
    _task_from_first_message(assembled.app.root_agent, mode, skipped)
    return assembled.app


def _task_from_first_message(root: Any, mode: str, skipped: list[dict[str, str]]) -> None:
    """A session of `adk web` starts empty: its first message becomes the task, as `execute_run`'s state has it."""
    from agentic_ds import state as S

    def start(callback_context: Any) -> None:
        state = callback_context.state
        if state.get(S.TASK):
            return
        content = callback_context.user_content
        text = "".join(part.text or "" for part in (content.parts or [])) if content is not None else ""
        state[S.TASK] = text.strip()
        state[S.MODE] = mode
        state[S.SKIPPED_INPUTS] = list(skipped)

    existing = root.before_agent_callback
    callbacks = existing if isinstance(existing, list) else [existing] if existing else []
    root.before_agent_callback = [start, *callbacks]
