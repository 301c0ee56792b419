"""Jinja2 prompt templates from `prompts/`, rendered with StrictUndefined.

A missing variable is an error at render time, never a literal placeholder sent to a model (tests check every
template for leftover syntax). ADK's own `{key}` templating is bypassed by giving agents callables.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from agentic_ds.bundled import PROMPTS, bundled_dir
from agentic_ds.errors import ConfigError, RunFailed

_BLANK_RUNS = re.compile(r"\n{3,}")
PROMPTS_DIR_ENV = "AGENTIC_DS_PROMPTS_DIR"


def prompts_dir() -> Path:
    """`$AGENTIC_DS_PROMPTS_DIR`, else the prompts bundled with agentic-ds (see `agentic_ds.bundled`)."""
    override = os.environ.get(PROMPTS_DIR_ENV)
    return Path(override) if override else bundled_dir(PROMPTS)


@cache
def _environment(root: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(root),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # prompts are plain text for a model, not HTML
        keep_trailing_newline=False,
        auto_reload=False,  # templates are package data; re-checking their mtime on every model call is waste
    )


class PromptError(RunFailed):
    """A prompt template could not be rendered with the state an agent got."""


def template_names() -> list[str]:
    return sorted(p.name for p in prompts_dir().glob("*.md.j2"))


def require_templates(names: Iterable[str]) -> None:
    """`ConfigError` unless the prompts folder holds every template in `names` (checked before a run starts)."""
    folder = prompts_dir()
    if not folder.is_dir():
        raise ConfigError(
            f"prompts folder {folder} does not exist",
            hint=f"set {PROMPTS_DIR_ENV} to a folder of prompt templates, or unset it to use the bundled ones",
        )
    missing = sorted(name for name in names if not (folder / f"{name}.md.j2").is_file())
    if missing:
        raise ConfigError(f"prompts folder {folder} lacks {', '.join(f'{n}.md.j2' for n in missing)}",
                          hint=f"copy them from the bundled prompts, or unset {PROMPTS_DIR_ENV}")


def render(name: str, context: Mapping[str, Any]) -> str:
    """Render `prompts/<name>.md.j2`; raises `PromptError` on a missing variable or a broken template."""
    env = _environment(str(prompts_dir()))
    try:
        text = env.get_template(f"{name}.md.j2").render(**context)
    except jinja2.TemplateError as exc:
        raise PromptError(f"prompt '{name}' could not be rendered: {exc}") from exc
    return _BLANK_RUNS.sub("\n\n", text).strip() + "\n"


def instruction(name: str, build: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> Callable[[Any], str]:
    """An ADK instruction provider: `build(state) -> context`, then render the template.

    ADK asks for the instruction before every model call, and within a turn the state it is built from
    rarely changes: the last context and its text are kept, and the template is rendered again only
    when the context differs. State values are replaced, never edited in place (see `plan_state`), so
    comparing contexts by value sees every change.
    """
    last: list[Any] = [None, ""]

    def provider(ctx: Any) -> str:
        context = build(ctx.state)
        if context != last[0]:
            last[:] = [context, render(name, context)]
        return last[1]

    provider.__name__ = f"{name}_instruction"
    return provider
