"""`profile_data`: the profiler (`agentic_ds.profiling`) as a tool, on any data file of the run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agentic_ds.errors import AgenticDSError
from agentic_ds.tools.files import error_result, no_such_file
from agentic_ds.workspace import Workspace


def make_profile_tool(workspace: Workspace, *, output_cap: int) -> Callable[..., Any]:
    async def profile_data(path: str) -> dict[str, Any]:
        """Profile a data file (CSV, TSV, Parquet, JSON, Excel): rows, and per column the type, kind,
        nulls, distinct values, range, mean and most frequent values, plus a few sample rows.

        Args:
            path: relative to the run directory, e.g. 'inputs/sales.csv' or 'outputs/clean.csv'.

        Returns:
            {"path", "rows", "columns", "profile"} (a compact text) or {"error", "hint"}.
        """
        from agentic_ds.profiling import DataProfile, profile_file, render_profile

        try:
            full = workspace.resolve(path)
        except AgenticDSError as exc:
            return error_result(exc)
        if not full.is_file():
            return no_such_file(path)
        profile = await asyncio.to_thread(profile_file, full, display_name=workspace.rel(full))
        if profile.error:
            return {"error": f"{workspace.rel(full)}: {profile.error}"}
        return {
            "path": profile.path,
            "rows": profile.rows,
            "columns": len(profile.columns),
            "profile": render_profile(DataProfile(files=[profile]), max_chars=output_cap),
        }

    return profile_data
