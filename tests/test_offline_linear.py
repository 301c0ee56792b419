"""Every parser of the offline model is linear: fed 1 MB (a task, a cell output, a plan, a model's reply) it takes
at most 20 times what it takes on 100 KB, or under 0.1 s outright (on a loaded machine, at most 3 times from 1 MB
to 2 MB). A quadratic parser takes about 100 times as
long, and on a long paste minutes (a 100 KB task once took 11 minutes). bench/parsers.py prints the figures."""

from __future__ import annotations

import pytest

from bench.parser_cases import PARSERS, SHAPES
from bench.parsers import BAR, DOUBLING_BAR, FAST_SECONDS, doubling_ratio, measure, within_bar

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name", list(PARSERS))
def test_parser_time_grows_linearly_from_100_kb_to_1_mb(name):
    for shape in SHAPES:
        small, large, ratio = measure(name, shape, repeats=1)
        if not within_bar(large, ratio):                    # a lone slow run is noise: measure properly once
            small, large, ratio = measure(name, shape, repeats=3)
        if within_bar(large, ratio):
            continue
        assert large != float("inf"), f"{name} on {shape}: {small:.1f} s on 100 KB already"
        doubled = doubling_ratio(name, shape)               # the machine is shared: a second, less noisy opinion
        assert doubled < DOUBLING_BAR, (
            f"{name} on {shape}: {small * 1000:.1f} ms at 100 KB, {large * 1000:.1f} ms at 1 MB (ratio {ratio:.1f}, "
            f"bar {BAR:g} or under {FAST_SECONDS:g} s), and x{doubled:.1f} from 1 MB to 2 MB (bar {DOUBLING_BAR:g})")
