"""Our ADK tools, served to Claude Code through an in-process MCP server.

Claude calls `mcp__agentic_ds__run_python` and friends; each call runs the very same ADK tool the
default coder uses, with a real ADK `ToolContext`, so code executes in our sandbox (never in Claude's
Bash) and a tool's state writes (`state.LAST_EXECUTION`...) land in that context's `EventActions`.
Nothing is written to the session directly: the coder attaches each call's actions to the
function-response event it yields for that call (`take_actions`), so state persists through events.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from google.adk.events import EventActions
from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.errors import AgenticDSError

if TYPE_CHECKING:
    from google.adk.agents.invocation_context import InvocationContext
    from google.adk.tools import BaseTool

log = logging.getLogger(__name__)

SERVER_NAME = "agentic_ds"
TOOL_PREFIX = f"mcp__{SERVER_NAME}__"
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def claude_tool_id(name: str) -> str:
    """`run_python` -> `mcp__agentic_ds__run_python`, the name Claude sees."""
    return TOOL_PREFIX + name


def adk_tool_name(claude_name: str) -> str:
    """The inverse of `claude_tool_id`; Claude's own tools (`Read`, `Skill`) keep their names."""
    return claude_name.removeprefix(TOOL_PREFIX)


def input_schema(tool: BaseTool) -> dict[str, Any]:
    """The JSON schema of a tool's arguments, from the declaration ADK sends to a model."""
    request = LlmRequest()
    request.append_tools([tool])
    declarations = [
        d for t in request.config.tools or [] if isinstance(t, types.Tool) for d in t.function_declarations or []
    ]
    declaration = declarations[0] if declarations else None
    if declaration is None:
        return dict(EMPTY_SCHEMA)
    if declaration.parameters_json_schema:
        return dict(declaration.parameters_json_schema)
    if declaration.parameters is not None:
        return declaration.parameters.json_schema.model_dump(mode="json", exclude_none=True)
    return dict(EMPTY_SCHEMA)


def result_text(result: Any) -> str:
    """A tool's return value as the text Claude reads."""
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, default=str)


def _is_error_result(result: Any) -> bool:
    """Our tools report failures as `{"error", "hint"}` (and run_python as `ok: False`); ADK's own as `{"error"}`."""
    if not isinstance(result, dict):
        return False
    return result.get("ok") is False or (set(result) <= {"error", "hint"} and "error" in result)


@dataclass
class ToolCall:
    """One executed call: what Claude asked for and the state changes it made."""

    name: str
    args: dict[str, Any]
    actions: EventActions


class ToolBridge:
    """Serves `tools` as an SDK MCP server and remembers each call's `EventActions` until claimed."""

    def __init__(self, tools: list[BaseTool], invocation_context: InvocationContext) -> None:
        self._tools = {tool.name: tool for tool in tools}
        self._ctx = invocation_context
        self._pending: list[ToolCall] = []

    @property
    def tool_names(self) -> list[str]:
        return list(self._tools)

    @property
    def claude_tool_ids(self) -> list[str]:
        return [claude_tool_id(name) for name in self._tools]

    def server_config(self) -> Any:
        """The `McpSdkServerConfig` to put in `ClaudeAgentOptions.mcp_servers[SERVER_NAME]`."""
        from claude_agent_sdk import create_sdk_mcp_server, tool

        sdk_tools = [
            tool(name, adk_tool.description or name, input_schema(adk_tool))(self._handler(name))
            for name, adk_tool in self._tools.items()
        ]
        return create_sdk_mcp_server(name=SERVER_NAME, version="1.0.0", tools=sdk_tools)

    def _handler(self, name: str) -> Any:
        async def handle(args: dict[str, Any]) -> dict[str, Any]:
            text, is_error = await self.call(name, args)
            return {"content": [{"type": "text", "text": text}], "is_error": is_error}

        handle.__name__ = f"{name}_via_mcp"
        return handle

    async def call(self, name: str, args: dict[str, Any]) -> tuple[str, bool]:
        """Run the ADK tool `name`; returns (text for Claude, is_error). Never raises for tool failures."""
        from google.adk.tools import ToolContext

        adk_tool = self._tools.get(name)
        if adk_tool is None:
            return f"error: unknown tool {name!r}; available: {', '.join(self._tools)}", True
        actions = EventActions()
        tool_context = ToolContext(self._ctx, event_actions=actions)
        self._pending.append(ToolCall(name=name, args=dict(args), actions=actions))
        try:
            result = await adk_tool.run_async(args=dict(args), tool_context=tool_context)
        except AgenticDSError as exc:
            hint = f"\nhint: {exc.hint}" if exc.hint else ""
            return f"error: {exc.message}{hint}", True
        except Exception as exc:  # a tool bug must reach the model as an error, not kill the CLI's turn
            log.exception("tool %s failed", name)
            return f"error: {name} failed: {type(exc).__name__}: {exc}", True
        return result_text(result), _is_error_result(result)

    def take_actions(self, name: str, args: dict[str, Any]) -> EventActions | None:
        """The actions of the earliest unclaimed call of `name` with `args`, removed from the pending list.

        Calls are matched by name and arguments because the MCP handler never sees Claude's tool_use id;
        two calls with equal name and arguments are interchangeable for this purpose.
        """
        for index, call in enumerate(self._pending):
            if call.name == name and call.args == args:
                return self._pending.pop(index).actions
        return None

    def take_all_actions(self) -> list[EventActions]:
        """Whatever no function response claimed (a run that ended mid-call), so no state change is lost."""
        pending, self._pending = self._pending, []
        return [call.actions for call in pending]
