"""A run's files over HTTP: the listing, and each file, never anything outside the run directory.

A requested path goes through the run's `Workspace.resolve` (no `..`, no absolute path, no link that leads out)
and is opened with `safe_files` (no link followed at all, regular files only). The run's lock, the sandbox's
private folder and hidden files are not served. What executed code wrote is untrusted: every file is sent with
`Content-Security-Policy: sandbox` (a page or SVG it wrote runs in an opaque origin, never as the API's) and
`nosniff`; only report.html (the product's own, self-contained, with no script) is served as a web page, and
active types (HTML, SVG, XML, scripts) anywhere else are served as plain text.
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from fastapi.responses import StreamingResponse

from agentic_ds.errors import PathEscape
from agentic_ds.runs import safe_files
from agentic_ds.server.errors import ApiError
from agentic_ds.server.shapes import FileListOut, FileOut
from agentic_ds.workspace import Workspace

HIDDEN_TOP = frozenset({".lock", ".sandbox"})
MAX_LISTED = 5000
CHUNK = 256 * 1024
KIND_OF_NAME = {"report.html": "report", "report.md": "report", "analysis.ipynb": "notebook", "plan.md": "plan",
                "plan.json": "plan", "run.json": "record", "data_profile.json": "record", "events.jsonl": "events",
                "session.db": "session"}
KIND_OF_FOLDER = {"figures": "figure", "outputs": "output", "inputs": "input", "stages": "stage"}
ACTIVE_TYPES = frozenset({"text/html", "image/svg+xml", "application/xhtml+xml", "text/javascript",
                          "application/javascript", "text/xml", "application/xml"})
SAFE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "text/csv", "application/json",
                        "application/pdf"})


def list_files(run_dir: Path, run_id: str) -> FileListOut:
    entries = safe_files.walk(run_dir, skip_top=HIDDEN_TOP, limit=MAX_LISTED + 1)
    files = []
    for entry in entries[:MAX_LISTED]:
        if entry.suspicious or any(part.startswith(".") for part in entry.rel.split("/")):
            continue
        files.append(FileOut(path=entry.rel, size=entry.st.st_size, kind=_kind(entry.rel),  # type: ignore[arg-type]
                             url=f"/runs/{run_id}/files/{entry.rel}"))
    return FileListOut(files=sorted(files, key=lambda f: f.path), truncated=len(entries) > MAX_LISTED)


def _kind(rel: str) -> str:
    if rel in KIND_OF_NAME:
        return KIND_OF_NAME[rel]
    top, _, rest = rel.partition("/")
    if top == "stages" and rest.endswith((".py", "code.py")):
        return "code"
    return KIND_OF_FOLDER.get(top, "other")


def file_response(run_dir: Path, rel: str, *, download: bool = False) -> StreamingResponse:
    """The file `rel` of the run, streamed; 404 when it is not a servable file of the run."""
    path = _resolve(run_dir, rel)
    try:
        handle = safe_files.open_read(path, root=run_dir)
    except FileNotFoundError:
        raise ApiError(404, f"the run has no file {rel}", "GET the run's files listing for what it has") from None
    except OSError as exc:
        what = exc.what if isinstance(exc, safe_files.UnsafeFile) else (exc.strerror or "unreadable")
        raise ApiError(403, f"{rel} is {what}: not served", "only regular files of the run are served") from None
    size = os.fstat(handle.fileno()).st_size
    kind = _media_type(rel)
    headers = {"X-Content-Type-Options": "nosniff", "Content-Length": str(size),
               "Content-Security-Policy": "sandbox",
               "Cache-Control": "no-store"}
    if download or (kind not in SAFE_TYPES and not kind.startswith("text/")):
        headers["Content-Disposition"] = f'attachment; filename="{_ascii(Path(rel).name)}"'
    return StreamingResponse(_chunks(handle), media_type=kind, headers=headers)


def _resolve(run_dir: Path, rel: str) -> Path:
    parts = [part for part in rel.split("/") if part not in ("", ".")]
    if not parts or parts[0] in HIDDEN_TOP or any(part.startswith(".") and part != ".." for part in parts):
        raise ApiError(404, f"the run has no file {rel}", "hidden files and the sandbox's own folder are not served")
    try:
        return Workspace(run_dir).resolve(rel)
    except PathEscape as exc:
        raise ApiError(400, f"{rel}: {exc.message}", "give a path inside the run, as the files listing names it") \
            from None


def _media_type(rel: str) -> str:
    if rel == "report.html":
        return "text/html; charset=utf-8"
    if rel.endswith(".ipynb"):
        return "application/json"
    guessed = mimetypes.guess_type(rel)[0]
    if guessed in ACTIVE_TYPES:
        return "text/plain; charset=utf-8"   # written by executed code: shown as text, never run
    if guessed is not None and guessed.startswith("text/"):
        return guessed + "; charset=utf-8"
    if rel.endswith((".jsonl", ".md", ".py", ".log", ".txt")):
        return "text/plain; charset=utf-8"
    return guessed or "application/octet-stream"


def _chunks(handle: IO[bytes]) -> Iterator[bytes]:
    with handle:
        while chunk := handle.read(CHUNK):
            yield chunk


def _ascii(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
