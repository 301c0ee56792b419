"""Renderers: which one is chosen, what the live panel shows, and that the final lines stay parseable."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from agentic_ds.cli.progress import (
    JsonRenderer,
    LiveRenderer,
    PlainRenderer,
    QuietRenderer,
    display_path,
    make_renderer,
)
from tests.tree_shapes import ORCHESTRATED, SIMPLE, parents_of


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_renderer_choice(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert type(make_renderer(quiet=False, as_json=False, out=io.StringIO())) is PlainRenderer
    assert type(make_renderer(quiet=True, as_json=False, out=FakeTty())) is QuietRenderer
    assert type(make_renderer(quiet=True, as_json=True, out=FakeTty())) is JsonRenderer
    live = make_renderer(quiet=False, as_json=False, out=FakeTty())
    assert type(live) is LiveRenderer
    live.close()
    monkeypatch.setenv("CI", "true")
    assert type(make_renderer(quiet=False, as_json=False, out=FakeTty())) is PlainRenderer


def test_status_events_never_look_like_the_final_status_line():
    out = io.StringIO()
    renderer = PlainRenderer(out)
    renderer.on_event({"kind": "status", "author": "agentic_ds", "text": "status: completed"})
    renderer.on_event({"kind": "text", "author": "x", "text": "line one\nline two " + "y" * 300})
    first, second = out.getvalue().splitlines()
    assert first == "[agentic_ds] status: completed"
    assert second.startswith("[x] line one line two y") and len(second) < 200 and second.endswith("…")


def test_live_panel_shows_tree_active_agent_stage_iteration_and_tokens():
    out = FakeTty()
    renderer = LiveRenderer(out)
    renderer.tree(parents_of(ORCHESTRATED))
    renderer.on_event(
        {"kind": "text", "author": "plan_maker", "text": "plan", "usage": {"input_tokens": 1000, "output_tokens": 50}}
    )
    renderer.on_event(
        {
            "kind": "stage",
            "author": "stage_orchestrator",
            "text": "",
            "stage": {"index": 2, "count": 3, "title": "Model"},
        }
    )
    renderer.on_event(
        {"kind": "tool_call", "author": "coding_agent", "tool": "run_python", "args": "code=1", "iteration": 2,
         "usage": {"input_tokens": 500, "output_tokens": 25}}
    )
    shown = io.StringIO()
    snapshot = Console(file=shown, width=100, color_system=None)
    snapshot.print(renderer.render())
    panel = shown.getvalue()
    for expected in ("agentic_ds", "planning_loop", "plan_maker", "> coding_agent", "implementation_loop",
                     "stage 2/3: Model", "iteration 2", "tokens 1,500 in / 75 out"):
        assert expected in panel
    renderer.finish("completed", "", Path("workdirs/r"), None)
    assert out.getvalue().rstrip().splitlines()[-1] == "status: completed"
    assert not renderer.live.is_started


def test_live_panel_shows_every_stage_under_way_until_each_ends():
    renderer = LiveRenderer(FakeTty())
    for index in (1, 2):
        renderer.on_event({"kind": "status", "author": "stage_orchestrator", "branch": f"stage_orchestrator.s{index}",
                           "text": f"stage {index}/4: Part {index}",
                           "stage": {"index": index, "count": 4, "title": f"Part {index}"}})

    def panel() -> str:
        shown = io.StringIO()
        snapshot = Console(file=shown, width=120, color_system=None)
        snapshot.print(renderer.render())
        return shown.getvalue()

    assert "stages 1/4: Part 1 and 2/4: Part 2" in panel()
    renderer.on_event({"kind": "status", "author": "stage_orchestrator", "branch": "stage_orchestrator.s1",
                       "text": "stage 1/4 approved"})
    assert "stage 2/4: Part 2" in panel() and "Part 1" not in panel()
    renderer.close()


def test_live_panel_draws_the_simple_tree():
    renderer = LiveRenderer(FakeTty())
    renderer.tree(parents_of(SIMPLE))
    renderer.on_event({"kind": "text", "author": "answer_validator", "text": "ok"})
    renderer.close()
    shown = io.StringIO()
    snapshot = Console(file=shown, width=100, color_system=None)
    snapshot.print(renderer.render())
    assert "simple_loop" in shown.getvalue() and "implementation_loop" not in shown.getvalue()


def test_display_path_relative_inside_cwd_absolute_outside(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "workdirs" / "r") == "workdirs/r"
    assert display_path("/") == "/"


def test_a_reader_that_goes_away_does_not_stop_the_run():
    class ClosedPipe(io.StringIO):
        def write(self, _text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    renderer = PlainRenderer(ClosedPipe())
    renderer.on_event({"kind": "text", "author": "a", "text": "hello"})
    renderer.finish("completed", "", None, None)  # no exception
    assert renderer.reader_gone


WAITING = {"kind": "waiting", "author": "coding_agent",
           "text": "coding_agent: waiting for openai/x (attempt 2/5, retrying in 4 s: HTTP 429 rate limited)"}


def test_a_waiting_model_call_shows_in_every_renderer():
    plain = io.StringIO()
    PlainRenderer(plain).on_event(WAITING)
    assert plain.getvalue().strip() == f"[coding_agent] {WAITING['text']}"
    lines = io.StringIO()
    JsonRenderer(lines).on_event(WAITING)
    assert '"kind": "waiting"' in lines.getvalue() and "retrying in 4 s" in lines.getvalue()
    renderer = LiveRenderer(FakeTty())
    renderer.on_event(WAITING)
    shown = io.StringIO()
    snapshot = Console(file=shown, width=140, color_system=None)
    snapshot.print(renderer.render())
    assert WAITING["text"] in shown.getvalue() and "> coding_agent" in shown.getvalue()
    renderer.on_event({"kind": "text", "author": "coding_agent", "text": "done"})  # the answer came: the wait is over
    shown = io.StringIO()
    snapshot = Console(file=shown, width=140, color_system=None)
    snapshot.print(renderer.render())
    assert "waiting for" not in shown.getvalue()
    renderer.close()
