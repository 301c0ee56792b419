"""`DeclaredTool`: an ADK function tool whose declaration is built once."""

from __future__ import annotations

from google.adk.tools import FunctionTool
from google.genai import types


class DeclaredTool(FunctionTool):
    """A function tool whose declaration is built once. ADK hands out a deep copy per request because a
    toolset prefix may rename it; our tools are never prefixed and nothing edits a declaration."""

    _declaration: types.FunctionDeclaration | None = None

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        if self._declaration is None:
            self._declaration = super()._get_declaration()
        return self._declaration
