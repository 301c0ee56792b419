"""Render a skill's code template with params bound to real columns.

Templates are Jinja2 with `StrictUndefined`: a param the template uses but nobody bound is an error,
never an empty string in generated code. Values reach Python code through the `py` filter, which
writes a Python literal (`repr`), so a column named `O'Brien "x"` cannot break or inject code:

    value_col = {{ value_col | py }}

Templates may `{% include "_shared/<snippet>.py.j2" %}` (snippets live in `<skills root>/_shared/`).
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from agentic_ds.errors import UsageError
from agentic_ds.skills.spec import TemplateSpec

_LITERAL_TYPES = (str, int, float, bool, type(None))


class TemplateParamError(UsageError):
    """Params given to a template are missing, unknown or not plain values."""


def python_literal(value: Any) -> str:
    """`value` as Python source; only plain values (str, numbers, bool, None, lists/dicts of them)."""
    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined raises UndefinedError naming the variable
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, _LITERAL_TYPES):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{python_literal(k)}: {python_literal(v)}" for k, v in value.items()) + "}"
    raise TemplateParamError(
        f"cannot write a {type(value).__name__} into code: {value!r}",
        hint="pass strings, numbers, booleans, None, or lists/dicts of them",
    )


def check_params(spec: TemplateSpec, params: dict[str, Any]) -> dict[str, Any]:
    """Declared defaults overlaid with `params`; raises naming every missing or unknown param."""
    unknown = sorted(set(params) - set(spec.params))
    missing = [name for name in spec.required if name not in params]
    problems = []
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if unknown:
        problems.append(f"unknown {', '.join(unknown)}")
    if problems:
        declared = "; ".join(f"{name}: {meaning}" for name, meaning in spec.params.items())
        raise TemplateParamError(
            f"template {spec.name!r}: {' and '.join(problems)} param(s)",
            hint=f"{spec.name} takes {declared}",
        )
    bound = {**spec.defaults, **params}
    for value in bound.values():
        python_literal(value)  # rejects values that cannot be written as code, before rendering
    return bound


@cache
def _environment(skills_root: Path, skill_dir: Path) -> jinja2.Environment:
    """One per skill, kept: it keeps its compiled templates (compiling a template and its includes again took a few
    milliseconds a render, and a run renders a few hundred). A template file changed since is compiled again."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(skill_dir), str(skills_root)]),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["py"] = python_literal
    return env


def render_template(skills_root: Path, spec: TemplateSpec, params: dict[str, Any]) -> str:
    """Python code of `spec` with `params` bound (validated against the declared params first)."""
    if spec.path is None:
        raise TemplateParamError(f"template {spec.name!r} has no file")
    bound = check_params(spec, params)
    skill_dir = spec.path.parent.parent
    env = _environment(skills_root, skill_dir)
    relative = spec.path.relative_to(skill_dir).as_posix()
    try:
        return env.get_template(relative).render(template_name=spec.name, skill_name=skill_dir.name, **bound)
    except jinja2.UndefinedError as exc:
        raise TemplateParamError(
            f"template {spec.name!r} uses a value nobody bound: {exc.message}",
            hint="declare it in the skill's front matter (params/defaults)",
        ) from exc
