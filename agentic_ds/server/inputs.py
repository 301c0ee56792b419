"""A new run's inputs over HTTP: paths on the server, confined to its `--data-root` folders, and uploaded files,
kept in a private staging folder until the run directory holds its copy.

A path is relative to a data root (the first that has it) or absolute inside one. `..`, absolute paths outside
every root, and links that lead out of the roots (the path itself, a folder on the way, or any file inside a given
folder) are refused before anything is copied. An upload keeps only the last part of its file name.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from fastapi import UploadFile

from agentic_ds.errors import PathEscape
from agentic_ds.runs import safe_files
from agentic_ds.runs.workdir import PlannedFile
from agentic_ds.server.errors import ApiError
from agentic_ds.workspace import Workspace

CHUNK = 1024 * 1024
UPLOAD_FOLDER = "uploads"   # the name uploads take when a data-root file has the same name (inputs/uploads/...)


def data_path(given: str, roots: tuple[Path, ...]) -> Path:
    """The server-side file or folder `given` names, inside a data root; 400 for anything else."""
    if not roots:
        raise ApiError(400, f"the path {given!r} cannot be read: this server has no data roots",
                       "upload the files instead, or start the server with --data-root DIR")
    text = given.strip()
    shown = ", ".join(str(root) for root in roots)
    if not text or "\x00" in text:
        raise ApiError(400, f"{given!r} is not a path", f"give a path under a data root ({shown})")
    path = Path(text)
    if ".." in path.parts:
        raise ApiError(400, f"'..' is not allowed in input paths: {text!r}", f"give a path under a data root ({shown})")
    if path.is_absolute():
        inside = [root for root in roots if path == root or root in path.parents]
        if not inside:
            raise ApiError(400, f"{text} is outside the server's data roots", f"give a path under one of: {shown}")
        return _confined(inside[0], path.relative_to(inside[0]).as_posix() or ".", text, shown)
    for root in roots:
        if os.path.lexists(root / path):
            return _confined(root, text, text, shown)
    raise ApiError(400, f"input not found: {text} is in none of the server's data roots",
                   f"give a path relative to a data root ({shown}), or upload the file")


def _confined(root: Path, rel: str, given: str, shown: str) -> Path:
    try:
        return root if rel == "." else Workspace(root).resolve(rel)
    except PathEscape:
        raise ApiError(400, f"input {given} leads outside the server's data roots (a symbolic link)",
                       f"give a path whose real location is under one of: {shown}") from None


def check_sources(planned: list[PlannedFile], allowed: list[Path]) -> None:
    """Every file the run would copy really lies under an allowed folder (a link inside a given folder can point
    anywhere: it is refused, not followed out)."""
    for item in planned:
        real = item.source.resolve()
        if not any(real == root or root in real.parents for root in allowed):
            raise ApiError(400, f"input {item.given}: {item.source.name} is a link that leads outside the server's "
                           "data roots", "remove the link, or put the file itself under the data root")


class Staging:
    """A private folder for one request's uploads, removed when the request is done."""

    def __init__(self, state_dir: Path) -> None:
        self.base = state_dir / "uploads" / secrets.token_hex(8)
        self.folder = self.base / UPLOAD_FOLDER
        self.folder.mkdir(parents=True)

    async def save(self, uploads: list[UploadFile]) -> list[Path]:
        paths: list[Path] = []
        for upload in uploads:
            name = _file_name(upload.filename or "")
            target = self.folder / name
            if target in paths:
                raise ApiError(400, f"two uploaded files are named {name}",
                               "rename one, or put them in folders under a data root and pass the paths")
            with safe_files.create_new(target, root=self.folder, text=False) as out:
                while chunk := await upload.read(CHUNK):
                    out.write(chunk)
            paths.append(target)
        return paths

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def _file_name(name: str) -> str:
    """The last part of an uploaded file's name; 400 when nothing usable is left."""
    last = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not last or last in (".", "..") or not last.isprintable() or len(last) > 255:
        raise ApiError(400, f"an uploaded file has no usable name ({name!r})", "give each uploaded file a file name")
    return last
