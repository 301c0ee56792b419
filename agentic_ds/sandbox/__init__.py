"""A Jupyter kernel inside bubblewrap; cell execution, capture, notebook recording."""

from agentic_ds.sandbox.capture import CellResult
from agentic_ds.sandbox.runner import CodeRunner

__all__ = ["CellResult", "CodeRunner"]
