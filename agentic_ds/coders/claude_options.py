"""How the Claude Code CLI is configured for a run: isolation, permissions, tools, skills.

Isolation: the CLI runs with the run directory as cwd and `setting_sources=[]`, so the user's own
`~/.claude` settings, hooks, CLAUDE.md files and MCP servers are not loaded (`strict_mcp_config`).

Permissions: never `bypassPermissions` (it is also refused as root: "--dangerously-skip-permissions
cannot be used with root/sudo privileges"). The mode is `default`; Claude's built-in tools are cut
down to the read-only `Read`, `Glob`, `Grep` (which the CLI allows by itself inside the cwd) and
`Skill`; everything else that would need a permission reaches `ToolGate`, which allows exactly our
MCP tools and denies the rest (e.g. a `Read` outside the run directory). The allowlist deliberately
lives in the gate and not in `allowed_tools`: an `allowed_tools` entry would approve a tool before
the gate is consulted.

Skills: the bundled library is copied into `<run>/.claude/skills/`, and `<run>/.claude` is declared
a local plugin, because with `setting_sources=[]` the CLI does not discover project skills (checked
with CLI 2.1.330); a plugin's skills are found without loading any settings. Claude sees them as
`agentic-ds:<name>`, and only those (the CLI's own bundled skills are filtered out).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentic_ds import __version__
from agentic_ds.coders.claude_tools import SERVER_NAME, adk_tool_name

PLUGIN_NAME = "agentic-ds"
READ_ONLY_BUILTINS = ("Read", "Glob", "Grep", "Skill")
DISABLED_BUILTINS = ("Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "WebFetch", "WebSearch", "Agent", "Task")
SKILL_FILE = "SKILL.md"

SYSTEM_APPEND = """\
# Working in agentic-ds
You are the coding agent of agentic-ds, an automated data-analysis pipeline. There is no human to ask.
- The tools named in the instructions (`run_python`, `read_file`, `write_file`, `list_files`, `sql_query`,
  `profile_data`, `list_skills`, `load_skill`) are available to you as `mcp__agentic_ds__<name>`.
- Execute every piece of code with `mcp__agentic_ds__run_python`: it runs in the analysis sandbox whose
  working directory is the run directory, and it records the code in the run's notebook. There is no shell.
- Create or change files only with `mcp__agentic_ds__write_file` or from code run by `run_python`.
- `Read`, `Glob` and `Grep` work inside the run directory only. Skills `agentic-ds:<name>` hold guidance
  and code templates for common analyses.
"""


def install_skills(skills_dir: Path, run_dir: Path) -> list[str]:
    """Copy the bundled skills into `<run>/.claude/skills/` and declare `<run>/.claude` a plugin.

    Returns the names of the copied skills (folders holding a SKILL.md). Local copy only: nothing is
    fetched. Re-running replaces the copy, so a stage always sees the library it was built with.
    """
    plugin_root = run_dir / ".claude"
    target = plugin_root / "skills"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    names: list[str] = []
    if skills_dir.is_dir():
        for entry in sorted(skills_dir.iterdir()):
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            if entry.is_dir():
                shutil.copytree(entry, target / entry.name, ignore=shutil.ignore_patterns(".*", "__pycache__"))
                if (entry / SKILL_FILE).is_file():
                    names.append(entry.name)
    manifest = plugin_root / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(
        json.dumps({"name": PLUGIN_NAME, "version": __version__, "description": "agentic-ds analysis skills"}),
        encoding="utf-8",
    )
    return names


@dataclass
class ToolGate:
    """The `can_use_tool` callback: allows our MCP tools, denies everything else, and keeps a record."""

    allowed: frozenset[str]
    denied: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def __call__(self, tool_name: str, tool_input: dict[str, Any], _context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        if tool_name in self.allowed:
            return PermissionResultAllow()
        self.denied.append((tool_name, dict(tool_input)))
        available = ", ".join(sorted(self.allowed))
        if tool_name == "Skill":
            reason = f"only the {PLUGIN_NAME}:<name> skills are available here."
        elif tool_name in READ_ONLY_BUILTINS:
            reason = f"{tool_name} is limited to the run directory here; use relative paths inside it."
        else:
            reason = f"{adk_tool_name(tool_name)} is not available in agentic-ds."
        return PermissionResultDeny(message=f"{reason} Available tools: {available}.")


def cli_environment() -> dict[str, str]:
    """Variables added to the CLI's environment (the SDK merges them over ours).

    The CLI inherits ANTHROPIC_API_KEY / CLAUDE_CODE_OAUTH_TOKEN from our environment on purpose: it
    needs them. Code Claude runs never sees them, because it runs in our sandbox, not in the CLI.
    """
    return {
        "CLAUDE_AGENT_SDK_CLIENT_APP": f"agentic-ds/{__version__}",
        # No telemetry, error reporting or auto-update traffic carrying the user's analysis.
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }


def call_policy_environment(timeout_s: float, retries: int) -> dict[str, str]:
    """The run's call policy in the CLI's own terms: Claude Code retries API errors itself (with backoff that honours
    Retry-After) up to CLAUDE_CODE_MAX_RETRIES times, and gives one request API_TIMEOUT_MS."""
    return {"CLAUDE_CODE_MAX_RETRIES": str(retries), "API_TIMEOUT_MS": str(int(timeout_s * 1000))}


def build_options(
    *,
    run_dir: Path,
    model: str | None,
    mcp_server: Any,
    tool_ids: list[str],
    skill_names: list[str],
    max_turns: int,
    max_budget_usd: float | None = None,
    stderr: Any = None,
    env: dict[str, str] | None = None,
) -> Any:
    """The `ClaudeAgentOptions` for one coder turn. Pure apart from importing the SDK."""
    from claude_agent_sdk import ClaudeAgentOptions

    plugin_root = run_dir / ".claude"
    has_plugin = (plugin_root / ".claude-plugin" / "plugin.json").is_file()
    return ClaudeAgentOptions(
        cwd=str(run_dir),
        model=model,
        max_turns=max_turns,
        max_budget_usd=max_budget_usd,
        system_prompt={"type": "preset", "preset": "claude_code", "append": SYSTEM_APPEND},
        setting_sources=[],
        strict_mcp_config=True,
        mcp_servers={SERVER_NAME: mcp_server},
        tools=list(READ_ONLY_BUILTINS),
        disallowed_tools=list(DISABLED_BUILTINS),
        permission_mode="default",
        can_use_tool=ToolGate(allowed=frozenset(tool_ids)),
        plugins=[{"type": "local", "path": str(plugin_root)}] if has_plugin else [],
        skills=[f"{PLUGIN_NAME}:{name}" for name in skill_names],
        # The prompt carries text the user never typed (data profiles, column names, reviewer output):
        # deliver it verbatim, so an `@/path` inside cannot make the CLI attach a local file.
        verbatim_prompts=True,
        env={**cli_environment(), **(env or {})},
        stderr=stderr,
    )

