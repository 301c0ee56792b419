"""The bundled skills library: discovery, relevance ranking and code-template rendering."""

from agentic_ds.skills.library import SkillLibrary, default_skills_dir
from agentic_ds.skills.spec import COMMON_PARAMS, Skill, TemplateSpec, UnknownSkill, UnknownTemplate
from agentic_ds.skills.templates import TemplateParamError

__all__ = [
    "COMMON_PARAMS",
    "Skill",
    "SkillLibrary",
    "TemplateParamError",
    "TemplateSpec",
    "UnknownSkill",
    "UnknownTemplate",
    "default_skills_dir",
]
