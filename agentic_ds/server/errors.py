"""Errors over HTTP: a status code and `{"error": ..., "hint": ...}`, the same words as the CLI's `error:` and
`hint:` lines (`agentic_ds/errors.py`), so a page shows what the terminal would have said."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from agentic_ds.errors import AgenticDSError

DOCS_HINT = "see the API at /docs (or docs/api.md)"


class ApiError(Exception):
    def __init__(self, status: int, error: str, hint: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.hint = hint

    @classmethod
    def of(cls, exc: AgenticDSError, status: int = 400) -> ApiError:
        """The CLI's error as an HTTP one."""
        return cls(status, exc.message, exc.hint)


def body(error: str, hint: str | None, **extra: Any) -> dict[str, Any]:
    return {"error": error, "hint": hint, **extra}


def not_found(run_id: str) -> ApiError:
    return ApiError(404, f"no run {run_id!r} in this server's work directory", "GET /runs lists the runs")


def install(app: FastAPI) -> None:
    """Every error the app raises answers in the API's shape (ADK's own 404s keep their `detail` too)."""

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(body(exc.error, exc.hint), status_code=exc.status)

    @app.exception_handler(AgenticDSError)
    async def product_error(_request: Request, exc: AgenticDSError) -> JSONResponse:
        return JSONResponse(body(exc.message, exc.hint), status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path"))
        message = f"{where or 'the request'}: {first.get('msg', 'is not valid')}"
        return JSONResponse(body(message, DOCS_HINT, detail=jsonable(exc.errors())), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        hint = DOCS_HINT if exc.status_code in (404, 405) else None
        return JSONResponse(body(str(exc.detail), hint, detail=exc.detail), status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))


def jsonable(errors: Any) -> Any:
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder(errors, custom_encoder={Exception: str})
