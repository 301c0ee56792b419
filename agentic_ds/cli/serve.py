"""`agentic-ds serve`: the runs of a work directory over HTTP (`agentic_ds/server/`), served by uvicorn.

Safe by default: 127.0.0.1 only; any other address needs a token. One server per work directory (a lock on
`<workdir>/.serve/server.lock`). Tokens given as a query parameter are masked in the access log.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agentic_ds.errors import UsageError

if TYPE_CHECKING:
    import logging

TOKEN_IN_QUERY = r"(token=)[^&\s]*"   # linear: one character class, no nesting


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback needs --token.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of the run directories served and created (default: the configured workdir, ./workdirs).")
@click.option("--data-root", "data_roots", multiple=True, metavar="DIR",
              help="A folder whose files runs may name as inputs by path (repeat for more).")
@click.option("--max-runs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Runs going at once, each its own process; the others wait in the queue.")
@click.option("--token", default=None, metavar="TOKEN",
              help="Required on every request (Authorization: Bearer TOKEN); default: $AGENTIC_DS_TOKEN.")
@click.option("--max-upload-mb", type=click.IntRange(min=1), default=512, show_default=True,
              help="Largest upload of input files, per request.")
@click.option("--cors-origin", "cors_origins", multiple=True, metavar="ORIGIN",
              help="A web origin allowed to call the API from a browser (repeat); none by default.")
@click.option("--config", metavar="FILE", help="YAML config file every run reads (as `run --config`).")
def serve_command(workdir: Path | None, **kwargs: Any) -> None:
    """Serve runs over HTTP, and a web page at / to start, watch, read and question them.

    It serves the run directories the CLI writes (a run started from either shows up in both). Each run executes
    in its own `agentic-ds` process, at most --max-runs at once; the rest wait in a queue kept on disk that
    survives a restart. Stopping the server stops its runs cleanly (they end resumable). The page at / needs no
    build and nothing from the network. API: /docs, and docs/api.md.

    \b
    Examples:
      agentic-ds serve
      agentic-ds serve --data-root ~/data --max-runs 4
      AGENTIC_DS_TOKEN=... agentic-ds serve --host 0.0.0.0 --port 8080
    """
    from agentic_ds.cli.review import run_root
    from agentic_ds.server.options import check_options

    options = check_options(workdir=run_root(workdir), **kwargs)
    _check_port(options.host, options.port)
    lock = _lock_workdir(options.workdir)
    try:
        _serve(options)
    finally:
        os.close(lock)


def _serve(options: Any) -> None:
    import logging
    import warnings

    import uvicorn

    from agentic_ds.server.app import build_app

    warnings.filterwarnings("ignore", category=UserWarning, module=r"google\.adk")   # ADK's [EXPERIMENTAL] notes
    logging.getLogger("uvicorn.access").addFilter(_mask_tokens)
    app = build_app(options)
    guard = "every request needs the token" if options.token else "no token: this machine only"
    click.echo(f"serving {options.workdir} on http://{_url_host(options.host)}:{options.port} ({guard}); "
               f"the page at /, API docs at /docs; at most {options.max_runs} runs at once", err=True)
    config = uvicorn.Config(app, host=options.host, port=options.port, log_level="info", lifespan="on",
                            timeout_graceful_shutdown=3)
    uvicorn.Server(config).run()


def _mask_tokens(record: logging.LogRecord) -> bool:
    import re

    if isinstance(record.args, tuple):
        record.args = tuple(re.sub(TOKEN_IN_QUERY, r"\1***", a) if isinstance(a, str) else a for a in record.args)
    return True


def _check_port(host: str, port: int) -> None:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}",
                             hint="choose another --port, or stop what listens there") from None


def _lock_workdir(workdir: Path) -> int:
    """One server per work directory: two would run the same queue twice."""
    import fcntl

    from agentic_ds.runs import safe_files

    state = workdir / ".serve"
    state.mkdir(parents=True, exist_ok=True)
    fd = safe_files.open_private(state / "server.lock", root=state)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        raise UsageError(
            f"another agentic-ds serve already serves {workdir}" + (f" (process {holder})" if holder else ""),
            hint="use that server, stop it, or serve another --workdir") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _url_host(host: str) -> str:
    import ipaddress

    try:
        return f"[{host.strip('[]')}]" if ipaddress.ip_address(host.strip("[]")).version == 6 else host
    except ValueError:
        return host


def register(group: click.Group) -> None:
    group.add_command(serve_command)
