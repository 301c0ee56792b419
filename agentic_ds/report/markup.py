"""Markdown written by agents -> safe HTML, and files -> data URIs.

The agent's markdown is untrusted: raw HTML is escaped, never passed through, link schemes are
limited by markdown-it's `validateLink` (no `javascript:`, `vbscript:`, `file:`), and images are
embedded only when they are files inside the run directory; any other image becomes its alt text,
so the report never loads anything from the network or from outside the run.
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import Markup, escape

from agentic_ds.errors import PathEscape
from agentic_ds.runs.safe_files import read_bytes
from agentic_ds.workspace import Workspace

_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
                ".svg": "image/svg+xml", ".webp": "image/webp"}
MAX_EMBED_BYTES = 20 * 1024 * 1024


def data_uri(file: Path, root: Path) -> str | None:
    """`data:image/png;base64,...` for an image file under `root`; None if it is not an image, too large,
    or not a plain file (a link planted by executed code is never followed)."""
    mime = _IMAGE_TYPES.get(file.suffix.lower()) or mimetypes.guess_type(file.name)[0]
    if not mime or not mime.startswith("image/"):
        return None
    try:
        data = read_bytes(file, root=root, limit=MAX_EMBED_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(data) > MAX_EMBED_BYTES:
        return None
    payload = base64.b64encode(data).decode("ascii")
    return f"data:{mime};base64,{payload}"


class MarkdownRenderer:
    """Renders agent markdown for one run directory (images resolve against it)."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self.root = workspace.root
        self._md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
        self._md.enable(["table", "strikethrough"])
        self._md.add_render_rule("image", self._image_rule())
        self._md.add_render_rule("link_open", _render_link_open)

    def render(self, text: str, *, top_heading: int | None = None) -> Markup:
        """HTML for `text`. With `top_heading=2`, the text's largest heading becomes `<h2>` and the
        rest keep their relative levels, so agent markdown nests under the page's own headings."""
        env: EnvType = {}
        tokens = self._md.parse(text or "", env)
        levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
        if top_heading is not None and levels:
            shift = top_heading - min(levels)
            for token in tokens:
                if token.type in ("heading_open", "heading_close"):
                    token.tag = f"h{max(1, min(6, int(token.tag[1]) + shift))}"
        # markdown-it escapes everything it does not itself produce, since html=False.
        return Markup(self._md.renderer.render(tokens, self._md.options, env))  # noqa: S704

    def _image_rule(self) -> Any:
        def render_image(
            renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
        ) -> str:
            token = tokens[idx]
            alt = escape("".join(child.content for child in token.children or []))
            src = str(token.attrGet("src") or "")
            uri = self._embed(src)
            if uri is None:
                return f'<span class="missing-image">[image not embedded: {alt or escape(src)}]</span>'
            return f'<img src="{uri}" alt="{alt}">'

        return render_image

    def _embed(self, src: str) -> str | None:
        if not src or ":" in src.split("/", 1)[0]:  # a URL scheme (http:, data:, file:...): never fetched
            return None
        try:
            # markdown-it percent-encodes link targets: `my fig.png` arrives as `my%20fig.png`.
            file = self._workspace.resolve(unquote(src.split("#", 1)[0].split("?", 1)[0]))
        except PathEscape:
            return None
        return data_uri(file, self._workspace.root)


def _render_link_open(
    renderer: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    """Links open outside the report and tell the target nothing about it."""
    token = tokens[idx]
    if str(token.attrGet("href") or "").startswith(("http://", "https://")):
        token.attrSet("rel", "noopener noreferrer")
    return renderer.renderToken(tokens, idx, options, env)
