"""`file_analyzer`: profiles every input with DuckDB before planning. Deterministic, no LLM.

Inputs it cannot read are skipped, each with the profiler's reason: one warning line per file in the
live output, the list in state (run.json `skipped_inputs`, the reports) and one run warning. When no
input can be read at all, the run stops here with an `InputError`, before any model is called.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from google.adk.agents import BaseAgent, InvocationContext
from google.adk.events import Event
from typing_extensions import override

from agentic_ds import state as S
from agentic_ds.errors import InputError
from agentic_ds.runs.safe_files import write_json
from agentic_ds.state import SessionState, typed
from agentic_ds.workflow.loops import status_event
from agentic_ds.workspace import Workspace

PROFILE_PROMPT_CHARS = 4000
LISTED_SKIPS = 20  # live-output lines, one per skipped input; run.json and report.md hold them all
NAMED_IN_WARNING = 5
NOTHING_READABLE_HINT = (
    "agentic-ds reads CSV/TSV (in any common encoding), Parquet, JSON and Excel .xlsx; fix the files"
)


class FileAnalyzer(BaseAgent):
    """Writes `data_profile.json`; puts a compact rendering, the problems and the skipped inputs into state."""

    workspace: Workspace

    @override
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        from agentic_ds.profiling import profile_inputs, render_profile

        state = typed(ctx.session.state)
        files = self.workspace.input_files()
        refused = [(item["path"], item["reason"]) for item in state.get(S.SKIPPED_INPUTS) or []]
        # DuckDB scans block; keep the event loop (progress, signals) responsive.
        profile = await asyncio.to_thread(profile_inputs, files, base=self.workspace.root, refused=refused)
        write_json(self.workspace.file("data_profile.json"), profile.to_json())
        skipped = profile.skipped()
        problems = list(profile.problems)
        if not files and not refused:
            problems.append("no input files were given: pass data with --files")
        for item in skipped[:LISTED_SKIPS]:
            yield status_event(ctx, self.name, f"warning: skipped {item['path']}: {item['reason']}")
        if len(skipped) > LISTED_SKIPS:
            yield status_event(
                ctx, self.name, f"warning: and {len(skipped) - LISTED_SKIPS} more skipped inputs (run.json lists them)"
            )
        readable = sum(1 for f in profile.files if not f.error) + len(profile.not_profiled)
        total = len(profile.files) + len(profile.not_profiled)
        summary = f"profiled {readable - len(profile.not_profiled)} of {total} input file(s)"
        if skipped:
            summary += f"; skipped {len(skipped)} that cannot be read"
        delta: SessionState = {
            S.DATA_PROFILE: render_profile(profile, max_chars=PROFILE_PROMPT_CHARS),
            S.INPUT_PROBLEMS: problems,
            S.SKIPPED_INPUTS: skipped,
            S.WARNINGS: list(state.get(S.WARNINGS) or []) + _warnings(skipped, total, len(profile.not_profiled)),
        }
        yield status_event(ctx, self.name, summary, **delta)
        if total and not readable:
            shown = "; ".join(f"{item['path']}: {item['reason']}" for item in skipped[:NAMED_IN_WARNING])
            raise InputError(f"no input file can be read ({len(skipped)} tried): {shown}", hint=NOTHING_READABLE_HINT)


def _warnings(skipped: list[dict[str, str]], total: int, not_profiled: int) -> list[str]:
    """Run warnings: the answer rests on fewer inputs than the user gave."""
    warnings = []
    if skipped:
        names = ", ".join(item["path"] for item in skipped[:NAMED_IN_WARNING])
        more = f" and {len(skipped) - NAMED_IN_WARNING} more" if len(skipped) > NAMED_IN_WARNING else ""
        warnings.append(
            f"{len(skipped)} of {total} input files were skipped because they cannot be read: {names}{more}"
        )
    if not_profiled:
        warnings.append(
            f"{not_profiled} of {total} input files were not profiled (the bound on files profiled per run); "
            "the agents saw only their names"
        )
    return warnings

