"""`build_tools`: the ADK function tools of a run, as the coder's set and the read-only set.

Agents get each set as one `FixedToolset` of `DeclaredTool`s. ADK prepares every entry of an agent's
`tools` separately before each model call (an asyncio task, two context objects and a deep copy of
the tool's declaration per tool); a run's tools never change, so one toolset whose declarations are
built once does the same work at a fraction of the cost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from google.adk.tools import BaseTool
from google.adk.tools.base_toolset import BaseToolset

from agentic_ds.adk_private import DeclaredTool
from agentic_ds.sandbox.runner import CodeRunner
from agentic_ds.tools.files import make_file_tools
from agentic_ds.tools.profile import make_profile_tool
from agentic_ds.tools.python import make_run_python
from agentic_ds.tools.sql import InputDatabase, make_sql_tool
from agentic_ds.workspace import Workspace

SQL_MEMORY_MB = 1024


@dataclass
class ToolSet:
    """`coder`: every tool; `read_only`: what reviewers, planners and the criteria checker get; `files`: reading the
    run's files, all the report writer needs."""

    coder: list[BaseTool]
    read_only: list[BaseTool]
    database: InputDatabase = field(repr=False)
    files: list[BaseTool] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.coder_toolset = FixedToolset(self.coder)
        self.read_only_toolset = FixedToolset(self.read_only)
        self.files_toolset = FixedToolset(self.files)

    def by_name(self) -> dict[str, BaseTool]:
        return {tool.name: tool for tool in self.coder}

    def close(self) -> None:
        self.database.close()


def build_tools(
    workspace: Workspace,
    runner: CodeRunner,
    *,
    output_cap: int,
    skills_tools: Iterable[Any] = (),
) -> ToolSet:
    """Tools bound to one run. `skills_tools` (list_skills, load_skill) are added to both sets."""
    read_file, write_file, list_files = make_file_tools(workspace, output_cap=output_cap)
    database = InputDatabase(workspace, memory_mb=min(SQL_MEMORY_MB, runner.settings.memory_mb))
    sql_query = make_sql_tool(database, output_cap=output_cap, timeout_s=runner.settings.cell_timeout_s)
    profile_data = make_profile_tool(workspace, output_cap=output_cap)
    run_python = make_run_python(runner, output_cap=output_cap)
    skills = [_as_tool(t) for t in skills_tools]
    files: list[BaseTool] = [DeclaredTool(f) for f in (read_file, list_files)]
    read_only = [*files, DeclaredTool(sql_query), DeclaredTool(profile_data), *skills]
    # The sets lead with the same tools in the same order (files, then the other read-only ones), so a provider that
    # puts tool declarations before the system text serves one agent's from another's earlier request.
    coder = [*read_only, DeclaredTool(run_python), DeclaredTool(write_file)]
    return ToolSet(coder=coder, read_only=read_only, database=database, files=files)


def _as_tool(tool: Any) -> BaseTool:
    return tool if isinstance(tool, BaseTool) else DeclaredTool(tool)


class FixedToolset(BaseToolset):
    """A fixed list of tools offered to an agent as one toolset entry."""

    def __init__(self, tools: list[BaseTool]) -> None:
        super().__init__()
        self.tools = list(tools)

    async def get_tools(self, readonly_context: Any = None) -> list[BaseTool]:
        return list(self.tools)  # a copy: whatever ADK does with the list cannot change the set

    async def close(self) -> None:
        return None
