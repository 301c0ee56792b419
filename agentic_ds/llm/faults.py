"""What went wrong with a model call, whatever library raised it: retry or not, and what to tell the user.

`classify` reads an exception from litellm, the OpenAI SDK, google-genai, httpx or asyncio by its HTTP status
and type name (no provider library is imported here), and returns a `CallFault`. `ModelCallFailed` is the error a
run ends with when a call finally fails: the provider's message, the model, the endpoint and what to do.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from agentic_ds.errors import RunFailed

_CONTEXT_WORDS = re.compile(
    r"context.{0,20}(length|window)|maximum context|too many tokens|prompt is too long|exceeds? .{0,30}context"
    r"|requested tokens .{0,40}exceed",
    re.IGNORECASE,
)
_CONNECTION_TYPES = {"APIConnectionError", "ConnectError", "ConnectionRefusedError", "ConnectionResetError",
                     "RemoteProtocolError", "ReadError", "ServerDisconnectedError", "ClientConnectorError",
                     "ConnectionError", "ClientOSError", "NetworkError"}
_TIMEOUT_TYPES = {"Timeout", "APITimeoutError", "TimeoutError", "ReadTimeout", "ConnectTimeout", "PoolTimeout",
                  "TimeoutException", "ServerTimeoutError"}
_CONNECTION_MESSAGE = re.compile(r"^\W*(connection error|connection refused|all connection attempts failed)",
                                 re.IGNORECASE)
_SSL_NOISE = re.compile(r" ?ssl:<[^>]*>")
_MESSAGE_CHARS = 600


@dataclass(frozen=True)
class CallFault:
    """One failed attempt. `kind` is what the user reads; `retryable` decides whether the policy tries again."""

    # rate_limited | server_error | malformed_reply | timeout | connection | auth | not_found | context_too_long |
    # bad_request | unexpected
    kind: str
    retryable: bool
    message: str
    status: int | None = None
    retry_after_s: float | None = None

    def short(self) -> str:
        """`HTTP 429 rate limited`: what a progress line shows."""
        label = self.kind.replace("_", " ")
        return f"HTTP {self.status} {label}" if self.status else label


def classify(exc: BaseException) -> CallFault:
    status = _status(exc)
    names = {cls.__name__ for cls in type(exc).__mro__}
    message = _message(exc)
    retry_after = retry_after_seconds(_headers(exc))
    if isinstance(exc, asyncio.TimeoutError) or names & _TIMEOUT_TYPES or status in (408,):
        return CallFault("timeout", True, message or "no answer in time", status)
    if _malformed_reply(exc):
        return CallFault("malformed_reply", True, f"the reply was not valid JSON ({message[:200]})", status)
    if _no_connection(exc):
        # litellm reports a refused connection as "InternalServerError ... Connection error." with status 500.
        return CallFault("connection", True, message or "connection failed")
    if status == 429:
        return CallFault("rate_limited", True, message, status, retry_after)
    if status is not None and status >= 500:
        return CallFault("server_error", True, message, status, retry_after)
    if status in (401, 403):
        return CallFault("auth", False, message, status)
    if status == 404:
        return CallFault("not_found", False, message, status)
    if "ContextWindowExceededError" in names or (status in (400, 413, 422) and _CONTEXT_WORDS.search(message)):
        return CallFault("context_too_long", False, message, status)
    if status is not None and 400 <= status < 500:
        return CallFault("bad_request", False, message, status)
    return CallFault("unexpected", False, f"{type(exc).__name__}: {message}", status)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _no_connection(exc: BaseException) -> bool:
    """No HTTP answer at all: a connection error somewhere in the chain, and no response that carries a status."""
    if getattr(getattr(exc, "response", None), "status_code", None) not in (None, 500):
        return False
    for link in _chain(exc):
        names = {cls.__name__ for cls in type(link).__mro__}
        if names & _CONNECTION_TYPES - {"APIConnectionError"} or _CONNECTION_MESSAGE.search(str(link)):
            return True
        if "APIConnectionError" in names and not isinstance(getattr(link, "status_code", None), int):
            return True
    return False


def _status(exc: BaseException) -> int | None:
    for attribute in ("status_code", "code", "status"):
        value = getattr(exc, attribute, None)
        if isinstance(value, int) and 100 <= value < 600:
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def _headers(exc: BaseException) -> Any:
    for attribute in ("litellm_response_headers", "headers"):
        value = getattr(exc, attribute, None)
        if value:
            return value
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None)


def _message(exc: BaseException) -> str:
    text = " ".join(str(getattr(exc, "message", None) or exc).split())
    # litellm prefixes its class path ("litellm.RateLimitError: RateLimitError: OpenAIException - ..."): keep the end.
    for marker in ("Exception - ", "Error - "):
        if marker in text:
            text = text.rsplit(marker, 1)[1]
    text = _SSL_NOISE.sub("", text)
    if text.startswith("{"):
        try:
            error = json.loads(text).get("error")
        except (ValueError, AttributeError):
            error = None
        detail = error.get("message") if isinstance(error, dict) else error
        if isinstance(detail, str) and detail:
            text = " ".join(detail.split())
    return text[:_MESSAGE_CHARS]


def _malformed_reply(exc: BaseException) -> bool:
    return any(
        isinstance(link, json.JSONDecodeError) or "Unable to get json response" in str(link) for link in _chain(exc)
    )


def retry_after_seconds(headers: Any, now: datetime | None = None) -> float | None:
    """Seconds from a `Retry-After` header (seconds or an HTTP date) or `retry-after-ms`; None if absent."""
    if not headers:
        return None
    get = headers.get if hasattr(headers, "get") else dict(headers).get
    milliseconds = get("retry-after-ms") or get("Retry-After-Ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = get("retry-after") or get("Retry-After")
    if not value:
        return None
    value = str(value).strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


_HINTS = {
    "rate_limited": "the provider kept refusing for rate limits; wait and run again, lower the load, or raise "
                    "calls.retries / calls.max_backoff_s",
    "malformed_reply": "the server kept sending replies that are not valid JSON; check that api_base points at an "
                       "OpenAI-compatible endpoint (usually ending in /v1)",
    "server_error": "the provider's server kept failing; try again later, or use another model (--model)",
    "timeout": "the model did not answer within calls.timeout_s; check that the server is up and not overloaded, "
               "or raise calls.timeout_s",
    "auth": "the API key was refused: check the key variable (agentic-ds config show lists what is set)",
    "not_found": "the model or endpoint does not exist there: check the model name and model_options.<model>.api_base",
    "context_too_long": "the prompt is longer than the model's context: set model_options.<model>.context_window "
                        "(or context.budget_tokens) so compaction keeps prompts smaller",
    "bad_request": "the server refused the request as malformed; if it names a feature (response_format, tools), "
                   "set model_options.<model>.structured_output / tool_calling (see README, Local models)",
    "unexpected": "rerun with --debug and report the traceback if this persists",
}


def hint_for(fault: CallFault, api_base: str | None) -> str:
    if fault.kind == "connection":
        where = api_base or "the provider"
        return f"could not connect to {where}: is the server running? check model_options.<model>.api_base"
    return _HINTS[fault.kind]


class ModelCallFailed(RunFailed):
    """A model call failed for good: not retryable, or out of retries. Ends the run `failed`."""

    def __init__(self, *, model: str, api_base: str | None, agent: str | None, fault: CallFault, attempts: int) -> None:
        where = f" at {api_base}" if api_base else ""
        who = f" for {agent}" if agent else ""
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        message = f"model call to {model}{where}{who} failed{tries}: {fault.short()}: {fault.message}"
        super().__init__(message, hint=hint_for(fault, api_base))
        self.model = model
        self.api_base = api_base
        self.agent = agent
        self.fault = fault
        self.attempts = attempts
