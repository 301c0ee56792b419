"""The call policy on its own: backoff, Retry-After, classification of real exceptions, counting, heartbeats."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from agentic_ds.config.settings import CallSettings, load_settings
from agentic_ds.llm.faults import CallFault, ModelCallFailed, classify, retry_after_seconds
from agentic_ds.llm.policy import CallMonitor, RetryPolicy


def test_backoff_doubles_with_jitter_and_is_capped():
    policy = RetryPolicy(timeout_s=10, retries=6, backoff_s=1, max_backoff_s=5)
    fault = CallFault("server_error", True, "x", 500)
    rng = random.Random(7)
    delays = [policy.delay(n, fault, rng) for n in range(1, 7)]
    for n, delay in enumerate(delays, start=1):
        base = min(5, 2 ** (n - 1))
        assert base / 2 <= delay <= base
    assert len({round(d, 6) for d in delays}) == len(delays)  # jittered, not a fixed schedule


def test_retry_after_wins_over_backoff_up_to_the_cap():
    policy = RetryPolicy(backoff_s=1, max_backoff_s=30)
    assert policy.delay(1, CallFault("rate_limited", True, "", 429, retry_after_s=7)) == 7
    assert policy.delay(1, CallFault("rate_limited", True, "", 429, retry_after_s=3600)) == 30


def test_retry_after_reads_seconds_http_dates_and_milliseconds():
    now = datetime(2026, 11, 24, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds({"retry-after": "12"}) == 12
    assert retry_after_seconds({"Retry-After": format_datetime(now + timedelta(seconds=90), usegmt=True)}, now) == 90
    assert retry_after_seconds({"retry-after": format_datetime(now - timedelta(seconds=5), usegmt=True)}, now) == 0
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None and retry_after_seconds(None) is None


def test_settings_have_the_documented_names_defaults_and_environment(monkeypatch):
    defaults = CallSettings()
    assert defaults.timeout_s <= 180 and defaults.retries >= 4
    monkeypatch.setenv("AGENTIC_DS_CALLS__TIMEOUT_S", "33")
    monkeypatch.setenv("AGENTIC_DS_CALLS__RETRIES", "7")
    settings = load_settings(None, {})
    assert settings.calls.timeout_s == 33 and settings.calls.retries == 7


def test_config_show_lists_the_call_settings(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from agentic_ds.cli.main import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "agentic-ds.yaml").write_text("calls:\n  timeout_s: 45\n  retries: 6\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["config", "show"]).stdout
    assert "calls:" in out and "timeout_s: 45.0" in out and "retries: 6" in out


def _litellm_error(name: str, status: int, message: str):
    import httpx
    import litellm

    response = httpx.Response(status, request=httpx.Request("POST", "http://127.0.0.1/v1/chat/completions"))
    return getattr(litellm, name)(message=message, llm_provider="openai", model="m", response=response)


@pytest.mark.parametrize(
    ("name", "status", "message", "kind", "retryable"),
    [
        ("RateLimitError", 429, "slow down", "rate_limited", True),
        ("InternalServerError", 500, "boom", "server_error", True),
        ("ServiceUnavailableError", 503, "busy", "server_error", True),
        ("AuthenticationError", 401, "bad key", "auth", False),
        ("PermissionDeniedError", 403, "no", "auth", False),
        ("NotFoundError", 404, "no model", "not_found", False),
        ("BadRequestError", 400, "maximum context length is 8192 tokens", "context_too_long", False),
        ("BadRequestError", 400, "temperature must be positive", "bad_request", False),
    ],
)
def test_litellm_errors_are_classified_by_status(name, status, message, kind, retryable):
    fault = classify(_litellm_error(name, status, message))
    assert (fault.kind, fault.retryable, fault.status) == (kind, retryable, status)
    assert message in fault.message


def test_timeouts_and_refused_connections_are_retryable():
    import litellm

    assert classify(TimeoutError()).kind == "timeout"
    assert classify(litellm.Timeout(message="timed out", model="m", llm_provider="openai")).kind == "timeout"
    refused = ConnectionRefusedError(111, "Connection refused")
    try:
        raise RuntimeError("Connection error.") from refused
    except RuntimeError as exc:
        assert classify(exc).kind == "connection"


def test_gemini_errors_are_classified_too():
    from google.genai import errors

    assert classify(errors.ServerError(503, {"error": {"message": "overloaded"}})).kind == "server_error"
    assert classify(errors.ClientError(429, {"error": {"message": "quota"}})).kind == "rate_limited"
    assert classify(errors.ClientError(403, {"error": {"message": "denied"}})).kind == "auth"


async def test_the_monitor_retries_counts_and_gives_up_with_the_last_fault():
    notices: list[tuple[str, str, str]] = []
    monitor = CallMonitor(RetryPolicy(timeout_s=1, retries=2, backoff_s=0.01, max_backoff_s=0.02),
                          on_notice=lambda *n: notices.append(n))
    attempts = 0

    async def always_busy(_timeout: float):
        nonlocal attempts
        attempts += 1
        raise _litellm_error("RateLimitError", 429, "busy")

    with pytest.raises(ModelCallFailed) as failed:
        await monitor.call(always_busy, model="openai/m", api_base="http://127.0.0.1:9/v1", agent="coding_agent")
    assert attempts == 3
    assert "openai/m at http://127.0.0.1:9/v1 for coding_agent failed after 3 attempts" in failed.value.message
    summary = monitor.summary()
    assert (summary.retries, summary.failures, summary.attempts, summary.calls) == (2, 1, 3, 0)
    assert summary.failure is not None and summary.failure.kind == "rate_limited"
    assert [n[0] for n in notices] == ["waiting", "waiting"]
    assert notices[0][1].startswith("coding_agent: waiting for openai/m (attempt 2/3, retrying in 0 s")


async def test_a_slow_call_says_it_is_waiting_before_the_timeout():
    notices: list[str] = []
    monitor = CallMonitor(RetryPolicy(timeout_s=0.9, retries=0), on_notice=lambda k, t, a: notices.append(t))

    async def slow(_timeout: float):
        await asyncio.sleep(0.7)
        return "answer"

    assert await monitor.call(slow, model="m", api_base=None, agent="plan_maker") == "answer"
    assert notices and "no answer for 0 s; gives up at 1 s" in notices[0]
    assert monitor.summary().timeouts == 0


async def test_a_step_down_sends_again_without_using_a_retry():
    monitor = CallMonitor(RetryPolicy(retries=0))
    sent = []

    async def send(_timeout: float):
        sent.append(1)
        if len(sent) == 1:
            raise _litellm_error("InternalServerError", 500, "Input should be 'text' or 'json_object'")
        return "ok"

    result = await monitor.call(send, model="m", api_base=None, agent=None, step_down=lambda f: "json_object now")
    assert result == "ok" and len(sent) == 2
    assert monitor.summary().step_downs == ["m: json_object now"]


async def test_native_gemini_runs_under_the_same_policy(monkeypatch):
    """ADK's Gemini is wrapped, not left to google-genai (which retries nothing by default)."""
    from google.adk.models import LlmRequest, LlmResponse
    from google.adk.models.google_llm import Gemini
    from google.genai import errors, types

    from agentic_ds.config.models import ModelChoice
    from agentic_ds.config.settings import Settings
    from agentic_ds.llm.models import ManagedGemini, build_managed_llm

    answers = [errors.ServerError(503, {"error": {"message": "overloaded"}}), "x" * 50_000]

    async def fake_generate(self, llm_request, stream=False):
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=answer)]))

    monkeypatch.setattr(Gemini, "generate_content_async", fake_generate)
    notices: list[str] = []
    monitor = CallMonitor(
        RetryPolicy(timeout_s=5, retries=2, backoff_s=0.01), on_notice=lambda k, t, a: notices.append(t)
    )
    model = build_managed_llm(ModelChoice("planner", "gemini-2.5-flash", "gemini"), Settings(), monitor, 1000)
    assert isinstance(model, ManagedGemini)
    request = LlmRequest(
        model="gemini-2.5-flash", config=types.GenerateContentConfig(labels={"adk_agent_name": "plan_maker"})
    )
    responses = [r async for r in model.generate_content_async(request)]
    assert len(responses[0].content.parts[0].text) <= 1000  # the oversized reply was cut
    summary = monitor.summary()
    assert summary.retries == 1 and summary.calls == 1 and summary.replies_capped == 1
    assert notices == ["plan_maker: waiting for gemini-2.5-flash (attempt 2/3, retrying in 0 s: HTTP 503 server error)"]
