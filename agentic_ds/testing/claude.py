"""`ScriptedClaude`: a fake Claude Code CLI for tests, plugged in as the SDK's custom `Transport`.

It speaks the CLI's JSON-lines control protocol to the real SDK: answers `initialize`, lists the
in-process MCP tools, and replays scripted model turns. A tool use goes through the same path as
with the real CLI: a `can_use_tool` permission request, then (if allowed) an MCP `tools/call` to the
SDK's in-process server, then a `tool_result` user message. So the SDK, our permission gate and our
ADK tools all really run; only the model and the CLI process are scripted.

    claude = ScriptedClaude([[say("Listing."), use("list_files", path=".")], [say("Done: 2 files.")]])
    coder = ClaudeCodeCoder(..., transport_factory=lambda: claude)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
from typing import Any

import anyio
from claude_agent_sdk import ProcessError, Transport

from agentic_ds.coders.claude_tools import SERVER_NAME, claude_tool_id


def say(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def think(text: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": text, "signature": "sig"}


def use(tool: str, /, **tool_input: Any) -> dict[str, Any]:
    """A tool use. Lower-case names are our MCP tools (`run_python`); capitalised ones are Claude's (`Read`)."""
    name = tool if tool[:1].isupper() or tool.startswith("mcp__") else claude_tool_id(tool)
    return {"type": "tool_use", "name": name, "input": tool_input}


