"""Claude Code failures explained: what went wrong, in one message, and what to do about it."""

from __future__ import annotations

from typing import Any

LOGIN_HINT = "set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN for the CLI, or log in once with `claude /login`"


def stderr_note(lines: list[str]) -> str:
    """The last lines the CLI wrote to stderr (e.g. why it exited), as a suffix for a failure message."""
    tail = "\n".join(line.rstrip() for line in lines[-8:] if line.strip())
    return f"\nCLI stderr (last lines):\n{tail}" if tail else ""


def describe_error_result(result: Any) -> str:
    """The text of a `ResultMessage` with `is_error`, plus what to do about it."""
    return _reason_with_hint(
        result.errors, result.result, result.subtype, result.subtype, getattr(result, "api_error_status", None)
    )


def describe_failure(exc: Exception, stderr_lines: list[str]) -> str:
    """What went wrong with the SDK or the CLI, in one message with a hint."""
    from claude_agent_sdk import CLIConnectionError, CLINotFoundError, ProcessError, ResultError

    if isinstance(exc, CLINotFoundError):
        return (
            f"the Claude Code CLI was not found ({exc}). Hint: reinstall claude-agent-sdk (its wheel bundles the "
            "CLI), or set another coder model (models.coder)."
        )
    if isinstance(exc, ResultError):
        return _reason_with_hint(exc.errors, exc.result, exc.subtype or str(exc), exc.subtype, exc.api_error_status)
    if isinstance(exc, ProcessError):
        return f"the Claude Code CLI exited with code {exc.exit_code}." + stderr_note(
            stderr_lines or [exc.stderr or ""]
        )
    if isinstance(exc, CLIConnectionError):
        return f"could not talk to the Claude Code CLI: {exc}" + stderr_note(stderr_lines)
    return f"{type(exc).__name__}: {exc}" + stderr_note(stderr_lines)


def _reason_with_hint(
    errors: list[str] | None, result: str | None, fallback: str, subtype: str | None, api_status: int | None
) -> str:
    """The most specific reason an error result gives (its errors, else its text, else `fallback`) + a hint."""
    reason = "; ".join(errors or []) or (result or "").strip() or fallback
    return reason + _hint_for(reason, subtype, api_status)


def _hint_for(reason: str, subtype: str | None, api_status: int | None) -> str:
    lowered = reason.lower()
    if "not logged in" in lowered or "/login" in lowered or "auth" in lowered or api_status in (401, 403):
        return f" Hint: {LOGIN_HINT}."
    if subtype == "error_max_turns":
        return " Hint: the turn hit its tool-call limit; raise loops.coder_tool_calls or narrow the stage."
    if subtype == "error_max_budget_usd":
        return " Hint: the cost budget was reached; raise budgets.max_cost_usd."
    if api_status in (429, 529) or "overloaded" in lowered or "rate limit" in lowered:
        return " Hint: the API is rate-limiting or overloaded; try again later."
    return ""
