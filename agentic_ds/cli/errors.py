"""Turn every way a command can end into one clear line, a hint, and the documented exit code.

`error: <what is wrong>` and `hint: <what to do>` go to stderr; no traceback unless `--debug`.
Exit codes: 0 completed, 3 incomplete, 1 failed at run time, 2 usage/config/input error, 130 interrupted
(Ctrl-C), 143 stopped by SIGTERM, 129 by SIGHUP.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from typing import Any

import click

from agentic_ds.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, AgenticDSError


def report_error(message: str, hint: str | None = None) -> None:
    """Print `error: ...` (and `hint: ...`) on stderr, on one line each."""
    click.echo(click.style("error:", fg="red", bold=True) + " " + _one_line(message), err=True)
    if hint:
        click.echo(click.style("hint:", fg="yellow") + " " + _one_line(hint), err=True)


def report_traceback() -> None:
    click.echo(traceback.format_exc().rstrip(), err=True)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _click_message(exc: click.ClickException) -> str:
    message = _one_line(exc.format_message()).rstrip(".")
    return message[:1].lower() + message[1:]


class AgenticGroup(click.Group):
    """A click group whose `main` owns error reporting and exit codes (also under `CliRunner`)."""

    show_tracebacks: bool = False

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        self.show_tracebacks = False
        code = self._invoke(args, prog_name or "agentic-ds", complete_var, extra)
        if not standalone_mode:
            return code
        sys.exit(code)

    def _invoke(self, args: Sequence[str] | None, prog_name: str, complete_var: str | None, extra: Any) -> int:
        try:
            result = super().main(
                args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False, **extra
            )
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
            return EXIT_OK
        except click.ClickException as exc:
            command_path = exc.ctx.command_path if getattr(exc, "ctx", None) else prog_name  # type: ignore[attr-defined]
            report_error(_click_message(exc), f"run '{command_path} --help' for usage and examples")
            return exc.exit_code
        except (click.exceptions.Abort, KeyboardInterrupt) as exc:
            # Ctrl-C, or SIGTERM/SIGHUP (`Stopped`) before a run began; click wraps it in Abort.
            signum = getattr(exc, "signum", None) or getattr(exc.__cause__, "signum", None)
            report_error(f"interrupted by {signum.name}" if signum else "interrupted",
                         "nothing was lost: run directories are never deleted")
            return 128 + signum if signum else EXIT_INTERRUPTED
        except AgenticDSError as exc:
            if self.show_tracebacks:
                report_traceback()
            report_error(exc.message, exc.hint)
            return exc.exit_code
        except Exception as exc:  # a bug: say so plainly, keep the traceback for --debug
            if self.show_tracebacks:
                report_traceback()
            report_error(
                f"internal error: {type(exc).__name__}: {exc}",
                "this is a bug in agentic-ds; rerun with --debug and report the traceback",
            )
            return EXIT_FAILED
        if isinstance(result, int):
            return result
        return EXIT_OK