class ScriptedClaude(Transport):
    """A `claude_agent_sdk` Transport that plays a scripted Claude Code session.

    `turns`: one list of content blocks per model response. `fail_with`: end with an error result and a
    non-zero exit (as the CLI does when not logged in). `connect_error`: raised by `connect()`.
    """

    def __init__(
        self,
        turns: list[list[dict[str, Any]]],
        *,
        model: str = "claude-sonnet-4-5",
        tokens_per_turn: tuple[int, int] = (1000, 100),
        cost_usd: float = 0.0123,
        fail_with: str | None = None,
        connect_error: Exception | None = None,
    ) -> None:
        self.turns = turns
        self.model = model
        self.tokens_per_turn = tokens_per_turn
        self.cost_usd = cost_usd
        self.fail_with = fail_with
        self.connect_error = connect_error
        # What the SDK sent, for assertions.
        self.initialize: dict[str, Any] | None = None
        self.prompts: list[Any] = []
        self.listed_tools: list[dict[str, Any]] = []
        self.permissions: list[tuple[str, dict[str, Any]]] = []   # (tool, the SDK's answer)
        self.tool_results: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._ready = False
        self._send: Any = None
        self._receive: Any = None

    # -- Transport protocol -------------------------------------------------------------------
    async def connect(self) -> None:
        if self.connect_error is not None:
            raise self.connect_error
        self._send, self._receive = anyio.create_memory_object_stream[Any](max_buffer_size=math.inf)
        self._ready = True

    def is_ready(self) -> bool:
        return self._ready

    async def write(self, data: str) -> None:
        for line in data.splitlines():
            if line.strip():
                self._on_message(json.loads(line))

    def read_messages(self) -> Any:
        return self._read()

    async def end_input(self) -> None:
        self._send.close()  # the SDK calls this after the result; closing ends read_messages()

    async def close(self) -> None:
        self._ready = False
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._send is not None:
            self._send.close()

    # -- the fake CLI -------------------------------------------------------------------------
    async def _read(self) -> Any:
        async with self._receive:
            async for message in self._receive:
                if isinstance(message, BaseException):
                    raise message
                yield message

    def _emit(self, message: Any) -> None:
        try:
            self._send.send_nowait(message)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the SDK has gone; nothing to tell it

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "control_request":                     # SDK -> CLI: initialize, interrupt...
            if message["request"].get("subtype") == "initialize":
                self.initialize = message["request"]
            self._emit(_control_success(message["request_id"], {}))
        elif kind == "control_response":                  # SDK answering one of our requests
            response = message["response"]
            future = self._pending.pop(response.get("request_id"), None)
            if future is not None and not future.done():
                future.set_result(response)
        elif kind == "user":
            self.prompts.append(message["message"]["content"])
            self._task = asyncio.get_running_loop().create_task(self._play_guarded())

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        request_id = f"cli_req_{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._emit({"type": "control_request", "request_id": request_id, "request": request})
        response = await asyncio.wait_for(future, timeout=30)
        if response.get("subtype") == "error":
            raise RuntimeError(f"SDK answered {request['subtype']} with an error: {response.get('error')}")
        return response.get("response", {})

    async def _mcp(self, method: str, params: dict[str, Any] | None = None, *, notify: bool = False) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if not notify:
            message["id"] = next(self._ids)
        if params is not None:
            message["params"] = params
        response = await self._request({"subtype": "mcp_message", "server_name": SERVER_NAME, "message": message})
        return response["mcp_response"]

    async def _play_guarded(self) -> None:
        try:
            await self._play()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # surface fake-CLI failures in the test instead of hanging it
            self._emit(exc)
            self._send.close()

    async def _play(self) -> None:
        session = "scripted-session"
        self._emit({"type": "system", "subtype": "init", "model": self.model, "session_id": session, "tools": []})
        # The MCP handshake as Claude Code 2.1.330 sends it.
        await self._mcp("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                       "clientInfo": {"name": "claude-code", "version": "2.1.330"}})
        await self._mcp("notifications/initialized", notify=True)
        listed = await self._mcp("tools/list")
        self.listed_tools = listed.get("result", {}).get("tools", [])
        last_text = ""
        for turn_index, blocks in enumerate(self.turns):
            for block in blocks:
                block = dict(block)
                if block["type"] == "tool_use":
                    block["id"] = f"toolu_{turn_index}_{next(self._ids)}"
                elif block["type"] == "text":
                    last_text = block["text"]
                self._emit(self._assistant(block, session, turn_index))
                if block["type"] == "tool_use":
                    self._emit(self._tool_result(await self._run_tool(block), session))
        if self.fail_with is not None:
            self._emit({**self._assistant(say(self.fail_with), session, 0), "error": "authentication_failed"})
        self._emit(self._result(last_text, session))
        if self.fail_with is not None:
            self._emit(ProcessError("Command failed with exit code 1", exit_code=1, stderr="Check stderr output"))

    async def _run_tool(self, block: dict[str, Any]) -> dict[str, Any]:
        answer = await self._request(
            {"subtype": "can_use_tool", "tool_name": block["name"], "input": block["input"], "tool_use_id": block["id"]}
        )
        self.permissions.append((block["name"], answer))
        if answer.get("behavior") != "allow":
            return {"tool_use_id": block["id"], "content": answer.get("message", "denied"), "is_error": True}
        name = block["name"].removeprefix(f"mcp__{SERVER_NAME}__")
        response = await self._mcp(
            "tools/call", {"name": name, "arguments": answer.get("updatedInput", block["input"])}
        )
        if "error" in response:  # a protocol error: the CLI reports it to the model as a failed tool call
            result = {"content": [{"type": "text", "text": f"MCP error: {response['error']}"}], "isError": True}
        else:
            result = response["result"]
        record = {"tool_use_id": block["id"], "content": result["content"], "is_error": bool(result.get("isError"))}
        self.tool_results.append({"name": name, **record})
        return record

    def _assistant(self, block: dict[str, Any], session: str, turn: int) -> dict[str, Any]:
        input_tokens, output_tokens = self.tokens_per_turn
        message = {"id": f"msg_{turn}", "model": self.model, "content": [block],
                   "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}}
        return {"type": "assistant", "message": message, "parent_tool_use_id": None, "session_id": session}

    @staticmethod
    def _tool_result(record: dict[str, Any], session: str) -> dict[str, Any]:
        block = {"type": "tool_result", **record}
        return {"type": "user", "message": {"role": "user", "content": [block]}, "parent_tool_use_id": None,
                "session_id": session}

    def _result(self, last_text: str, session: str) -> dict[str, Any]:
        turns = max(len(self.turns), 1)
        input_tokens, output_tokens = (n * turns for n in self.tokens_per_turn)
        failed = self.fail_with is not None
        return {
            "type": "result", "subtype": "success", "duration_ms": 1200, "duration_api_ms": 900,
            "is_error": failed, "num_turns": turns, "session_id": session,
            "result": self.fail_with if failed else last_text,
            "total_cost_usd": self.cost_usd,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                      "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0},
            "modelUsage": {self.model: {"inputTokens": input_tokens, "outputTokens": output_tokens,
                                        "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0,
                                        "costUSD": self.cost_usd}},
        }


def _control_success(request_id: str, response: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "control_response",
        "response": {"subtype": "success", "request_id": request_id, "response": response},
    }
