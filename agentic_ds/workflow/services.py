"""What the agents of one run share: the workspace, settings, models, tools, skills and the code runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

from agentic_ds.agent_table import Tools
from agentic_ds.config.settings import Settings
from agentic_ds.context.per_call import PerCallInstructions
from agentic_ds.runs import safe_files
from agentic_ds.workspace import Workspace

if TYPE_CHECKING:
    from google.adk.agents import BaseAgent
    from google.adk.models import BaseLlm

    from agentic_ds.profiling.model import DataProfile
    from agentic_ds.sandbox.runner import CodeRunner
    from agentic_ds.skills import SkillLibrary
    from agentic_ds.tools.toolset import FixedToolset

# Builds the coder when it is not an LlmAgent (Claude Code): (name, context builder, prompt template) -> agent.
CoderFactory = Callable[..., "BaseAgent"]


@dataclass
class RunServices:
    workspace: Workspace
    settings: Settings
    models: dict[str, BaseLlm]           # agent name -> its model
    coder_toolset: FixedToolset
    read_only_toolset: FixedToolset
    code_runner: CodeRunner
    files_toolset: FixedToolset | None = None
    skills: SkillLibrary | None = None
    coder_factory: CoderFactory | None = None
    per_call: PerCallInstructions = field(default_factory=PerCallInstructions)  # a plugin of the run's App
    _profile: tuple[tuple[int, int], DataProfile] | None = field(default=None, repr=False)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type, handler: GetCoreSchemaHandler) -> CoreSchema:
        """Agents (pydantic models) hold the run's services by reference: pydantic checks the type only, and never
        copies or validates what they hold (models, tool sets, the code runner)."""
        return core_schema.is_instance_schema(cls)

    def model(self, agent_name: str) -> BaseLlm:
        return self.models[agent_name]

    def tools(self, which: Tools) -> list[FixedToolset]:
        """The tool entries an agent gets for its table's `tools`."""
        if which is Tools.CODER:
            return [self.coder_toolset]
        if which is Tools.READ_ONLY:
            return [self.read_only_toolset]
        if which is Tools.FILES and self.files_toolset is not None:
            return [self.files_toolset]
        return []

    def profile(self) -> DataProfile:
        """The run's data profile as records (`data_profile.json`, read again only when it changed): what a model
        that reads data rather than text (the offline model) takes from every prompt's context."""
        from agentic_ds.profiling.model import DataProfile

        path = self.workspace.file("data_profile.json")
        try:
            stat = path.stat()
        except OSError:
            return DataProfile()
        key = (stat.st_mtime_ns, stat.st_size)
        if self._profile is None or self._profile[0] != key:
            try:
                document = json.loads(safe_files.read_text(path, root=self.workspace.root))
                profile = DataProfile.from_json(document) if isinstance(document, dict) else DataProfile()
            except (OSError, ValueError, TypeError, KeyError):
                profile = DataProfile()
            self._profile = (key, profile)
        return self._profile[1]

    def relevant_skills(self, text: str, k: int = 3) -> str:
        """The top skills for a stage or task, one line each (cached: instructions render on every call)."""
        if self.skills is None or not text.strip():
            return ""
        return _ranked_skills(self.skills, text, k)


@lru_cache(maxsize=256)
def _ranked_skills(skills: SkillLibrary, text: str, k: int) -> str:
    return "\n".join(f"- {s.name}: {s.description}" for s in skills.rank(text, k=k))
