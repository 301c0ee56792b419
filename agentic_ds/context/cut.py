"""Long texts cut to a length, saying so, in a form that whoever wrote them can still recognise.

The compaction guard cuts the newest tool call and result it has to show again after a summary; a model that
matches its own earlier call by the call's arguments (the offline coder) checks them with `cut_from`.
"""

from __future__ import annotations

from typing import Any

CUT_NOTE = "... [cut: {:,} characters in all]"


def cut_from(text: str, original: str) -> bool:
    """Whether `text` is `original`, or `original` cut here (a model that matches its own earlier call by its
    arguments, as the offline coder does, still recognises it)."""
    if text == original:
        return True
    note = CUT_NOTE.format(len(original))
    return text.endswith(note) and original.startswith(text[: -len(note)])


def shorter(value: Any, limit: int) -> Any:
    """`value` with every string longer than `limit` cut to its first `limit` characters, saying so."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + CUT_NOTE.format(len(value))
    if isinstance(value, dict):
        return {key: shorter(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        return [shorter(item, limit) for item in value]
    return value
