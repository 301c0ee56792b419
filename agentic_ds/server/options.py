"""`agentic-ds serve`'s options, checked before anything listens: safe by default.

The server binds 127.0.0.1. Any other address needs a token (`--token` or `AGENTIC_DS_TOKEN`), which every route
then checks; a token may be given on loopback too. Data roots must be existing folders; the work directory is
created if missing.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from agentic_ds.errors import UsageError

TOKEN_ENV = "AGENTIC_DS_TOKEN"
MIN_TOKEN_CHARS = 16
TOKEN_HINT = 'make one with: python -c "import secrets; print(secrets.token_urlsafe(32))"'


@dataclass(frozen=True)
class ServeOptions:
    workdir: Path
    host: str = "127.0.0.1"
    port: int = 8000
    data_roots: tuple[Path, ...] = ()
    max_runs: int = 2
    token: str | None = None
    max_upload_mb: int = 512
    cors_origins: tuple[str, ...] = ()
    config: str | None = None          # the YAML config every run of this server reads (as `run --config`)
    grace_s: float = 30.0              # how long a stopped run may take to finish its records

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024


def is_loopback(host: str) -> bool:
    bare = host.strip().strip("[]").lower().rstrip(".")
    if bare == "localhost":
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def check_options(
    *, workdir: Path, host: str, port: int, data_roots: tuple[str, ...], max_runs: int, token: str | None,
    max_upload_mb: int, cors_origins: tuple[str, ...], config: str | None,
) -> ServeOptions:
    """The options as the server will use them, or a `UsageError` (exit 2) saying what to change."""
    token = token or os.environ.get(TOKEN_ENV) or None
    if not is_loopback(host) and not token:
        raise UsageError(
            f"--host {host} makes the server reachable from other machines: it needs a token",
            hint=f"pass --token TOKEN or set {TOKEN_ENV} (clients send `Authorization: Bearer TOKEN`); {TOKEN_HINT}; "
                 "or leave out --host to serve on 127.0.0.1 only",
        )
    if token is not None and len(token) < MIN_TOKEN_CHARS:
        raise UsageError(f"the token is {len(token)} characters long: at least {MIN_TOKEN_CHARS} are needed",
                         hint=TOKEN_HINT)
    roots = []
    for given in data_roots:
        root = Path(given).expanduser().resolve()
        if not root.is_dir():
            raise UsageError(f"--data-root {given} is not a folder", hint="give an existing folder of data files")
        roots.append(root)
    folder = Path(workdir).expanduser()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the work directory {folder}: {exc.strerror}",
                         hint="choose another --workdir") from exc
    for root in roots:
        if folder.resolve() == root or root in folder.resolve().parents:
            raise UsageError(f"the work directory {folder} is inside the data root {root}: runs could read other runs",
                             hint="choose a --workdir outside every --data-root")
    if config is not None and not Path(config).is_file():
        raise UsageError(f"config file not found: {config}", hint="pass an existing YAML file to --config")
    return ServeOptions(
        workdir=folder.resolve(), host=host, port=port, data_roots=tuple(roots), max_runs=max_runs, token=token,
        max_upload_mb=max_upload_mb, cors_origins=tuple(cors_origins),
        config=str(Path(config).resolve()) if config else None,
    )
