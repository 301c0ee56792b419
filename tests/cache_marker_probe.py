"""Send one request per case through `build_managed_llm` (the product's own model factory: `ManagedLiteLlm` under
the call policy, ADK's LiteLlm, LiteLLM) to the
fake provider whose address is given, so a test sees the bytes LiteLLM really sends. Runs as its own process:
the suite's guard against real model calls stays on in the test process, and this one gets no credentials.

    python tests/cache_marker_probe.py '[{"spec": "anthropic/claude-sonnet-4-5", "api_base": "http://127.0.0.1:1"}]'
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from google.adk.models import LlmRequest  # noqa: E402
from google.genai import types  # noqa: E402

from agentic_ds.config.models import ModelChoice  # noqa: E402
from agentic_ds.config.settings import ModelOptions, Settings  # noqa: E402
from agentic_ds.context.per_call import per_call_content  # noqa: E402
from agentic_ds.llm.models import build_managed_llm  # noqa: E402
from agentic_ds.llm.policy import CallMonitor, RetryPolicy  # noqa: E402

STATIC = "You review one stage.\n\n## Rules\n- be brief\n\n## Task\nMean price by region?\n"
PER_CALL = "## Current stage\nId: s2"
TURN = "Mean price by region?"


def request() -> LlmRequest:
    """A request shaped as the product sends it: static system instruction, tools, per-call part, the turn."""
    tool = types.Tool(function_declarations=[types.FunctionDeclaration(
        name="list_files", description="List files.",
        parameters_json_schema={"type": "object", "properties": {"path": {"type": "string"}}},
    )])
    return LlmRequest(
        config=types.GenerateContentConfig(system_instruction=STATIC, tools=[tool]),
        contents=[per_call_content(PER_CALL), types.Content(role="user", parts=[types.Part(text=TURN)])],
    )


async def main(cases: list[dict]) -> None:
    for case in cases:
        options = {"api_base": case["api_base"], "extra": case.get("extra", {}), **case.get("options", {})}
        settings = Settings(model_options={case["spec"]: ModelOptions.model_validate(options)})
        choice = ModelChoice(role="reviewer", spec=case["spec"], kind="litellm")
        model = build_managed_llm(choice, settings, CallMonitor(RetryPolicy(retries=0)), None)
        replies = [r async for r in model.generate_content_async(request())]
        print(json.dumps({"spec": case["spec"], "reply": replies[-1].content.parts[0].text}))


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
