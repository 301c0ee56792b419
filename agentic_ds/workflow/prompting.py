"""Jinja2 prompt templates from `prompts/`, rendered with StrictUndefined.

A missing variable is an error at render time, never a literal placeholder sent to a model (tests check every
template for leftover syntax). ADK's own `{key}` templating is bypassed by giving agents callables.

Every template is two blocks: `static` (role, rules, answer format, task, data profile: the same on every call of
a run, led by the run's shared context, the same bytes for every agent: `shared` in `_macros.j2`) and then
`per_call` (current stage, attempt, feedback, earlier results). The static part is the agent's
system instruction and the per-call part follows it in the request (`agentic_ds.context.per_call`), so the
longest possible prefix is identical from one call to the next and providers serve it from their prompt cache.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from agentic_ds.bundled import PROMPTS, bundled_dir
from agentic_ds.errors import ConfigError, RunFailed
from agentic_ds.state import SessionState, typed

if TYPE_CHECKING:
    from google.adk.agents.readonly_context import ReadonlyContext

PromptContext = Mapping[str, object]                     # the values a template renders
ContextBuilder = Callable[[SessionState], PromptContext]  # an agent's: its prompt's values, from session state

_BLANK_RUNS = re.compile(r"\n{3,}")
STATIC, PER_CALL = "static", "per_call"
PROMPTS_DIR_ENV = "AGENTIC_DS_PROMPTS_DIR"


def prompts_dir() -> Path:
    """`$AGENTIC_DS_PROMPTS_DIR`, else the prompts bundled with agentic-ds (see `agentic_ds.bundled`)."""
    override = os.environ.get(PROMPTS_DIR_ENV)
    return Path(override) if override else bundled_dir(PROMPTS)


@cache
def _environment(root: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(root),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # prompts are plain text for a model, not HTML
        keep_trailing_newline=False,
        auto_reload=False,  # templates are package data; re-checking their mtime on every model call is waste
    )
    env.filters["clip"] = clip
    return env


def clip(text: object, limit: int) -> str:
    """`text` within `limit` characters: its head and tail around " ... " (templates: `| clip(300)`)."""
    text = str(text or "").strip()
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    return text[:head] + " ... " + text[-(limit - head):]


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


@dataclass(frozen=True)
class PromptParts:
    static: str    # the same on every call of a run: the system instruction
    per_call: str  # what changes between calls; "" when every per-call section is empty

    @property
    def text(self) -> str:
        return f"{self.static}\n{self.per_call}" if self.per_call else self.static


def _tidy(text: str) -> str:
    text = _BLANK_RUNS.sub("\n\n", text).strip()
    return text + "\n" if text else ""


def render_parts(name: str, context: PromptContext) -> PromptParts:
    """Render the `static` and `per_call` blocks of `prompts/<name>.md.j2` (a template without blocks is all
    static); `PromptError` on a missing variable, a broken template or only one of the two blocks."""
    env = _environment(str(prompts_dir()))
    try:
        template = env.get_template(f"{name}.md.j2")
        if not template.blocks:  # a template of one piece (e.g. a user's own, from before the split) is all static
            return PromptParts(static=_tidy(template.render(**context)), per_call="")
        if set(template.blocks) != {STATIC, PER_CALL}:
            raise PromptError(f"prompt '{name}' must have both blocks '{STATIC}' and '{PER_CALL}', or none")
        blocks = {
            block: "".join(template.blocks[block](template.new_context(dict(context)))) for block in (STATIC, PER_CALL)
        }
    except jinja2.TemplateError as exc:
        raise PromptError(f"prompt '{name}' could not be rendered: {exc}") from exc
    return PromptParts(static=_tidy(blocks[STATIC]), per_call=_tidy(blocks[PER_CALL]))


def render(name: str, context: PromptContext) -> str:
    """The whole prompt `prompts/<name>.md.j2`, static part then per-call part (for a coder that takes one
    prompt); raises `PromptError` on a missing variable or a broken template."""
    return render_parts(name, context).text


class PromptProviders:
    """An agent's prompt as ADK asks for it: `instruction` (an instruction provider: the static part) and
    `per_call(state)` (the rest), from `build(state) -> context` rendered with template `name`.

    ADK asks for the instruction before every model call, and within a turn the state it is built from
    rarely changes: the last context and its parts are kept, and the template is rendered again only
    when the context differs. State values are replaced, never edited in place (see `plan_state`), so
    comparing contexts by value sees every change.
    """

    def __init__(self, name: str, build: ContextBuilder) -> None:
        self.name = name
        self._build = build
        self._last: tuple[PromptContext, PromptParts] | None = None

    def parts(self, state: Mapping[str, object]) -> PromptParts:
        context = self._build(typed(state))
        if self._last is None or context != self._last[0]:
            self._last = (context, render_parts(self.name, context))
        return self._last[1]

    def context(self, state: Mapping[str, object]) -> PromptContext:
        """The values the template renders, as data (what the offline model reads instead of the text)."""
        self.parts(state)
        assert self._last is not None
        return self._last[0]

    def instruction(self, ctx: ReadonlyContext) -> str:
        return self.parts(typed(ctx.state)).static

    def per_call(self, state: Mapping[str, object]) -> str:
        return self.parts(state).per_call
