"""What the agents of one run share: the workspace, settings, models, tools, skills and the code runner."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from agentic_ds.agent_table import Tools
from agentic_ds.config.settings import Settings
from agentic_ds.workspace import Workspace


@dataclass
class RunServices:
    workspace: Workspace
    settings: Settings
    models: dict[str, Any]               # agent name -> BaseLlm
    coder_toolset: Any                   # agentic_ds.tools.toolset.FixedToolset
    read_only_toolset: Any
    code_runner: Any                     # agentic_ds.sandbox.CodeRunner
    skills: Any = None                   # agentic_ds.skills.SkillLibrary, or None
    coder_factory: Any = None            # builds a non-LlmAgent coder (claude-code), or None
    extras: dict[str, Any] = field(default_factory=dict)

    def model(self, agent_name: str) -> Any:
        return self.models[agent_name]

    def tools(self, which: Tools) -> list[Any]:
        """The tool entries an agent gets for its table's `tools`."""
        if which is Tools.CODER:
            return [self.coder_toolset]
        if which is Tools.READ_ONLY:
            return [self.read_only_toolset]
        return []

    def relevant_skills(self, text: str, k: int = 3) -> str:
        """The top skills for a stage or task, one line each (cached: instructions render on every call)."""
        if self.skills is None or not text.strip():
            return ""
        return _ranked_skills(self.skills, text, k)


@lru_cache(maxsize=256)
def _ranked_skills(skills: Any, text: str, k: int) -> str:
    return "\n".join(f"- {s.name}: {s.description}" for s in skills.rank(text, k=k))
