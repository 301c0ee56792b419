"""The gates every request passes before any route, as ASGI middleware: the token, then the body size.

`TokenGuard`: with a token configured, every HTTP request and websocket (ADK's routes included) must carry it, as
`Authorization: Bearer TOKEN` or, for clients that cannot set headers (a browser's EventSource, an <img>), as the
query parameter `token`. Compared in constant time. CORS preflights pass to the CORS middleware, and so do reads of
the web page's own files (`page.is_public`: `/` and `/ui/*`, which hold no run data; the page asks for the token).

`BodyLimit`: a request with a body must say its length
(`Content-Length`; 411 otherwise), and may not be longer than the upload limit (multipart) or 1 MB (anything
else): 413 before a byte of it is read. The body is counted as it arrives too, so no request can pass the limit.
Both answer in the API's error shape: `{"error": ..., "hint": ...}`.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from agentic_ds.server.page import is_public

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

JSON_BODY_LIMIT = 1024 * 1024
TOKEN_HINT = "send the server's token as `Authorization: Bearer TOKEN`, or as ?token=TOKEN where headers cannot be set"


class TokenGuard:
    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token.encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token is None or scope["type"] not in ("http", "websocket") or _preflight(scope) \
                or (scope["type"] == "http" and is_public(scope["method"], scope["path"])):
            await self.app(scope, receive, send)
            return
        given = _bearer(scope) or _query_token(scope)
        if given is not None and hmac.compare_digest(given.encode(), self.token):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        what = "no token was sent" if given is None else "the token is wrong"
        await send_error(send, 401, f"{what}: this server needs its token on every request", TOKEN_HINT,
                         extra_headers=[(b"www-authenticate", b"Bearer")])


class BodyLimit:
    def __init__(self, app: ASGIApp, max_upload_bytes: int) -> None:
        self.app = app
        self.max_upload_bytes = max_upload_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        multipart = headers.get(b"content-type", b"").startswith(b"multipart/")
        limit = self.max_upload_bytes if multipart else JSON_BODY_LIMIT
        length = headers.get(b"content-length")
        if length is None:
            if b"transfer-encoding" in headers:
                await send_error(send, 411, "the request has a body but no Content-Length",
                                 "send the body with its length (curl -F and browsers' FormData do)")
                return
            await self.app(scope, receive, send)   # no body
            return
        if not length.isdigit():
            await send_error(send, 400, "Content-Length is not a number", "send a valid Content-Length")
            return
        if int(length) > limit:
            await send_error(send, 413, *_too_large(int(length), limit, multipart))
            return
        await self.app(scope, _counted(receive, limit), send)


def _too_large(size: int, limit: int, multipart: bool) -> tuple[str, str]:
    if multipart:
        return (f"the upload is {size / 2**20:.1f} MB, over the server's limit of {limit / 2**20:.0f} MB",
                "put large files under one of the server's --data-root folders and pass their paths instead, or "
                "start the server with a larger --max-upload-mb")
    return (f"the request body is {size} bytes, over the limit of {limit} bytes for a JSON body",
            "send files as multipart/form-data uploads")


def _counted(receive: Receive, limit: int) -> Receive:
    seen = 0

    async def counting() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:   # more than Content-Length said: the server (h11) refuses that too
                raise ValueError("request body longer than its Content-Length")
        return message

    return counting


def _preflight(scope: Scope) -> bool:
    """A browser's CORS preflight carries no credentials by design; the CORS middleware answers it (only with
    `--cors-origin` set), and no route runs for it."""
    return scope["type"] == "http" and scope["method"] == "OPTIONS" and any(
        name == b"access-control-request-method" for name, _ in scope.get("headers", []))


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
    return None


def _query_token(scope: Scope) -> str | None:
    query = scope.get("query_string", b"").decode("latin-1")
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "token":
            return value
    return None


async def send_error(send: Send, status: int, error: str, hint: str,
                     extra_headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"error": error, "hint": hint}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               *(extra_headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
