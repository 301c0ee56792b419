"""`GET /choices`: what the page's new-analysis form offers, so it asks only what a run accepts.

The roles and the model each gets when the form leaves it empty (the server's config and the keys in its
environment decide, as they do for `agentic-ds run`: the offline model when there is no key), a few model strings
to pick from, the modes, the sandbox modes, and the files under the server's data roots (paths as `POST /runs`
takes them: relative to their root), listed without following a link.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi import APIRouter
from pydantic import BaseModel, Field

from agentic_ds.server.create import MODES
from agentic_ds.server.routes import SANDBOX_MODES, Ctx

router = APIRouter(tags=["runs"])
MAX_DATA_FILES = 2000


class DataFileOut(BaseModel):
    root: str
    path: str = Field(description="relative to its root, as the `path` field of POST /runs takes it")
    size: int


class ChoicesOut(BaseModel):
    roles: list[str]
    models: dict[str, str] = Field(description="the model of each role when the form names none")
    models_reason: str
    suggested_models: list[str]
    modes: list[str]
    sandbox: list[str]
    data_files: list[DataFileOut]
    data_truncated: bool


@router.get("/choices", response_model=ChoicesOut, summary="What a new run may choose: models per role, modes, "
            "the files under the data roots")
async def choices(ctx: Ctx) -> ChoicesOut:
    from agentic_ds.config.providers import AUTO_DEFAULTS
    from agentic_ds.config.settings import ROLES

    models, reason = _default_models(ctx.options.config)
    suggested = list(dict.fromkeys(["offline", *models.values(), *(d.main for d in AUTO_DEFAULTS),
                                    *(d.cheap for d in AUTO_DEFAULTS)]))
    files, truncated = await asyncio.to_thread(_data_files, ctx.options.data_roots)
    return ChoicesOut(roles=list(ROLES), models=models, models_reason=reason, suggested_models=suggested,
                      modes=list(MODES), sandbox=list(SANDBOX_MODES), data_files=files, data_truncated=truncated)


def _default_models(config: str | None) -> tuple[dict[str, str], str]:
    from agentic_ds.config.models import resolve_models
    from agentic_ds.config.settings import load_settings
    from agentic_ds.errors import AgenticDSError

    try:
        chosen = resolve_models(load_settings(Path(config) if config else None))
    except AgenticDSError as exc:   # the config names a model without its key: each role must then be named
        return {}, exc.message
    return {role: choice.spec for role, choice in chosen.choices.items()}, chosen.reason


def _data_files(roots: tuple[Path, ...]) -> tuple[list[DataFileOut], bool]:
    from agentic_ds.runs import safe_files

    out: list[DataFileOut] = []
    for root in roots:
        for entry in safe_files.walk(root, limit=MAX_DATA_FILES + 1 - len(out)):
            if entry.suspicious or any(part.startswith(".") for part in entry.rel.split("/")):
                continue
            out.append(DataFileOut(root=str(root), path=entry.rel, size=entry.st.st_size))
        if len(out) > MAX_DATA_FILES:
            return out[:MAX_DATA_FILES], True
    return out, False
