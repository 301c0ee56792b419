"""Errors grouped by who has to act; each carries its exit code and a hint.

The CLI prints `error: <message>` and, when there is one, `hint: <hint>`, then exits with `exit_code`.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INCOMPLETE = 3
EXIT_AWAITING_APPROVAL = 4    # the plan waits for a person (`run --approve-plan`): `agentic-ds approve RUN` decides
EXIT_INTERRUPTED = 130


class AgenticDSError(Exception):
    """Base of every error the product raises on purpose."""

    exit_code: int = EXIT_FAILED

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(AgenticDSError):
    """The user asked for something that cannot work as given (bad flag, missing file...)."""

    exit_code = EXIT_USAGE


class ConfigError(UsageError):
    """The configuration (file, environment, flags) is invalid or incomplete."""


class InputError(UsageError):
    """An input path is missing, unreadable or of a kind we cannot use."""


class RunFailed(AgenticDSError):
    """The run started but could not finish (the run directory says what was done)."""

    exit_code = EXIT_FAILED


class PathEscape(AgenticDSError):
    """A tool was asked to touch a path outside the run directory. Fed back to the model."""
