"""The offline model behind an OpenAI-compatible chat endpoint: for servers that tests run whole analyses against.

`OfflineBrain.answer(body)` reads an OpenAI chat request (what LiteLLM sends), rebuilds the `LlmRequest` ADK
would have given a model, lets `OfflineLlm` answer it with the values the agent's prompt was rendered from (the
run is in this process: `context.per_call.latest_context`), and shapes the answer the way the request asked: native
`tool_calls`, `<tool_call>` text when the tools were declared in the text protocol, `set_model_response` when
that is how the agent must answer, or plain text (JSON for structured agents).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.adk_private import AGENT_NAME_LABEL
from agentic_ds.llm import text_tools
from agentic_ds.testing.chat_request import IDENTITY

SET_MODEL_RESPONSE = "set_model_response"
CHARS_PER_TOKEN = 4


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n\n".join(str(p.get("text") or "") for p in content if isinstance(p, dict))


def _json_or_text(value: str) -> Any:
    try:
        parsed = json.loads(value)
    except ValueError:
        return {"result": value}
    return parsed if isinstance(parsed, dict) else {"result": parsed}


def to_llm_request(body: dict[str, Any]) -> tuple[LlmRequest, list[str], bool]:
    """(the LlmRequest, the tool names offered, whether they were offered in the text protocol)."""
    system: list[str] = []
    contents: list[types.Content] = []
    call_names: dict[str, str] = {}
    native = [(t.get("function") or {}).get("name", "") for t in body.get("tools") or []]
    for message in body.get("messages") or []:
        role, text = message.get("role"), _text(message.get("content"))
        if role in ("system", "developer"):
            system.append(text)
        elif role == "tool":
            name = call_names.get(message.get("tool_call_id", ""), "tool")
            response = types.FunctionResponse(id=message.get("tool_call_id"), name=name, response=_json_or_text(text))
            contents.append(types.Content(role="user", parts=[types.Part(function_response=response)]))
        elif role == "assistant":
            parts = []
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                call_names[call.get("id", "")] = function.get("name", "")
                args = _json_or_text(function.get("arguments") or "{}")
                parts.append(
                    types.Part(
                        function_call=types.FunctionCall(id=call.get("id"), name=function.get("name"), args=args)
                    )
                )
            calls, _problems, rest = text_tools.parse_calls(text, frozenset())
            for index, call in enumerate(calls):
                parts.append(
                    types.Part(function_call=types.FunctionCall(id=f"text{index}", name=call.name, args=call.arguments))
                )
            if rest and not parts:
                parts.append(types.Part(text=rest))
            contents.append(types.Content(role="model", parts=parts or [types.Part(text="")]))
        else:
            results, rest = text_tools.parse_responses(text)
            parts = [
                types.Part(function_response=types.FunctionResponse(
                    name=name, response=value if isinstance(value, dict) else {"result": value}))
                for name, value in results
            ]
            if rest or not parts:
                parts.append(types.Part(text=rest or text))
            contents.append(types.Content(role="user", parts=parts))
    system_text = "\n\n".join(system)
    in_text = text_tools.declared_tool_names(system_text)
    names = native or in_text
    declarations = [types.FunctionDeclaration(name=name) for name in names if name]
    identity = IDENTITY.search(system_text)   # the wire has no labels: ADK's label back, from its identity line
    config = types.GenerateContentConfig(
        system_instruction=system_text,
        tools=[types.Tool(function_declarations=declarations)] if declarations else None,
        labels={AGENT_NAME_LABEL: identity.group(1)} if identity else None,
    )
    return LlmRequest(model=body.get("model"), contents=contents, config=config), names, bool(in_text and not native)


class OfflineBrain:
    """Answers chat requests with the offline model (one instance serves a whole run).

    The prompt values come from this process's run; `shared` reads them for a run in another process (a test's
    child `agentic-ds`, tests/support/shared_context.py), and is asked only when this process has none."""

    def __init__(self, shared: Callable[[str], Mapping[str, Any] | None] | None = None) -> None:
        from agentic_ds.offline import OfflineLlm
        from agentic_ds.offline.request import parse_request

        self._shared = shared
        self._model = OfflineLlm()
        self._parse = parse_request

    def agent_of(self, body: dict[str, Any]) -> str:
        parsed = self._parse(to_llm_request(body)[0])
        return parsed.agent

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """An OpenAI chat `message` ({content, tool_calls}) and usage for `body`."""
        from agentic_ds.context.per_call import latest_context

        request, names, in_text = to_llm_request(body)
        parsed = self._parse(request)
        shared = self._shared(parsed.agent) if self._shared is not None else None
        parsed.context = latest_context(parsed.agent) or shared or {}
        reply = self._model.answer(parsed)
        calls = list(reply.calls)
        text = reply.text
        if not calls and SET_MODEL_RESPONSE in names and text.strip().startswith("{"):
            try:
                calls = [(SET_MODEL_RESPONSE, json.loads(text))]
                text = ""
            except ValueError:
                pass
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls and in_text:
            message["content"] = "\n".join(text_tools.call_text(name, args) for name, args in calls)
        elif calls:
            message["tool_calls"] = [
                {"id": f"call_{index}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                for index, (name, args) in enumerate(calls)
            ]
        prompt = sum(len(_text(m.get("content"))) for m in body.get("messages") or []) // CHARS_PER_TOKEN
        completion = len(json.dumps(message, ensure_ascii=False)) // CHARS_PER_TOKEN
        return {"message": message, "usage": {"prompt_tokens": max(1, prompt), "completion_tokens": max(1, completion)}}
