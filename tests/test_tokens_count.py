"""count_tokens and context_window: LiteLLM's tokenizer where it knows the model, a calibrated estimate else."""

from __future__ import annotations

import random

from google.adk.models import LlmRequest
from google.genai import types

from agentic_ds.config.settings import ModelOptions
from agentic_ds.context.tokens import context_window, count_tokens, estimate_tokens


def numeric_table(rows: int = 80) -> str:
    rng = random.Random(1)
    return "\n".join(
        f"{i:5d} {rng.uniform(-1e4, 1e4):12.4f} {rng.uniform(0, 1):.6f} {rng.randint(0, 10**7):9d}" for i in range(rows)
    )


def test_estimate_is_close_to_a_real_tokenizer_on_numeric_text_where_chars_over_4_is_not():
    text = numeric_table()
    real = count_tokens("gpt-4o", text)  # litellm's tokenizer, offline
    assert 0.85 <= estimate_tokens(text) / real <= 1.3
    assert len(text) / 4 / real < 0.7, "the sample must be one where chars/4 undercounts"


def test_offline_and_scripted_models_use_the_estimate():
    text = "The mean revenue was 1234.567 in 2024; see outputs/table.csv."
    assert count_tokens("offline", text) == count_tokens(None, text) == estimate_tokens(text) > 10
    assert estimate_tokens("") == 0


def test_a_request_counts_system_instruction_tools_and_every_part():
    request = LlmRequest(
        model="scripted",
        contents=[
            types.Content(role="user", parts=[types.Part(text="analyse inputs/sales.csv")]),
            types.Content(
                role="model",
                parts=[types.Part(function_call=types.FunctionCall(name="run_python", args={"code": "x = 1"}))],
            ),
            types.Content(
                role="user",
                parts=[
                    types.Part(
                        function_response=types.FunctionResponse(
                            name="run_python", response={"output": numeric_table(20)}
                        )
                    )
                ],
            ),
        ],
        config=types.GenerateContentConfig(system_instruction="You are a careful data scientist."),
    )
    total = count_tokens("scripted", request)
    assert total > estimate_tokens(numeric_table(20)) + estimate_tokens("You are a careful data scientist.")
    request.contents.pop()
    assert count_tokens("scripted", request) < total - 100


def test_context_window_from_config_then_litellm_then_unknown():
    assert context_window("anthropic/claude-sonnet-4-5") == 200_000
    assert context_window("openai/local-model", {"openai/local-model": ModelOptions(context_window=32_768)}) == 32_768
    assert context_window("offline") is None
    assert context_window("ollama_chat/some-unknown-model") is None
    assert context_window(None) is None


def test_tool_payloads_counted_once_stay_right_when_shared_copied_or_different():
    response = {"output": numeric_table(30)}
    part = types.Part(function_response=types.FunctionResponse(name="run_python", response=response))
    first = count_tokens("scripted", LlmRequest(model="scripted", contents=[types.Content(role="user", parts=[part])]))
    # ADK copies each Part for a request but shares the payload dict: the cached count applies
    copied = part.model_copy()
    again = count_tokens(
        "scripted", LlmRequest(model="scripted", contents=[types.Content(role="user", parts=[copied])])
    )
    assert again == first
    # an equal payload in another dict counts the same; a different payload counts differently
    twin = types.Part(function_response=types.FunctionResponse(name="run_python", response=dict(response)))
    assert (
        count_tokens("scripted", LlmRequest(model="scripted", contents=[types.Content(role="user", parts=[twin])]))
        == first
    )
    other = types.Part(function_response=types.FunctionResponse(name="run_python", response={"output": "ok"}))
    assert (
        count_tokens("scripted", LlmRequest(model="scripted", contents=[types.Content(role="user", parts=[other])]))
        < first
    )
