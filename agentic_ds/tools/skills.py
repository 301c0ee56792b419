"""ADK tools over the skills library: `list_skills(query)` and `load_skill(name)`.

Both are read-only and safe for every agent. Errors come back as `{"error", "hint"}` so the model can
correct itself instead of the run failing.
"""

from __future__ import annotations

from typing import Any

from agentic_ds.adk_private import DeclaredTool
from agentic_ds.skills.library import SkillLibrary
from agentic_ds.skills.spec import UnknownSkill

DEFAULT_TOP_N = 5


def list_skills_result(library: SkillLibrary, query: str = "", top_n: int = DEFAULT_TOP_N) -> dict[str, Any]:
    """Skills (name + description) most relevant to `query`, best first; every skill when `query` is empty."""
    if not query.strip():
        skills = library.skills()
        return {"skills": [_entry(skill) for skill in skills], "count": len(skills)}
    ranked = [skill for skill, _ in library.scored(query)[:top_n]]
    if not ranked:
        return {
            "skills": [_entry(skill) for skill in library.skills()],
            "count": len(library.names()),
            "note": f"no skill matched {query!r}; listing all skills",
        }
    return {"skills": [_entry(skill) for skill in ranked], "count": len(ranked), "query": query}


def load_skill_result(library: SkillLibrary, name: str) -> dict[str, Any]:
    """The skill's guidance and its templates, or `{"error", "hint"}` naming close skills."""
    try:
        skill = library.get(name.strip())
    except UnknownSkill as exc:
        return {"error": exc.message, "hint": f"{exc.hint} Call list_skills to see every skill."}
    return {
        "name": skill.name,
        "description": skill.description,
        "body": skill.body,
        "templates": [
            {"name": spec.name, "description": spec.description, "params": spec.params} for spec in skill.templates
        ],
    }


def _entry(skill: Any) -> dict[str, str]:
    return {"name": skill.name, "description": skill.description}


def build_skill_tools(library: SkillLibrary, top_n: int = DEFAULT_TOP_N) -> list[DeclaredTool]:
    """`list_skills` and `load_skill` bound to `library`, as ADK function tools."""

    def list_skills(query: str = "") -> dict[str, Any]:
        """List the bundled data-science skills most relevant to a query (e.g. the current stage's goal).

        Args:
            query: what you are about to do, e.g. "compare revenue between regions"; empty lists every skill.

        Returns:
            {"skills": [{"name", "description"}, ...]} ranked by relevance, best first.
        """
        return list_skills_result(library, query, top_n)

    def load_skill(name: str) -> dict[str, Any]:
        """Load one skill's practical guidance (methods, assumption checks, pitfalls, how to report).

        Args:
            name: a skill name from list_skills, e.g. "group-comparisons".

        Returns:
            {"name", "description", "body", "templates"}, or {"error", "hint"} for an unknown name.
        """
        return load_skill_result(library, name)

    return [DeclaredTool(list_skills), DeclaredTool(load_skill)]
