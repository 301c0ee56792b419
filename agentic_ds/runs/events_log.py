"""`events.jsonl`: every event of a run, one JSON object per line, appended as it happens."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from agentic_ds import state as S
from agentic_ds.agent_names import ROOT
from agentic_ds.agent_table import round_keys, status_authors
from agentic_ds.llm.call_scope import current_branch
from agentic_ds.runs.safe_files import open_append, open_read
from agentic_ds.schema import StageRecord, read_records
from agentic_ds.workflow.stage_scope import stage_of_key

TEXT_CHARS = 2000
ARGS_CHARS = 300


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 20] + f" ...[{len(text) - limit + 20} more chars]"


class EventsLog:
    """Converts ADK events to plain records, writes them, and tracks the current stage for progress displays."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # A resumed run appends to the log of its earlier attempts; `count` is the lines the file holds.
        self.count, ends_cut = _lines_in(path)
        self._file: IO[str] = open_append(path, line_buffered=True)
        if ends_cut:   # a process killed mid-write left half a line: the next record starts on its own
            self._file.write("\n")
            self.count += 1
        # Stages may run at once, each on its own branch: the stage and iteration shown with an event are its
        # branch's (per-stage keys are stored as `<key>@<stage id>`, `workflow/stage_scope.py`).
        self._stages: dict[str | None, dict[str, Any]] = {}
        self._stage_count = 0
        self._iterations: dict[str | None, int] = {}
        # From the table of agents: control agents speak in status lines, and loops count their rounds under
        # these keys (the iteration shown with each event).
        self._status_authors = status_authors()
        self._round_keys = round_keys()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def write(self, record: dict[str, Any]) -> dict[str, Any]:
        self._file.write(json.dumps(record, default=str, ensure_ascii=False) + "\n")
        self.count += 1
        return record

    def append_notice(self, kind: str, text: str, author: str = ROOT) -> list[dict[str, Any]]:
        """A record that is not an ADK event (run-level warnings, errors, the final status)."""
        now = datetime.now(UTC).isoformat()
        record: dict[str, Any] = {"timestamp": now, "author": author, "kind": kind, "text": text}
        stage = self._stages.get(current_branch.get())
        if stage is not None and author != ROOT:
            record["stage"] = stage  # a notice from inside an agent (a model call waiting) belongs to its stage
        return [self.write(record)]

    def append(self, event: Any) -> list[dict[str, Any]]:
        """Log one ADK event (one record per tool call/result part, else one record)."""
        self._track(event)
        base: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(event.timestamp, tz=UTC).isoformat(),
            "author": event.author,
            "branch": event.branch,
        }
        stage, iteration = self._stages.get(event.branch), self._iterations.get(event.branch)
        if stage is not None:
            base["stage"] = stage
        if iteration is not None:
            base["iteration"] = iteration
        usage = getattr(event, "usage_metadata", None)
        if usage is not None and (usage.prompt_token_count or usage.candidates_token_count):
            base["usage"] = {
                "input_tokens": usage.prompt_token_count or 0,
                "output_tokens": usage.candidates_token_count or 0,
            }
        records = []
        parts = event.content.parts if event.content and event.content.parts else []
        for part in parts:
            if part.function_call:
                args = json.dumps(part.function_call.args or {}, default=str)
                records.append(
                    {**base, "kind": "tool_call", "tool": part.function_call.name, "args": _clip(args, ARGS_CHARS)}
                )
            elif part.function_response:
                response = json.dumps(part.function_response.response or {}, default=str)
                records.append({**base, "kind": "tool_result", "tool": part.function_response.name,
                                "text": _clip(response, TEXT_CHARS)})
        texts = [p.text for p in parts if p.text and not p.thought]
        if texts:
            text = "".join(texts)
            kind = "status" if event.author in self._status_authors else "text"
            if text.startswith("warning:"):
                kind = "warning"
            records.append({**base, "kind": kind, "text": _clip(text, TEXT_CHARS)})
        if event.actions and event.actions.compaction:
            records.append({**base, "kind": "compaction", "text": "older events summarised"})
        if event.error_message:
            records.append({**base, "kind": "error", "text": _clip(event.error_message, TEXT_CHARS)})
        if not records and event.actions and event.actions.state_delta:
            keys = ", ".join(sorted(event.actions.state_delta))
            records.append({**base, "kind": "state", "text": f"state: {keys}"})
        if "usage" in base and records:
            # Count usage once per event, not once per part.
            for extra in records[1:]:
                extra.pop("usage", None)
        return [self.write(r) for r in records]

    def _track(self, event: Any) -> None:
        delta = event.actions.state_delta if event.actions else None
        if not delta:
            return
        if S.STAGES in delta and delta[S.STAGES] is not None:
            self._stage_count = len(delta[S.STAGES])
        branch = event.branch
        for stored, value in delta.items():
            key = (stage_of_key(stored) or (stored, None))[0]
            if key == S.CURRENT_STAGE:
                if value is None:
                    self._stages.pop(branch, None)
                    self._iterations.pop(branch, None)
                else:
                    stages = read_records(StageRecord, delta.get(S.STAGES))
                    title = stages[value].title if value < len(stages) else ""
                    self._stages[branch] = {"index": value + 1, "count": self._stage_count, "title": title}
                    # Events outside the stages (the checks) show no iteration once stages run.
                    self._iterations = {b: n for b, n in self._iterations.items() if b in self._stages}
            elif key in self._round_keys and value:
                self._iterations[branch] = value


def _lines_in(path: Path) -> tuple[int, bool]:
    """How many lines the log holds already, and whether its last one lacks its newline."""
    try:
        handle = open_read(path)
    except FileNotFoundError:
        return 0, False
    lines, last = 0, b"\n"
    with handle:
        while chunk := handle.read(1 << 20):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines, last != b"\n"
