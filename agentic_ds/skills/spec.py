"""What a skill is: `Skill` and its `TemplateSpec`s, read from a skill folder by ADK's own Agent Skills loader
(`google.adk.skills.load_skill_from_dir`: the `SKILL.md` front matter validated as ADK's `Frontmatter`, the name
matching its folder). Our one addition to the standard front matter is `templates` (kept by ADK as an extra field):

    name: group-comparisons
    description: One paragraph saying when to use the skill.
    templates:
      - name: compare_groups
        description: What the template computes.
        params: {value_col: numeric column to compare, group_col: column holding the groups}
        defaults: {alpha: 0.05}        # optional; a param with a default may be omitted

Ranking (`ranking.py`), rendering (`templates.py`) and the library (`library.py`) all build on these records;
this module depends on none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentic_ds.errors import ConfigError, UsageError

SKILL_FILE = "SKILL.md"

# Every template accepts these; they are added to each template's declared params.
COMMON_PARAMS: dict[str, str] = {
    "data_path": "path of the data file, relative to the run directory (e.g. inputs/sales.csv)",
    "result_path": "where the JSON result is written (e.g. outputs/03-groups.json)",
    "fig_prefix": "prefix of figure paths; figures are saved as {fig_prefix}-<what>.png",
    "encoding": "text encoding of the data file as data_profile.json records it, e.g. cp1252 (null: UTF-8)",
}
COMMON_DEFAULTS: dict[str, Any] = {"encoding": None}


class UnknownSkill(UsageError):
    """No skill of that name in the library."""


class UnknownTemplate(UsageError):
    """The skill has no template of that name."""


@dataclass(frozen=True)
class TemplateSpec:
    """One code template a skill declares: `params` maps each param name to a one-line meaning."""

    name: str
    description: str
    params: dict[str, str]
    defaults: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    @property
    def required(self) -> list[str]:
        return [name for name in self.params if name not in self.defaults]


@dataclass(frozen=True)
class Skill:
    """A parsed skill folder."""

    name: str
    description: str
    body: str
    path: Path
    templates: list[TemplateSpec] = field(default_factory=list)

    def template(self, name: str) -> TemplateSpec:
        for spec in self.templates:
            if spec.name == name:
                return spec
        known = [spec.name for spec in self.templates]
        raise UnknownTemplate(
            f"skill {self.name!r} has no template {name!r}",
            hint=f"templates of {self.name!r}: {', '.join(known) or 'none'}",
        )


def parse_skill_file(path: Path) -> Skill:
    """Read the skill whose `SKILL.md` is `path` (ADK's loader); a malformed one raises `ConfigError` naming the file
    and the problem."""
    from google.adk.skills import load_skill_from_dir

    try:
        loaded = load_skill_from_dir(path.parent)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'front matter'}: {e['msg']}"
                             for e in exc.errors())
        raise ConfigError(f"{path}: front matter is not valid: {problems}", hint="see skills/README.md") from exc
    except (ValueError, OSError) as exc:
        raise ConfigError(f"{path}: {exc}", hint="see skills/README.md") from exc
    meta = loaded.frontmatter
    templates_dir = path.parent / "templates"
    specs = [_template_spec(entry, templates_dir, path) for entry in (meta.model_extra or {}).get("templates") or []]
    return Skill(
        name=meta.name,
        description=" ".join(meta.description.split()),
        body=loaded.instructions.strip() + "\n",
        path=path.parent,
        templates=specs,
    )


def _template_spec(entry: Any, templates_dir: Path, skill_file: Path) -> TemplateSpec:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise ConfigError(f"{skill_file}: each template needs a 'name' (got {entry!r})")
    name = entry["name"]
    params = entry.get("params") or {}
    defaults = entry.get("defaults") or {}
    if not isinstance(params, dict) or not isinstance(defaults, dict):
        raise ConfigError(f"{skill_file}: template {name!r}: 'params' and 'defaults' must be mappings")
    undeclared = sorted(set(defaults) - set(params) - set(COMMON_PARAMS))
    if undeclared:
        raise ConfigError(f"{skill_file}: template {name!r} has defaults for undeclared params {undeclared}")
    path = templates_dir / f"{name}.py.j2"
    if not path.is_file():
        raise ConfigError(f"{skill_file}: template {name!r} declared but {path} does not exist")
    return TemplateSpec(
        name=name,
        description=" ".join(str(entry.get("description", "")).split()),
        params={**COMMON_PARAMS, **{str(k): " ".join(str(v).split()) for k, v in params.items()}},
        defaults={**COMMON_DEFAULTS, **defaults},
        path=path,
    )
