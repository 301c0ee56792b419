"""The pure loop detector: each kind, legitimate repetition, streaming, and linear cost."""

from __future__ import annotations

import random
import time

import pytest

from agentic_ds.context.loop_detector import (
    LoopDetector,
    PassageRepeatDetector,
    canonical_call,
    find_repeated_passage,
    normalise_error,
)

PASSAGE = (
    "I will load inputs/sales.csv with pandas, check the column types, and compute the monthly "
    "revenue per region before plotting it."
)


def test_passage_repeated_three_times_is_a_loop_and_twice_is_not():
    assert find_repeated_passage("Plan: " + (PASSAGE + " ") * 2) is None
    signal = find_repeated_passage("Plan: " + (PASSAGE + " ") * 3)
    assert signal is not None
    assert signal.kind == "repeated_text" and signal.count == 3
    assert "inputs/sales.csv" in signal.what


def test_whitespace_differences_between_copies_do_not_hide_a_loop():
    text = PASSAGE + "\n\n" + PASSAGE.replace(" ", "  ") + "\n" + PASSAGE
    assert find_repeated_passage(text).count == 3


def test_short_passages_are_below_the_threshold():
    assert find_repeated_passage("Done. " * 10) is None
    assert find_repeated_passage("x" * 60 + "\n" + "x" * 60 + "\n" + "x" * 60, min_chars=100) is None


def test_streamed_one_char_at_a_time_signals_while_the_response_is_still_coming():
    detector = PassageRepeatDetector(min_chars=100, repeats=3)
    text = (PASSAGE + " ") * 5
    first_signal_at = None
    for position, char in enumerate(text):
        if detector.feed(char) and first_signal_at is None:
            first_signal_at = position
    assert first_signal_at is not None
    assert first_signal_at < len(PASSAGE) * 3 + 5, "must fire on the third copy, not at the end"


def test_unpunctuated_passage_without_newlines_is_found_at_any_alignment():
    words = "thinking about the problem the data has three columns and the answer requires grouping them by category"
    text = "so " + " ".join([words] * 4) + " and then"
    assert find_repeated_passage(text).kind == "repeated_text"


@pytest.mark.parametrize(
    "text",
    [
        # the same table header above several tables
        "\n\n".join(
            "| region | month | revenue (EUR) | orders | average basket (EUR) | returning (%) |\n"
            "|---|---|---|---|---|---|\n"
            + "\n".join(f"| r{r} | 2024-0{t} | {100 + r * t}.5 | {r} | 12.{r} | {t}{r} |" for r in range(3))
            for t in range(1, 5)
        ),
        # code with repeated boilerplate lines
        "\n".join(
            f"plt.figure(figsize=(8, 5))\nplt.hist(df['{c}'].dropna(), bins=30)\n"
            f"plt.savefig('figures/{c}.png', dpi=120)\nplt.close()"
            for c in ["price", "qty", "margin", "tax"]
        ),
        # similar sentences with different numbers
        " ".join(
            f"In {2015 + k}, the average revenue per customer in the north region was {50 + k * 3.7:.2f} EUR."
            for k in range(10)
        ),
    ],
    ids=["table-headers", "code-boilerplate", "similar-sentences"],
)
def test_legitimate_repetition_is_not_a_loop(text):
    assert find_repeated_passage(text) is None
    detector = PassageRepeatDetector()
    assert not any(detector.feed(text[i : i + 5]) for i in range(0, len(text), 5))
    assert detector.finish() is None


def test_same_tool_call_in_a_row_with_any_argument_order():
    detector = LoopDetector(repeats=3)
    assert detector.on_tool_call("run_python", {"code": "x", "timeout": 5}) is None
    assert detector.on_tool_call("run_python", {"timeout": 5, "code": "x"}) is None
    signal = detector.on_tool_call("run_python", {"code": "x", "timeout": 5})
    assert signal.kind == "repeated_tool_call" and signal.count == 3
    assert signal.what == canonical_call("run_python", {"code": "x", "timeout": 5})


def test_the_same_calls_of_one_response_again_and_again_are_a_loop_in_any_order():
    """Two files read in one response, lost to compaction, read again: call by call the reads alternate."""
    detector = LoopDetector(repeats=3)
    a, b = ("read_file", {"path": "outputs/01-audit.json"}), ("read_file", {"path": "outputs/02-answer.json"})
    assert detector.on_tool_calls([a, b]) is None and detector.on_tool_calls([b, a]) is None
    signal = detector.on_tool_calls([a, b])
    assert signal is not None and signal.kind == "repeated_tool_call" and signal.count == 3
    assert "01-audit.json" in signal.what and "02-answer.json" in signal.what
    # another set of calls in between restarts the count; a subset is another step
    detector = LoopDetector(repeats=3)
    for calls in ([a, b], [a, b], [a], [a, b], [a, b], [b]):
        assert detector.on_tool_calls(calls) is None


def test_similar_but_different_tool_calls_are_not_a_loop():
    detector = LoopDetector(repeats=3)
    signals = [detector.on_tool_call("read_file", {"path": f"stages/01/cell_{i:03d}.out.txt"}) for i in range(10)]
    assert signals == [None] * 10
    # a different call in between restarts the count
    for args in ({"code": "a"}, {"code": "a"}, {"code": "b"}, {"code": "a"}, {"code": "a"}):
        assert detector.on_tool_call("run_python", args) is None


def test_same_error_in_a_row_ignores_line_numbers_in_tracebacks_and_success_resets():
    detector = LoopDetector(repeats=3)
    error = 'Traceback (most recent call last):\n  File "<cell>", line {n}\nKeyError: \'revenue\''
    assert detector.on_tool_result("run_python", error.format(n=3)) is None
    assert detector.on_tool_result("run_python", error.format(n=9)) is None
    signal = detector.on_tool_result("run_python", error.format(n=4))
    assert signal.kind == "repeated_error" and signal.count == 3 and "KeyError: 'revenue'" in signal.what
    assert detector.on_tool_result("run_python", None) is None
    assert detector.on_tool_result("run_python", error.format(n=1)) is None


def test_normalise_error_masks_addresses():
    assert normalise_error("<obj at 0x7f3a> failed") == normalise_error("<obj at 0x9b1c> failed")


def _prose(size: int) -> str:
    rng = random.Random(3)
    vocab = "the data revenue region model column value mean test trend file figure stage result".split()
    parts, total = [], 0
    while total < size:
        part = " ".join(rng.choice(vocab) for _ in range(rng.randint(6, 14))) + f" {rng.random():.5f}."
        if rng.random() < 0.3:
            part += "\n| a | " + str(rng.randint(0, 10**6)) + " |"
        parts.append(part)
        total += len(part) + 1
    return " ".join(parts)[:size]


def test_cost_is_linear_in_text_length():
    def per_char(text: str) -> float:
        best = min(_timed(text) for _ in range(3))
        return best / len(text)

    def _timed(text: str) -> float:
        start = time.process_time()
        assert find_repeated_passage(text) is None
        return time.process_time() - start

    small, large = _prose(40_000), _prose(400_000)
    ratio = per_char(large) / per_char(small)
    assert ratio < 3, f"time per char grew {ratio:.1f}x with 10x the text"
    assert per_char(large) * 1e6 < 1.0, "far slower than the 0.1 us/char benchmark bar"
