"""How `agentic-ds run` shows a run: live (TTY), plain lines (CI, pipes), quiet, or JSON lines.

Every renderer ends with the same three lines other tools parse (plain and quiet modes):

    run: <run directory>
    report: <report path, or "not written">
    status: <status>[ - <reason>]

Event lines never start with `status:`, so the last `status:` line is always the run's status.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from agentic_ds.agent_names import ROOT

if TYPE_CHECKING:
    from agentic_ds.config.models import RoleModels

_TEXT_LIMIT = 160
_WARNING_LIMIT = 300  # a warning names a file and says what is wrong with it: let it finish its sentence


def display_path(path: Path | str) -> str:
    """A path relative to the current directory when it is inside it, else absolute."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(absolute)


def status_line(status: str, reason: str | None) -> str:
    reason = " ".join((reason or "").split())
    return f"status: {status}" + (f" - {reason}" if reason else "")


def unpriced_note(unpriced: list[str] | tuple[str, ...]) -> str:
    """`; price unknown for M: its cost is not counted ...`: said on the run's first line."""
    if not unpriced:
        return ""
    return (f"; price unknown for {', '.join(unpriced)}: its cost is not counted and --max-cost cannot apply "
            f"(set model_options.{unpriced[0]}.price_per_mtok)")


def _short(text: Any, limit: int = _TEXT_LIMIT) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class PlainRenderer:
    """One line per notable event; works anywhere (CI logs, pipes, files)."""

    def __init__(self, out: IO[str] | None = None) -> None:
        self.out = out or sys.stdout
        self.reader_gone = False

    def line(self, text: str) -> None:
        if self.reader_gone:
            return
        try:
            print(text, file=self.out, flush=True)
        except BrokenPipeError:
            # `agentic-ds run ... | head`: the reader left; the run itself must go on and finish its record.
            self.reader_gone = True

    def models(self, models: RoleModels, unpriced: list[str] | tuple[str, ...] = ()) -> None:
        self.line(f"models: {models.describe()}{unpriced_note(unpriced)}")

    def run_started(self, run_dir: Path, inputs: list[str]) -> None:
        shown = ", ".join(inputs[:5]) + (f" and {len(inputs) - 5} more" if len(inputs) > 5 else "")
        self.line(f"run directory: {display_path(run_dir)} (inputs: {shown or 'none'})")

    def tree(self, parents: dict[str, str]) -> None:
        """The run's agent tree, once built (each agent -> its parent): only the live panel draws it."""

    def on_event(self, event: dict[str, Any]) -> None:
        text = self.format_event(event)
        if text:
            self.line(text)

    @staticmethod
    def format_event(event: dict[str, Any]) -> str | None:
        kind = event.get("kind")
        author = event.get("author") or "agent"
        who = f"[{author}" + (f" #{event['iteration']}" if event.get("iteration") else "") + "]"
        if kind == "stage":
            stage = event.get("stage") or {}
            where = f"stage {stage.get('index', '?')}/{stage.get('count', '?')}"
            return f"== {where}: {_short(stage.get('title') or event.get('text'))}"
        if kind == "tool_call":
            return f"{who} -> {event.get('tool')}({_short(event.get('args'), 100)})"
        if kind == "tool_result":
            return f"{who} <- {event.get('tool')}: {_short(event.get('text'), 100)}"
        if kind == "warning":
            text = str(event.get("text") or "").removeprefix("warning:").strip()
            return f"{who} warning: {_short(text, _WARNING_LIMIT)}"
        if kind == "error":
            return f"{who} error: {_short(event.get('text'))}"
        if kind == "waiting":
            return f"{who} {_short(event.get('text'), 240)}"
        if kind == "compaction":
            return f"{who} compacted history: {_short(event.get('text'))}"
        if kind in ("text", "status") and event.get("text"):
            return f"{who} {_short(event.get('text'))}"
        return None

    def finish(self, status: str, reason: str | None, run_dir: Path | None, report_path: Path | None) -> None:
        self.close()
        if run_dir is not None:
            self.line(f"run: {display_path(run_dir)}")
            self.line(f"report: {display_path(report_path) if report_path else 'not written'}")
        self.line(status_line(status, reason))

    def close(self) -> None:
        """Stop any live display (before errors or final lines are printed)."""


class QuietRenderer(PlainRenderer):
    """Only the final lines: run directory, report, status."""

    def models(self, models: RoleModels, unpriced: list[str] | tuple[str, ...] = ()) -> None:
        pass

    def run_started(self, run_dir: Path, inputs: list[str]) -> None:
        pass

    def on_event(self, event: dict[str, Any]) -> None:
        pass


