"""The web page (`agentic_ds/server/static/`): `GET /` is its HTML, `GET /ui/NAME` its scripts and styles.

The page is plain HTML, CSS and JavaScript modules shipped in the wheel: no build step, nothing fetched from
elsewhere. Its files hold no run data, so they are served without the token (the token gate lets `GET /` and
`/ui/*` through); every call the page makes to the API carries the token. Only files that are in the folder are
served, by name, with a Content-Security-Policy that allows the page's own origin only (no inline script, no
other host), and frames only for the run's report (itself served with `sandbox`).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

from agentic_ds.server.errors import ApiError

router = APIRouter(include_in_schema=False)
PUBLIC_PREFIX = "/ui/"
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "frame-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")


def static_dir() -> Path:
    folder = files("agentic_ds.server") / "static"
    return Path(str(folder))


def is_public(method: str, path: str) -> bool:
    """What the token gate lets through: the page's own files, read only."""
    if method not in ("GET", "HEAD"):
        return False
    name = path[len(PUBLIC_PREFIX):] if path.startswith(PUBLIC_PREFIX) else None
    return path == "/" or (name is not None and "/" not in name and name not in ("", ".", ".."))


def _served() -> dict[str, Path]:
    folder = static_dir()
    return {entry.name: entry for entry in folder.iterdir()
            if entry.is_file() and not entry.is_symlink() and entry.suffix in MEDIA_TYPES}


def _response(path: Path) -> Response:
    return Response(path.read_bytes(), media_type=MEDIA_TYPES[path.suffix],
                    headers={"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff",
                             "Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})


@router.get("/")
async def index() -> Response:
    return _response(static_dir() / "index.html")


@router.get(PUBLIC_PREFIX + "{name}")
async def asset(name: str) -> Response:
    found = _served().get(name)
    if found is None:
        raise ApiError(404, f"the page has no file {name}", "open / for the page")
    return _response(found)
