"""`file_analyzer`: profiles every input with DuckDB before planning. Deterministic, no LLM."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.runs.safe_files import write_json
from agentic_ds.workflow.loops import status_event
from agentic_ds.workspace import Workspace

PROFILE_PROMPT_CHARS = 4000


class FileAnalyzer(BaseAgent):
    """Writes `data_profile.json`; puts a compact rendering and the problems into state."""

    workspace: Workspace

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        from agentic_ds.profiling import profile_inputs, render_profile

        files = self.workspace.input_files()
        # DuckDB scans block; keep the event loop (progress, signals) responsive.
        profile = await asyncio.to_thread(profile_inputs, files, base=self.workspace.root)
        data = profile.to_json()
        write_json(self.workspace.file("data_profile.json"), data)
        problems = list(profile.problems)
        if not files:
            problems.append("no input files were given: pass data with --files")
        readable = sum(1 for f in profile.files if not f.error)
        summary = f"profiled {readable} of {len(files)} input file(s)"
        if problems:
            summary += "; problems: " + "; ".join(problems)
        yield status_event(
            ctx,
            self.name,
            summary,
            **{S.DATA_PROFILE: render_profile(profile, max_chars=PROFILE_PROMPT_CHARS), S.INPUT_PROBLEMS: problems},
        )

