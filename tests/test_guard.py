"""The guard makes every door to a real model raise."""

import pytest
from google.adk.agents import LlmAgent
from google.adk.models.lite_llm import LiteLlm
from google.adk.runners import InMemoryRunner
from google.genai import types

from agentic_ds.testing.guard import RealModelCallBlocked


async def test_litellm_agent_cannot_reach_a_real_model():
    agent = LlmAgent(name="a", model=LiteLlm(model="openai/gpt-4o"), instruction="hi")
    runner = InMemoryRunner(agent=agent, app_name="guard")
    session = await runner.session_service.create_session(app_name="guard", user_id="u")
    with pytest.raises(RealModelCallBlocked):
        async for _ in runner.run_async(
            user_id="u", session_id=session.id, new_message=types.Content(role="user", parts=[types.Part(text="x")])
        ):
            pass


async def test_adk_litellm_client_is_blocked():
    from google.adk.models.lite_llm import LiteLLMClient

    with pytest.raises(RealModelCallBlocked):
        await LiteLLMClient().acompletion(
            model="openai/gpt-4o", messages=[{"role": "user", "content": "x"}], tools=None
        )
    with pytest.raises(RealModelCallBlocked):
        LiteLLMClient().completion(model="openai/gpt-4o", messages=[], tools=None)


async def test_claude_cli_subprocess_is_blocked():
    from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport

    with pytest.raises(RealModelCallBlocked):
        await SubprocessCLITransport.connect(object())