class JsonRenderer(PlainRenderer):
    """One JSON object per line: models, run_started, every event, then run_finished."""

    def emit(self, obj: dict[str, Any]) -> None:
        self.line(json.dumps(obj, default=str, ensure_ascii=False))

    def models(self, models: RoleModels, unpriced: list[str] | tuple[str, ...] = ()) -> None:
        self.emit(
            {
                "kind": "models",
                "models": {role: choice.spec for role, choice in models.choices.items()},
                "reason": models.reason,
                "unpriced": list(unpriced),
            }
        )

    def run_started(self, run_dir: Path, inputs: list[str]) -> None:
        self.emit({"kind": "run_started", "run_dir": str(run_dir), "inputs": inputs})

    def on_event(self, event: dict[str, Any]) -> None:
        self.emit(event)

    def finish(self, status: str, reason: str | None, run_dir: Path | None, report_path: Path | None) -> None:
        self.emit(
            {
                "kind": "run_finished",
                "status": status,
                "reason": reason or "",
                "run_dir": str(run_dir) if run_dir else None,
                "report_path": str(report_path) if report_path else None,
            }
        )


class LiveRenderer(PlainRenderer):
    """A live panel on a terminal: the agent tree with the active agent, stage i of n, review
    iteration, tokens so far; event lines scroll above it."""

    def __init__(self, out: IO[str] | None = None) -> None:
        super().__init__(out)
        from rich.console import Console
        from rich.live import Live

        self.console = Console(file=self.out, highlight=False)
        self.parents: dict[str, str] = {}   # the run's tree, once built (`tree`); unknown authors hang off the root
        self.seen: list[str] = []
        self.active: str | None = None
        self.stage: dict[str, Any] | None = None
        self.under_way: dict[str, dict[str, Any]] = {}   # stages running at once, by branch
        self.iteration: int | None = None
        self.tokens_in = 0
        self.tokens_out = 0
        self.waiting: str | None = None     # a model call being retried or slow to answer, until the next event
        self.started = time.monotonic()
        self.live = Live(console=self.console, get_renderable=self.render, refresh_per_second=4, transient=True)
        self.live.start()

    def line(self, text: str) -> None:
        self.console.print(text, markup=False, soft_wrap=True)

    def tree(self, parents: dict[str, str]) -> None:
        self.parents = dict(parents)

    def on_event(self, event: dict[str, Any]) -> None:
        author = event.get("author")
        if author and author not in (ROOT, "user"):
            self.active = author
            if author not in self.seen:
                self.seen.append(author)
        branch = str(event.get("branch") or "")
        if event.get("stage"):
            self.stage = event["stage"]
            if branch:
                self.under_way[branch] = event["stage"]
        elif branch in self.under_way and event.get("kind") == "status":
            del self.under_way[branch]   # a stage's verdict comes without the stage: it ended
        if event.get("iteration"):
            self.iteration = event["iteration"]
        self.waiting = _short(event.get("text"), 200) if event.get("kind") == "waiting" else None
        usage = event.get("usage") or {}
        self.tokens_in += int(usage.get("input_tokens") or 0)
        self.tokens_out += int(usage.get("output_tokens") or 0)
        if event.get("kind") not in ("text", "tool_result"):  # the panel shows activity; keep the log short
            super().on_event(event)
        self.live.refresh()

    def render(self) -> Any:
        from rich.console import Group, RenderableType
        from rich.text import Text
        from rich.tree import Tree

        tree = Tree(Text(ROOT, style="bold"))
        nodes: dict[str, Any] = {ROOT: tree}

        def node(name: str) -> Any:
            if name not in nodes:
                parent = node(self.parents.get(name, ROOT))
                style = "bold green" if name == self.active else "dim"
                nodes[name] = parent.add(Text(("> " if name == self.active else "") + name, style=style))
            return nodes[name]

        for name in self.seen:
            node(name)
        facts = []
        shown = list(self.under_way.values()) or ([self.stage] if self.stage else [])
        if shown:
            facts.append(("stages " if len(shown) > 1 else "stage ") + " and ".join(
                f"{s.get('index', '?')}/{s.get('count', '?')}: {s.get('title', '')}" for s in shown))
        if self.iteration:
            facts.append(f"iteration {self.iteration}")
        facts.append(f"tokens {self.tokens_in:,} in / {self.tokens_out:,} out")
        facts.append(f"{int(time.monotonic() - self.started)} s")
        lines: list[RenderableType] = [tree, Text(" · ".join(facts), style="cyan")]
        if self.waiting:
            lines.append(Text(self.waiting, style="yellow"))
        return Group(*lines)

    def close(self) -> None:
        if self.live.is_started:
            self.live.stop()


def make_renderer(
    *, quiet: bool, as_json: bool, out: IO[str] | None = None
) -> PlainRenderer:
    """JSON beats quiet; otherwise live on a terminal and plain lines elsewhere (CI, pipes)."""
    stream = out or sys.stdout
    if as_json:
        return JsonRenderer(stream)
    if quiet:
        return QuietRenderer(stream)
    if stream.isatty() and os.environ.get("TERM") != "dumb" and not os.environ.get("CI"):
        return LiveRenderer(stream)
    return PlainRenderer(stream)
