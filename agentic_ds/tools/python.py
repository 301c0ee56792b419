"""`run_python`: execute a cell in the stage's sandboxed kernel and tell the model what happened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.adk.tools import ToolContext

from agentic_ds import state
from agentic_ds.errors import AgenticDSError
from agentic_ds.sandbox.runner import CodeRunner
from agentic_ds.tools.files import error_result

SUMMARY_TAIL_CHARS = 1500


def make_run_python(runner: CodeRunner, *, output_cap: int) -> Callable[..., Any]:
    async def run_python(code: str, tool_context: ToolContext) -> dict[str, Any]:
        """Run Python code in this stage's Jupyter kernel; variables persist between calls of the stage.

        The working directory is the run directory: read data from 'inputs/...', write tables and
        files to 'outputs/...'. Figures shown with plt.show() are saved under 'figures/'. Only
        'outputs/', 'figures/' and '/tmp' are writable. There is no network access. Each call has a
        time limit; output is cut to its head and tail (the full output is kept in a file whose path
        is given). A new stage starts with a fresh kernel, so
        load what you need from files.

        Args:
            code: Python source, run as one notebook cell.

        Returns:
            {"ok", "output", "figures", "files", "error"}: output holds stdout, tables, notes and
            the error with a trimmed traceback.
        """
        try:
            result = await runner.run(code)
        except AgenticDSError as exc:
            return {"ok": False, **error_result(exc)}
        previous = tool_context.state.get(state.LAST_EXECUTION) or {}
        output = result.for_model(output_cap)
        summary = state.ExecutionSummary(
            ok=result.ok,
            cells=int(previous.get("cells", 0)) + 1,
            error=result.error[:SUMMARY_TAIL_CHARS],
            output_tail=output[-SUMMARY_TAIL_CHARS:],
            files=[*result.files, *result.figures],
        )
        tool_context.state[state.LAST_EXECUTION] = summary.model_dump()
        return {
            "ok": result.ok,
            "output": output,
            "figures": result.figures,
            "files": result.files,
            "error": result.error.split("\n", 1)[0] if result.error else "",
        }

    return run_python
