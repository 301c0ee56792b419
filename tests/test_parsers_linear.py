"""Every parser of user or model text outside `offline/` is linear on adversarial megabytes, and never crashes.

A linear parser takes ~10x longer on 10x the text; a quadratic one ~100x. The bound asserted is a
ratio, measured in the same process (bench/parsers.py records the full table in BENCHMARKS.md).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from agentic_ds.context.loop_guard import LoopGuard
from agentic_ds.report.coerce import read_json_object
from agentic_ds.testing.scripted import ScriptedLlm, call, text
from tests.support.adversarial import SHAPES, parsers

pytestmark = pytest.mark.slow

MAX_RATIO = 20
FLOOR_S = 0.002  # below this, timer noise swamps the ratio
SIZES = {"markup.render": (20_000, 200_000)}  # markdown-it: linear, but ~20 s per MB of brackets
DEFAULT_SIZES = (100_000, 1_000_000)


def cpu_seconds(parse: Callable[[str], Any], argument: str) -> float:
    start = time.process_time()
    parse(argument)
    return time.process_time() - start


def growth(parse: Callable[[str], Any], make: Callable[[int], str], small: int, large: int) -> float:
    """time(large) / time(small); measured again, best of three, before a high ratio is believed."""
    small_text, large_text = make(small), make(large)
    ratio = cpu_seconds(parse, large_text) / max(cpu_seconds(parse, small_text), FLOOR_S)
    if ratio <= MAX_RATIO:
        return ratio
    small_s = min(cpu_seconds(parse, small_text) for _ in range(3))
    return min(cpu_seconds(parse, large_text) for _ in range(3)) / max(small_s, FLOOR_S)


@pytest.fixture(scope="module")
def all_parsers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Callable[[str], Any]]:
    return parsers(tmp_path_factory.mktemp("run"))


with tempfile.TemporaryDirectory() as _names:   # the names only; never a file in the working directory
    PARSER_NAMES = list(parsers(Path(_names)))


@pytest.mark.parametrize("name", PARSER_NAMES)
def test_each_parser_grows_linearly_on_every_adversarial_shape(name: str, all_parsers) -> None:
    small, large = SIZES.get(name, DEFAULT_SIZES)
    ratios = {shape: growth(all_parsers[name], make, small, large) for shape, make in SHAPES.items()}

    assert max(ratios.values()) <= MAX_RATIO, {shape: round(r, 1) for shape, r in ratios.items() if r > MAX_RATIO}


def test_a_one_megabyte_answer_cell_and_error_pass_through_the_loop_guard_in_linear_time() -> None:
    """A coder that answers 1 MB of text, runs 1 MB of code and gets 1 MB of output, under the real plugin."""

    def seconds(size: int) -> float:
        blob = SHAPES["prose"](size)

        def run_python(code: str) -> dict:
            """Runs code."""
            return {"error": blob}

        model = ScriptedLlm(name="coder", script=[text(blob), call("run_python", code=blob), text("done")])
        app = App(name="loops", root_agent=LlmAgent(name="coder", model=model, tools=[run_python]),
                  plugins=[LoopGuard()])
        runner = Runner(app=app, session_service=InMemorySessionService())

        async def go() -> None:
            session = await runner.session_service.create_session(app_name="loops", user_id="u")
            message = types.Content(role="user", parts=[types.Part(text=blob)])  # a 1 MB task, too
            async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                pass

        import asyncio

        start = time.process_time()
        asyncio.run(go())
        return time.process_time() - start

    small, large = seconds(100_000), seconds(1_000_000)
    assert large / max(small, FLOOR_S) <= MAX_RATIO, (small, large)


def test_json_nested_thousands_deep_is_refused_not_a_crash(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    from agentic_ds.workflow.structured import repair_json

    assert repair_json(deep) is None
    (tmp_path / "out.json").write_text(deep)
    problems: list[str] = []
    assert read_json_object(tmp_path / "out.json", "outputs/out.json", problems, root=tmp_path) == {}
    assert problems == ["outputs/out.json is nested too deeply to read: ignored"]
